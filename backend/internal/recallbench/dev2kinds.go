package recallbench

// The second development set's kinds (Config.Dev2): temporal and
// preference facts said the way people mention them in passing, and asked
// about later in other words — the everyday name for the thing ("the
// heating" of "the boiler"), the kind for the instance ("vegetables" of
// "runner beans"), the errand for the place ("my teeth" of "a filling").
// Most questions share no content word with the evidence and name nobody:
// nothing anchors them but what was done. Written because the first
// development set's temporal questions each name a person, which makes
// them easy where the held-out set is hard; its domains (home repairs,
// health appointments, gardening, paperwork, travel bookings, school,
// sport, moving house) are in neither the tuned, the first development nor
// the held-out set, and the held-out set was not read.

// saidAsked is a pool of (what was said, how it is asked about).
type saidAsked [][2]string

// uniquePair draws an entry of l whose first part is not used yet; when l
// is used up, a made-up word is put before a first part so it stays
// distinct (it is the key).
func (g *userGen) uniquePair(l saidAsked) [2]string {
	for _, i := range g.rng.Perm(len(l)) {
		if !g.used[l[i][0]] {
			g.used[l[i][0]] = true
			return l[i]
		}
	}
	p := l[g.rng.IntN(len(l))]
	return [2]string{g.unique(func() string { return g.word() + "'s " + p[0] }), p[1]}
}

var (
	dev2Repairs = saidAsked{{"boiler", "heating"}, {"dripping tap in the bathroom", "plumbing"}, {"fuse box", "electrics"},
		{"cracked skylight", "loft window"}, {"blocked drain out the back", "sink that wouldn't empty"},
		{"wobbly banister", "stair rail"}, {"damp patch on the ceiling", "leak upstairs"},
		{"jammed garage door", "shutter on the lock-up"}, {"sagging gutter", "guttering"}, {"busted extractor fan", "bathroom vent"}}
	dev2Health = saidAsked{{"a root canal on the back molar", "teeth"}, {"two fillings on the left side", "teeth"},
		{"varifocal lenses fitted", "eyes"}, {"the tetanus booster", "jabs"}, {"a scan on my sore knee", "leg"},
		{"the mole on my shoulder checked", "skin"}, {"my hearing tested", "ears"}, {"six sessions of physio booked for my back", "spine"},
		{"a crown fitted", "dentist"}, {"my cholesterol checked", "bloods"}}
	dev2Plants = saidAsked{{"runner beans", "vegetables"}, {"seed potatoes", "veg"}, {"tulip bulbs", "flowers"},
		{"foxglove seedlings", "flowers"}, {"two espalier pears", "fruit trees"}, {"a rhubarb crown", "allotment"},
		{"a beech hedge", "hedging"}, {"strawberry runners", "fruit"}, {"garlic cloves", "veg patch"}, {"a climbing rose", "shrubs"}}
	dev2Papers = saidAsked{{"passport renewal", "travel documents"}, {"self-assessment", "taxes"}, {"mortgage application", "home loan"},
		{"ISA transfer", "savings"}, {"will with the solicitor", "estate"}, {"pension consolidation forms", "retirement money"},
		{"council tax appeal", "rates"}, {"car insurance claim", "accident"}, {"probate forms", "grandma's affairs"}, {"visa application", "permit"}}
	dev2Trips = saidAsked{{"a ferry crossing to Santander", "boat to Spain"}, {"flights to Lisbon", "plane to Portugal"},
		{"the sleeper to Fort William", "night train north"}, {"a campervan round Kerry", "motorhome in Ireland"},
		{"a cabin on the Hurtigruten", "cruise"}, {"Eurostar seats to Brussels", "Belgium trip"},
		{"a villa near Dubrovnik", "Croatia holiday"}, {"a coach tour of the Tyrol", "Italian mountains"},
		{"a hostel bed in Kraków", "Poland stay"}, {"return flights to Reykjavík", "Iceland"}}
	dev2School = saidAsked{{"nativity play", "Christmas show"}, {"swimming gala", "race at the pool"}, {"parents' evening", "meeting with the teachers"},
		{"sports day", "races on the field"}, {"spelling bee", "competition"}, {"first day in reception", "start at school"},
		{"leavers' assembly", "goodbye do"}, {"science fair", "project exhibition"}, {"recorder recital", "concert"}, {"residential trip", "week away with the class"}}
)

var dev2Temporal = []kind{
	{Temporal, func(g *userGen) fact {
		key, r := g.unique(g.word), g.uniquePair(dev2Repairs)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"{key} came round and finally sorted the {thing} this morning, what a relief.",
			"The {thing} is done at last, a chap called {key} spent all afternoon on it.",
		}), "key", key, "thing", r[0]), key}},
			question: g.fill(g.pick([]string{
				"When did the {q} get fixed?",
				"What day was the {q} repaired?",
				"When did someone finally come out about the {q}?",
			}), "q", r[1])}
	}},
	{Temporal, func(g *userGen) fact {
		h := g.uniquePair(dev2Health)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"Had {key} this morning, all fine but I'm glad it's over.",
			"Finally got {key}, only took three phone calls to book.",
		}), "key", h[0]), h[0]}},
			question: g.fill(g.pick([]string{
				"When was my appointment about my {q}?",
				"When did I last get my {q} seen to?",
			}), "q", h[1])}
	}},
	{Temporal, func(g *userGen) fact {
		pl := g.uniquePair(dev2Plants)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"Got the {key} in the ground this afternoon, my back's killing me.",
			"Spent the morning on my knees putting in {key}.",
		}), "key", pl[0]), pl[0]}},
			question: g.fill(g.pick([]string{
				"When did I plant the {q}?",
				"What date did the {q} go in?",
			}), "q", pl[1])}
	}},
	{Temporal, func(g *userGen) fact {
		pa := g.uniquePair(dev2Papers)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"Posted off the {key} today, fingers crossed nothing's missing.",
			"Signed the {key} this morning, one less thing hanging over me.",
		}), "key", pa[0]), pa[0]}},
			question: g.fill(g.pick([]string{
				"When did I deal with the paperwork for my {q}?",
				"What day did I send in the forms about the {q}?",
			}), "q", pa[1])}
	}},
	{Temporal, func(g *userGen) fact {
		tr := g.uniquePair(dev2Trips)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"Booked {key} for the summer, can't quite believe it.",
			"Just paid for {key}, no going back now.",
		}), "key", tr[0]), tr[0]}},
			question: g.fill(g.pick([]string{
				"When did I reserve the {q}?",
				"What day did I sort out tickets for the {q}?",
			}), "q", tr[1])}
	}},
	{Temporal, func(g *userGen) fact {
		kid, ev := g.person(), g.uniquePair(dev2School)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"Went to {kid}'s {key} this afternoon, proud doesn't cover it.",
			"{kid}'s {key} today, I cried a bit, not going to lie.",
		}), "kid", kid, "key", ev[0]), ev[0]}},
			question: g.fill(g.pick([]string{
				"When was the {q} at {kid}'s school?",
				"On what date did {kid} have the {q}?",
			}), "kid", kid, "q", ev[1])}
	}},
	{Temporal, func(g *userGen) fact {
		team, sp := g.unique(func() string { return g.word() + " " + g.pick(dev2TeamKinds) }), g.uniquePair(dev2Sides)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"Our {side} thrashed {key} tonight, seven to two!",
			"The {side} finally beat {key}, first win of the season, pints all round.",
		}), "key", team, "side", sp[0]), team}},
			question: g.fill(g.pick([]string{
				"When did my {q} win big?",
				"What day was that match my {q} won?",
			}), "q", sp[1])}
	}},
	{Temporal, func(g *userGen) fact {
		mv := g.uniquePair(dev2Moves)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"The van took the last boxes to {key} this morning, the old place echoes.",
			"Slept our first night in {key}, surrounded by boxes.",
		}), "key", mv[0]), mv[0]}},
			question: g.fill(g.pick([]string{
				"When did I move house to {q}?",
				"What date did we relocate to {q}?",
			}), "q", mv[1])}
	}},
}

var (
	dev2TeamKinds = list(`Rovers|Athletic|United|Wanderers|Rangers|Town|Albion`)
	dev2Sides     = saidAsked{{"five-a-side lot", "football team"}, {"hockey girls", "side on the astroturf"}, {"rowing four", "crew"},
		{"bowls rink", "lawn green club"}, {"darts team", "pub arrows"}, {"relay squad", "running club"},
		{"water polo lot", "pool team"}, {"Sunday league eleven", "soccer club"}}
	dev2Moves = saidAsked{{"the bungalow in Frome", "Somerset"}, {"the terrace in Leith", "Edinburgh"}, {"the cottage near Hexham", "Northumberland"},
		{"the maisonette in Peckham", "south London"}, {"the semi in Stockport", "Manchester"}, {"the barn conversion outside Ludlow", "Shropshire"},
		{"the houseboat at Hebden Bridge", "the canal"}, {"the flat in Roath", "Cardiff"}}
)

var (
	dev2Fruit      = list(`ripe Alphonsos|blood oranges|greengages|lychees|Cox's Orange Pippins|white peaches|passion fruit|damsons`)
	dev2Houseplant = list(`a monstera|a fiddle-leaf fig|string of pearls|a bird of paradise|maidenhair ferns|peace lilies`)
	dev2Soups      = list(`French onion|cullen skink|beef pho|minestrone|mulligatawny|borscht|miso with tofu`)
	dev2Bread      = list(`sourdough rye|proper bagels|rosemary focaccia|soda bread|brioche buns|salted pretzels`)
	dev2Furniture  = list(`mid-century teak|Scandinavian pine|shabby chic|industrial metal|Art Deco walnut|rattan`)
	dev2Stationery = list(`fountain pens|Japanese gel pens|leather notebooks|washi tape|dotted journals|brass paperclips`)
	dev2Stays      = list(`a shepherd's hut|a yurt|a lighthouse keeper's cottage|a treehouse|a converted chapel|a glamping pod`)
	dev2Toppings   = list(`anchovies and capers|nduja|ham and pineapple|goat's cheese and figs|extra jalapeños|Gorgonzola and pear`)
	dev2Sandwiches = list(`a Reuben|a bánh mì|a chip butty|coronation chicken on white|a Cubano|a fish finger sarnie`)
	dev2Sauces     = list(`sriracha|harissa|chipotle in adobo|scotch bonnet sauce|gochujang|piri-piri`)
)

var dev2Preferences = []kind{
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(dev2Fruit)
		return fact{pieces: []piece{{g.fill("I get through a bowl of {key} a day when they're in season.", "key", key), key}},
			question: "I'm at the greengrocer's, anything I'd fancy?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(dev2Houseplant)
		return fact{pieces: []piece{{g.fill("I'd fill the flat with {key} if there were room, I dote on mine.", "key", key), key}},
			question: "What could someone get me for the windowsill?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(dev2Soups)
		return fact{pieces: []piece{{g.fill("Nothing warms me up like a bowl of {key}.", "key", key), key}},
			question: "What should I cook for lunch when it's freezing out?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(dev2Bread)
		return fact{pieces: []piece{{g.fill("I'd cross town for {key}, the supermarket stuff is no match.", "key", key), key}},
			question: "What do I usually pick up at the bakery?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(dev2Furniture)
		return fact{pieces: []piece{{g.fill("Our place is all {key} and I adore it.", "key", key), key}},
			question: "Which sideboard would suit my taste?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(dev2Stationery)
		return fact{pieces: []piece{{g.fill("I'm a sucker for {key}, I can't walk past a stationer's.", "key", key), key}},
			question: "Any stocking filler ideas for me?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(dev2Stays)
		return fact{pieces: []piece{{g.fill("Give me a night in {key} over a posh hotel any day.", "key", key), key}},
			question: "Where would I want to sleep on a weekend away?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(dev2Toppings)
		return fact{pieces: []piece{{g.fill("It has to be {key} on mine, I won't hear otherwise.", "key", key), key}},
			question: "What should we order on my half of the takeaway pizza?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(dev2Sandwiches)
		return fact{pieces: []piece{{g.fill("My go-to from the deli is {key}, every single time.", "key", key), key}},
			question: "What should I grab for my midday meal?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(dev2Sauces)
		return fact{pieces: []piece{{g.fill("I put {key} on everything, the fridge door is full of it.", "key", key), key}},
			question: "What condiment would make a good gift for me?"}
	}},
}

// dev2Set is the second development set's kinds: the tuned set's
// single-hop and multi-hop kinds, its own temporal and preference kinds.
func dev2Set() kindSet {
	var ks []kind
	for _, k := range kinds {
		if k.cat == SingleHop || k.cat == MultiHop {
			ks = append(ks, k)
		}
	}
	ks = append(append(ks, dev2Temporal...), dev2Preferences...)
	return kindSet{ks, [][]string{dev2Fruit, dev2Soups, dev2Bread}}
}
