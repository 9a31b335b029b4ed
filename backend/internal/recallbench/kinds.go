package recallbench

// The kinds of fact a user mentions, each with ways of saying it (the
// evidence) and ways of asking about it later (the question). The
// questions paraphrase: other words for the thing (dog for greyhound, firm
// for company), the person's name as the anchor a real question keeps.

// piece is one stated part of a fact: the user's line and its key text
// (what the answer needs, unique in the user's history).
type piece struct {
	text, key string
}

// fact is what a kind makes: its pieces, said in different sessions, and
// the question about them.
type fact struct {
	cat      Category
	pieces   []piece
	question string
	needDate bool // temporal: the answer is the passage's date
}

type kind struct {
	cat  Category
	make func(g *userGen) fact
}

var kinds = []kind{
	// Single-hop.
	{SingleHop, func(g *userGen) fact {
		p, rel := g.person(), g.pickPair(relations)
		an := g.pickPair(animals)
		key := g.unique(g.petName)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"My {rel} {p} finally adopted a {animal}, and it's called {key}.",
			"{p} brought a {animal} home from the shelter yesterday; {key} is the name they settled on.",
		}), "rel", rel[0], "p", p, "animal", an[0], "key", key), key}},
			question: g.fill(g.pick([]string{
				"Remind me what {p}'s new {animalq} goes by?",
				"What did {p} decide to call the {animalq} they took in?",
				"How is the {animalq} my {relq} adopted named again?",
			}), "p", p, "animalq", an[1], "relq", rel[1])}
	}},
	{SingleHop, func(g *userGen) fact {
		p, key, job := g.person(), g.unique(g.company), g.pick(jobs)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"Big news from {p}: starting at {key} next month as a {job}.",
			"{p} accepted the offer from {key}, a {job} position, finally out of the old place.",
		}), "p", p, "key", key, "job", job), key}},
			question: g.fill(g.pick([]string{
				"Which firm hired {p}?",
				"Where is {p} going to be employed from now on?",
				"Who is {p}'s new employer?",
			}), "p", p)}
	}},
	{SingleHop, func(g *userGen) fact {
		p, key := g.person(), g.unique(g.bookTitle)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"{p} pressed a copy of {key} into my hands, swears it's the best novel of the decade.",
			"Started reading {key} because {p} wouldn't stop going on about it.",
		}), "p", p, "key", key), key}},
			question: g.fill(g.pick([]string{
				"Which title did {p} suggest I pick up?",
				"What was that book {p} kept recommending?",
			}), "p", p)}
	}},
	{SingleHop, func(g *userGen) fact {
		key, day, venue := g.uniqueFrom(activities), g.pick(weekdays), g.pickPair(venues)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"Signed up for {key} lessons at the {venue}, {day} evenings from now on.",
			"My {day} nights are booked: {key} at the {venue}, first session went well.",
		}), "key", key, "day", day, "venue", venue[0]), key}},
			question: g.fill(g.pick([]string{
				"What hobby course am I taking on {day}s?",
				"What do I do each week at the {venueq}?",
			}), "day", day, "venueq", venue[1])}
	}},
	{SingleHop, func(g *userGen) fact {
		p, key := g.person(), g.uniqueFrom(gifts)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"Ordered {key} for {p}'s birthday, fingers crossed it arrives in time.",
			"I've settled on {key} as {p}'s birthday present.",
		}), "p", p, "key", key), key}},
			question: g.fill(g.pick([]string{
				"What am I giving {p} when they turn a year older?",
				"Which gift did I choose for {p}'s big day?",
			}), "p", p)}
	}},
	{SingleHop, func(g *userGen) fact {
		doc, key := g.uniqueFrom(surnames), g.uniqueFrom(medicines)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"Dr. {doc} put me on {key} for the allergies, twice a day.",
			"Saw Dr. {doc} about the hay fever and came out with a prescription for {key}.",
		}), "doc", doc, "key", key), key}},
			question: g.fill(g.pick([]string{
				"What medicine is {doc} having me take?",
				"Which pills did {doc} give me for the sneezing?",
			}), "doc", doc)}
	}},
	{SingleHop, func(g *userGen) fact {
		p, key, dish := g.person(), g.uniqueFrom(secrets), g.pickPair(dishes)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"{p} finally told me the secret of their {dish}: {key}.",
			"The trick in {p}'s {dish}, it turns out, is {key}.",
		}), "p", p, "dish", dish[0], "key", key), key}},
			question: g.fill(g.pick([]string{
				"What's the hidden ingredient {p} uses in the {dishq}?",
				"How does {p} make that {dishq} taste so good?",
			}), "p", p, "dishq", dish[1])}
	}},

	// Multi-hop: two or three pieces in different sessions.
	{MultiHop, func(g *userGen) fact {
		p, co, food := g.person(), g.unique(g.company), g.uniqueFrom(allergens)
		return fact{pieces: []piece{
			{g.fill("{p} just started a new job at {key}, sounds like a good team.", "p", p, "key", co), co},
			{g.fill(g.pick([]string{
				"Careful when {p} comes round, they're seriously allergic to {key}.",
				"{p} had a reaction to {key} at the party and has to avoid it completely.",
			}), "p", p, "key", food), food}},
			question: g.fill(g.pick([]string{
				"I'm having {p} over to eat: what must stay off the menu, and where do they work these days?",
				"Before cooking for {p}, what can't they have, and who employs them now?",
			}), "p", p)}
	}},
	{MultiHop, func(g *userGen) fact {
		p, city, inn, month := g.person(), g.uniqueFrom(tripCities), g.unique(g.guesthouse), g.pick(months)
		return fact{pieces: []piece{
			{g.fill("{p} and I booked flights to {key} for {month}, can't wait.", "p", p, "key", city, "month", month), city},
			{g.fill(g.pick([]string{
				"Reserved rooms at {key} for when {p} and I are away.",
				"{p} found us a lovely place to stay, {key}, right by the old town.",
			}), "p", p, "key", inn), inn}},
			question: g.fill(g.pick([]string{
				"For the getaway with {p}, which city are we heading to and where will we sleep?",
				"Where is my holiday with {p}, and what's our lodging called?",
			}), "p", p)}
	}},
	{MultiHop, func(g *userGen) fact {
		p, work, price := g.person(), g.uniqueFrom(repairs), g.unique(g.price)
		return fact{pieces: []piece{
			{g.fill("{p} the builder reckons the kitchen needs {key}.", "p", p, "key", work), work},
			{g.fill(g.pick([]string{
				"{p} sent over the quote this morning: {key} all in.",
				"Got the figure from {p} at last, {key}, which is more than I hoped.",
			}), "p", p, "key", price), price}},
			question: g.fill(g.pick([]string{
				"What did {p} say the cooking area requires, and how much will the job cost?",
				"Remind me of {p}'s verdict on the renovation and the price tag?",
			}), "p", p)}
	}},
	{MultiHop, func(g *userGen) fact {
		p, town, home, co := g.person(), g.uniqueFrom(moveTowns), g.uniqueFrom(homeFeatures), g.unique(g.company)
		return fact{pieces: []piece{
			{g.fill("{p} is moving to {key} in the spring, it's official.", "p", p, "key", town), town},
			{g.fill("{p} found a flat with {key}, jealous!", "p", p, "key", home), home},
			{g.fill("{p} has an interview lined up at {key} next week.", "p", p, "key", co), co}},
			question: g.fill(g.pick([]string{
				"Catch me up on {p}'s relocation: which town, what sort of home, and who might employ them?",
				"Summarise {p}'s big change for me: destination, new place, possible workplace.",
			}), "p", p)}
	}},
	{MultiHop, func(g *userGen) fact {
		p, subj, partner, shop := g.person(), g.uniqueFrom(subjects), g.person(), g.unique(g.shopName)
		return fact{pieces: []piece{
			{g.fill("{p} teaches {key} at the secondary school now.", "p", p, "key", subj), subj},
			{g.fill("{p}'s partner {q} runs {key}, the bakery by the station.", "p", p, "q", partner, "key", shop), shop}},
			question: g.fill(g.pick([]string{
				"What subject is {p} in charge of in class, and what business does their other half own?",
				"Tell me what {p} does for a living and what {q} has going on.",
			}), "p", p, "q", partner)}
	}},

	// Temporal: the answer is the date of the passage.
	{Temporal, func(g *userGen) fact {
		p, band := g.person(), g.unique(g.bandName)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"Saw {key} live with {p} tonight, my ears are still ringing.",
			"{p} dragged me to see {key} this evening and it was brilliant.",
		}), "p", p, "key", band), band}},
			question: g.fill(g.pick([]string{
				"When was the concert I went to with {p}?",
				"On what date did {p} and I catch that gig?",
			}), "p", p)}
	}},
	{Temporal, func(g *userGen) fact {
		place, race := g.uniqueFrom(racePlaces), g.unique(g.raceName)
		return fact{needDate: true, pieces: []piece{{g.fill("Ran the {key} in {place} this morning, legs are jelly.", "place", place, "key", race), race}},
			question: g.fill(g.pick([]string{
				"When did I do that running event in {place}?",
				"What was the day of my race around {place}?",
			}), "place", place)}
	}},
	{Temporal, func(g *userGen) fact {
		doc, work := g.uniqueFrom(surnames), g.uniqueFrom(dental)
		return fact{needDate: true, pieces: []piece{{g.fill("Finally had the {key} done at Dr. {doc}'s surgery today.", "doc", doc, "key", work), work}},
			question: g.fill(g.pick([]string{
				"When was my dental appointment with {doc}?",
				"What day did I sit in {doc}'s chair?",
			}), "doc", doc)}
	}},
	{Temporal, func(g *userGen) fact {
		p, addr := g.person(), g.unique(g.address)
		return fact{needDate: true, pieces: []piece{{g.fill(g.pick([]string{
			"{p} and I signed the lease on {key} today!",
			"Keys collected: {p} and I are officially renting {key} as of today.",
		}), "p", p, "key", addr), addr}},
			question: g.fill(g.pick([]string{
				"What day did {p} and I commit to the new place?",
				"When did {p} and I take the flat?",
			}), "p", p)}
	}},
	{Temporal, func(g *userGen) fact {
		p, band, doc, work := g.person(), g.unique(g.bandName), g.uniqueFrom(surnames), g.uniqueFrom(dental)
		return fact{needDate: true, pieces: []piece{
			{g.fill("Saw {key} live with {p} tonight, my ears are still ringing.", "p", p, "key", band), band},
			{g.fill("Finally had the {key} done at Dr. {doc}'s surgery today.", "doc", doc, "key", work), work}},
			question: g.fill("How much time passed between the gig with {p} and my visit to {doc}?", "p", p, "doc", doc)}
	}},

	// What would the user like: stated preferences.
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(cuisines)
		return fact{pieces: []piece{{g.fill("Nothing beats {key} for a dinner out, I'd have it every week.", "key", key), key}},
			question: g.pick([]string{
				"Suggest a cuisine for my birthday dinner that I'd enjoy.",
				"Where should we book for dinner if it's my pick?",
			})}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(genres)
		return fact{pieces: []piece{{g.fill("Been listening to nothing but {key} music lately, can't get enough.", "key", key), key}},
			question: g.pick([]string{
				"What music would I want on at my party?",
				"Which records would make a good surprise for me, music-wise?",
			})}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(holidays)
		return fact{pieces: []piece{{g.fill("My ideal holiday is {key}, no crowds, no airports.", "key", key), key}},
			question: g.pick([]string{
				"What kind of holiday should I book for next summer?",
				"Plan me a holiday I'd love: what sort of trip suits me?",
			})}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(filmKinds)
		return fact{pieces: []piece{{g.fill("Horror films are a hard no for me; {key} are more my thing.", "key", key), key}},
			question: g.pick([]string{
				"Pick a film for movie night that I'd actually like.",
				"Which films should I queue up for a cosy weekend?",
			})}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(drinks)
		return fact{pieces: []piece{{g.fill("I've gone off wine entirely, {key} is my drink now.", "key", key), key}},
			question: g.pick([]string{
				"What should I be served at the pub if someone's buying me a drink?",
				"If a friend brings me something to sip at the party, what would please me?",
			})}
	}},
}

// More of what the user likes: enough kinds that each user states each
// liking once.
var morePreferences = []kind{
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(bookKinds)
		return fact{pieces: []piece{{g.fill("Whenever I get a quiet afternoon I reach for {key}, never fails.", "key", key), key}},
			question: "Which novel would be a safe present for me?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(sports)
		return fact{pieces: []piece{{g.fill("Honestly the only sport I'll sit through on telly is {key}.", "key", key), key}},
			question: "What match would I enjoy watching at the weekend?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(desserts)
		return fact{pieces: []piece{{g.fill("If there's {key} on the pudding menu, I'm ordering it, end of story.", "key", key), key}},
			question: "What sweet should I get after the main course?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(flowers)
		return fact{pieces: []piece{{g.fill("My favourite flowers will always be {key}, they make any room.", "key", key), key}},
			question: "What bouquet would cheer me up?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(outings)
		return fact{pieces: []piece{{g.fill("A perfect Saturday for me is {key} and then a long lunch.", "key", key), key}},
			question: "How would I most like to spend a free weekend day?"}
	}},
}
