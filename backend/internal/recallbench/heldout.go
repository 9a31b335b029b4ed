package recallbench

// The held-out set (Config.HeldOut): kinds of fact and question templates
// of other domains (cars, weddings, volunteering, vaccinations, board
// games, scents…) and other phrasings than kinds.go's. They were written
// without looking at recall's related-words list (backend/recall/expand.go),
// and nothing in recall was changed to fit them: the figures on this set
// say how recall does on questions it was not tuned on.

var heldOutKinds = []kind{
	// Single-hop.
	{SingleHop, func(g *userGen) fact {
		p, key := g.person(), g.uniqueFrom(carModels)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"{p} traded in the rusty hatchback and now drives {key}.",
			"Guess who turned up in {key}? {p}, grinning like a child.",
		}), "p", p, "key", key), key}},
			question: g.fill(g.pick([]string{
				"What's {p} got parked outside these days?",
				"Which motor did {p} end up buying?",
			}), "p", p)}
	}},
	{SingleHop, func(g *userGen) fact {
		p, key := g.person(), g.unique(g.weddingPlace)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"{p} is getting married at {key}, invitations went out today.",
			"Save the date: {p}'s wedding will be at {key}.",
		}), "p", p, "key", key), key}},
			question: g.fill(g.pick([]string{
				"Where is {p} tying the knot?",
				"Which venue did {p} pick for the ceremony?",
			}), "p", p)}
	}},
	{SingleHop, func(g *userGen) fact {
		p, key := g.person(), g.uniqueFrom(languages)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"{p} has started evening classes in {key}, wants to be fluent by next year.",
			"Helping {p} with {key} homework again, the grammar is brutal.",
		}), "p", p, "key", key), key}},
			question: g.fill(g.pick([]string{
				"Which foreign tongue is {p} studying?",
				"What is {p} trying to learn to speak?",
			}), "p", p)}
	}},
	{SingleHop, func(g *userGen) fact {
		p, key := g.person(), g.unique(g.babyName)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"{p} had the baby! A little girl, {key}, both doing well.",
			"Met {p}'s daughter {key} for the first time, so tiny.",
		}), "p", p, "key", key), key}},
			question: g.fill(g.pick([]string{
				"What did {p} call their newborn?",
				"Remind me of the name of {p}'s infant?",
			}), "p", p)}
	}},
	{SingleHop, func(g *userGen) fact {
		key := g.unique(g.tailor)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"Dropped my grey suit at {key} to have the trousers shortened.",
			"{key} did a brilliant job taking in the waist of my suit.",
		}), "key", key), key}},
			question: g.pick([]string{
				"Which shop altered my suit?",
				"Who did the sewing on my jacket and pants?",
			})}
	}},
	{SingleHop, func(g *userGen) fact {
		p, key := g.person(), g.uniqueFrom(instruments)
		return fact{pieces: []piece{{g.fill(g.pick([]string{
			"{p} inherited {key} from their grandfather and practises every night.",
			"{p} bought {key} off a market stall and the neighbours are not amused.",
		}), "p", p, "key", key), key}},
			question: g.fill(g.pick([]string{
				"What is {p} playing these evenings?",
				"Which thing does {p} make noise on at home now?",
			}), "p", p)}
	}},

	// Multi-hop.
	{MultiHop, func(g *userGen) fact {
		p, road, part := g.person(), g.uniqueFrom(roads), g.uniqueFrom(carParts)
		return fact{pieces: []piece{
			{g.fill("{p}'s van conked out on {key} in the rain, waited hours for the tow.", "p", p, "key", road), road},
			{g.fill(g.pick([]string{
				"The mechanic told {p} it needs {key} before it goes anywhere.",
				"{p} got the verdict from the garage: {key}.",
			}), "p", p, "key", part), part}},
			question: g.fill(g.pick([]string{
				"Where was {p} stranded, and what must be replaced on their vehicle?",
				"What went wrong for {p} on the journey: the location and the repair needed?",
			}), "p", p)}
	}},
	{MultiHop, func(g *userGen) fact {
		p, place, song := g.person(), g.unique(g.weddingPlace), g.unique(g.songTitle)
		return fact{pieces: []piece{
			{g.fill("{p} and their fiancé booked {key} for the big day.", "p", p, "key", place), place},
			{g.fill(g.pick([]string{
				"{p} confessed their first dance will be to {key}, very soppy.",
				"They've chosen {key} for the first dance, {p} told me.",
			}), "p", p, "key", song), song}},
			question: g.fill(g.pick([]string{
				"For {p}'s nuptials, what's the location and which tune opens the dancing?",
				"Tell me about {p}'s marriage plans: where, and the couple's song?",
			}), "p", p)}
	}},
	{MultiHop, func(g *userGen) fact {
		p, shop, stunt := g.person(), g.unique(g.charityShop), g.uniqueFrom(stunts)
		return fact{pieces: []piece{
			{g.fill("{p} gives every Saturday to {key}, sorting donations.", "p", p, "key", shop), shop},
			{g.fill(g.pick([]string{
				"{p} is raising money by doing {key}, I pledged twenty.",
				"Sponsored {p} for {key}, madness.",
			}), "p", p, "key", stunt), stunt}},
			question: g.fill(g.pick([]string{
				"Where does {p} volunteer, and what challenge are they attempting for the cause?",
				"Which charity outlet has {p} helping out, and how are they fundraising?",
			}), "p", p)}
	}},
	{MultiHop, func(g *userGen) fact {
		ticket, fault, shop := g.unique(g.ticket), g.uniqueFrom(laptopFaults), g.unique(g.repairShop)
		return fact{pieces: []piece{
			{g.fill("Left the laptop at {key} for repair, they reckon a week.", "key", shop), shop},
			{g.fill("The technician rang: {key} has packed in.", "key", fault), fault},
			{g.fill("Note to self, repair reference {key}.", "key", ticket), ticket}},
			question: g.pick([]string{
				"My computer is being fixed: where, what broke, and what's the job number?",
				"Give me everything about the notebook PC mending: workshop, fault, reference?",
			})}
	}},
	{MultiHop, func(g *userGen) fact {
		p, exam, uni := g.person(), g.uniqueFrom(exams), g.unique(g.college)
		return fact{pieces: []piece{
			{g.fill("{p} passed {key} with distinction, so proud.", "p", p, "key", exam), exam},
			{g.fill("{p} got a place at {key} for the autumn.", "p", p, "key", uni), uni}},
			question: g.fill(g.pick([]string{
				"Which qualification did {p} earn, and where are they enrolled next?",
				"What certificate did {p} just obtain, and which institution accepted them?",
			}), "p", p)}
	}},

	// Temporal.
	{Temporal, func(g *userGen) fact {
		key := g.uniqueFrom(carModels)
		return fact{needDate: true, pieces: []piece{{g.fill("Collected {key} from the dealership this afternoon, it still smells new.", "key", key), key}},
			question: g.pick([]string{
				"When did I collect the new car from the dealer?",
				"On which day did I take delivery of the car?",
			})}
	}},
	{Temporal, func(g *userGen) fact {
		key := g.unique(g.pharmacy)
		return fact{needDate: true, pieces: []piece{{g.fill("Had the flu jab at {key} this morning, arm is sore.", "key", key), key}},
			question: g.pick([]string{
				"When was I vaccinated against influenza?",
				"What date did I have my jab?",
			})}
	}},
	{Temporal, func(g *userGen) fact {
		key := g.uniqueFrom(testCentres)
		return fact{needDate: true, pieces: []piece{{g.fill("Passed my driving test at {key} today, first attempt!", "key", key), key}},
			question: g.pick([]string{
				"When did I earn my licence?",
				"When did I pass the driving exam?",
			})}
	}},
	{Temporal, func(g *userGen) fact {
		p, key := g.person(), g.unique(g.babyName)
		return fact{needDate: true, pieces: []piece{{g.fill("{p}'s baby {key} arrived this afternoon, seven pounds exactly.", "p", p, "key", key), key}},
			question: g.fill(g.pick([]string{
				"When did {p} become a parent?",
				"What is the birth date of {p}'s baby?",
			}), "p", p)}
	}},
	{Temporal, func(g *userGen) fact {
		jab, test := g.unique(g.pharmacy), g.uniqueFrom(testCentres)
		return fact{needDate: true, pieces: []piece{
			{g.fill("Had the flu jab at {key} this morning, arm is sore.", "key", jab), jab},
			{g.fill("Passed my driving test at {key} today, first attempt!", "key", test), test}},
			question: "How many weeks separate my vaccination and earning my licence?"}
	}},
}

// The held-out likings: ten, so each user states each once.
var heldOutPreferences = []kind{
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(boardGames)
		return fact{pieces: []piece{{g.fill("Game night is only fun for me when it's {key}.", "key", key), key}},
			question: "What should we play around the table on Friday?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(clothes)
		return fact{pieces: []piece{{g.fill("I basically live in {key}, my whole wardrobe is that.", "key", key), key}},
			question: "What could someone buy me to wear?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(scents)
		return fact{pieces: []piece{{g.fill("The smell of {key} calms me down instantly.", "key", key), key}},
			question: "Which candle fragrance would suit me?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(artKinds)
		return fact{pieces: []piece{{g.fill("Give me {key} over any old master painting.", "key", key), key}},
			question: "What prints should I hang in the hallway?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(listening)
		return fact{pieces: []piece{{g.fill("My commute is always {key}, I'm hooked.", "key", key), key}},
			question: "What audio would keep me company on a long drive?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(videoGames)
		return fact{pieces: []piece{{g.fill("I sink whole evenings into {key}.", "key", key), key}},
			question: "Which video game should I get for the console?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(weathers)
		return fact{pieces: []piece{{g.fill("I come alive with {key}, always have.", "key", key), key}},
			question: "What season am I happiest in?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(puzzles)
		return fact{pieces: []piece{{g.fill("Hand me {key} and I'm quiet for hours.", "key", key), key}},
			question: "What would keep me quiet on the train?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(buildings)
		return fact{pieces: []piece{{g.fill("I could wander around {key} all day.", "key", key), key}},
			question: "Where could I spend a day wandering in a new city?"}
	}},
	{Preference, func(g *userGen) fact {
		key := g.uniqueFrom(creatures)
		return fact{pieces: []piece{{g.fill("If I could keep any animal it would be {key}.", "key", key), key}},
			question: "What pet would make me happiest?"}
	}},
}
