import type { PlannedEvent, PlannedGroup, PlannedItem, PlannedQuestion, QuestionKind } from './generator.js';
import { type Asks, int, Pool, pad2, pick, type Rng, render, sample, type Vars, wordings } from './text.js';

/**
 * The `dialogue` shape: conversations between a user and an assistant over 14-18 sessions. Each
 * user has facts planted in their turns (a pet, a class, a trip ...), facts that change later
 * (job, home, car ...), people introduced in one session whose news comes in another, and two
 * recurring topics (running, cooking ...) that fill many turns with the same words. Most turns are
 * chit-chat. The assistant replies to every turn, often echoing a word of it.
 */

const SYN: Record<string, readonly string[]> = {
  adopted: ['adopted', 'got', 'brought home', 'took in'],
  adopt: ['adopt', 'get', 'bring home', 'take in'],
  dog: ['dog', 'puppy', 'pup'],
  breed: ['breed', 'kind', 'type'],
  learning: ['learning', 'taking lessons in', 'teaching myself', 'picking up'],
  instrument: ['instrument', 'musical instrument'],
  allergic: ['allergic', 'intolerant', 'sensitive'],
  flying: ['flying', 'heading', 'going', 'travelling'],
  wedding: ['wedding', 'marriage ceremony', 'nuptials'],
  book: ['book', 'novel'],
  reading: ['reading', 'halfway through', 'listening to the audiobook of'],
  half: ['half marathon', 'half', '21k'],
  finished: ['finished', 'ran', 'completed'],
  class: ['class', 'course', 'workshop'],
  birthday: ['birthday', 'birthday party'],
  give: ['give', 'buy', 'get'],
  meal: ['meal', 'dinner', 'food'],
  amazing: ['amazing', 'incredible', 'the best'],
  recommend: ['recommend', 'rave about', 'suggest'],
  balcony: ['balcony', 'terrace', 'patio'],
  growing: ['growing', 'planting', 'cultivating'],
  practising: ['practising', 'studying', 'learning', 'brushing up on'],
  watching: ['watching', 'binge-watching', 'bingeing', 'streaming'],
  show: ['show', 'series', 'TV show'],
  volunteer: ['volunteer', 'help out', 'lend a hand'],
  volunteering: ['volunteering', 'helping out', 'lending a hand'],
  grew_up: ['grew up', 'was raised', 'spent my childhood'],
  anniversary: ['anniversary', 'wedding anniversary'],
  job: ['job', 'position', 'role'],
  work: ['work', 'the office', 'my job'],
  quit: ['left', 'quit', 'resigned from', 'handed in my notice at'],
  moved: ['moved', 'settled'],
  neighbourhood: ['neighbourhood', 'neighborhood', 'area', 'part of town'],
  car: ['car', 'vehicle', 'ride'],
  drive: ['drive', 'have', 'own'],
  bought: ['bought', 'picked up', 'got'],
  sold: ['sold', 'got rid of', 'traded in'],
  dating: ['dating', 'seeing', 'going out with'],
  commute: ['commute', 'get to work', 'travel to the office'],
  exercise: ['exercise', 'workout', 'training'],
  run: ['run', 'jog'],
  running: ['running', 'jogging'],
  shoes: ['running shoes', 'trainers', 'sneakers'],
  race: ['race', 'event'],
  recipe: ['recipe', 'dish'],
  cooking: ['cooking', 'cookery'],
  secret: ['secret', 'special', 'key'],
  garden: ['garden', 'allotment', 'vegetable patch'],
  harvested: ['harvested', 'picked', 'gathered'],
  camera: ['camera', 'DSLR'],
  photo: ['photo', 'picture', 'shot', 'print'],
  game_night: ['game night', 'board game night', 'games evening'],
  won: ['won', 'took the win', 'came out on top'],
  renovation: ['renovation', 'remodel', 'redo'],
  tiles: ['tiles', 'tiling'],
  plumber: ['plumber', 'contractor', 'builder'],
};

// biome-ignore format: word lists read better packed
const USER_NAMES = [
  'Maya', 'Jonas', 'Priya', 'Tomas', 'Aisha', 'Leo', 'Hana', 'Marcus', 'Ingrid', 'Rafael', 'Chloe', 'Devin', 'Yuki',
  'Omar', 'Sofia', 'Ethan', 'Nadia', 'Felix', 'Amara', 'Lukas', 'Zoe', 'Mateo', 'Elena', 'Kofi', 'Greta', 'Samir',
  'Lena', 'Victor', 'Imani', 'Oskar', 'Freya', 'Diego', 'Anika', 'Theo', 'Rosa', 'Emil',
];
// biome-ignore format: word lists read better packed
const OTHER_NAMES = [
  'Alba', 'Bram', 'Celine', 'Dario', 'Esme', 'Farid', 'Gwen', 'Hugo', 'Isla', 'Jasper', 'Kira', 'Lars', 'Mila',
  'Nico', 'Olga', 'Pablo', 'Quinn', 'Rhea', 'Sven', 'Tara', 'Umar', 'Vera', 'Wes', 'Xenia', 'Yara', 'Zane', 'Aldo',
  'Bea', 'Cyrus', 'Dina', 'Elio', 'Fiona', 'Gideon', 'Hedda', 'Ivo', 'Juno', 'Kai', 'Lotte', 'Malik', 'Noor', 'Otto',
  'Pia', 'Ravi', 'Selma', 'Tobias', 'Uma', 'Vik', 'Wanda', 'Yusuf', 'Zora', 'Arlo', 'Bianca', 'Cosmo', 'Delia',
  'Enzo', 'Flora', 'Gus', 'Hattie', 'Idris', 'Jade', 'Kenji', 'Leona', 'Mads', 'Nell',
];

// biome-ignore format: word lists read better packed
const V = {
  breeds: [
    'beagle', 'corgi', 'border collie', 'dachshund', 'labrador', 'greyhound', 'poodle', 'shiba inu', 'boxer',
    'whippet', 'spaniel', 'terrier',
  ],
  pets: [
    'Biscuit', 'Pepper', 'Mochi', 'Waffles', 'Juniper', 'Otis', 'Luna', 'Bruno', 'Clementine', 'Pickles', 'Ziggy',
    'Nacho', 'Olive', 'Tofu', 'Rufus', 'Maple', 'Pixel', 'Basil', 'Nugget', 'Hazel',
  ],
  instruments: [
    'cello', 'ukulele', 'banjo', 'trumpet', 'saxophone', 'violin', 'drums', 'harmonica', 'flute', 'piano', 'mandolin',
    'accordion',
  ],
  weekdays: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'],
  allergies: [
    ['peanuts', 'satay'],
    ['shellfish', 'paella'],
    ['sesame', 'hummus'],
    ['kiwi', 'fruit salad'],
    ['almonds', 'marzipan'],
    ['eggs', 'omelettes'],
    ['soy', 'tofu stir-fry'],
    ['strawberries', 'summer pudding'],
  ],
  cities: [
    'Lisbon', 'Porto', 'Denver', 'Austin', 'Osaka', 'Kyoto', 'Dublin', 'Galway', 'Vancouver', 'Tucson', 'Seville',
    'Valencia', 'Krakow', 'Tallinn', 'Bergen', 'Adelaide', 'Hobart', 'Nairobi', 'Lima', 'Halifax', 'Edinburgh',
    'Bruges', 'Turin', 'Bologna', 'Ljubljana', 'Tbilisi', 'Hanoi', 'Marrakesh',
  ],
  months: [
    'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November',
    'December',
  ],
  friendKinds: ['cousin', 'college roommate', 'childhood friend', 'old colleague', 'best friend'],
  books: [
    'The Salt Road', 'A Map of Quiet Rivers', 'Glass Orchard', 'The Last Lighthouse Keeper', 'Winter in Tangier',
    "The Clockmaker's Daughter", 'Paper Moons', 'North of Ordinary', 'The Copper Garden', 'Small Hours',
    'The Weight of Feathers', 'Tidewater', 'The Orchard Thief', 'Harbour of Bells',
  ],
  authors: [
    'Ines Okafor', 'Tomasz Wren', 'Lucia Brandt', 'Hal Pemberton', 'Mireille Sato', 'Owen Achebe', 'Clara Lindqvist',
    'Rui Matsuda', 'Delphine Ross', 'Yaw Mensah',
  ],
  times: ['1:47', '1:52', '1:58', '2:03', '2:09', '2:14', '2:21', '1:55'],
  crafts: [
    'pottery', 'salsa', 'woodworking', 'watercolour', 'Italian cooking', 'improv', 'bouldering', 'jewellery making',
    'life drawing', 'bread baking',
  ],
  venues: ['community centre', 'art school', 'library', 'rec centre', 'town hall'],
  relatives: ['mom', 'dad', 'grandma', 'grandpa', 'aunt', 'uncle', 'stepdad'],
  gifts: [
    'vintage record player', 'pasta maker', 'telescope', 'smartwatch', 'bread machine', 'hammock', 'espresso machine',
    'weighted blanket', 'bird feeder', 'e-reader',
  ],
  restaurants: [
    'Casa Lupe', 'The Tin Kettle', 'Saffron House', 'Noodle Bar Koi', "Luigi's", 'The Green Fig', 'Ember and Oak',
    'Pho Saigon', 'Mercado Azul', 'Blue Door Bistro', 'Little Lisbon', 'Copper Pot',
  ],
  dishes: [
    'ramen', 'tacos al pastor', 'lamb tagine', 'mushroom risotto', 'fish and chips', 'bibimbap', 'dumplings',
    'pad thai', 'shakshuka', 'wood-fired pizza',
  ],
  plants: [
    'cherry tomatoes', 'chilli peppers', 'basil', 'strawberries', 'sunflowers', 'courgettes', 'lavender',
    'sweet peas', 'mint',
  ],
  languages: [
    'Portuguese', 'Japanese', 'Korean', 'Greek', 'Dutch', 'Swahili', 'Turkish', 'Polish', 'Italian', 'Mandarin',
  ],
  reasons: ['for a trip next year', "for my partner's family", 'for work', 'just for fun'],
  shows: [
    'Harbor Lights', 'The Quiet Year', 'Night Shift Diaries', 'Iron Coast', 'Moss and Stone', 'The Ninth Floor',
    'Salt and Smoke', 'Glasshouse', 'Low Tide', 'Midnight Kitchen',
  ],
  places: [
    'animal shelter', 'food bank', 'community garden', 'public library', 'hospice', 'youth football club',
    'soup kitchen', 'repair cafe',
  ],
  hometowns: [
    'Aberdeen', 'Leipzig', 'Duluth', 'Cork', 'Hamilton', 'Split', 'Tromso', 'Bendigo', 'Savannah', 'Nantes',
    'Asheville', 'Geelong',
  ],
  landmarks: [
    'the old mill', 'the lighthouse', 'the cathedral', 'the river docks', 'a big lake', 'the football stadium',
    'the train yards',
  ],
  dates: ['June 14', 'May 3', 'October 21', 'August 9', 'March 28', 'December 2', 'April 17', 'September 30'],
  companies: [
    'Northwind', 'Brightline', 'Kestrel Systems', 'Halcyon Health', 'Bluefin Analytics', 'Marlow and Finch',
    'Oakridge Bank', 'Tidewater Logistics', 'Copperleaf', 'Saltmarsh Media', 'Ironbark Labs', 'Lumen Health',
    'Redwood Insurance', 'Silverline Rail', 'Foxglove Studio', 'Juniper Robotics', 'Quill Publishing',
  ],
  roles: [
    'data analyst', 'product manager', 'nurse', 'pharmacist', 'architect', 'UX designer', 'accountant', 'paralegal',
    'teacher', 'software engineer', 'sous chef', 'physiotherapist', 'electrician', 'marketing lead', 'recruiter',
    'lab technician', 'copywriter',
  ],
  homes: ['flat', 'apartment', 'townhouse', 'cottage', 'loft'],
  areas: [
    'Riverside', 'Old Town', 'Maple Heights', 'the harbour district', 'Greenfield', 'Northgate', 'Ashford Park',
    'Kingsbury', 'Elm Hill', 'Canal Quarter', 'Westbrook', 'Millbank',
  ],
  cars: [
    'Subaru Outback', 'Honda Fit', 'Toyota Prius', 'Mazda 3', 'Volvo estate', 'Kia Niro', 'VW Golf', 'Ford Fiesta',
    'Tesla Model 3', 'Mini Cooper', 'Nissan Leaf', 'Skoda Octavia',
  ],
  modes: ['by bike', 'by bus', 'by train', 'by car', 'on an e-scooter', 'by ferry', 'on foot'],
  sports: ['spin classes', 'crossfit', 'yoga', 'swimming', 'bouldering', 'boxing', 'pilates', 'rowing', 'tennis'],
  bodyparts: ['wrist', 'ankle', 'collarbone', 'arm', 'leg', 'toe', 'finger', 'knee'],
  hobbies: [
    'beekeeping', 'rock climbing', 'chess', 'sourdough', 'birdwatching', 'ceramics', 'surfing', 'knitting', 'archery',
  ],
  businesses: [
    'coffee shop', 'bakery', 'bike repair shop', 'bookshop', 'yoga studio', 'food truck', 'florist', 'record store',
  ],
  babies: ['Iris', 'Milo', 'Ada', 'Felix', 'Nora', 'Arthur', 'Ivy', 'Jude'],
  petParts: ['paw', 'ear', 'tail', 'leg', 'eye'],
  petShows: ['county fair', 'dog show', 'agility trial'],
  chewed: ['favourite slippers', 'passport', 'headphones', 'glasses case', 'TV remote'],
  runDistances: ['5k', '8k', '10k', '12k', '15k'],
  longRuns: ['18 miles', '30 kilometres', '25k', '16 miles', '28 kilometres'],
  routes: ['canal path', 'coast road', 'ridge trail', 'river loop', 'old railway line'],
  shoeBrands: ['Hoka', 'Brooks', 'Asics', 'Saucony', 'On', 'New Balance'],
  meetPoints: ['bandstand', 'old boathouse', 'park gates', 'clock tower', 'leisure centre'],
  ingredients: [
    'smoked paprika', 'miso', 'anchovies', 'brown butter', 'fish sauce', 'tamarind', 'sumac', 'a splash of vinegar',
  ],
  homeDishes: ['lasagne', 'chilli', 'curry', 'banana bread', 'risotto', 'stew', 'dal', 'meatballs'],
  contestPrizes: ['fair', 'street festival', 'church fete', 'office bake-off'],
  crops: ['potatoes', 'runner beans', 'tomatoes', 'apples', 'carrots', 'raspberries'],
  pests: ['slugs', 'pigeons', 'aphids', 'a fox', 'caterpillars', "the neighbour's goat"],
  gardenPlants: ['lettuces', 'cabbages', 'seedlings', 'kale', 'strawberry plants'],
  photoSubjects: ['harbour at dawn', 'old lighthouse', 'fox in the snow', 'city skyline', 'market at night'],
  photoBuyers: ['a local magazine', 'a travel blog', 'the tourist board', 'a cafe owner', 'a gallery'],
  lenses: ['50mm', 'wide-angle', 'zoom', 'macro', 'telephoto'],
  lensPlaces: ['beach', 'waterfall', 'zoo', 'concert'],
  games: ['Catan', 'Ticket to Ride', 'Wingspan', 'Pandemic', 'Azul', 'Scrabble', 'Carcassonne'],
  lateTimes: ['2am', 'midnight', '1am', '3am'],
  rooms: ['bathroom', 'kitchen', 'hallway', 'utility room'],
  colours: ['green', 'terracotta', 'navy', 'white', 'mustard', 'black'],
  wallFinds: ['a leaking pipe', 'old newspapers from the fifties', 'a wasp nest', 'mould', 'a bricked-up fireplace'],
};

type Ctx = {
  rng: Rng;
  asks: Asks;
  user: string;
  group: number;
  sessions: number;
  events: PlannedEvent[];
  questions: PlannedQuestion[];
  names: Pool<string>;
};

const say = (ctx: Ctx, template: string, vars: Vars) => render(ctx.rng, template, { user: ctx.user, ...vars }, SYN);

/** One exchange: the user's turn (the memory facts live in) and the assistant's reply. */
function exchange(ctx: Ctx, session: number, userText: string, reply: string, handle?: string): PlannedEvent {
  const event: PlannedEvent = {
    session,
    items: [
      {
        title: `${ctx.user}: ${userText}`,
        content: null,
        kind: 'turn',
        speaker: ctx.user,
        ...(handle ? { handle } : {}),
      },
      { title: `Assistant: ${reply}`, content: null, kind: 'turn', speaker: 'Assistant' },
    ],
  };
  ctx.events.push(event);
  return event;
}

const GENERIC_REPLIES = [
  '[That sounds|Sounds] [lovely|exhausting|like a lot], {user}. [How are you feeling about it?|What is next?|Tell me more!]',
  '[Good luck with that!|Fingers crossed.|Hope it goes well.]',
  '[Maybe try|Have you considered] [an early night|a short walk|making a list|asking a friend]?',
  '[Oh no!|Oh nice!|Wow!] [What happened?|How did that go?|Then what?]',
  "[I'll remember that|Noted], {user}.",
  '[Makes sense.|Fair enough.|I understand.] [Anything I can help with?|Want to talk it through?]',
];

const reply = (ctx: Ctx, templates: readonly string[], vars: Vars) =>
  say(ctx, ctx.rng() < 0.7 ? pick(ctx.rng, templates) : pick(ctx.rng, GENERIC_REPLIES), vars);

function ask(
  ctx: Ctx,
  kind: QuestionKind,
  fact: string,
  templates: readonly string[],
  vars: Vars,
  answer: string,
  evidence: string[],
  count = 1,
) {
  for (const [template, rng] of wordings(ctx.rng, ctx.asks, templates, count)) {
    const from = { ...ctx, rng };
    ctx.questions.push({ kind, fact, text: say(from, template, vars), evidence, answer: say(from, answer, vars) });
  }
}

/** 1 question most of the time, 2 (different wordings) sometimes. */
const howMany = (ctx: Ctx) => (ctx.rng() < 0.35 ? 2 : 1);

const handle = (ctx: Ctx, name: string) => `c${pad2(ctx.group + 1)}:${name}`;

// ---------------------------------------------------------------------------------------------
// Single facts: stated once, asked as a paraphrase.

interface SingleFact {
  id: string;
  vars(rng: Rng): Vars;
  say: string[];
  reply: string[];
  ask: string[];
  answer: string;
}

const SINGLE_FACTS: SingleFact[] = [
  {
    id: 'pet',
    vars: (rng) => ({ breed: pick(rng, V.breeds), pet: pick(rng, V.pets) }),
    say: [
      'I [finally|] <adopted> a <dog> [last weekend|on Saturday|this week], a {breed} [called|named] {pet}!',
      'Meet {pet}: the {breed} <dog> we <adopted> [from the shelter|from a rescue|yesterday].',
    ],
    reply: [
      '[Congratulations|How exciting]! How is {pet} settling in?',
      "A {breed}! [Those are|They're] [such sweet|lovely|energetic] dogs.",
    ],
    ask: [
      'What <breed> of <dog> did {user} <adopt>?',
      'What is the name of the <dog> {user} <adopted>?',
      'What did {user} call [the|their] new <dog>?',
    ],
    answer: '{breed} named {pet}',
  },
  {
    id: 'instrument',
    vars: (rng) => ({ instrument: pick(rng, V.instruments), weekday: pick(rng, V.weekdays) }),
    say: [
      "I've been <learning> the {instrument} — [lessons are|my teacher comes] on {weekday}s.",
      '[Started|Began] {instrument} lessons [this month|last week]; [my fingers hurt|it is harder than it looks]!',
    ],
    reply: [
      "The {instrument}! [That's a great choice|How are the lessons going]?",
      '[Keep at it|Practice pays off], {user}!',
    ],
    ask: [
      'Which <instrument> is {user} [learning|studying|picking up]?',
      'What <instrument> does {user} [take lessons in|practise]?',
    ],
    answer: '{instrument}',
  },
  {
    id: 'allergy',
    vars: (rng) => {
      const [food, dish] = pick(rng, V.allergies) as string[];
      return { food: food as string, dish: dish as string };
    },
    say: [
      "[Turns out|The doctor says|Found out today] I'm <allergic> to {food}, so no more {dish} for me.",
      "Had a [reaction|rash] after lunch — I'm <allergic> to {food}, apparently.",
    ],
    reply: [
      '[Oh no|That is rough]. Do you need to carry [medication|an EpiPen] now?',
      "Good to know, I'll keep that in mind for recipe ideas.",
    ],
    ask: [
      'What [food|ingredient] is {user} <allergic> to?',
      'What does {user} [have to avoid eating|need to stay away from] [now|these days]?',
    ],
    answer: '{food}',
  },
  {
    id: 'trip',
    vars: (rng) => ({ city: pick(rng, V.cities), month: pick(rng, V.months), friendKind: pick(rng, V.friendKinds) }),
    say: [
      "We're <flying> to {city} in {month} for my {friendKind}'s <wedding>.",
      'Booked [flights|tickets] to {city} for the <wedding> in {month}!',
    ],
    reply: [
      '{city} in {month} sounds [lovely|wonderful]! [Have you been before|Are you staying long]?',
      'A <wedding> trip! [What will you wear|Do you have an outfit yet]?',
    ],
    ask: [
      'Where is {user} [travelling|going|headed] for the <wedding>?',
      'Which city is {user} [visiting|flying to] in {month}?',
    ],
    answer: '{city}',
  },
  {
    id: 'book',
    vars: (rng) => ({ book: pick(rng, V.books), author: pick(rng, V.authors) }),
    say: ["I'm <reading> '{book}' by {author} — [can't put it down|it's slow going|the ending got me]."],
    reply: [
      "I've heard good things about {author}. [Would you recommend it|What's it about]?",
      '[Nice|Ooh], what do you think of it so far?',
    ],
    ask: [
      'What <book> was {user} [reading|into|enjoying] [recently|lately]?',
      'Who wrote the <book> {user} was <reading>?',
    ],
    answer: "'{book}' by {author}",
  },
  {
    id: 'race',
    vars: (rng) => ({ city: pick(rng, V.cities), time: pick(rng, V.times) }),
    say: [
      'I <finished> the {city} <half> in {time}!',
      '[Crossed the line|Made it to the finish] at the {city} <half>: {time}[, a new personal best|].',
    ],
    reply: [
      '{time} is [a great time|impressive|fantastic]! [How do your legs feel|Are you sore]?',
      '[Congrats|Well done] on the <race>, {user}!',
    ],
    ask: [
      "What was {user}'s [time|finishing time] in the <half>?",
      'How [fast|quickly] did {user} [finish|run|complete] the {city} <half>?',
    ],
    answer: '{time}',
  },
  {
    id: 'class',
    vars: (rng) => ({ craft: pick(rng, V.crafts), weekday: pick(rng, V.weekdays), venue: pick(rng, V.venues) }),
    say: [
      '[Signed up for|Enrolled in|Booked] a {craft} <class> on {weekday} evenings at the {venue}.',
      'My {craft} <class> at the {venue} [starts|started] this {weekday}!',
    ],
    reply: [
      '{craft} sounds fun! [Have you tried it before|What made you choose it]?',
      '[Enjoy|Have fun at] the <class>!',
    ],
    ask: ['What <class> did {user} [sign up for|enrol in|join]?', 'What does {user} do on {weekday} evenings?'],
    answer: '{craft}',
  },
  {
    id: 'gift',
    vars: (rng) => ({ relative: pick(rng, V.relatives), gift: pick(rng, V.gifts) }),
    say: [
      'I got my {relative} a {gift} for [their|the] <birthday>.',
      '[Ordered|Found] the perfect <birthday> present for my {relative}: a {gift}.',
    ],
    reply: [
      '[What a thoughtful gift|Lovely idea]! I hope your {relative} likes it.',
      'A {gift}? [Great choice|Your {relative} is lucky]!',
    ],
    ask: [
      'What did {user} <give> their {relative} for [their|the] <birthday>?',
      'What <birthday> present did {user} [pick out|choose] for their {relative}?',
    ],
    answer: '{gift}',
  },
  {
    id: 'restaurant',
    vars: (rng) => ({ restaurant: pick(rng, V.restaurants), dish: pick(rng, V.dishes) }),
    say: [
      "[Best|Most memorable] <meal> I've had in ages was at {restaurant}; their {dish} is <amazing>.",
      'Went to {restaurant} [last night|for lunch]; [order|get] the {dish}, trust me.',
    ],
    reply: [
      '[Noted|Adding it to the list]! Is {restaurant} [expensive|hard to book]?',
      '{dish} sounds [delicious|great].',
    ],
    ask: [
      'Which restaurant does {user} <recommend> for {dish}?',
      'Where did {user} have a [great|memorable] <meal> [recently|lately]?',
    ],
    answer: '{restaurant}',
  },
  {
    id: 'garden',
    vars: (rng) => ({ plant: pick(rng, V.plants) }),
    say: [
      "I'm <growing> {plant} on the <balcony> this year.",
      '[Put in|Potted up] {plant} on my <balcony> [today|this weekend].',
    ],
    reply: ['[Fresh|Home-grown] {plant}! Do they get enough sun?', '[A little garden|A balcony garden] sounds lovely.'],
    ask: ['What is {user} [growing|planting] on their <balcony>?', 'What did {user} [plant|put in] on the <balcony>?'],
    answer: '{plant}',
  },
  {
    id: 'language',
    vars: (rng) => ({ language: pick(rng, V.languages), reason: pick(rng, V.reasons) }),
    say: [
      "I'm <practising> {language} [every morning|on the train] with an app.",
      '[Started|Signed up for] {language} lessons [online|at night school], {reason}.',
    ],
    reply: [
      'How far along are you? {language} [grammar can be tricky|is a beautiful language].',
      '[Good luck|Impressive]! Languages take patience.',
    ],
    ask: [
      'Which language is {user} [learning|studying|practising]?',
      'What language has {user} [been working on|taken up]?',
    ],
    answer: '{language}',
  },
  {
    id: 'show',
    vars: (rng) => ({ show: pick(rng, V.shows) }),
    say: [
      "I've been <watching> '{show}' [all week|every night]; [I'm hooked|it's so good|the second season is even better].",
    ],
    reply: ["[I haven't seen it|Never heard of it]. Is it [a drama|a comedy]?", '[Ha|Nice], no spoilers please!'],
    ask: ['What <show> has {user} been [watching|bingeing|streaming]?', 'Which [series|TV show] is {user} hooked on?'],
    answer: '{show}',
  },
  {
    id: 'volunteer',
    vars: (rng) => ({ place: pick(rng, V.places), weekday: pick(rng, V.weekdays) }),
    say: [
      'I <volunteer> at the {place} every other {weekday}.',
      '[Started|Began] <volunteering> at the {place} [this month|last week].',
    ],
    reply: ["That's [wonderful|so kind], {user}. What do you do there?", 'The {place} must be glad to have you.'],
    ask: ['Where does {user} <volunteer>?', 'Where has {user} been [volunteering|helping out]?'],
    answer: '{place}',
  },
  {
    id: 'hometown',
    vars: (rng) => ({ hometown: pick(rng, V.hometowns), landmark: pick(rng, V.landmarks) }),
    say: [
      'I <grew_up> in {hometown}, [right next to|not far from] {landmark}.',
      '[Going back to|Visiting] {hometown}, where I <grew_up>, [next month|for the holidays].',
    ],
    reply: ['What was it like growing up in {hometown}?', '[Do you still have family there|Do you miss it]?'],
    ask: ['Where did {user} [grow up|spend their childhood]?', "What is {user}'s hometown?"],
    answer: '{hometown}',
  },
  {
    id: 'anniversary',
    vars: (rng) => ({ date: pick(rng, V.dates) }),
    say: [
      'Our <anniversary> is on {date}; [any ideas|need to plan something]!',
      '[Reminder to self|Note]: <anniversary> dinner on {date}.',
    ],
    reply: ['[How romantic|Lovely]! Are you planning a surprise?', 'I can help you brainstorm ideas for it.'],
    ask: ["When is {user}'s <anniversary>?", "What date is {user}'s <anniversary>?"],
    answer: '{date}',
  },
];

// ---------------------------------------------------------------------------------------------
// Facts that change: stated, mentioned in passing, then replaced in a later session.

interface UpdateFact {
  id: string;
  vars(rng: Rng, names: Pool<string>): Vars;
  old: string[];
  oldReply: string[];
  mention: string[];
  new: string[];
  newReply: string[];
  ask: string[];
  answer: string;
}

const two = <T>(rng: Rng, items: readonly T[]): [T, T] => sample(rng, items, 2) as [T, T];

const UPDATE_FACTS: UpdateFact[] = [
  {
    id: 'job',
    vars: (rng) => {
      const [company, company2] = two(rng, V.companies);
      const [role, role2] = two(rng, V.roles);
      return { company, company2, role, role2 };
    },
    old: [
      'I [start|started] a new <job> at {company} [on Monday|this week] as a {role}.',
      "[Accepted|Got] an offer from {company}: I'll be a {role} there!",
    ],
    oldReply: ['[Congratulations|Well done]! {company} [sounds great|is a good place].'],
    mention: [
      '[Long|Hectic|Exhausting] day at {company} [again|today].',
      'My team at {company} [had a reorg|got a new manager].',
    ],
    new: [
      "[Big news|Update]: I <quit> {company}; I'm now a {role2} at {company2}.",
      'New <job>: {role2} at {company2}! I <quit> {company} [last week|on Friday].',
      '[First week|Started] at {company2} [today|this week]; being a {role2} is [a big change|so different].',
    ],
    newReply: ['[Congrats on the move|That is a big change]! How is {company2} so far?'],
    ask: [
      'Where does {user} work [now|these days|at the moment]?',
      "What is {user}'s [current|latest] <job>?",
      'Which company is {user} [working for|employed at] now?',
    ],
    answer: '{role2} at {company2}',
  },
  {
    id: 'home',
    vars: (rng) => {
      const [area, area2] = two(rng, V.areas);
      return { home: pick(rng, V.homes), area, area2 };
    },
    old: [
      'We <moved> into a {home} in {area} [this month|last weekend].',
      '[Finally|] unpacked the last boxes at our new {home} in {area}.',
    ],
    oldReply: ['[Congrats on the new place|How exciting]! Do you like {area}?'],
    mention: [
      'The [street noise|neighbours upstairs] in {area} [are|is] driving me crazy.',
      '[Found|Discovered] a great bakery in {area}.',
    ],
    new: [
      "We're moving again: [signed the lease|got the keys] for a new place in {area2}.",
      '[Moving day|Moved] [today|this weekend]: goodbye {area}, hello {area2}!',
    ],
    newReply: ['Another move! [Good luck with the boxes|I hope {area2} is quieter].'],
    ask: ['Which <neighbourhood> does {user} live in now?', "Where is {user}'s new [place|home|flat]?"],
    answer: '{area2}',
  },
  {
    id: 'car',
    vars: (rng) => {
      const [car, car2] = two(rng, V.cars);
      return { car, car2 };
    },
    old: [
      'I <bought> a [used|second-hand] {car}.',
      '[Picked up|Collected] my {car} from the dealer [today|this morning].',
    ],
    oldReply: ['[Nice|Congrats]! How does the {car} drive?'],
    mention: ['The {car} [needs new tyres|failed its inspection|made a weird noise] [again|today].'],
    new: [
      '[Finally|] <sold> the {car} and [got|bought] a {car2}.',
      'My new <car> is a {car2}; <sold> the {car} [last week|yesterday].',
      'Traded the old {car} for a {car2}[; so much better|]!',
    ],
    newReply: ['A {car2}! [Enjoy the new wheels|How does it compare]?'],
    ask: ['What <car> does {user} <drive> now?', 'Which car did {user} [end up with|get] [most recently|in the end]?'],
    answer: '{car2}',
  },
  {
    id: 'partner',
    vars: (_rng, names) => ({ partner: names.take(), partner2: names.take() }),
    old: ["I've been <dating> someone: {partner}; we met at [a friend's party|the climbing gym|work]."],
    oldReply: ['[Ooh|How lovely]! Tell me about {partner}.'],
    mention: ['{partner} [cooked dinner|planned a surprise] [tonight|for me].'],
    new: ["{partner} and I [broke up|split up]. [I'm|I've been] <dating> {partner2} [now|since last month]."],
    newReply: ["[I'm sorry about {partner}|That's a lot of change], but I'm glad you're happy with {partner2}."],
    ask: [
      'Who is {user} <dating> [now|these days]?',
      "What is the name of {user}'s [current|new] [partner|significant other]?",
    ],
    answer: '{partner2}',
  },
  {
    id: 'commute',
    vars: (rng) => {
      const [mode, mode2] = two(rng, V.modes);
      return { mode, mode2 };
    },
    old: ['I <commute> {mode} [these days|every day].', '[Started|Now] going to <work> {mode}.'],
    oldReply: ['How long does it take {mode}?'],
    mention: ['[Got soaked|Was late] going to <work> {mode} [today|again].'],
    new: [
      '[Gave up on|Done with] going {mode}; now I go {mode2}.',
      'Switched to going {mode2}: [much faster|cheaper|less stressful].',
    ],
    newReply: ['[Good call|Sounds better]. Is it quicker {mode2}?'],
    ask: ['How does {user} [get to work|commute] now?', "What is {user}'s [current|new] way of getting to <work>?"],
    answer: '{mode2}',
  },
  {
    id: 'sport',
    vars: (rng) => {
      const [sport, sport2] = two(rng, V.sports);
      return { sport, sport2 };
    },
    old: ['[Joined|Signed up at] a gym for {sport} [three times a week|on weekends].'],
    oldReply: ['{sport} is a great <exercise>! How was the first session?'],
    mention: ['{sport} [wiped me out|was brutal] [today|this morning].'],
    new: ["[Quit|Dropped] {sport}; I'm doing {sport2} [now|instead]."],
    newReply: ['[Nice change|Good for you]! How are you finding {sport2}?'],
    ask: ['What <exercise> does {user} do [now|these days]?', 'Which sport did {user} switch to?'],
    answer: '{sport2}',
  },
];

// ---------------------------------------------------------------------------------------------
// People: introduced by role in one session, their news by name only in another.

const ROLES: { say: string[]; ask: string[] }[] = [
  { say: ['sister', 'big sister', 'little sister'], ask: ['sister'] },
  { say: ['brother', 'big brother', 'little brother'], ask: ['brother'] },
  { say: ['best friend', 'oldest friend', 'closest friend'], ask: ['best friend', 'closest friend'] },
  { say: ['manager', 'boss', 'team lead'], ask: ['manager', 'boss'] },
  { say: ['neighbour', 'next-door neighbour', 'neighbor'], ask: ['neighbour', 'neighbor'] },
  { say: ['roommate', 'flatmate', 'housemate'], ask: ['roommate', 'flatmate'] },
  { say: ['cousin'], ask: ['cousin'] },
  { say: ['coworker', 'colleague', 'work friend'], ask: ['coworker', 'colleague'] },
];

const INTRO = [
  'My {roleSay} {name} is [coming to stay|visiting] [next month|for a week].',
  '[Had dinner|Went hiking|Had coffee] with my {roleSay} {name} [today|on Sunday|last night].',
  'My {roleSay} {name} [called|texted] me [this morning|last night].',
];
const INTRO_REPLY = ['[How is|Say hi to] {name}!', '[Sounds nice|That is lovely]. How are they doing?'];

interface PersonNews {
  id: string;
  vars(rng: Rng, names: Pool<string>): Vars;
  say: string[];
  reply: string[];
  ask: string[];
  answer: string;
}

const NEWS: PersonNews[] = [
  {
    id: 'job',
    vars: (rng) => ({ job: pick(rng, V.roles), org: pick(rng, V.companies) }),
    say: [
      '{name} [got|landed] a job as a {job} at {org}!',
      '{name} [starts|started] as a {job} at {org} [next week|this month].',
    ],
    reply: ['Good for {name}! {org} [is a big name|sounds exciting].'],
    ask: ["What <job> did {user}'s {roleAsk} [get|land|start]?", "What does {user}'s {roleAsk} do for work now?"],
    answer: '{job} at {org}',
  },
  {
    id: 'move',
    vars: (rng) => ({ city: pick(rng, V.cities) }),
    say: [
      '{name} is [moving|relocating] to {city} [next month|in the spring].',
      '{name} [found a flat|got a place] in {city}!',
    ],
    reply: ['{city}! [You will have to visit|That is far]!'],
    ask: [
      "Where is {user}'s {roleAsk} [moving|relocating] to?",
      "Which city is {user}'s {roleAsk} [moving to|settling in]?",
    ],
    answer: '{city}',
  },
  {
    id: 'engaged',
    vars: (_rng, names) => ({ partner: names.take() }),
    say: [
      '{name} [got engaged|is engaged] to {partner}!',
      '{name} and {partner} are getting married [in the summer|next year]!',
    ],
    reply: ['[Wonderful news|How exciting]! Give {name} my congratulations.'],
    ask: ["Who is {user}'s {roleAsk} [marrying|engaged to]?"],
    answer: '{partner}',
  },
  {
    id: 'baby',
    vars: (rng) => ({ baby: pick(rng, V.babies) }),
    say: [
      '{name} [just had|welcomed] a baby [girl|boy] [called|named] {baby}.',
      "[Met|Held] {name}'s [newborn|new baby], little {baby}, today.",
    ],
    reply: ['[Congratulations to {name}|A baby]! How is everyone doing?'],
    ask: ["What is the name of {user}'s {roleAsk}'s [baby|newborn]?"],
    answer: '{baby}',
  },
  {
    id: 'injury',
    vars: (rng) => ({ bodypart: pick(rng, V.bodyparts) }),
    say: [
      '{name} [broke|fractured] their {bodypart} [skiing|playing football|falling off a ladder].',
      '{name} is in a cast: [a broken|a fractured] {bodypart}.',
    ],
    reply: ['[Ouch|Poor {name}]! I hope it heals quickly.'],
    ask: ["What did {user}'s {roleAsk} [break|fracture|injure]?"],
    answer: '{bodypart}',
  },
  {
    id: 'hobby',
    vars: (rng) => ({ hobby: pick(rng, V.hobbies) }),
    say: [
      '{name} [took up|got into] {hobby} [and loves it|to de-stress].',
      "{name} [won't stop talking about|is obsessed with] {hobby} [lately|now].",
    ],
    reply: ['{hobby}? [That is unexpected|Fun]!'],
    ask: ["What hobby did {user}'s {roleAsk} [take up|get into]?"],
    answer: '{hobby}',
  },
  {
    id: 'business',
    vars: (rng) => ({ business: pick(rng, V.businesses), area: pick(rng, V.areas) }),
    say: [
      '{name} [opened|launched] a {business} in {area}!',
      "{name}'s new {business} in {area} [opens|opened] [this weekend|on Friday].",
    ],
    reply: ['[Brave move|How exciting]! I hope it goes well for {name}.'],
    ask: ["What did {user}'s {roleAsk} [open|start|launch]?"],
    answer: '{business}',
  },
];

const PET_NEWS: PersonNews[] = [
  {
    id: 'pet-surgery',
    vars: (rng) => ({ part: pick(rng, V.petParts) }),
    say: [
      '{pet} [had surgery on|hurt] [his|her] {part}[, poor thing|].',
      'Vet trip: {pet} [needs stitches in|has an infection in] [his|her] {part}.',
    ],
    reply: ['Poor {pet}! I hope the recovery is quick.'],
    ask: [
      "What did {user}'s [{breed}|<dog>] [have surgery on|hurt]?",
      "Which body part of {user}'s [{breed}|<dog>] needed the vet?",
    ],
    answer: '{part}',
  },
  {
    id: 'pet-prize',
    vars: (rng) => ({
      petShow: pick(rng, V.petShows),
      prize: pick(rng, ['a blue ribbon', 'first prize', 'best in show', 'a silver medal']),
    }),
    say: ['{pet} [won|took] {prize} at the {petShow}!'],
    reply: ['Go {pet}! [What a star|So proud]!'],
    ask: ["What [prize|award] did {user}'s [{breed}|<dog>] [win|get]?"],
    answer: '{prize}',
  },
  {
    id: 'pet-chewed',
    vars: (rng) => ({ item: pick(rng, V.chewed) }),
    say: ['{pet} [ate|chewed up] my {item} [this morning|while I was out].'],
    reply: ['[Oh no|Naughty {pet}]! Is it salvageable?'],
    ask: ["What did {user}'s [{breed}|<dog>] [eat|chew up|destroy]?"],
    answer: '{item}',
  },
];

// ---------------------------------------------------------------------------------------------
// Recurring topics: many turns with the same words, a few with a detail asked about.

interface Topic {
  id: string;
  vars(rng: Rng): Vars;
  chatter: string[];
  reply: string[];
  details: { say: string; ask: string[]; answer: string; vars(rng: Rng): Vars }[];
}

const TOPICS: Topic[] = [
  {
    id: 'running',
    vars: (rng) => ({ dist: pick(rng, V.runDistances) }),
    chatter: [
      '[Went for|Did] a {dist} <run> [this morning|after work|before breakfast].',
      'My <shoes> are [falling apart|worn out]; need new ones before the next <race>.',
      '<running> [felt slow|felt great] today, the [hills|wind] [killed me|did not bother me].',
      'Thinking of joining a <running> club [for motivation|to meet people].',
      'Rest day from <running> today, legs are [sore|heavy].',
      '[Signed up for|Thinking about] another <race> in the [autumn|spring].',
      'Early <run> [in the fog|along the river|around the park] [today|this morning].',
    ],
    reply: ['Nice <run>! [How far did you go|How was the pace]?', 'Remember to stretch after <running>!'],
    details: [
      {
        say: 'On the <run> [during|in] the [downpour|storm|heavy rain] I [twisted|sprained|rolled] my {bodypart}.',
        ask: ['What did {user} [hurt|injure] <running> in the [rain|storm|bad weather]?'],
        answer: '{bodypart}',
        vars: (rng) => ({ bodypart: pick(rng, ['ankle', 'knee', 'hip', 'calf']) }),
      },
      {
        say: 'My [longest|furthest] <run> [ever|so far] was {long} along the {route}.',
        ask: [
          "How far was {user}'s longest <run>?",
          'What is the [longest|furthest] distance {user} has [run|jogged]?',
        ],
        answer: '{long}',
        vars: (rng) => ({ long: pick(rng, V.longRuns), route: pick(rng, V.routes) }),
      },
      {
        say: '[Bought|Picked up] new <shoes> from {brand}, the {colour} ones.',
        ask: ['Which brand of <shoes> did {user} [buy|get]?'],
        answer: '{brand}',
        vars: (rng) => ({ brand: pick(rng, V.shoeBrands), colour: pick(rng, V.colours) }),
      },
      {
        say: 'Our <running> club meets at the {meet} on {weekday} mornings.',
        ask: ["Where does {user}'s <running> [club|group] meet?"],
        answer: '{meet}',
        vars: (rng) => ({ meet: pick(rng, V.meetPoints), weekday: pick(rng, V.weekdays) }),
      },
    ],
  },
  {
    id: 'cooking',
    vars: (rng) => ({ dish: pick(rng, V.homeDishes) }),
    chatter: [
      'Made {dish} for dinner [tonight|again].',
      '[Trying|Tested] a new <recipe> for {dish} [tonight|this weekend].',
      'My kitchen is a mess after <cooking> all day.',
      'Need to [buy|stock up on] more spices for my <cooking>.',
      'Meal prep Sunday: {dish} for the whole week.',
      '[Watched|Found] a [great|new] <cooking> video about {dish}.',
      'Burned my hand on a pan while <cooking>, [ugh|oops].',
    ],
    reply: ['[Yum|Sounds tasty]! What is your favourite <recipe> lately?', 'Home <cooking> is the best.'],
    details: [
      {
        say: 'The <secret> to my {homeDish} is {ingredient}.',
        ask: ["What is the <secret> ingredient in {user}'s {homeDish}?"],
        answer: '{ingredient}',
        vars: (rng) => ({ homeDish: pick(rng, V.homeDishes), ingredient: pick(rng, V.ingredients) }),
      },
      {
        say: 'I [burned|ruined] the {homeDish} when [my in-laws|the neighbours|my boss] came over for dinner.',
        ask: [
          'What did {user} [burn|ruin] when guests came for dinner?',
          'Which dish went wrong when {user} had people over?',
        ],
        answer: '{homeDish}',
        vars: (rng) => ({ homeDish: pick(rng, V.homeDishes) }),
      },
      {
        say: '[Won|Took] second place in the {contest} <cooking> contest with my {homeDish}.',
        ask: ['Which dish won {user} a prize in the <cooking> [contest|competition]?'],
        answer: '{homeDish}',
        vars: (rng) => ({ contest: pick(rng, V.contestPrizes), homeDish: pick(rng, V.homeDishes) }),
      },
    ],
  },
  {
    id: 'gardening',
    vars: (rng) => ({ crop: pick(rng, V.crops) }),
    chatter: [
      'Spent the afternoon weeding the <garden>.',
      'The {crop} in the <garden> [need|needs] more sun.',
      'Watering the <garden> [twice a day|every evening] in this heat.',
      'Ordered seeds for the <garden> [for next year|for spring].',
      'Dug a new bed in the <garden> [today|this weekend].',
      '[Compost|The compost heap] in the <garden> is [finally|nearly] ready.',
    ],
    reply: ['[Your garden sounds lovely|Gardening is so relaxing].', 'How is the <garden> doing?'],
    details: [
      {
        say: '[Harvested|Picked] {kilos} kilos of {crop2} from the <garden> this week.',
        ask: ['How many kilos of {crop2} did {user} [harvest|pick|gather] [from the garden|this week]?'],
        answer: '{kilos} kilos',
        vars: (rng) => ({ kilos: String(3 + Math.floor(rng() * 20)), crop2: pick(rng, V.crops) }),
      },
      {
        say: '{pest} [ate|destroyed|got] all my {gardenPlant} [overnight|this week].',
        ask: ["What destroyed {user}'s {gardenPlant}?", "What got into {user}'s <garden> and ate the {gardenPlant}?"],
        answer: '{pest}',
        vars: (rng) => ({ pest: pick(rng, V.pests), gardenPlant: pick(rng, V.gardenPlants) }),
      },
    ],
  },
  {
    id: 'photography',
    vars: () => ({}),
    chatter: [
      'Took my <camera> out [at sunrise|to the harbour|in the old town] [today|this morning].',
      'Editing <photo>s all evening.',
      'Thinking about upgrading my <camera> [body|gear].',
      '[Printed|Framed] a few <photo>s for the hallway.',
      'The light was [perfect|terrible] for <photo>s today.',
      'Joined a <photo> walk with [strangers|the camera club].',
    ],
    reply: ['[Share some|I would love to see the] <photo>s!', 'What do you like to shoot most?'],
    details: [
      {
        say: '[Sold|Licensed] my first <photo>, the one of the {subject}, to {buyer}.',
        ask: ["Who [bought|paid for] {user}'s <photo> of the {subject}?"],
        answer: '{buyer}',
        vars: (rng) => ({ subject: pick(rng, V.photoSubjects), buyer: pick(rng, V.photoBuyers) }),
      },
      {
        say: '[Dropped|Broke] my {lens} lens at the {lensPlace}.',
        ask: ['Which lens did {user} [break|damage|drop]?'],
        answer: '{lens}',
        vars: (rng) => ({ lens: pick(rng, V.lenses), lensPlace: pick(rng, V.lensPlaces) }),
      },
    ],
  },
  {
    id: 'boardgames',
    vars: (rng) => ({ game: pick(rng, V.games) }),
    chatter: [
      '<game_night> [tonight|on Friday] with the usual crew.',
      '[Lost|Won] at {game} again at <game_night>.',
      'Bought a new expansion for {game}.',
      'Hosting <game_night> [this week|on Saturday], need snacks.',
      'We argued about the rules of {game} [for an hour|all evening].',
    ],
    reply: ['[Fun|Sounds like a good night]! Who usually wins?', 'I love a good <game_night>.'],
    details: [
      {
        say: 'We played {game2} until {late} at <game_night> and {winner} <won>.',
        ask: [
          "Who <won> the {game2} marathon at {user}'s <game_night>?",
          'Who [beat everyone|was the winner] at {game2} [that night|at game night] with {user}?',
        ],
        answer: '{winner}',
        vars: (rng) => ({ game2: pick(rng, V.games), late: pick(rng, V.lateTimes), winner: pick(rng, OTHER_NAMES) }),
      },
      {
        say: 'My favourite game [right now|this year] is {game2}; [I keep buying expansions|we play it every week].',
        ask: ["What is {user}'s favourite board game [at the moment|these days]?"],
        answer: '{game2}',
        vars: (rng) => ({ game2: pick(rng, V.games) }),
      },
    ],
  },
  {
    id: 'renovation',
    vars: (rng) => ({ room: pick(rng, V.rooms) }),
    chatter: [
      'Still painting the {room} for the <renovation>.',
      'The <plumber> [is late again|did not show up] for the <renovation>.',
      'Dust everywhere from the <renovation>.',
      'The <renovation> budget is [blown|getting tight].',
      'Picked paint samples for the {room} <renovation>.',
      'Living out of boxes until the <renovation> is done.',
    ],
    reply: [
      '[Renovations are so stressful|Almost there]! When should it be finished?',
      'Hang in there with the <renovation>.',
    ],
    details: [
      {
        say: 'We chose {colour} <tiles> for the {room2}.',
        ask: ['What colour <tiles> did {user} [pick|choose] for the {room2}?'],
        answer: '{colour}',
        vars: (rng) => ({ colour: pick(rng, V.colours), room2: pick(rng, V.rooms) }),
      },
      {
        say: 'The <plumber> found {find} behind the {room2} wall.',
        ask: ["What did the <plumber> find behind the wall during {user}'s <renovation>?"],
        answer: '{find}',
        vars: (rng) => ({ find: pick(rng, V.wallFinds), room2: pick(rng, V.rooms) }),
      },
    ],
  },
];

// ---------------------------------------------------------------------------------------------
// Chit-chat.

const FILLER = [
  '[Ugh,|] [long|busy|slow] day at <work>.',
  'The weather has been [awful|gorgeous|so grey] [lately|this week].',
  "[Didn't sleep|Slept] [well|badly] last night.",
  'Any ideas for [dinner|the weekend|a birthday present]?',
  'Watched a [documentary|movie] about [volcanoes|space|the ocean|old trains] last night.',
  '[Had|Grabbed] coffee with {friend} [this morning|earlier].',
  '[Thinking about|Planning] a [weekend|day] trip to the [mountains|coast|lakes].',
  'My [phone|laptop] [died|is acting up] again.',
  'Feeling [tired|stressed|pretty good] today.',
  'Just got back from the [supermarket|dentist|post office].',
  'Cleaned the whole [flat|house] today.',
  'The [bus|train] was [late|packed] again.',
  'Need a new <book> to read, any [ideas|recommendations]?',
  'Is it weird to eat cereal for <meal>?',
  '[Finally|] finished my taxes.',
  'Can you remind me to call the bank tomorrow?',
  'What should I cook [tonight|this week]?',
  'My [knee|back|neck] has been aching [lately|since Monday].',
  "[It's|Been] raining all weekend.",
  'Went to a [concert|gig|play] [last night|on Friday] with {friend}.',
  'Work is [crazy|quiet|stressful] [right now|this month].',
  'Trying to drink more water [lately|this week].',
  'Spent the whole evening [on the sofa|reading|doing laundry].',
];

const PET_FILLER = [
  'Took {pet} for a walk [by the river|in the park|around the block].',
  '{pet} [woke me up|barked] at [5am|the mail carrier] again.',
  'Bought {pet} a new [toy|bed|collar].',
];

const OPENERS = [
  '[Hi|Hey|Morning|Hello] [again|there]!',
  '[Hey|Hi], [quick question|got a minute]?',
  "[I'm back|Hello again].",
];
const OPENER_REPLIES = [
  '[Hi|Hello] {user}! [How have you been?|What is new?|How was your week?]',
  'Welcome back, {user}!',
];
const CLOSERS = ['[Gotta run|Talk later|Thanks, bye]!', "[That's all for now|OK, thanks], [bye|see you]!"];
const CLOSER_REPLIES = ['[Take care|Talk soon|Bye], {user}!', '[Anytime|Good night], {user}.'];

// ---------------------------------------------------------------------------------------------

export function planDialogue(rng: Rng, scale: number, asks: Asks): PlannedGroup[] {
  const conversations = Math.max(1, Math.round(12 * scale));
  const users = new Pool(rng, USER_NAMES, true);
  const groups: PlannedGroup[] = [];
  for (let group = 0; group < conversations; group++) groups.push(planConversation(rng, group, users.take(), asks));
  return groups;
}

// ---------------------------------------------------------------------------------------------
// Things a user is into (issue 28): named in three sessions, said what they are only in the first.
// The question asks for the thing by what it is; the later mentions share no word with it (but the
// speaker's name in the title), only the thing's name with the first mention.

interface Pastime {
  id: string;
  names: readonly string[];
  intro: readonly string[];
  mentions: readonly string[];
  ask: readonly string[];
}

const PASTIMES: Pastime[] = [
  {
    id: 'game',
    names: ['Hollow Knight', 'Stardew Valley', 'Outer Wilds', 'Disco Elysium', 'Slay the Spire', 'Apex Legends'],
    intro: ["I've started playing a video game called {item}.", 'My cousin got me into a video game: {item}.'],
    mentions: [
      'Stayed up way too late with {item} again.',
      'Finally beat the last boss in {item}!',
      '{item} has me hooked, three hours gone in a blink.',
      'Lost my whole Sunday to {item}, no regrets.',
    ],
    ask: ['Which video game has {user} been playing?', 'What video game did {user} get into?'],
  },
  {
    id: 'band',
    names: ['Paper Comets', 'Saltwater Radio', 'Neon Orchard', 'Copper Lungs', 'Marrow Bay', 'Velvet Tides'],
    intro: ['I keep listening to a band called {item}.', 'A friend sent me a song by a band, {item}, and I love it.'],
    mentions: [
      'Got tickets to see {item} live in May!',
      '{item} dropped a new album, it is on repeat.',
      'Had {item} on full volume the whole drive home.',
      'Bought the {item} vinyl at the market.',
    ],
    ask: ['Which band has {user} been listening to?', 'What band does {user} keep listening to?'],
  },
  {
    id: 'podcast',
    names: ['Deep Field Notes', 'Tiny Empires', 'Slow Burn Kitchen', 'Hidden Atlas', 'Orbital Gossip', 'Quiet Ledger'],
    intro: ["There's a podcast I follow now, {item}.", 'I found a great podcast called {item}.'],
    mentions: [
      'The new {item} episode was wild.',
      'Caught up on {item} during my commute.',
      'Sent my sister the latest {item}, she was hooked too.',
      'Two {item} episodes while cleaning the flat.',
    ],
    ask: ['Which podcast does {user} follow?', 'What podcast has {user} been enjoying?'],
  },
];

const PASTIME_REPLIES = ['[Nice|Fun|Love that]!', 'Enjoy {item}!', '[Ha|Oh], {item} again!'];

/** Three exchanges in three sessions; the evidence is all three, the question names only what the thing is. */
function planPastime(ctx: Ctx, pastime: Pastime, item: string): void {
  if (ctx.sessions < 3) return;
  const sessions = sample(ctx.rng, [...Array(ctx.sessions).keys()], 3).sort((a, b) => a - b);
  const v = { item };
  const mentions = sample(ctx.rng, pastime.mentions, 2);
  const evidence = sessions.map((session, index) => {
    const h = handle(ctx, `${pastime.id}${index}`);
    const text = index === 0 ? pick(ctx.rng, pastime.intro) : (mentions[index - 1] as string);
    exchange(ctx, session, say(ctx, text, v), say(ctx, pick(ctx.rng, PASTIME_REPLIES), v), h);
    return h;
  });
  ask(ctx, 'multi-hop', `multi:${pastime.id}`, pastime.ask, v, '{item}', evidence);
}

function planConversation(rng: Rng, group: number, user: string, asks: Asks): PlannedGroup {
  const sessions = int(rng, 14, 18);
  const ctx: Ctx = {
    rng,
    asks,
    user,
    group,
    sessions,
    events: [],
    questions: [],
    names: new Pool(rng, OTHER_NAMES, true),
  };
  const anySession = () => int(rng, 0, sessions - 1);
  const vars: { pet?: string } = {};
  let petFact: { handle: string; vars: Vars } | null = null;

  // Single facts.
  for (const fact of sample(rng, SINGLE_FACTS, int(rng, 9, 12))) {
    const v = fact.vars(rng);
    const h = handle(ctx, fact.id);
    exchange(
      ctx,
      fact.id === 'pet' ? int(rng, 0, Math.floor(sessions / 2)) : anySession(),
      say(ctx, pick(rng, fact.say), v),
      reply(ctx, fact.reply, v),
      h,
    );
    ask(ctx, 'single-hop', fact.id, fact.ask, v, fact.answer, [h], howMany(ctx));
    if (fact.id === 'pet') {
      vars.pet = v.pet;
      petFact = { handle: h, vars: v };
    }
  }

  // Facts that change.
  for (const fact of sample(rng, UPDATE_FACTS, 3)) {
    const v = fact.vars(rng, ctx.names);
    const first = int(rng, 0, sessions - 5);
    const later = int(rng, first + 3, sessions - 1);
    exchange(ctx, first, say(ctx, pick(rng, fact.old), v), reply(ctx, fact.oldReply, v), handle(ctx, `${fact.id}-old`));
    for (let i = 0, n = int(rng, 1, 2); i < n; i++) {
      exchange(ctx, int(rng, first, later), say(ctx, pick(rng, fact.mention), v), reply(ctx, GENERIC_REPLIES, v));
    }
    const h = handle(ctx, `${fact.id}-new`);
    exchange(ctx, later, say(ctx, pick(rng, fact.new), v), reply(ctx, fact.newReply, v), h);
    ask(ctx, 'update', `update:${fact.id}`, fact.ask, v, fact.answer, [h], rng() < 0.3 ? 2 : 1);
  }

  // People: intro in one session, news in later ones.
  const people = sample(rng, ROLES, 3);
  const news = sample(rng, NEWS, NEWS.length);
  let newsAt = 0;
  people.forEach((role, index) => {
    const name = ctx.names.take();
    const v: Vars = { name, roleSay: pick(rng, role.say), roleAsk: pick(rng, role.ask) };
    const intro = handle(ctx, `person${index}`);
    const introSession = int(rng, 0, sessions - 4);
    exchange(ctx, introSession, say(ctx, pick(rng, INTRO), v), reply(ctx, INTRO_REPLY, v), intro);
    if (rng() < 0.5) {
      ask(
        ctx,
        'single-hop',
        'person-name',
        ["What is the name of {user}'s {roleAsk}?", "What is {user}'s {roleAsk} called?"],
        v,
        '{name}',
        [intro],
      );
    }
    for (let i = 0, n = int(rng, 1, 2); i < n; i++) {
      const item = news[newsAt++ % news.length] as PersonNews;
      const nv = { ...v, ...item.vars(rng, ctx.names), roleAsk: pick(rng, role.ask) };
      const h = handle(ctx, `person${index}-${item.id}`);
      const session = int(rng, introSession + 1, sessions - 1);
      exchange(ctx, session, say(ctx, pick(rng, item.say), nv), reply(ctx, item.reply, nv), h);
      ask(ctx, 'multi-hop', `multi:${item.id}`, item.ask, nv, item.answer, [intro, h]);
      // Sometimes the news brings a third person whose own news comes later still (three hops).
      if (item.id === 'engaged' && session < sessions - 1 && rng() < 0.7) {
        const bv = { ...nv, business: pick(rng, V.businesses), area: pick(rng, V.areas) };
        const third = handle(ctx, `person${index}-partner-business`);
        exchange(
          ctx,
          int(rng, session + 1, sessions - 1),
          say(ctx, '{partner} [opened|launched] a {business} in {area}[!|.]', bv),
          reply(ctx, ['[Good for {partner}|How exciting]!'], bv),
          third,
        );
        ask(
          ctx,
          'multi-hop',
          'multi:partner-business',
          ["What did the [fiancé|partner] of {user}'s {roleAsk} [open|launch|start]?"],
          bv,
          '{business}',
          [intro, h, third],
        );
      }
    }
  });

  // The pet's own news, by name only.
  if (petFact) {
    const { handle: intro, vars: pv } = petFact;
    const introSession = ctx.events.find((event) => event.items[0]?.handle === intro)?.session ?? 0;
    if (introSession < sessions - 1) {
      const item = pick(rng, PET_NEWS);
      const nv = { ...pv, ...item.vars(rng, ctx.names) };
      const h = handle(ctx, item.id);
      exchange(
        ctx,
        int(rng, introSession + 1, sessions - 1),
        say(ctx, pick(rng, item.say), nv),
        reply(ctx, item.reply, nv),
        h,
      );
      ask(ctx, 'multi-hop', `multi:${item.id}`, item.ask, nv, item.answer, [intro, h]);
    }
  }

  // Two recurring topics: many turns sharing words, a few with a detail.
  for (const topic of sample(rng, TOPICS, 2)) {
    const tv = topic.vars(rng);
    for (let i = 0, n = int(rng, 10, 14); i < n; i++) {
      const v = { ...tv, ...topic.vars(rng) };
      exchange(ctx, anySession(), say(ctx, pick(rng, topic.chatter), v), reply(ctx, topic.reply, v));
    }
    topic.details.forEach((detail, index) => {
      const v = { ...tv, ...detail.vars(rng) };
      const h = handle(ctx, `${topic.id}${index}`);
      exchange(ctx, anySession(), say(ctx, detail.say, v), reply(ctx, topic.reply, v), h);
      ask(ctx, 'distractor', `topic:${topic.id}`, detail.ask, v, detail.answer, [h]);
    });
  }

  const pastime = PASTIMES[group % PASTIMES.length] as Pastime;
  planPastime(ctx, pastime, pick(rng, pastime.names));

  const friend = ctx.names.take();
  const fillerVars: Vars = { friend, ...(vars.pet ? { pet: vars.pet } : {}) };
  const fillers = vars.pet ? [...FILLER, ...PET_FILLER] : FILLER;
  const pair = (userTemplates: readonly string[], replies: readonly string[]): PlannedItem[] => [
    { title: `${user}: ${say(ctx, pick(rng, userTemplates), fillerVars)}`, content: null, kind: 'turn', speaker: user },
    {
      title: `Assistant: ${say(ctx, pick(rng, replies), fillerVars)}`,
      content: null,
      kind: 'turn',
      speaker: 'Assistant',
    },
  ];
  return {
    name: `conversation ${pad2(group + 1)} (${user})`,
    tag: `c${pad2(group + 1)}`,
    sessions,
    events: ctx.events,
    filler: () => pair(fillers, GENERIC_REPLIES),
    sessionEvents: (r) => int(r, 8, 12),
    opener: (r) => (r() < 0.7 ? pair(OPENERS, OPENER_REPLIES) : null),
    closer: (r) => (r() < 0.5 ? pair(CLOSERS, CLOSER_REPLIES) : null),
    links: [],
    questions: ctx.questions,
  };
}
