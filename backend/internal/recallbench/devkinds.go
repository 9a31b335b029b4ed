package recallbench

// The development set's own kinds (Config.Dev): the tuned set's
// single-hop and multi-hop kinds, with temporal and preference kinds of
// other domains whose questions share no content word, or one, with the
// evidence (as people ask: "what should I put on for the evening?" of "I
// could listen to cello suites all night"). Written for developing recall
// on questions of that kind without the held-out set: none of its kinds,
// domains or templates were looked at.

var (
	devTeas        = list(`smoky lapsang souchong|jasmine pearls|rooibos with vanilla|genmaicha|builder's Assam|white peony`)
	devCheeses     = list(`aged Comté|Stinking Bishop|crumbly Wensleydale|Gorgonzola dolce|smoked Scamorza|Manchego`)
	devInstruments = list(`cello suites|slide guitar blues|harpsichord sonatas|steel pan calypso|accordion waltzes|koto duets`)
	devArt         = list(`Dutch still lifes|brutalist photography|Japanese woodblock prints|Pre-Raphaelite paintings|Bauhaus posters`)
	devBreakfasts  = list(`shakshuka|kippers on toast|congee with pickles|huevos rancheros|bircher muesli|a full Ulster fry`)
	devDances      = list(`lindy hop|Scottish ceilidh|salsa rueda|Irish set dancing|West Coast swing|Balfolk`)
	devColours     = list(`mustard yellow|forest green|burnt orange|dusty pink|navy and cream|charcoal grey`)
	devWalks       = list(`coastal cliff paths|canal towpaths|ancient woodland trails|moorland ridges|river estuary loops`)
	devCrafts      = list(`hand-knitted socks|raku pottery|linocut cards|macramé hangers|quilted cushions`)
	devSnacks      = list(`salted liquorice|wasabi peas|pork scratchings|dark chocolate ginger|sour cherry gummies`)
	devHaircuts    = list(`a tight fade|a shaggy mullet|a blunt bob|a buzz cut|curtain bangs|a pixie crop|cornrows|a wolf cut|an undercut|a finger wave|a mohawk|a French crop|box braids|a quiff|a side part|a pompadour|a shag|a bowl cut|a slicked-back look`)
	devExhibits    = list(`the Ming vases|the meteorite hall|the whale skeleton|the Egyptian mummies|the clockmaker's gallery|the samurai armour|the dinosaur footprints|the Fabergé eggs|the tapestry room|the Viking longship|the gemstone vault|the Roman mosaics|the steam engines|the butterfly house|the puppet collection|the Aztec codex|the lighthouse lens|the mammoth tusk|the doll's houses`)
	devShows       = list(`a pantomime|a string quartet|an open-mic night|a puppet opera|a magic show|a drag cabaret|an improv troupe|a tango recital|a circus matinee|a shadow-puppet play|a Bollywood revue|a barbershop choir|a mime duo|a gospel choir|a ventriloquist|a flamenco troupe|a poetry slam|a ballet gala|a jazz trio`)
)

var devTemporal = []kind{
	{Temporal, func(g *userGen) fact {
		p, cut := g.person(), g.uniqueFrom(devHaircuts)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"{p} talked me into {key} at the barber's this afternoon, still getting used to it.",
			"New look as of this morning: {key}, thanks to {p}'s dare.",
		}), "p", p, "key", cut), cut}},
			question: g.fill(g.pick([]string{
				"When did I change my hairstyle on {p}'s say-so?",
				"What day was the trim {p} pushed me into?",
			}), "p", p)}
	}},
	{Temporal, func(g *userGen) fact {
		p, ex := g.person(), g.uniqueFrom(devExhibits)
		return fact{needDate: true, pieces: []piece{{g.fill("Spent hours gawping at {key} with {p} today, my feet are done in.", "p", p, "key", ex), ex}},
			question: g.fill(g.pick([]string{
				"When was my museum outing with {p}?",
				"On which date did {p} and I tour that gallery?",
			}), "p", p)}
	}},
	{Temporal, func(g *userGen) fact {
		p, show := g.person(), g.uniqueFrom(devShows)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"{p} got us last-minute seats for {key} tonight, laughed till I cried.",
			"Caught {key} with {p} this evening, what a night.",
		}), "p", p, "key", show), show}},
			question: g.fill(g.pick([]string{
				"When did {p} and I go to the theatre?",
				"What was the date of the performance I watched with {p}?",
			}), "p", p)}
	}},
}

var devPreferences = []kind{
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(devTeas)
		return fact{pieces: []piece{{g.fill("A pot of {key} in the afternoon is my idea of bliss.", "key", key), key}},
			question: "What should a host brew for me when I visit?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(devCheeses)
		return fact{pieces: []piece{{g.fill("I could eat {key} by the slab, honestly.", "key", key), key}},
			question: "What would be a treat to put on a platter for me?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(devInstruments)
		return fact{pieces: []piece{{g.fill("Nothing relaxes me like {key} on a Sunday.", "key", key), key}},
			question: "What records should someone play to help me unwind?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(devArt)
		return fact{pieces: []piece{{g.fill("I'm a sucker for {key}, I'd spend all day looking at them.", "key", key), key}},
			question: "Which exhibition would I get the most out of?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(devBreakfasts)
		return fact{pieces: []piece{{g.fill("Best start to a day off: {key}, every time.", "key", key), key}},
			question: "What morning meal should be waiting for me on a lazy day?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(devDances)
		return fact{pieces: []piece{{g.fill("I love {key} more than any night out.", "key", key), key}},
			question: "What class should I sign up for to move about in the evenings?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(devColours)
		return fact{pieces: []piece{{g.fill("My favourite shade to wear is {key}.", "key", key), key}},
			question: "Which jumper should be bought for me as a present?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(devWalks)
		return fact{pieces: []piece{{g.fill("Give me {key} over a gym any day.", "key", key), key}},
			question: "Where would I most want to stretch my legs this weekend?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(devCrafts)
		return fact{pieces: []piece{{g.fill("I'm hooked on making {key}, it calms me down.", "key", key), key}},
			question: "What kit would suit me as a rainy-day project?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(devSnacks)
		return fact{pieces: []piece{{g.fill("I can't stop nibbling {key} when I'm at my desk.", "key", key), key}},
			question: "What nibbles should go in a care package for me?"}
	}},
}

// devSet is the development set's kinds.
func devSet() kindSet {
	var ks []kind
	for _, k := range kinds {
		if k.cat == SingleHop || k.cat == MultiHop {
			ks = append(ks, k)
		}
	}
	ks = append(append(ks, devTemporal...), devPreferences...)
	return kindSet{ks, [][]string{devTeas, devCheeses, devSnacks}}
}
