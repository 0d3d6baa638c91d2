"""Everyday English composed clause by clause, for the bundled decoder's training text (attnviz-mini-llama,
tools/train/train_bundled_decoder.py). everyday_sentences.py fills a few hundred fixed sentence shapes; this file
builds the shapes themselves from parts — a subject, a verb in one of eleven tenses and moods (past, present, now,
will, going to, has just, can, should, must, might, would like to), its object or place, a manner, a time — then
joins clauses (and, but, because, so, when, before, after, if, that) into statements, negatives, questions,
instructions, reported speech, dialogue and short stories with a running character, so that a model meets words in
many more orders than templates give. Written for this project from general knowledge of everyday English
(Apache-2.0); not aimed at any test sentence (the held-out prefixes were written before this file and not read for it).

    composed_sentences(random.Random(seed), count) → list of sentences (a story counts as one)
"""
import re

from everyday_sentences import (verb, ANIMALS, COLOURS, DRINKS, FEELINGS, FOODS, NAMES, PLACES, ROOMS, SUBJECTS,
                                SURFACES, THINGS, TRAVEL_PLACES, WEATHER, words)

# [SECTION] the words

# A verb: its five forms and what follows it (an object kind from OBJECTS, or a fixed phrase list, or nothing).
VERBS = [
    ("eat", "eats", "ate", "eaten", "eating", "food"), ("cook", "cooks", "cooked", "cooked", "cooking", "food"),
    ("buy", "buys", "bought", "bought", "buying", "thing food"), ("want", "wants", "wanted", "wanted", "wanting", "thing food"),
    ("find", "finds", "found", "found", "finding", "thing"), ("lose", "loses", "lost", "lost", "losing", "thing"),
    ("carry", "carries", "carried", "carried", "carrying", "thing"), ("open", "opens", "opened", "opened", "opening", "openable"),
    ("close", "closes", "closed", "closed", "closing", "openable"), ("read", "reads", "read", "read", "reading", "readable"),
    ("write", "writes", "wrote", "written", "writing", "writable"), ("watch", "watches", "watched", "watched", "watching", "watchable"),
    ("see", "sees", "saw", "seen", "seeing", "person animal"), ("meet", "meets", "met", "met", "meeting", "person"),
    ("call", "calls", "called", "called", "calling", "person"), ("visit", "visits", "visited", "visited", "visiting", "person"),
    ("help", "helps", "helped", "helped", "helping", "person"), ("wait", "waits", "waited", "waited", "waiting", "for"),
    ("look", "looks", "looked", "looked", "looking", "at"), ("go", "goes", "went", "gone", "going", "to"),
    ("walk", "walks", "walked", "walked", "walking", "to"), ("drive", "drives", "drove", "driven", "driving", "to"),
    ("run", "runs", "ran", "run", "running", "to"), ("come", "comes", "came", "come", "coming", "home"),
    ("sleep", "sleeps", "slept", "slept", "sleeping", ""), ("play", "plays", "played", "played", "playing", "game"),
    ("wash", "washes", "washed", "washed", "washing", "washable"), ("clean", "cleans", "cleaned", "cleaned", "cleaning", "room"),
    ("paint", "paints", "painted", "painted", "painting", "paintable"), ("fix", "fixes", "fixed", "fixed", "fixing", "fixable"),
    ("drink", "drinks", "drank", "drunk", "drinking", "drink"), ("bring", "brings", "brought", "brought", "bringing", "thing food"),
    ("give", "gives", "gave", "given", "giving", "give"), ("send", "sends", "sent", "sent", "sending", "writable"),
    ("tell", "tells", "told", "told", "telling", "tell"), ("ask", "asks", "asked", "asked", "asking", "person"),
    ("take", "takes", "took", "taken", "taking", "thing"), ("put", "puts", "put", "put", "putting", "put"),
    ("leave", "leaves", "left", "left", "leaving", "thing"), ("sell", "sells", "sold", "sold", "selling", "thing"),
    ("forget", "forgets", "forgot", "forgotten", "forgetting", "thing"), ("need", "needs", "needed", "needed", "needing", "thing food"),
    ("learn", "learns", "learnt", "learnt", "learning", "learnable"), ("sing", "sings", "sang", "sung", "singing", "song"),
    ("draw", "draws", "drew", "drawn", "drawing", "drawable"), ("catch", "catches", "caught", "caught", "catching", "catchable"),
    ("miss", "misses", "missed", "missed", "missing", "catchable"), ("throw", "throws", "threw", "thrown", "throwing", "ball"),
    ("plant", "plants", "planted", "planted", "planting", "plantable"), ("feed", "feeds", "fed", "fed", "feeding", "animal"),
    ("pick up", "picks up", "picked up", "picked up", "picking up", "thing"), ("turn on", "turns on", "turned on", "turned on", "turning on", "switchable"),
    ("turn off", "turns off", "turned off", "turned off", "turning off", "switchable"), ("like", "likes", "liked", "liked", "liking", "thing food animal"),
    ("love", "loves", "loved", "loved", "loving", "food animal person"), ("hate", "hates", "hated", "hated", "hating", "food"),
    ("hear", "hears", "heard", "heard", "hearing", "hearable"), ("listen", "listens", "listened", "listened", "listening", "listen"),
    ("sit", "sits", "sat", "sat", "sitting", "sit"), ("stay", "stays", "stayed", "stayed", "staying", "stay"),
    ("work", "works", "worked", "worked", "working", "stay"), ("swim", "swims", "swam", "swum", "swimming", "swim"),
    ("climb", "climbs", "climbed", "climbed", "climbing", "climbable"), ("cut", "cuts", "cut", "cut", "cutting", "cuttable"),
    ("make", "makes", "made", "made", "making", "makeable"), ("keep", "keeps", "kept", "kept", "keeping", "thing"),
    ("show", "shows", "showed", "shown", "showing", "give"), ("borrow", "borrows", "borrowed", "borrowed", "borrowing", "thing"),
    ("fill", "fills", "filled", "filled", "filling", "fillable"), ("pack", "packs", "packed", "packed", "packing", "packable"),
    ("answer", "answers", "answered", "answered", "answering", "answerable"), ("finish", "finishes", "finished", "finished", "finishing", "finishable"),
    ("start", "starts", "started", "started", "starting", "finishable"), ("check", "checks", "checked", "checked", "checking", "checkable"),
    ("order", "orders", "ordered", "ordered", "ordering", "food drink"), ("boil", "boils", "boiled", "boiled", "boiling", "boilable"),
    ("fly", "flies", "flew", "flown", "flying", "to"), ("ride", "rides", "rode", "ridden", "riding", "rideable"),
    ("laugh", "laughs", "laughed", "laughed", "laughing", "at"), ("smile", "smiles", "smiled", "smiled", "smiling", "at"),
    ("talk", "talks", "talked", "talked", "talking", "talk"), ("think", "thinks", "thought", "thought", "thinking", "about"),
    ("dream", "dreams", "dreamt", "dreamt", "dreaming", "about"), ("move", "moves", "moved", "moved", "moving", "to"),
    ("arrive", "arrives", "arrived", "arrived", "arriving", "arrive"), ("hide", "hides", "hid", "hidden", "hiding", "put"),
]
PHRASES = {
    "openable": "the door | the window | the box | the letter | the gate | the fridge | the curtains | a bottle of wine | the present | her eyes | the shop",
    "readable": "a book | the newspaper | the letter | a story | the menu | the instructions | the sign | a magazine | the news | a poem | the map",
    "writable": "a letter | an email | a note | a story | a postcard | a list | a message | a poem | a card | the report",
    "watchable": "a film | the news | the football | television | the birds | the children | the sunset | the game | the rain | a play",
    "game": "football | tennis | chess | cards | the piano | the guitar | a game | with the dog | in the garden | outside | with his friends | hide and seek",
    "washable": "the dishes | the car | the floor | his hands | her hair | the windows | the clothes | the cups | the dog | his face",
    "room": "the kitchen | the bathroom | the house | the room | the windows | the car | the floor | the garage | the table | the flat",
    "paintable": "the wall | the fence | the door | a picture | the kitchen | the house | a flower | the sky | her nails | the boat",
    "fixable": "the bike | the car | the chair | the roof | the tap | the light | the computer | the radio | the door | the fence | the clock",
    "drink": "a cup of tea | a glass of water | some coffee | a glass of milk | a cup of coffee | some juice | a cold drink | the whole bottle | a glass of wine | hot chocolate",
    "give": "me the book | her a present | him a glass of water | the children some sweets | us a lift | me a hand | her the keys | the dog a bone | them a map | me his address",
    "tell": "me a story | her the truth | him a joke | us the news | them the way | me the answer | the children a story | everyone about the trip | her a secret | me his name",
    "put": "the book on the table | the milk in the fridge | the keys in the drawer | the cups on the shelf | the bag under the bed | the coat on the chair | the money in the bank | the plates in the sink | the flowers in a vase | the letter in the box",
    "learnable": "to swim | to drive | to read | to cook | French | English | the song | to ride a bike | a new word | the piano | to play chess",
    "song": "a song | a happy song | the song | a song about the sea | a lullaby | in the choir | in the shower | very well | loudly | a birthday song",
    "drawable": "a picture | a map | a cat | a house | a tree | a line | the curtains | a flower | a face | a circle",
    "catchable": "the bus | the train | a fish | the ball | a cold | the last train | the plane | the early bus | a mouse | the ferry",
    "ball": "the ball | a stone | the ball to the dog | a snowball | the ball back | the paper in the bin | a stick for the dog",
    "plantable": "some flowers | a tree | potatoes | seeds | roses | tomatoes | an apple tree | some beans | carrots | a bush",
    "switchable": "the light | the radio | the television | the oven | the heating | the computer | the lamp | the tap | the engine | the music",
    "hearable": "a noise | the bell | a dog barking | the birds | the rain | the phone | a knock at the door | music | a car | someone shouting | thunder",
    "listen": "to the radio | to music | to the teacher | to me | to the rain | to the news | carefully | to her mother | to the birds | to the story",
    "sit": "down | on the sofa | by the fire | at the table | in the garden | on the floor | next to me | in the sun | on a bench | by the window",
    "stay": "at home | in bed | late | in a hotel | with his aunt | for a week | in the garden | at the office | all day | in town",
    "swim": "in the sea | in the river | in the pool | across the lake | every morning | to the shore | in the cold water | with the fish | fast | for an hour",
    "climbable": "the tree | the hill | the stairs | the mountain | the wall | the ladder | over the fence | up the rope | the rocks | onto the roof",
    "cuttable": "the bread | the grass | the cake | the paper | his hair | the rope | the apple | the cheese | the meat | her finger",
    "makeable": "a cake | dinner | tea | a cup of coffee | a sandwich | a mess | a plan | a noise | a mistake | a list | the bed | soup | friends",
    "fillable": "the glass | the bottle | the bath | the kettle | the bucket | the car with petrol | the box | the form | the cup | the tank",
    "packable": "the bags | the suitcase | a lunch | the car | her things | a picnic | the boxes | his clothes | the shopping | a bag",
    "answerable": "the phone | the question | the door | the letter | the email | the teacher | her mother | the first question | every question",
    "finishable": "the book | the work | the race | his homework | the meal | the game | the job | school | the film | the letter | the painting",
    "checkable": "the time | the answers | the tyres | the map | the weather | the post | the oven | the list | his phone | the tickets",
    "boilable": "the water | an egg | the kettle | the potatoes | some rice | the milk | the pasta | the soup",
    "rideable": "a bike | a horse | the bus | a donkey | the train | the bike to school | a motorbike | the waves",
    "at": "the picture | the sky | the sea | me | the clock | her watch | the dog | the map | the stars | the baby | the clouds | the window",
    "for": "the bus | the train | a long time | her friend | the rain to stop | an answer | the doctor | the kettle to boil | his turn | us",
    "to": "to the shop | to the park | to school | to work | to the station | to the beach | into town | to the library | to bed | to the doctor | to church | to the market | to London | to the city | home | across the road | up the hill | along the river | round the corner | back home",
    "home": "home | back | to the party | to see us | early | late | to school | with us | into the kitchen | down the stairs | in",
    "talk": "to her friend | on the phone | about the weather | to the teacher | for hours | quietly | about the holiday | with his father | to the doctor",
    "about": "the holiday | the test | her family | the past | the future | the money | his old house | the sea | the question | what to do",
    "arrive": "at the station | home | late | early | at school | on time | in Paris | at the hotel | at the airport | at last",
}
PHRASES = {k: words(v) for k, v in PHRASES.items()}
PEOPLE = words("my mother | my father | her friend | his brother | the teacher | the doctor | our neighbour | the children | "
               "my sister | the old man | the baby | his grandmother | the new girl | the postman | her boss | my cousin | "
               "the man next door | the nurse | the police | the driver | Tom | Anna | Sarah | John | Mrs Green | Mr Jones")
ADJECTIVES = COLOURS + words("big | small | old | new | little | heavy | clean | dirty | nice | lovely | broken | "
                             "favourite | warm | cold | empty | full | long | short | cheap | beautiful | wooden | "
                             "tiny | huge | strange | funny | quiet | noisy | wet | dry | hot | fresh | sweet | dark")
MANNERS = words("quickly | slowly | carefully | quietly | happily | again | early | late | together | alone | at once | "
                "every day | sometimes | all day | very well | in the end | for a while | with a smile")
TIMES_PAST = words("yesterday | last night | this morning | last week | on Monday | on Saturday | two days ago | "
                   "an hour ago | after dinner | before school | at lunchtime | last summer | in the afternoon | "
                   "at the weekend | at eight o'clock | after work | on her birthday | that evening | the day before")
TIMES_FUTURE = words("tomorrow | next week | tonight | later | soon | on Sunday | after lunch | in the morning | "
                     "next year | this afternoon | in a minute | at the weekend | after school")
TIMES_HABIT = words("every day | every morning | on Sundays | at weekends | every evening | after school | "
                    "twice a week | in the summer | before breakfast | on Fridays | every night")
FREQUENCY = words("always | usually | often | sometimes | never | rarely")
OPENERS = words("One day | Last summer | Yesterday | Once upon a time | Last week | On Saturday | Early in the morning | "
                "Long ago | One evening | Last winter | On the first day of the holidays | A few years ago")
FOLLOW_ONS = words("Then | After that | Later | Soon | Next | At first | Suddenly | Luckily | In the end | Meanwhile | "
                   "A little later | Of course | Sadly | At last")
REPLIES = words("Yes, please. | No, thank you. | I don't know. | Of course. | Not yet. | Maybe later. | That's a good idea. | "
                "I'm not sure. | Yes, I did. | No, I didn't. | Sorry, I can't. | I think so. | Thank you very much. | "
                "It's over there. | About an hour ago. | At the station. | In the kitchen. | Because I was tired. | "
                "Sure, why not? | I'd love to.")
SAYING_VERBS = words("said | asked | replied | shouted | whispered | answered | called | cried | told her | told him")
# What general knowledge says of the world (plural subject, present tense): facts of the kind children learn.
FACTS = words(
    "Cows eat grass | Bees make honey | Birds build nests in trees | Fish live in water | Dogs like to chase cats | "
    "Cats like to sleep in the sun | Ducks swim on the pond | Owls hunt at night | Horses can run very fast | "
    "Frogs can jump a long way | Babies sleep a lot | Children like to play | Plants need water and light | "
    "Leaves fall from the trees in autumn | Flowers grow in spring | Snow falls in winter | Ice melts in the sun | "
    "Water boils at a hundred degrees | Trains run on tracks | Boats float on water | Planes fly above the clouds | "
    "Doctors help sick people | Teachers work in schools | Farmers grow food | Bakers make bread | "
    "Firefighters put out fires | Pilots fly planes | Postmen bring letters | Nurses look after patients | "
    "Cooks work in kitchens | Shops close at night | Libraries lend books | Banks keep money | "
    "Most people sleep at night | Hens lay eggs | Sheep give us wool | Squirrels collect nuts | "
    "Monkeys climb trees | Elephants have long trunks | Lions live in Africa | Penguins cannot fly | "
    "Rabbits eat carrots | Mice like cheese | Spiders have eight legs | Apples grow on trees | Oranges are full of juice | "
    "Clocks tell the time | Keys open locks | Umbrellas keep us dry | Coats keep us warm | Candles give light")


# [SECTION] noun phrases and verb phrases


def noun_phrase(rng, kind):
    """An object of the given kind, with a determiner and sometimes an adjective."""
    if kind in PHRASES:
        return rng.choice(PHRASES[kind])
    if kind == "person":
        return rng.choice(PEOPLE)
    if kind == "drink":
        return rng.choice(["a cup of ", "some ", "a glass of ", ""]) + rng.choice(DRINKS)
    noun = rng.choice({"thing": THINGS, "food": FOODS, "animal": ANIMALS}[kind])
    determiner = rng.choice(["the", "a", "my", "his", "her", "our", "their", "that", "this", "some"]
                            if kind != "food" else ["some", "the", "", "fresh", "more", "no", "a lot of"])
    if kind == "food" and determiner == "":
        return noun
    if determiner == "some" and kind != "food":
        determiner = "the"
    adjective = rng.choice(ADJECTIVES) + " " if kind != "food" and rng.random() < 0.3 else ""
    return f"{determiner} {adjective}{noun}".strip()


PREPOSITIONS = ("for", "at", "about")  # the kinds that are a preposition and its object


def complement(rng, verb):
    kinds = verb[5].split()
    if not kinds:
        return ""
    kind = rng.choice(kinds)
    return (kind + " " if kind in PREPOSITIONS else "") + noun_phrase(rng, kind)


def agreement(subject):
    return subject[1]


TENSES = ["past", "past", "past", "present", "habit", "now", "will", "going", "perfect", "can", "should", "must",
          "might", "would like", "was doing", "could not", "did not", "does not", "will not"]


def verb_phrase(rng, subject, verb, tense):
    """The verb in the tense, agreeing with the subject, and its complement: "is cooking some rice"."""
    base, third, past, participle, ing = verb[:5]
    person = agreement(subject)
    be = {"I": "am", "pl": "are", "3": "is"}[person]
    was = "were" if person == "pl" else "was"
    forms = {"past": past, "present": third if person == "3" else base,
             "habit": rng.choice(FREQUENCY) + " " + (third if person == "3" else base),
             "now": f"{be} {ing}", "will": f"will {base}", "going": f"{be} going to {base}",
             "perfect": ("has" if person == "3" else "have") + rng.choice([" just", " already", "", " never"]) + f" {participle}",
             "can": f"can {base}", "should": f"should {base}", "must": f"must {base}", "might": f"might {base}",
             "would like": f"would like to {base}", "was doing": f"{was} {ing}", "could not": f"could not {base}",
             "did not": f"didn't {base}", "does not": ("doesn't" if person == "3" else "don't") + f" {base}",
             "will not": f"won't {base}"}
    return (forms[tense] + " " + complement(rng, verb)).strip()


def time_for(rng, tense):
    if tense in ("past", "was doing", "did not", "could not"):
        return rng.choice(TIMES_PAST)
    if tense in ("will", "going", "will not", "might"):
        return rng.choice(TIMES_FUTURE)
    if tense in ("present", "does not"):
        return rng.choice(TIMES_HABIT)
    return ""


def clause(rng, subject=None, tense=None):
    """"my sister was reading the letter in the kitchen": a subject, a verb phrase, maybe a place, time or manner."""
    subject = subject or rng.choice(SUBJECTS)
    tense = tense or rng.choice(TENSES)
    verb = rng.choice(VERBS)
    parts = [subject[0], verb_phrase(rng, subject, verb, tense)]
    extra = rng.random()
    if extra < 0.2:
        parts.append(rng.choice(["in the ", "at the ", "near the ", "behind the ", "outside the "]) +
                     rng.choice(ROOMS + PLACES))
    elif extra < 0.45 and time_for(rng, tense):
        parts.append(time_for(rng, tense))
    elif extra < 0.55:
        parts.append(rng.choice(MANNERS))
    return " ".join(parts)


# [SECTION] sentences


def sentence(text, end="."):
    text = re.sub(r"\b([Aa]) ([aeio]|u(?!ni|se|s))", r"\1n \2", text.strip())
    return text[0].upper() + text[1:] + end


def statement(rng):
    return sentence(clause(rng))


def joined(rng):
    """Two clauses and a conjunction, the second sometimes about the first's subject ("..., so she ...")."""
    first_subject = rng.choice(SUBJECTS)
    tense = rng.choice(["past", "past", "present", "will", "now"])
    second_subject = rng.choice([first_subject, first_subject, rng.choice(SUBJECTS)])
    second = second_subject[2] if second_subject is first_subject else second_subject[0]
    second_subject = (second,) + second_subject[1:]
    a = clause(rng, first_subject, tense)
    b = clause(rng, second_subject, "past" if tense == "past" else rng.choice(["present", "will", "can", "past"]))
    shape = rng.randrange(7)
    if shape == 0:
        return sentence(f"{a} and {b}")
    if shape == 1:
        return sentence(f"{a}, but {b}")
    if shape == 2:
        return sentence(f"{a} because {b}")
    if shape == 3:
        return sentence(f"{a}, so {b}")
    if shape == 4:
        a = clause(rng, first_subject, "past")
        return sentence(f"{rng.choice(['when', 'after', 'before', 'as soon as', 'while'])} {a}, {clause(rng, second_subject, 'past')}")
    if shape == 5:
        return sentence(f"if {clause(rng, first_subject, 'present')}, {clause(rng, second_subject, 'will')}")
    return sentence(f"{a} and then {verb_phrase(rng, first_subject, rng.choice(VERBS), 'past' if tense == 'past' else tense)}")


COUNTED = words("apples | books | children | cups | people | eggs | days | hours")


def question(rng):
    subject = rng.choice(SUBJECTS)
    verb = rng.choice(VERBS)
    base, ing = verb[0], verb[4]
    person = agreement(subject)
    do = "does" if person == "3" else "do"
    be = {"I": "am", "pl": "are", "3": "is"}[person]
    s = subject[0]
    shapes = [lambda: f"did {s} {base} {complement(rng, verb)}",
              lambda: f"{do} {s} {base} {complement(rng, verb)}",
              lambda: f"{rng.choice(['where', 'why', 'when', 'how'])} did {s} {base} {complement(rng, verb)}",
              lambda: f"what {be} {s} {ing}",
              lambda: f"{rng.choice(['can', 'could', 'will', 'would'])} you {base} {complement(rng, verb)}",
              lambda: f"who {verb[2]} {complement(rng, verb)}",
              lambda: f"have you ever {verb[3]} {complement(rng, verb)}",
              lambda: f"how many {rng.choice(COUNTED)} did {s} {base}",
              lambda: f"why {be} {s} so {rng.choice(FEELINGS)}"]
    return sentence(shapes[rng.randrange(len(shapes))](), "?")


def instruction(rng):
    verb = rng.choice(VERBS)
    shape = rng.randrange(5)
    if shape == 0:
        return sentence(f"{verb[0]} {complement(rng, verb)}", rng.choice([".", "!"]))
    if shape == 1:
        return sentence(f"please {verb[0]} {complement(rng, verb)}")
    if shape == 2:
        return sentence(f"don't {verb[0]} {complement(rng, verb)}", rng.choice([".", "!"]))
    if shape == 3:
        return sentence(f"let's {verb[0]} {complement(rng, verb)} {rng.choice(TIMES_FUTURE)}")
    return sentence(f"first {verb[0]} {complement(rng, verb)}, then {rng.choice(VERBS)[0]}")


def description(rng):
    """Being and seeming: "The soup was too hot to eat.", "It is cold and windy today."""
    thing = noun_phrase(rng, rng.choice(["thing", "animal"]))
    shape = rng.randrange(6)
    if shape == 0:
        return sentence(f"{thing} {rng.choice(['is', 'was', 'looks', 'looked', 'seems'])} {rng.choice(ADJECTIVES)}")
    if shape == 1:
        return sentence(f"it {rng.choice(['is', 'was'])} {rng.choice(WEATHER)} and {rng.choice(WEATHER)} "
                        f"{rng.choice(['today', 'all day', 'in the morning', 'yesterday', 'last week', 'outside'])}")
    if shape == 2:
        return sentence(f"there {rng.choice(['is', 'was'])} {noun_phrase(rng, 'thing')} on the {rng.choice(SURFACES)}")
    if shape == 3:
        return sentence(f"{rng.choice(SUBJECTS)[0]} felt {rng.choice(FEELINGS)} because {clause(rng, None, 'past')}")
    if shape == 4:
        return sentence(f"the {rng.choice(FOODS)} was too {rng.choice(['hot', 'cold', 'salty', 'sweet', 'old'])} to eat")
    return sentence(f"{rng.choice(FACTS)}")


def dialogue(rng):
    """A question and its answer, said by two people."""
    asker, answerer = rng.sample(NAMES, 2)
    ask = question(rng)
    if rng.random() < 0.5:
        reply = re.sub(r"\.$", ",", rng.choice(REPLIES))
        return f'"{ask}" {rng.choice(["asked", "said"])} {asker}. "{reply}" {rng.choice(SAYING_VERBS[:5])} {answerer}.'
    said = clause(rng)
    return f'{asker} said, "{sentence(said)}" and {answerer} {rng.choice(["laughed", "nodded", "smiled", "said nothing", "agreed"])}.'


def reported(rng):
    subject = rng.choice(SUBJECTS)
    return sentence(f"{subject[0]} {rng.choice(['said', 'thought', 'knew', 'told me', 'hoped', 'heard'])} that "
                    f"{clause(rng, None, rng.choice(['past', 'will', 'present', 'was doing']))}")


def story(rng):
    """A few sentences about one person, the pronoun carrying them on: "One day Anna went to the market. She ..."""
    hero = rng.choice(SUBJECTS)
    pronoun = (hero[2],) + hero[1:]
    sentences = [sentence(f"{rng.choice(OPENERS)} {clause(rng, hero, 'past')}")]
    for _ in range(rng.randrange(2, 5)):
        shape = rng.randrange(4)
        if shape == 0:
            sentences.append(sentence(f"{rng.choice(FOLLOW_ONS)} {clause(rng, pronoun, 'past')}"))
        elif shape == 1:
            sentences.append(sentence(f"{pronoun[0]} {'were' if hero[1] == 'pl' else 'was'} very {rng.choice(FEELINGS)}"))
        elif shape == 2:
            sentences.append(sentence(clause(rng, pronoun, rng.choice(["past", "was doing", "could not", "did not"]))))
        else:
            sentences.append(dialogue(rng))
    if rng.random() < 0.5:
        sentences.append(sentence(f"{rng.choice(['that night', 'in the end', 'at last'])} "
                                  f"{pronoun[0]} went {rng.choice(['home', 'to bed', 'to sleep', 'back to ' + rng.choice(TRAVEL_PLACES)])}"))
    return " ".join(sentences)


# [SECTION] scripts: what usually happens next in everyday situations, in the order it happens

# Each script is a situation's usual events, as template sentences (everyday_sentences.fill's slots: {S} chooses the
# person, {he} {his} {him} and <go/goes> agree with them). A story from a script keeps its order and skips some steps.
SCRIPTS = [
    ["The phone rang and {S} picked it up.", "{S} said hello and listened.", "It was {his} mother calling from work.",
     "They talked for a few minutes and then {he} hung up."],
    ["{S} went to the restaurant with {his} friends.", "The waiter gave them the menu.", "{S} ordered soup and a glass of water.",
     "The food was good, and after the meal {he} asked for the bill.", "{S} paid the bill and left a tip."],
    ["{S} went to the doctor because {he} felt ill.", "The doctor looked at {his} throat and listened to {his} chest.",
     "The doctor said it was only a cold.", "{S} had to stay in bed for two days and drink lots of water."],
    ["It started to rain, so {S} opened {his} umbrella.", "The streets were wet and the sky was dark.",
     "{S} ran home and took off {his} wet shoes.", "{S} made a hot drink and watched the rain from the window."],
    ["{S} went to the supermarket to buy some food.", "{S} took a basket and walked along the shelves.",
     "{S} bought milk, bread, eggs and cheese.", "At the checkout {he} paid with {his} card.",
     "{S} carried the shopping bags home."],
    ["{S} wanted to bake a cake.", "{S} mixed the flour, the sugar, the butter and the eggs in a bowl.",
     "{S} put the cake in the oven for forty minutes.", "The whole house smelled of cake.",
     "When it was ready, {he} cut it into slices and shared it with the family."],
    ["{S} waited at the bus stop for ten minutes.", "When the bus came, {he} got on and paid the driver.",
     "{S} sat by the window and looked out at the street.", "{S} got off at the next stop and walked to work."],
    ["{S} got into the car and fastened {his} seat belt.", "{S} started the engine and drove out of the garage.",
     "The traffic was heavy on the way into town.", "{S} parked the car near the station and walked the rest of the way."],
    ["The teacher wrote the date on the board.", "The children opened their books and took out their pencils.",
     "The teacher asked a question and a girl put up her hand.", "At the end of the lesson the bell rang and the children went out to play."],
    ["{S} lost {his} keys and could not open the front door.", "{S} looked in {his} pockets and in {his} bag.",
     "At last {he} found them under the car seat.", "{S} opened the door and went inside."],
    ["It was a hot summer day, so {S} went to the beach.", "{S} swam in the sea and lay on the sand.",
     "The children built a castle out of sand.", "In the evening the sun went down over the water and they went home."],
    ["It snowed all night.", "In the morning the garden was white and the roads were covered in snow.",
     "The children put on their coats, hats and gloves and ran outside.", "They built a snowman and threw snowballs at each other."],
    ["{S} was hungry, so {he} opened the fridge.", "There was nothing in it but an old piece of cheese.",
     "{S} went to the shop and bought some bread and eggs.", "{S} made an omelette and ate it at the kitchen table."],
    ["The baby was crying, so {S} picked her up.", "{S} gave her some milk and sang her a song.",
     "Soon the baby fell asleep.", "{S} put her back in her bed and closed the door quietly."],
    ["{S} had a birthday party on Saturday.", "{His} friends came and brought presents.", "They ate cake, played games and sang Happy Birthday.",
     "{S} blew out the candles on the cake.", "Everyone had a good time."],
    ["{S} missed the last train home.", "The station was empty and it was very late.", "{S} called a taxi and waited outside.",
     "The taxi took {him} home and {he} went straight to bed."],
    ["The light in the kitchen did not work.", "{S} got a new bulb from the cupboard.", "{S} stood on a chair and changed the bulb.",
     "Now the light worked again."],
    ["{S} went to the library to borrow a book.", "{S} found a book about birds on a shelf near the window.",
     "The librarian stamped the book and told {him} to bring it back in two weeks.", "{S} read the whole book in three days."],
    ["{S} planted some seeds in the garden in spring.", "Every day {he} watered them.", "After a few weeks little green leaves came up.",
     "By the summer there were tomatoes and beans to pick."],
    ["The dog was barking at the door.", "{S} put on {his} coat and took the dog for a walk.", "They walked across the park and down to the river.",
     "The dog ran after a ball and came back wet and happy."],
    ["{S} had a test on Monday, so {he} studied all weekend.", "{S} read {his} notes again and again.",
     "On Monday {he} answered every question.", "A week later the teacher said {he} had passed the test."],
    ["{S} woke up with a headache.", "{S} took some medicine and drank a glass of water.", "{S} stayed in bed all morning.",
     "By the afternoon {he} felt much better."],
    ["{S} arrived at the airport two hours early.", "{S} showed {his} passport and checked in {his} bag.",
     "The plane took off on time.", "After a long flight the plane landed and {he} took a taxi to the hotel."],
    ["{S} knocked on the door and waited.", "Nobody answered, so {he} knocked again.", "At last the door opened and an old man looked out.",
     "\"Come in,\" he said, \"you must be cold.\""],
    ["The kettle boiled and {S} made a pot of tea.", "{S} poured the tea into two cups and added some milk.",
     "They sat at the table and talked about the day."],
    ["There was a storm in the night.", "The wind blew and the rain beat on the windows.", "A tree fell across the road and the lights went out.",
     "In the morning the sky was clear and the sun was shining."],
    ["{S} could not find a job for months.", "One day {he} saw an advert in the newspaper.", "{S} wrote a letter and went to an interview.",
     "A week later they called {him} and gave {him} the job."],
    ["{S} washed the dishes after dinner.", "{S} dried the plates and put them away in the cupboard.", "Then {he} wiped the table and swept the floor."],
    ["{S} went to the cinema with a friend.", "They bought two tickets and a bag of popcorn.", "The film was long but very funny.",
     "After the film they walked home in the dark."],
    ["{S} wanted to learn to swim.", "Every Saturday {he} went to the swimming pool for a lesson.", "At first {he} was afraid of the water.",
     "By the end of the summer {he} could swim across the pool."],
    ["The shop opens at nine and closes at six.", "On Sundays it is closed.", "The shop sells fruit, vegetables, bread and milk."],
    ["{S} cut {his} finger while {he} was cooking.", "It bled a lot, so {he} washed it under the tap.", "{S} put a plaster on it and went on cooking."],
    ["The children were playing football in the street.", "One of them kicked the ball too hard and it broke a window.",
     "The owner of the house came out and shouted at them.", "The children said sorry and paid for the glass."],
    ["{S} moved to a new house last year.", "It has three bedrooms, a big kitchen and a small garden.", "The neighbours are friendly and the school is close."],
    ["{S} was late for work because the train was late.", "{His} boss was not happy.", "The next day {he} got up an hour earlier."],
    ["{S} wrote a letter to {his} grandmother.", "{S} put it in an envelope, wrote the address and stuck on a stamp.", "Then {he} posted it on the way to school."],
    ["{S} woke up when the alarm went off.", "{S} got out of bed and opened the curtains.", "{S} washed {his} face and got dressed.",
     "{S} ate a bowl of cereal and drank a cup of coffee.", "Then {he} put on {his} coat and left the house."],
    ["It was late and {S} was tired.", "{S} switched off the television and locked the front door.", "{S} went upstairs, put on {his} pyjamas and got into bed.",
     "{S} read a few pages of {his} book and then turned off the lamp.", "Within minutes {he} was fast asleep."],
    ["{S} took {his} clothes to the launderette.", "{S} put them in the washing machine with some soap.", "While they were washing, {he} read a magazine.",
     "Then {he} dried them, folded them and took them home."],
    ["{S} needed some money, so {he} went to the bank.", "There was a long queue inside.", "When it was {his} turn, {he} gave the woman behind the desk {his} card.",
     "She counted out the money and {he} put it in {his} wallet."],
    ["{S} went to the post office to send a parcel to {his} brother.", "The man weighed the parcel and told {him} the price.",
     "{S} paid and bought a book of stamps as well."],
    ["{S} went to the hairdresser on Friday.", "The hairdresser washed {his} hair and cut it short.", "{S} looked in the mirror and smiled."],
    ["On the way home the car broke down.", "{S} pulled over to the side of the road and got out.", "Smoke was coming from the engine.",
     "{S} called a garage and a mechanic came an hour later.", "He fixed the car and {he} drove home slowly."],
    ["{S} went camping in the mountains with {his} friends.", "They put up the tent next to a small lake.", "In the evening they made a fire and cooked sausages.",
     "At night they lay in their sleeping bags and looked at the stars."],
    ["{S} went fishing early in the morning.", "{S} sat on the bank of the river with {his} rod and waited.", "For hours nothing happened.",
     "Then suddenly {he} felt a pull on the line and caught a big fish."],
    ["The farmer gets up before the sun.", "He milks the cows and feeds the pigs and the hens.", "Then he drives his tractor out to the fields.",
     "In the autumn he brings in the harvest."],
    ["The children went to the zoo with their teacher.", "They saw lions, tigers, monkeys and a very tall giraffe.", "The elephants were eating hay and the penguins were swimming.",
     "Before they went home, they had lunch by the lake."],
    ["{S} went to watch a football match on Saturday.", "The stadium was full and the crowd was singing.", "The home team scored a goal in the last minute.",
     "Everyone jumped up and cheered."],
    ["{S} packed {his} suitcase for the holiday.", "{S} put in shirts, trousers, a swimsuit and a toothbrush.", "{S} checked that {he} had {his} passport and tickets.",
     "Then {he} locked the door and left for the airport."],
    ["{S} checked into the hotel late in the evening.", "The man at the desk gave {him} a key to room twelve.", "The room was small but clean, with a view of the sea.",
     "{S} was so tired that {he} went straight to sleep."],
    ["There was a fire in the building next door.", "Someone called the fire brigade.", "The fire engines arrived in a few minutes and the firefighters put out the fire.",
     "Luckily nobody was hurt."],
    ["{S} bought a jumper, but it was too small.", "The next day {he} took it back to the shop.", "{S} showed the receipt and the woman changed it for a bigger one."],
    ["{S} was writing an email when the computer stopped working.", "{S} turned it off and on again.", "The computer started, but {he} had lost half of the email.",
     "{S} had to write it again."],
    ["The meeting started at ten o'clock.", "The manager talked about the plans for the new year.", "Everyone listened and some people took notes.",
     "After an hour they stopped for coffee."],
    ["{S} sat down at the kitchen table to do {his} homework.", "{S} had to write an essay and answer ten maths questions.", "The maths was hard, so {he} asked for help.",
     "By nine o'clock {he} had finished everything."],
    ["On a sunny day {S} and {his} family went for a picnic.", "They found a nice place under a tree by the river.", "They ate sandwiches, crisps and strawberries and drank lemonade.",
     "After lunch the children played and the grown-ups slept in the sun."],
    ["Every Saturday there is a market in the square.", "People sell fruit, vegetables, fish, cheese, flowers and old books.", "It is always busy and noisy.",
     "{S} <like/likes> to go there early, before the crowds."],
    ["In spring the days get longer and the weather gets warmer.", "The trees grow new leaves and the birds build their nests.", "In summer it is hot and the days are long.",
     "In autumn the leaves turn brown and fall.", "In winter it is cold and dark, and sometimes it snows."],
    ["{S} was cooking dinner for the family.", "{S} peeled the potatoes and put them in a pan of water.", "{S} cut up the onions and the carrots and fried the meat.",
     "When everything was ready, {he} called everyone to the table."],
    ["Some friends were coming for dinner, so {S} cleaned the house.", "{S} set the table with the best plates and glasses.", "At seven o'clock the doorbell rang.",
     "{S} opened the door and said, \"Come in, it's good to see you.\""],
    ["{S} took the dog to the vet because it was not eating.", "The vet looked at the dog and gave it some medicine.", "After a few days the dog was well again and eating everything."],
    ["The new neighbours moved in last week.", "{S} went next door to say hello.", "They have two children and a big black dog.",
     "They invited {him} in for a cup of tea."],
    ["{S} came home from school and threw {his} bag on the floor.", "\"How was school today?\" asked {his} mother.", "\"Fine,\" was the answer. \"What's for dinner?\""],
    ["The train was very crowded.", "{S} could not find a seat, so {he} stood by the door.", "At the next station many people got off.",
     "{S} sat down and read the newspaper for the rest of the journey."],
    ["{S} wanted a new bike.", "{S} saved {his} pocket money for months.", "On {his} birthday {his} parents gave {him} the rest of the money.",
     "The next day {he} went to the shop and bought a shiny blue bike."],
    ["The television was broken, so the family talked instead.", "Grandfather told stories about when he was a boy.", "The children laughed and asked for more."],
    ["{S} got a letter from the bank.", "{S} opened it and read it carefully.", "The bank wanted {him} to come in and sign some papers."],
    ["{S} went into the kitchen and put the kettle on.", "While the water was boiling, {he} took a cup from the cupboard.", "{S} put a tea bag in the cup, poured in the hot water and added a little milk."],
    ["{S} went for a run in the park.", "{S} ran twice round the lake and then sat down on a bench to rest.", "{S} was hot and out of breath.",
     "After a drink of water {he} walked home."],
    ["The museum was full of old things.", "There were paintings, statues, old coins and the bones of a dinosaur.", "{S} spent the whole afternoon there."],
    ["{S} heard a strange noise in the night.", "{S} got up and went downstairs with a torch.", "It was only the cat, which had knocked a cup off the table.",
     "{S} laughed and went back to bed."],
    ["The teacher was ill, so a new teacher came to the class.", "She told the children her name and wrote it on the board.", "Then she read them a story about a lost dog."],
]


STORY_SLOT = re.compile(r"\{(S|he|his|him|His)\}|<([^>]+)>")


def script_story(rng):
    """A script's events in order, some skipped, one person throughout: named first, then "she", "her"."""
    script = rng.choice(SCRIPTS)
    kept = [line for k, line in enumerate(script) if k == 0 or rng.random() < 0.8]
    person = rng.choice(SUBJECTS)
    named = False

    def slot(m):
        nonlocal named
        name, spec = m.groups()
        if spec is not None:
            return verb(spec, person[1])
        if name == "S":
            text, named = (person[2] if named else person[0]), True
            return text
        if name == "His":
            return person[3].capitalize()
        return person[("he", "his", "him").index(name) + 2]

    filled = [STORY_SLOT.sub(slot, line) for line in kept]
    return " ".join(line[0].upper() + line[1:] for line in filled)

# [SECTION] the mixture

KINDS = [(statement, 3), (joined, 3), (question, 2), (instruction, 1), (description, 2), (dialogue, 1),
         (reported, 1), (story, 2)]


def composed_sentences(rng, count):
    makers = [maker for maker, weight in KINDS for _ in range(weight)]
    return [re.sub(r" +", " ", rng.choice(makers)(rng)).replace(" ,", ",").replace(" .", ".").replace(" ?", "?")
            for _ in range(count)]


def script_stories(rng, count):
    return [script_story(rng) for _ in range(count)]
