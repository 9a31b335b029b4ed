package recallbench

import "strings"

// The word pools of the generator. Entries a key is drawn from are used at
// most once per user (userGen.uniqueFrom).

func list(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "|") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// pairs are "as said => as asked" entries.
func pairs(s string) [][2]string {
	var out [][2]string
	for _, e := range list(s) {
		a, b, _ := strings.Cut(e, "=>")
		out = append(out, [2]string{strings.TrimSpace(a), strings.TrimSpace(b)})
	}
	return out
}

var (
	firstNames = list(`Ingrid|Tomasz|Priyanka|Oluwaseun|Marisol|Anneke|Bartholomew|Keziah|Leopold|Rosalind|Dmitri|Solveig|
		Ignatius|Henrike|Caspian|Imogen|Thaddeus|Wilhelmina|Yusuf|Zofia|Benedikt|Ottilie|Rafferty|Saoirse|Lucian|Margit|
		Evander|Philippa|Casimir|Annika|Florian|Gwendolyn|Horatio|Isolde|Jovan|Katarina|Lysander|Mireille|Nikodem|Ondine|
		Peregrine|Quintus|Rosamund|Severin|Tamsin|Ulrike|Valentin|Winifred|Xavier|Yevgenia`)
	relations = pairs(`sister=>sibling|brother=>sibling|cousin=>relative|neighbour=>person next door|colleague=>coworker|
		friend=>mate|aunt=>relative|flatmate=>housemate|uncle=>relative|old schoolmate=>classmate`)
	animals = pairs(`greyhound puppy=>dog|tabby kitten=>cat|lop-eared rabbit=>bunny|African grey parrot=>bird|
		border collie=>dog|ginger kitten=>cat|pair of guinea pigs=>pets|bearded dragon=>lizard`)
	jobs       = list(`data analyst|sous chef|product designer|physiotherapist|site manager|copy editor|lab technician|tax adviser`)
	activities = list(`Argentine tango|wheel-thrown pottery|indoor bouldering|Mandarin calligraphy|beekeeping|sourdough baking|
		life drawing|Welsh for beginners|stand-up comedy writing|jazz piano|fencing|stained-glass making|Bulgarian folk singing|
		woodturning|aerial silks|bookbinding|Krav Maga|watercolour botanicals|ukulele ensemble|Flamenco guitar`)
	weekdays = list(`Monday|Tuesday|Wednesday|Thursday|Friday`)
	venues   = pairs(`community centre=>neighbourhood hall|leisure centre=>sports complex|old library=>reading rooms|
		arts college=>art school|church hall=>parish building|youth club=>youth centre`)
	gifts = list(`a hand-bound leather journal|a cast-iron tagine|a vintage Polaroid camera|a brass telescope|a cashmere scarf|
		a sourdough starter kit|a signed cricket bat|a hammered-copper kettle|a terrarium with air plants|a fountain pen with green ink|
		a mahjong set|a pair of cross-country skis|a record player in a teak case|a bonsai juniper|a linocut printing kit|
		a weighted blanket|a moka pot|a set of Japanese whetstones|a star map of their birth night|a silk kimono robe`)
	surnames = list(`Abernethy|Okonkwo|Lindqvist|Marchetti|Fairweather|Nakashima|Vasquez-Hale|Dunmore|Petrakis|Holloway|
		Szymanski|Achterberg|Ravensworth|Quaintance|Mbeki|Castellanos|Ferrante|Ollerenshaw|Tremayne|Wojcik`)
	medicines = list(`cetirizine|fexofenadine nasal spray|loratadine syrup|a mometasone inhaler|sodium cromoglicate drops|
		bilastine tablets|a beclometasone spray|montelukast granules|desloratadine|an azelastine spray|levocetirizine|
		olopatadine eye drops`)
	secrets = list(`a spoon of anchovy paste|grated nutmeg in the sauce|a splash of fish sauce|browned butter with sage|
		a pinch of smoked paprika|a square of dark chocolate|a dash of Worcestershire|miso stirred into the stock|
		a shot of espresso|toasted fennel seeds|a spoonful of marmite|orange zest at the end`)
	dishes = pairs(`lasagne=>pasta bake|chilli con carne=>chilli|beef stew=>casserole|tomato soup=>soup|bolognese=>pasta sauce|
		shepherd's pie=>mince pie with mash|fish pie=>seafood bake|curry=>spicy dish`)
	allergens = list(`hazelnuts|shellfish|sesame|kiwi fruit|mustard seed|celeriac|lupin flour|buckwheat|pine nuts|cashews|
		mango|sulphites|brazil nuts|chickpeas|squid`)
	tripCities = list(`Ljubljana|Porto|Tbilisi|Valletta|Tallinn|Bergen|Trieste|Plovdiv|Gdansk|Thessaloniki|Aarhus|Bratislava|
		Girona|Lviv|Sarajevo|Kotor|Maastricht|Bruges|Sintra|Vilnius`)
	months  = list(`January|February|March|April|May|June|July|August|September|October|November|December`)
	repairs = list(`a new damp-proof course|rewiring behind the cooker|a steel beam over the doorway|the whole floor levelled|
		new joists under the sink|a replastered ceiling|an extractor duct through the wall|the boiler moved upstairs|
		a soakaway for the drain|underfloor heating pipes`)
	moveTowns = list(`Harrogate|Penzance|Inverness|Aberystwyth|Kendal|Whitby|Hexham|Ludlow|Stornoway|Totnes|Fishguard|Oban|
		Keswick|Rye|Alnwick`)
	homeFeatures = list(`a rooftop terrace|a wood-burning stove|a walled garden|an attic studio|a bay window seat|
		a spiral staircase|a basement workshop|a conservatory|a balcony over the river|an inglenook fireplace|a boot room|
		a lemon tree in the courtyard`)
	subjects = list(`chemistry|Latin|geography|computer science|German|music theory|astronomy|economics|biology|
		design technology|philosophy|physical education`)
	racePlaces = list(`Keswick|Bamburgh|Ambleside|Tenby|Padstow|Pitlochry|Whitstable|Hay-on-Wye|Bakewell|Glastonbury|
		Portree|Dunkeld|Llandudno|Southwold|Malvern`)
	dental = list(`root canal on the upper molar|wisdom tooth extraction|porcelain crown fitting|gum graft|
		composite bonding on the front teeth|bridge fitting|deep scale and polish|inlay on the lower premolar`)
	cuisines = list(`Georgian khachapuri|Sichuan hotpot|Ethiopian injera|Peruvian ceviche|Oaxacan mole|Keralan fish curry|
		Lebanese mezze|Hokkien noodles|Basque pintxos|Burmese tea-leaf salad|Sardinian culurgiones|Uzbek plov`)
	genres = list(`Ethio-jazz|Balkan brass|shoegaze|Malian desert blues|bossa nova|Afrobeat|Celtic harp|Tuvan throat singing|
		K-indie|city pop|klezmer|baroque harpsichord`)
	holidays = list(`a narrowboat trip on the canals|hut-to-hut hiking in the Dolomites|a silent retreat in a monastery|
		cycling the Danube path|a cottage on a Hebridean island|sleeper trains across Scandinavia|
		sea kayaking along the Croatian coast|a farm stay in the Azores|wild camping in the Cairngorms|
		a houseboat on the Kerala backwaters`)
	filmKinds = list(`Nordic noir thrillers|Studio Ghibli animations|screwball comedies from the forties|
		slow-burn courtroom dramas|nature documentaries|French new wave classics|heist capers|Bollywood musicals|
		Westerns with Gary Cooper|quiet Japanese family dramas`)
	drinks = list(`oolong tea|ginger kombucha|alcohol-free gin with tonic|cold-brew coffee|elderflower cordial|
		a dry Normandy cider|matcha latte|hibiscus iced tea|a smoky mezcal|barley water`)
	bookKinds = list(`a fat Victorian mystery|Icelandic sagas|golden-age science fiction|Japanese crime fiction|
		travel writing about deserts|Russian short stories|graphic novels about history|nature writing about rivers`)
	sports = list(`Gaelic hurling|women's cricket|snooker|track cycling|sumo wrestling|fell running|volleyball|
		ice hockey|rowing regattas|netball`)
	desserts = list(`sticky toffee pudding|tarte tatin|pistachio baklava|crema catalana|rhubarb crumble|mochi ice cream|
		pavlova with passion fruit|Basque burnt cheesecake|affogato|treacle tart`)
	flowers = list(`sweet peas|peonies|ranunculus|anemones|freesias|dahlias|lily of the valley|sunflowers|
		snapdragons|cornflowers`)
	outings = list(`a car-boot sale at dawn|wild swimming in the reservoir|a ride on the heritage railway|
		browsing second-hand bookshops|birdwatching at the estuary|a climbing wall session|a farmers' market crawl|
		a pottery café morning|orienteering in the forest|a matinee at the old cinema`)
)

// The made-up names keys are built from: distinct per user.
var (
	syllables  = strings.Fields("bri mo ka zel ton vi ra lun dor ep si quo fen ta mir os ul ga ne pip")
	coSuffixes = list(`Analytics|Logistics|Robotics|Foods|Studio|Systems|Biotech|Partners|Energy|Labs`)
	adjectives = list(`Salt|Quiet|Crimson|Hollow|Paper|Winter|Borrowed|Lantern|Glass|Silver|Amber|Drowned`)
	nouns      = list(`Orchard|Harbour|Cartographer|Lighthouse|Archive|Meadow|Bellringer|Ferryman|Observatory|Orangery`)
	bands      = list(`Moths|Foxgloves|Satellites|Weathervanes|Heron Kings|Paper Tigers|Marigolds|Cassettes|Lanterns|Owls`)
	races      = list(`Ridge|Harbour|Lantern|Abbey|Beacon|Castle|Estuary|Moorland|Pier|Quarry`)
	raceKinds  = list(`10k|Half Marathon|Fell Race|Trail Run|Parkrun Special|Sunrise 5k`)
	streets    = list(`Larkspur Row|Quillon Street|Mallory Gardens|Tansy Lane|Osprey Walk|Wicken Close|Fennel Yard|Juniper Mews`)
	inns       = list(`Casa|Pension|Villa|Hotel|Guesthouse`)
)
