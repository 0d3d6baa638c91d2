"""Everyday English sentences made from templates, for the bundled decoder's training text (attnviz-mini-llama,
tools/train/train_bundled_decoder.py): home, food, school, weather, travel, animals, feelings. The KJV and WordNet's
glosses teach words; these teach the plain sentences a lecturer types. Written for this project (Apache-2.0).

    everyday_sentences(random.Random(seed), count) → list of sentences

The held-out prefixes (tests/data/bundled_decoder/held_out_prefixes.txt) were written by hand before this file and
are not made by it.
"""
import re

PEOPLE = """I | you | we | they | he | she | my mother | my father | my sister | my brother | my friend | the boy |
    the girl | the old man | the old woman | the teacher | the children | the doctor | the farmer | our neighbour |
    my grandmother | my grandfather | the little boy | the little girl | the students | his wife | her husband |
    the baby | my aunt | my uncle | the nurse | the driver | the cook | our family | the woman | the man""".split("|")
PLACES = """store | shop | market | park | school | church | beach | station | airport | library | hospital | office |
    river | lake | city | village | farm | zoo | museum | restaurant | cinema | garden | forest | bank | post office |
    kitchen | bakery | playground | hill | field""".split("|")
TIMES = """today | yesterday | this morning | last night | on Monday | on Sunday | after school | after work |
    before dinner | in the afternoon | every day | last week | at noon | in the evening | early in the morning |
    on Saturday | after lunch | last summer""".split("|")
FOODS = """bread | milk | eggs | cheese | apples | rice | soup | butter | fish | meat | potatoes | oranges | cake |
    coffee | tea | sugar | salt | vegetables | fruit | cookies | chicken | juice | honey | pasta""".split("|")
MEALS = "breakfast | lunch | dinner | supper".split("|")
DRINKS = "tea | coffee | milk | water | juice | hot chocolate | wine | lemonade".split("|")
THINGS = """book | cup | plate | phone | bag | key | coat | hat | ball | box | letter | pen | lamp | bottle | spoon |
    knife | glass | bowl | shoe | basket | map | picture | blanket | towel | clock | toy | umbrella | wallet""".split("|")
SURFACES = "table | shelf | floor | bed | chair | desk | counter | sofa | couch | windowsill | step".split("|")
CONTAINERS = "box | drawer | bag | cupboard | fridge | basket | sink | pocket | oven | closet | bin".split("|")
ROOMS = "kitchen | bedroom | living room | bathroom | garden | hall | classroom | attic | cellar".split("|")
ANIMALS = """dog | cat | bird | horse | cow | sheep | mouse | rabbit | duck | fox | pig | goat | chicken | lamb |
    wolf | bear | owl | frog | fish | squirrel | puppy | kitten""".split("|")
ANIMAL_DOINGS = """slept | played | ran | barked | sang | hid | waited | ate | rested | swam | sat | jumped""".split("|")
OUTDOORS = "garden | field | yard | forest | barn | river | meadow | woods | grass | sun | shade | snow".split("|")
FEELINGS = """tired | happy | sad | hungry | thirsty | cold | warm | sleepy | angry | afraid | excited | bored | sick |
    busy | lonely | worried | glad | sorry""".split("|")
TOO_TIRED_TO = """go to work | finish the book | cook dinner | go out | walk home | clean the house | play outside |
    read the letter | watch the film | do the homework | drive the car | climb the hill""".split("|")
WEATHER = "cold | warm | sunny | rainy | windy | hot | cloudy | snowy | dark | quiet | beautiful | long".split("|")
DAY_PARTS = "day | morning | night | evening | afternoon | week | winter | summer | spring".split("|")
STAYED = """stayed at home | went for a walk | read a book | sat by the fire | went to the beach | played outside |
    watched television | went to bed early | made some soup | cleaned the house | visited our friends""".split("|")
SEEN = """a bird in the tree | the rain on the street | a man with a dog | children playing in the snow |
    the moon in the sky | a car in the road | the sun going down | a cat on the wall | the postman at the door""".split("|")
TOPICS = "a king | a dragon | the war | a little boy | the sea | her childhood | a lost dog | the old days".split("|")
GIFTS = "book | card | cake | toy | scarf | watch | bicycle | present | kiss | hug | bunch of flowers".split("|")
OCCASIONS = "her birthday | his birthday | Christmas | the holidays | the wedding | the new year".split("|")
ITEMS = "keys | phone | glasses | shoes | wallet | book | coat | hat | bag | pen | homework | ticket".split("|")
ACTIONS_AT_HOME = """made some tea | turned on the light | sat down | opened the window | cooked dinner | fed the cat |
    took off their shoes | went to sleep | called their mother | read the newspaper | washed the dishes""".split("|")
IMPERATIVES = """close the door | open the window | sit down | wash your hands | turn off the light | come here |
    be quiet | wait for me | take your coat | help me | write your name | eat your dinner | call me later |
    lock the door | go to bed | look at this | listen to me | brush your teeth | clean your room""".split("|")
COLOURS = "red | blue | green | white | black | yellow | brown | grey".split("|")
SIZES = "big | small | old | new | little | long | short | heavy | warm | soft".split("|")
BODY = "hand | head | arm | leg | foot | knee | face | eyes | hair | back".split("|")
NUMBERS = "two | three | four | five | six | seven | eight | nine | ten | twelve | twenty".split("|")

TEMPLATES = [
    "{P} went to the {PLACE} {T}.",
    "{P} walked to the {PLACE} to buy some {FOOD}.",
    "{P} had {FOOD} and {FOOD} for {MEAL}.",
    "{P} put the {THING} on the {SURFACE}.",
    "{P} put the {THING} in the {CONTAINER}.",
    "{P} left the {THING} on the {SURFACE} in the {ROOM}.",
    "{P} was too {FEEL} to {TOO}.",
    "{P} drank a cup of {DRINK} in the {ROOM}.",
    "{P} would like a glass of {DRINK}, please.",
    "The {ANIMAL} {ADO} in the {OUT} all day.",
    "The {ANIMAL} {ADO} under the {SURFACE}.",
    "It was a {WEATHER} {DAY}, so {P} {STAYED}.",
    "{P} looked out of the window and saw {SEEN}.",
    "{P} told the children a story about {TOPIC}.",
    "{P} gave her a {GIFT} for {OCC}.",
    "When {P} got home, {P} {HOME}.",
    "{P} could not find the {ITEM} anywhere.",
    "{P} lost the {ITEM} on the way to the {PLACE}.",
    "Can you pass me the {FOOD}, please?",
    "Please {IMP}.",
    "Please {IMP} before you go.",
    "Don't forget to {IMP}.",
    "{P} bought a {COLOUR} {THING} at the {PLACE}.",
    "There is a {SIZE} {THING} on the {SURFACE}.",
    "The {THING} is in the {CONTAINER} in the {ROOM}.",
    "{P} hurt a {BODY} playing in the {OUT}.",
    "{P} waited at the {PLACE} for {NUM} hours.",
    "{P} has {NUM} {ANIMAL}s and a {ANIMAL}.",
    "{P} felt {FEEL} because it was {WEATHER} outside.",
    "{P} went to bed early because {P} was {FEEL}.",
    "The {PLACE} was full of people {T}.",
    "{P} read a book in the {ROOM} {T}.",
    "{P} cleaned the {ROOM} and washed the {THING}.",
    "After {MEAL}, {P} went for a walk in the {PLACE}.",
    "{P} asked the teacher a question about the {THING}.",
    "{P} sat on the {SURFACE} and looked at the {ANIMAL}.",
    "The {ANIMAL} ran across the {OUT} and into the {OUT}.",
    "{P} said thank you and went home.",
    "I am going to the {PLACE} to get some {FOOD}.",
    "We need to buy more {FOOD} for {MEAL}.",
    "It is {WEATHER} today, so take your {THING}.",
    "The {COLOUR} {ANIMAL} slept by the fire.",
    "{P} opened the door and saw the {ANIMAL}.",
    "{P} lives in a {SIZE} house near the {PLACE}.",
    "{P} washed the {THING} in the sink.",
    "{P} made a cake for {OCC}.",
    "I will see you at the {PLACE} {T}.",
    "{P} likes to go to the {PLACE} {T}.",
    "The {THING} fell off the {SURFACE} and broke.",
]

SLOTS = {"P": PEOPLE, "PLACE": PLACES, "T": TIMES, "FOOD": FOODS, "MEAL": MEALS, "DRINK": DRINKS, "THING": THINGS,
         "SURFACE": SURFACES, "CONTAINER": CONTAINERS, "ROOM": ROOMS, "ANIMAL": ANIMALS, "ADO": ANIMAL_DOINGS,
         "OUT": OUTDOORS, "FEEL": FEELINGS, "TOO": TOO_TIRED_TO, "WEATHER": WEATHER, "DAY": DAY_PARTS,
         "STAYED": STAYED, "SEEN": SEEN, "TOPIC": TOPICS, "GIFT": GIFTS, "OCC": OCCASIONS, "ITEM": ITEMS,
         "HOME": ACTIONS_AT_HOME, "IMP": IMPERATIVES, "COLOUR": COLOURS, "SIZE": SIZES, "BODY": BODY, "NUM": NUMBERS}


PLURAL = r"\b(I|i|you|You|we|We|they|They|the children|The children|the students|The students)"
AGREEMENT = [(PLURAL[:-1] + ") was\\b", "were"), (PLURAL[:-1] + ") has\\b", "have"), (PLURAL[:-1] + ") likes\\b", "like"),
             (PLURAL[:-1] + ") lives\\b", "live")]

IRREGULAR_PLURALS = {"sheeps": "sheep", "fishs": "fish", "mouses": "mice", "wolfs": "wolves", "foxs": "foxes",
                     "puppys": "puppies"}


def agree(text):
    """Verb agreement after the slots are filled: "they was" → "they were", "I has" → "I have" ("I were" → "I was")."""
    for pattern, verb in AGREEMENT:
        text = re.sub(pattern, lambda m: m.group(1) + " " + verb, text)
    text = re.sub(r"\b(I|i) were\b", lambda m: m.group(1) + " was", text)
    for wrong, right in IRREGULAR_PLURALS.items():
        text = text.replace(wrong, right)
    return text


def fill(template, rng):
    """One sentence: each {SLOT} replaced by a random choice (each occurrence drawn on its own)."""
    out, rest = [], template
    while "{" in rest:
        before, _, after = rest.partition("{")
        slot, _, rest = after.partition("}")
        out += [before, rng.choice(SLOTS[slot]).strip()]
    text = agree("".join(out + [rest]))
    return text[0].upper() + text[1:]


def everyday_sentences(rng, count):
    return [fill(rng.choice(TEMPLATES), rng) for _ in range(count)]
