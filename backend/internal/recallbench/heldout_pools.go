package recallbench

import "fmt"

// The held-out set's word pools and made-up names (heldout.go).

var (
	carModels = list(`a second-hand Volvo estate|a mint-green Fiat Panda|an electric Renault Zoe|a battered Land Rover Defender|
		a Mazda MX-5 convertible|a Skoda Octavia with a tow bar|a plum Citroen Berlingo|a Toyota Prius taxi conversion|
		a classic Morris Minor|a Kia Soul in orange|a Saab 900 with a sunroof|a Dacia Duster`)
	languages   = list(`Icelandic|Portuguese|Korean|Swahili|Hungarian|Tagalog|Finnish|Farsi|Catalan|Yoruba|Vietnamese|Dutch`)
	instruments = list(`a cello|a bassoon|a hammered dulcimer|a set of bagpipes|a theremin|a trombone|a hurdy-gurdy|
		an accordion|a banjo|a harmonium|a tuba|a sitar`)
	roads = list(`the A66 near Brough|the M62 over Saddleworth Moor|the Snake Pass|the A9 north of Dalwhinnie|
		the Hardknott Pass|the M4 by Membury services|the A30 at Bodmin|the Kirkstone Pass|the A1 near Scotch Corner|
		the A82 through Glencoe`)
	carParts = list(`a new alternator|a cambelt and water pump|two rear brake callipers|a replacement clutch|
		a fresh head gasket|a starter motor|new wheel bearings|a radiator and hoses|a turbo rebuild|a fuel injector`)
	stunts = list(`a sponsored swim across Windermere|a skydive over Salisbury Plain|the Three Peaks in a day|
		a head shave at the pub|a fire walk in the car park|a 24-hour sponsored silence|abseiling down the cathedral|
		a zip line across the Tyne|cycling Land's End to John o' Groats|a marathon in a rhino costume`)
	laptopFaults = list(`the hinge on the left side|the solid-state drive|the charging port|the motherboard|the trackpad|
		the keyboard backlight|the screen's ribbon cable|the cooling fan|the battery cell|the webcam module`)
	exams = list(`the bar exam|her chartered accountancy finals|the advanced sommelier certificate|the pilot's theory test|
		the Cambridge proficiency exam|the actuarial fellowship papers|grade eight piano|the nursing registration exam|
		the black belt grading|the structural engineer's chartership`)
	testCentres = list(`the Mitcham centre|Pinner Road centre|the Goodmayes centre|Hither Green centre|the Wood Green centre|
		Belvedere centre|the Tolworth centre|Morden Lane centre|the Borehamwood centre|Chingford Mount centre`)
	boardGames = list(`a cooperative deduction game like Mysterium|anything with trains, Ticket to Ride ideally|
		a long game of Terraforming Mars|bluffing games like The Resistance|Carcassonne with all the expansions|
		a cutthroat round of Settlers of Catan|a dungeon crawler like Gloomhaven|Codenames with a big group|
		backgammon for money, just pennies|a proper wargame with painted miniatures`)
	clothes = list(`linen shirts in earthy colours|chunky Aran jumpers|wide-leg corduroy trousers|striped Breton tops|
		denim dungarees|waxed cotton jackets|silk neckerchiefs|merino base layers|vintage Hawaiian shirts|tweed waistcoats`)
	scents = list(`cedarwood and vetiver|fresh fig leaves|bergamot and black pepper|woodsmoke and leather|wet moss after rain|
		orange blossom|salted sea air|tobacco and vanilla|cut grass and mint|sandalwood and cardamom`)
	artKinds = list(`Bauhaus posters|Japanese woodblock prints|Soviet space propaganda|botanical lithographs|
		Scandinavian mid-century textiles|Art Deco railway posters|Mexican muralism|abstract expressionist splashes|
		Victorian scientific diagrams|Ukiyo-e wave scenes`)
	listening = list(`true-crime series about cold cases|history lectures on the Byzantines|radio drama from the fifties|
		comedy panel shows|long interviews with chefs|audiobooks of space operas|economics explainers|
		a show about unsolved shipwrecks|bird-song recordings|conversations with architects`)
	videoGames = list(`city-building strategy games|cosy farming sims|open-world racing|roguelike dungeon crawlers|
		point-and-click adventures|flight simulators|grand strategy about empires|rhythm games|
		survival crafting on islands|turn-based tactics`)
	weathers = list(`crisp frosty mornings|a thunderstorm rolling in|fog over the valley|the first warm days of spring|
		long light evenings in June|fresh snowfall|golden October afternoons|blustery autumn gales|warm summer rain|
		clear starry nights in January`)
	puzzles = list(`cryptic crosswords|nonograms|a Rubik's cube variant|logic grid puzzles|jigsaws of old maps|
		killer sudoku|chess problems|wooden burr puzzles|escape-room puzzle books|kakuro`)
	buildings = list(`brutalist concrete libraries|Gothic cathedrals|Art Nouveau metro stations|Victorian glasshouses|
		Moorish palaces|Georgian terraces|Bauhaus villas|disused lighthouses|old covered markets|Shaker barns`)
	creatures = list(`a pair of ferrets|an axolotl|a rescue greyhound|a tortoise|a flock of bantam hens|a pygmy goat|
		a chinchilla|a crested gecko|a pot-bellied pig|a cockatiel`)
)

// Made-up names of the held-out set: distinct per user.
var (
	placeKinds  = list(`Manor|Barn|Abbey|Hall|Priory|Boathouse`)
	songWords   = list(`Harbour|Lanterns|Sparrow|Midnight|Orchard|Tidewater|Paper|Velvet|Comet|Rosemary`)
	songTails   = list(`Waltz|Serenade|in Blue|Road|Lullaby|Song`)
	shopCauses  = list(`Hospice|Cat Rescue|Lifeboats|Air Ambulance|Food Bank|Wildlife Trust`)
	firstSounds = list(`Ama|Beli|Cora|Dela|Elo|Fia|Gwen|Hana|Iri|Juno|Kai|Luma|Mira|Nell|Oona|Pia`)
	nameTails   = list(`ra|lie|na|ette|ise|bel|wyn|ssa`)
	tailorKinds = list(`Tailoring|Alterations|Stitch Works|Needle & Thread`)
	chemists    = list(`Pharmacy|Chemist|Apothecary`)
	colleges    = list(`College|Institute|University`)
)

func (g *userGen) weddingPlace() string { return g.word() + " " + g.pick(placeKinds) }
func (g *userGen) songTitle() string {
	return "\"" + g.pick(songWords) + " " + g.pick(songTails) + "\""
}
func (g *userGen) charityShop() string { return "the " + g.word() + " " + g.pick(shopCauses) + " shop" }
func (g *userGen) babyName() string    { return g.pick(firstSounds) + g.pick(nameTails) }
func (g *userGen) tailor() string      { return g.word() + " " + g.pick(tailorKinds) }
func (g *userGen) pharmacy() string    { return g.word() + " " + g.pick(chemists) }
func (g *userGen) college() string     { return g.word() + " " + g.pick(colleges) }
func (g *userGen) repairShop() string  { return g.word() + " Computer Repairs" }
func (g *userGen) ticket() string      { return fmt.Sprintf("RX-%d-%s", 100+g.rng.IntN(900), g.word()) }
