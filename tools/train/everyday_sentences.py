"""Everyday English sentences made from templates, for the bundled decoder's training text (attnviz-mini-llama,
tools/train/train_bundled_decoder.py): routines, home, food, school, work, shopping, weather, travel, family, health,
time, feelings, talk. The KJV and WordNet's glosses teach words; these teach the plain sentences a lecturer types.
Written for this project from general knowledge of everyday English (Apache-2.0); not aimed at any test sentence.

    everyday_sentences(random.Random(seed), count) → list of sentences

A template's slots:
  {S}                  a subject ("my sister", "they", "Tom"; {S1}: one person, not "you"); it chooses, and then
  {he} {his} {him}     are its pronoun, possessive and object ("she", "her", "her"; for "I": "I", "my", "me"),
  <go/goes>            the verb form that agrees with it (first for I/you/we/they, second for he/she/it),
  <be> <was> <have> <do> <don't>   am/is/are, was/were, have/has, do/does, don't/doesn't agreeing with it,
  {FOOD} and the rest  a random word or phrase from that list (each occurrence drawn on its own).
The held-out prefixes (tests/data/bundled_decoder/held_out_prefixes.txt) were written by hand before this file and
are not made by it.
"""
import re

# (text, agreement: "I" | "pl" | "3", pronoun, possessive, object)
SUBJECTS = [("I", "I", "I", "my", "me"), ("you", "pl", "you", "your", "you"), ("we", "pl", "we", "our", "us"),
            ("they", "pl", "they", "their", "them"), ("he", "3", "he", "his", "him"), ("she", "3", "she", "her", "her")]
SUBJECTS += [(w, "3", "she", "her", "her") for w in
             "my mother | my sister | my friend Anna | the girl | the old woman | my grandmother | my aunt | his wife | "
             "the teacher | the nurse | Mary | Anna | Emma | Lucy | Sarah | Kate | Laura | Amy | Lily | Mrs Brown | "
             "the little girl | my daughter | our neighbour | the woman".split(" | ")]
SUBJECTS += [(w, "3", "he", "his", "him") for w in
             "my father | my brother | my friend Tom | the boy | the old man | my grandfather | my uncle | her husband | "
             "the doctor | the farmer | Tom | John | Sam | Ben | Jack | David | Peter | Mark | James | Mr Smith | "
             "the little boy | my son | the driver | the man".split(" | ")]
SUBJECTS += [(w, "pl", "they", "their", "them") for w in
             "my parents | the children | the students | our friends | the neighbours | my grandparents | "
             "the boys | the girls | the kids | my friends | the workers | the players".split(" | ")]


def words(text):
    return [w.strip() for w in text.split("|")]


CLOCK = words("six | seven | eight | nine | ten | eleven | six o'clock | seven o'clock | eight o'clock | "
              "half past seven | half past six | a quarter to eight | a quarter past nine | noon | midnight | "
              "ten o'clock | five o'clock | three o'clock")
DAYS = words("Monday | Tuesday | Wednesday | Thursday | Friday | Saturday | Sunday")
MONTHS = words("January | February | March | April | May | June | July | August | September | October | "
               "November | December")
WHEN = words("today | yesterday | this morning | this afternoon | this evening | last night | last week | "
             "last year | on Monday | on Friday | on Sunday | on Saturday | after school | after work | "
             "before dinner | after lunch | in the morning | in the evening | at the weekend | every day | "
             "every morning | every week | last summer | in the winter | at night | two days ago | a week ago | "
             "an hour ago | the next day | later that day")
FUTURE = words("tomorrow | next week | tonight | this weekend | next year | on Monday | on Saturday | soon | "
               "later | in the morning | after lunch | next summer | tomorrow morning | this evening")
FOODS = words("bread | milk | eggs | cheese | apples | rice | soup | butter | fish | meat | potatoes | oranges | "
              "cake | sugar | salt | vegetables | fruit | cookies | chicken | pasta | bananas | tomatoes | onions | "
              "carrots | beans | jam | cereal | yoghurt | flour | biscuits | chocolate | pizza | sandwiches | "
              "salad | noodles | sausages | bacon | peas | grapes | strawberries | lettuce | ham | toast | pie")
DISHES = words("a sandwich | an apple | a banana | some soup | a bowl of cereal | a boiled egg | some toast | "
               "a piece of cake | a bowl of rice | some pasta | a salad | a slice of pizza | fish and chips | "
               "an orange | some chicken | a biscuit | a pear | some grapes | a hamburger | a cheese sandwich")
MEALS = words("breakfast | lunch | dinner | supper | tea")
DRINKS = words("tea | coffee | milk | water | juice | hot chocolate | orange juice | lemonade | cold water | "
               "apple juice")
THINGS = words("book | cup | plate | phone | bag | key | coat | hat | ball | box | letter | pen | lamp | bottle | "
               "spoon | knife | glass | bowl | shoe | basket | map | picture | blanket | towel | clock | toy | "
               "umbrella | wallet | pencil | notebook | jacket | scarf | watch | chair | radio | camera | ticket | "
               "newspaper | candle | mirror | pillow | brush | comb | ring | ladder | bucket | bicycle | kettle")
SURFACES = words("table | shelf | floor | bed | chair | desk | counter | sofa | windowsill | step | roof | wall")
CONTAINERS = words("box | drawer | bag | cupboard | fridge | basket | sink | pocket | oven | wardrobe | bin | "
                   "car | suitcase")
ROOMS = words("kitchen | bedroom | living room | bathroom | garden | hall | classroom | attic | garage | "
              "dining room | office")
PLACES = words("shop | supermarket | market | park | school | church | beach | station | airport | library | "
               "hospital | office | city | village | farm | zoo | museum | restaurant | cinema | bank | "
               "post office | bakery | playground | swimming pool | bus stop | cafe | hotel | doctor's | "
               "dentist | pharmacy | town | theatre | gym | factory | university")
ANIMALS = words("dog | cat | bird | horse | cow | sheep | mouse | rabbit | duck | fox | pig | goat | hen | "
                "lamb | owl | frog | fish | squirrel | puppy | kitten | donkey | lion | monkey | elephant")
ANIMALS_PLURAL = words("dogs | cats | birds | horses | cows | sheep | mice | rabbits | ducks | pigs | goats | "
                       "hens | chickens | fish | puppies | kittens | ducks | bees")
ANIMAL_DOINGS = words("slept | played | ran | barked | sang | hid | waited | ate | rested | swam | sat | jumped | "
                      "looked for food | chased its tail | lay in the sun")
OUTDOORS = words("garden | field | yard | forest | barn | river | meadow | woods | grass | park | street | "
                 "snow | mud")
FEELINGS = words("tired | happy | sad | hungry | thirsty | cold | warm | sleepy | angry | afraid | excited | bored | "
                 "sick | busy | lonely | worried | glad | sorry | nervous | proud | surprised | upset | ill | "
                 "late | early | ready | hot | wet | full | weak")
TOO_TIRED_TO = words("go to work | finish the book | cook dinner | go out | walk home | clean the house | "
                     "play outside | read the letter | watch the film | do the homework | drive the car | "
                     "climb the hill | talk | eat | stand up | go to school | do anything | keep going | sleep")
WEATHER = words("cold | warm | sunny | rainy | windy | hot | cloudy | snowy | wet | dry | foggy | grey | "
                "lovely | beautiful | nice | cool | freezing | stormy")
DAY_PARTS = words("day | morning | night | evening | afternoon | week | winter | summer | spring | autumn")
STAYED = words("stayed at home | went for a walk | read a book | sat by the fire | went to the beach | "
               "played outside | watched television | went to bed early | made some soup | cleaned the house | "
               "visited our friends | stayed inside | went swimming | had a picnic | went to the park")
GIFTS = words("book | card | cake | toy | scarf | watch | bicycle | present | doll | ball | jumper | necklace | "
              "bunch of flowers | box of chocolates")
OCCASIONS = words("her birthday | his birthday | my birthday | Christmas | the holidays | the wedding | "
                  "the new year | Mother's Day | the party")
COLOURS = words("red | blue | green | white | black | yellow | brown | grey | pink | orange | purple")
SIZES = words("big | small | old | new | little | long | short | heavy | warm | soft | nice | clean | dirty | "
              "empty | full | beautiful | cheap | expensive")
BODY = words("hand | head | arm | leg | foot | knee | back | finger | ankle | shoulder | neck | toe | wrist")
ACHES = words("a headache | a cold | a cough | a sore throat | a fever | a stomach ache | toothache | "
              "a temperature | the flu | a bad back")
NUMBERS = words("two | three | four | five | six | seven | eight | nine | ten | twelve | twenty | fifty | "
                "a hundred")
MONEY = words("five pounds | ten pounds | two dollars | twenty dollars | a few coins | fifty pence | "
              "three euros | a lot of money")
SUBJECTS_AT_SCHOOL = words("maths | English | history | science | geography | music | art | French | "
                           "reading | spelling")
SCHOOL_THINGS = words("homework | test | exam | lesson | project | essay | spelling test | maths test | "
                      "reading book | class")
JOBS = words("teacher | doctor | nurse | driver | farmer | cook | baker | builder | police officer | "
             "shop assistant | waiter | engineer | pilot | postman | cleaner | student")
WORK_THINGS = words("the report | the email | the meeting | the letter | the work | the job | the plan | "
                    "the list | the order | the forms")
CLOTHES = words("coat | jacket | hat | shoes | boots | jumper | dress | shirt | scarf | gloves | socks | "
                "trousers | skirt | uniform | raincoat | T-shirt")
VEHICLES = words("bus | train | car | bike | taxi | plane | boat | tram | underground")
TRAVEL_PLACES = words("London | Paris | the seaside | the mountains | the city | the countryside | Scotland | "
                      "Spain | Italy | New York | the lake | the coast | the village | their grandparents' house")
CHORES = words("washed the dishes | cleaned the windows | made the bed | swept the floor | did the washing | "
               "hoovered the carpet | took out the rubbish | fed the cat | walked the dog | watered the plants | "
               "ironed the shirts | cooked dinner | tidied the room | cut the grass | dusted the shelves")
CHORES_BASE = words("wash the dishes | clean the windows | make the bed | sweep the floor | do the washing | "
                    "take out the rubbish | feed the cat | walk the dog | water the plants | tidy your room | "
                    "cut the grass | set the table | clear the table | cook dinner | do the shopping")
HOBBIES = words("reading | swimming | cooking | dancing | singing | painting | running | fishing | "
                "playing football | playing the piano | playing chess | watching films | riding a bike | "
                "going for walks | gardening | drawing | playing tennis | listening to music")
GAMES = words("football | tennis | chess | cards | hide and seek | basketball | cricket | computer games | "
              "the piano | the guitar | the violin | the drums")
IMPERATIVES = words("close the door | open the window | sit down | wash your hands | turn off the light | "
                    "come here | be quiet | wait for me | take your coat | help me | write your name | "
                    "eat your dinner | call me later | lock the door | go to bed | look at this | listen to me | "
                    "brush your teeth | clean your room | put on your shoes | turn on the light | hurry up | "
                    "be careful | slow down | stand up | have a seat | come in | take a seat | keep quiet | "
                    "give me a hand | pass me the salt | shut the door | switch off the television")
DOINGS = words("reading a book | watching television | doing my homework | cooking dinner | having a shower | "
               "talking on the phone | washing the car | waiting for the bus | making a cake | writing a letter | "
               "playing in the garden | getting dressed | having breakfast | sleeping | working | "
               "looking for my keys | cleaning the kitchen | listening to the radio | walking the dog")
SEEN = words("a bird in the tree | the rain on the street | a man with a dog | children playing in the snow | "
             "the moon in the sky | a car in the road | the sun going down | a cat on the wall | "
             "the postman at the door | a rainbow over the hills | people waiting for the bus")
TOPICS = words("a king | a dragon | the war | a little boy | the sea | her childhood | a lost dog | "
               "the old days | a brave girl | a magic horse | three bears | a giant")
SHOPS = words("supermarket | bakery | market | chemist | bookshop | butcher's | shop on the corner | "
              "corner shop")
BUYS = words("a loaf of bread | a bottle of milk | a box of eggs | some apples | a bag of rice | "
             "a new pair of shoes | a newspaper | some flowers | a birthday card | a pound of butter | "
             "a packet of biscuits | a bar of chocolate | a kilo of potatoes | a jar of jam | a carton of juice")
FAMILY = words("mother | father | sister | brother | grandmother | grandfather | aunt | uncle | cousin | "
               "son | daughter | wife | husband | parents | family | friends | children")
SOUNDS_LIKE = words("a good idea | fun | great | a lot of work | too expensive | a long way | a lovely place | "
                    "a bit strange | perfect")
DIRECTIONS = words("turn left | turn right | go straight on | cross the road | take the second street on the left | "
                   "go past the church | walk to the end of the street")


# [SECTION] templates, by topic

TEMPLATES = [
    # getting up and going to bed
    "{S} <wake/wakes> up at {CLOCK} every morning.",
    "{S} woke up early and brushed {his} teeth.",
    "Every morning {S} <have/has> a cup of {DRINK} and a slice of toast.",
    "{S} got up, had a shower and got dressed.",
    "{S} got dressed and went downstairs for breakfast.",
    "{S} <take/takes> a shower before breakfast.",
    "After breakfast {S} washed the dishes and went to work.",
    "{S} <go/goes> to bed at {CLOCK} on weekdays.",
    "{S} set the alarm for {CLOCK} and went to sleep.",
    "{S} <was> so tired that {he} fell asleep on the sofa.",
    "{S} brushed {his} teeth, put on {his} pyjamas and went to bed.",
    "{S} usually <get/gets> up at {CLOCK}, but on {DAYS} {he} <sleep/sleeps> late.",
    "It is {CLOCK} and {S} <be> still in bed.",
    "{S} overslept and missed the {VEHICLE}.",
    "{S} <don't> like getting up early.",
    "The alarm clock rang at {CLOCK}, but {S} did not wake up.",
    "{S} turned off the light and closed {his} eyes.",
    "{S} had a bad dream and could not sleep.",
    "Good morning! Did you sleep well?",
    "Good night, sleep well.",
    "It's late, you should go to bed.",
    "What time do you get up in the morning?",
    "I get up at {CLOCK} and go to bed at eleven.",
    # food and meals
    "{S} had {FOOD} and {FOOD} for {MEAL}.",
    "{S} <have/has> {DISH} for lunch every day.",
    "For {MEAL} we had {FOOD} with {FOOD}.",
    "{S} drank a cup of {DRINK} in the {ROOM}.",
    "{S} made a cup of {DRINK} and sat down at the table.",
    "Would you like a cup of {DRINK}?",
    "Would you like some more {FOOD}?",
    "Yes, please. I would like a glass of {DRINK}.",
    "No, thank you. I am not hungry.",
    "Can you pass me the {FOOD}, please?",
    "Could I have a glass of water, please?",
    "{S} <be> hungry, so {he} made {DISH}.",
    "{S} <be> thirsty, so {he} drank a glass of {DRINK}.",
    "{S} cooked {FOOD} and {FOOD} for dinner.",
    "{S} <like/likes> {FOOD}, but {he} <don't> like {FOOD}.",
    "What would you like for {MEAL}?",
    "What are we having for dinner tonight?",
    "Dinner is ready! Come and eat.",
    "The soup is too hot to eat.",
    "The milk in the fridge is still fresh.",
    "We need to buy more {FOOD} for {MEAL}.",
    "There is no more {FOOD} in the cupboard.",
    "{S} put the {FOOD} in the fridge.",
    "{S} cut the bread with a knife.",
    "{S} baked a cake for {OCCASION}.",
    "{S} ate {DISH} and drank a glass of {DRINK}.",
    "{S} <eat/eats> breakfast at {CLOCK} every day.",
    "The soup smells good.",
    "This cake is delicious. Can I have another piece?",
    "{S} set the table for dinner.",
    "After dinner {S} washed the dishes.",
    "{S} <be> making {DISH} in the kitchen.",
    "We had a picnic in the park with sandwiches and lemonade.",
    "The restaurant was full, so we ate at home.",
    "Let's have {DISH} for lunch.",
    "{S} <don't> eat meat.",
    "A cup of tea with milk and sugar, please.",
    "I'm starving. When is dinner?",
    # at home
    "{S} put the {THING} on the {SURFACE}.",
    "{S} put the {THING} in the {CONTAINER}.",
    "{S} left {his} {THING} on the {SURFACE} in the {ROOM}.",
    "The {THING} is on the {SURFACE} in the {ROOM}.",
    "The {THING} is in the {CONTAINER}.",
    "There is a {SIZE} {THING} on the {SURFACE}.",
    "Where is my {THING}? I can't find it anywhere.",
    "{S} could not find {his} {THING} anywhere.",
    "{S} looked for the {THING} under the bed.",
    "Have you seen my {THING}?",
    "It's on the table next to the lamp.",
    "{S} cleaned the {ROOM} and washed the {THING}.",
    "{S} {CHORE}.",
    "{S} {CHORE} and {CHORE}.",
    "On {DAYS} {S} {CHORE}.",
    "Can you help me {CHORE_BASE}?",
    "It's your turn to {CHORE_BASE}.",
    "Don't forget to {CHORE_BASE}.",
    "{S} opened the window to let in some fresh air.",
    "{S} turned on the light in the {ROOM}.",
    "{S} sat in the {ROOM} and read the newspaper.",
    "There are {NUMBER} rooms in our house.",
    "Our house has a big kitchen and a small garden.",
    "{S} <live/lives> in a {SIZE} house near the {PLACE}.",
    "{S} <live/lives> on the second floor of an old building.",
    "The kitchen is next to the living room.",
    "The bathroom is at the end of the hall.",
    "Someone is knocking at the door.",
    "{S} answered the door and saw {his} neighbour.",
    "{S} locked the door and went to bed.",
    "The {THING} fell off the {SURFACE} and broke.",
    "{S} broke a glass in the kitchen.",
    "The heating is on, but the house is still cold.",
    "The washing machine is broken again.",
    "{S} hung the washing out to dry.",
    "{S} watered the plants in the garden.",
    "{S} painted the {ROOM} {COLOUR}.",
    "When {S} got home, {he} {CHORE}.",
    "When {S} got home, {he} made a cup of tea and sat down.",
    "{S} came home, took off {his} shoes and sat down.",
    # school
    "{S} <go/goes> to school by {VEHICLE}.",
    "{S} walked to school with {his} friends.",
    "The children went to school at {CLOCK}.",
    "School starts at nine o'clock and finishes at half past three.",
    "{S} <have/has> {SUBJECT} on {DAYS}.",
    "My favourite subject is {SUBJECT}.",
    "{S} <be> good at {SUBJECT} but not very good at {SUBJECT}.",
    "The teacher asked the children to open their books.",
    "The teacher wrote the answer on the board.",
    "{S} did {his} {SCHOOL_THING} after school.",
    "{S} forgot {his} {SCHOOL_THING} at home.",
    "{S} passed the {SCHOOL_THING}.",
    "{S} got a good mark in the {SCHOOL_THING}.",
    "{S} <have/has> a {SCHOOL_THING} tomorrow, so {he} <be> studying tonight.",
    "Did you finish your homework?",
    "Put your hand up if you know the answer.",
    "Please open your books at page {NUMBER}.",
    "The students listened to the teacher.",
    "{S} asked the teacher a question about the {SCHOOL_THING}.",
    "At break the children played in the playground.",
    "{S} borrowed a book from the library.",
    "{S} <be> in the same class as {his} best friend.",
    "The bell rang and the children ran outside.",
    "{S} learned to read when {he} <was> five.",
    "What did you learn at school today?",
    "The school is closed for the holidays.",
    # work and jobs
    "{S1} <work/works> as a {JOB}.",
    "{S1} <be> a {JOB} at the {PLACE}.",
    "{S1} <want/wants> to be a {JOB} when {he} <grow/grows> up.",
    "{S} <go/goes> to work by {VEHICLE}.",
    "{S} <start/starts> work at {CLOCK} and <finish/finishes> at five.",
    "{S} finished {WORK_THING} before lunch.",
    "{S} sent {WORK_THING} to {his} boss.",
    "{S} <have/has> a meeting at {CLOCK}.",
    "{S} <be> late for work because of the traffic.",
    "{S} worked late and came home at {CLOCK}.",
    "The office is on the third floor.",
    "{S} got a new job at the {PLACE}.",
    "{S} <be> looking for a job.",
    "{S} <work/works> from home on {DAYS}.",
    "{S} <be> very busy at work this week.",
    "I have to finish this before the meeting.",
    "The meeting was long and boring.",
    "Could you send me the email again?",
    "{S} called the office to say {he} <was> ill.",
    "{S} took a day off work.",
    # shopping and money
    "{S} went to the {SHOP} to buy {BUY}.",
    "{S} walked to the shop to buy some {FOOD}.",
    "{S} bought {BUY} at the {SHOP}.",
    "{S} bought a {COLOUR} {THING} at the market.",
    "I am going to the shop to get some {FOOD}.",
    "We need {FOOD}, {FOOD} and {FOOD}.",
    "Don't forget to buy some {FOOD}.",
    "How much is this {THING}?",
    "It costs {MONEY}.",
    "That's too expensive.",
    "{S} paid {MONEY} for the {THING}.",
    "{S} <don't> have enough money to buy a new {THING}.",
    "The shop opens at nine and closes at six.",
    "The shops are closed on Sunday.",
    "Can I pay by card?",
    "Here is your change.",
    "{S} made a shopping list before {he} went out.",
    "{S} tried on a {COLOUR} {CLOTHES}, but it was too small.",
    "{S} bought a new {CLOTHES} for the party.",
    "{S} <want/wants> to buy a new {THING}.",
    "Do you have this in a bigger size?",
    "The supermarket was very busy on Saturday.",
    # weather and seasons
    "It is {WEATHER} today.",
    "It was a {WEATHER} {DAY_PART}, so {S} {STAYED}.",
    "It's {WEATHER} today, so take your umbrella.",
    "It is raining, so take your umbrella.",
    "It's cold outside, so put on your coat.",
    "It rained all day and the streets were wet.",
    "It snowed last night and the garden is white.",
    "The sun is shining and the sky is blue.",
    "What's the weather like today?",
    "It's going to rain this afternoon.",
    "The weather was {WEATHER} all week.",
    "It is very {WEATHER} in {MONTH}.",
    "In the summer it is hot and in the winter it is cold.",
    "{S} felt {FEELING} because it was {WEATHER} outside.",
    "The wind blew the leaves off the trees.",
    "There was a storm last night.",
    "The children built a snowman in the garden.",
    "We stayed inside because it was raining.",
    "Spring is here and the flowers are coming out.",
    "The leaves turn red and yellow in the autumn.",
    # travel and getting about
    "{S} took the {VEHICLE} to {TRAVEL_PLACE}.",
    "{S} went to {TRAVEL_PLACE} by {VEHICLE}.",
    "{S} <be> going to {TRAVEL_PLACE} {FUTURE}.",
    "We went to {TRAVEL_PLACE} for our holidays.",
    "{S} waited at the bus stop for {NUMBER} minutes.",
    "The {VEHICLE} was late again.",
    "The train leaves at {CLOCK}.",
    "What time does the train leave?",
    "{S} missed the last {VEHICLE} and had to walk home.",
    "{S} drove to work in the rain.",
    "{S} rode {his} bike to the park.",
    "{S} bought a ticket at the station.",
    "{S} packed {his} suitcase and went to the airport.",
    "Our flight was delayed by two hours.",
    "The hotel was near the beach.",
    "Excuse me, how do I get to the station?",
    "Excuse me, where is the nearest bank?",
    "{DIRECTION} and the {PLACE} is on your left.",
    "It's about ten minutes from here.",
    "Is it far from here?",
    "{S} got lost in the city.",
    "{S} looked at the map and found the way.",
    "The road was closed, so we went another way.",
    "There was a lot of traffic on the way home.",
    "{S} <be> on holiday in {TRAVEL_PLACE}.",
    "We had a wonderful time at the seaside.",
    "Have a good trip!",
    # going out and places
    "{S} went to the {PLACE} {WHEN}.",
    "{S} <like/likes> to go to the {PLACE} {WHEN}.",
    "{S} met {his} friends at the {PLACE}.",
    "I will see you at the {PLACE} {FUTURE}.",
    "Let's meet at the {PLACE} at {CLOCK}.",
    "Shall we go to the cinema tonight?",
    "{S} waited for {his} friend outside the {PLACE}.",
    "The {PLACE} was full of people.",
    "The {PLACE} is closed today.",
    "After {MEAL} {S} went for a walk in the park.",
    "We went for a walk along the river.",
    "The children played in the park until it got dark.",
    "{S} spent the afternoon at the {PLACE}.",
    # family and friends
    "{S} <have/has> {NUMBER} brothers and a sister.",
    "{S} visited {his} {FAMILY} {WHEN}.",
    "{S} <live/lives> with {his} {FAMILY}.",
    "{S} phoned {his} {FAMILY} {WHEN}.",
    "{S} called {his} mother to say {he} would be late.",
    "My sister is older than me.",
    "My brother is two years younger than me.",
    "Our grandparents live in a small village.",
    "{S} <be> very close to {his} {FAMILY}.",
    "{S} played with {his} little brother in the garden.",
    "The whole family had dinner together on Sunday.",
    "{S} wrote a letter to {his} grandmother.",
    "{S} gave {his} mother a {GIFT} for {OCCASION}.",
    "{S} got a {GIFT} for {OCCASION}.",
    "Happy birthday! How old are you now?",
    "We had a party for my mother's birthday.",
    "{S} invited all {his} friends to the party.",
    "{S} <be> getting married in {MONTH}.",
    "The baby is asleep, so please be quiet.",
    "The baby was crying all night.",
    "{S} looked after {his} little sister.",
    "{NAME} is my best friend.",
    "We have been friends for ten years.",
    "{S} told the children a story about {TOPIC}.",
    "Once upon a time there was {TOPIC} who lived in a castle.",
    "Once upon a time there was a little girl who lived in a forest.",
    # health and the body
    "{S} <have/has> {ACHE}.",
    "{S} had {ACHE}, so {he} stayed at home.",
    "{S} <feel/feels> ill and <want/wants> to go home.",
    "{S} hurt {his} {BODY} playing football.",
    "{S} broke {his} {BODY} when {he} fell off {his} bike.",
    "{S} went to the doctor because {he} had {ACHE}.",
    "The doctor gave {S} some medicine.",
    "Take this medicine three times a day.",
    "{S} <need/needs> to see a dentist.",
    "My {BODY} hurts.",
    "Are you feeling better today?",
    "I feel much better now, thank you.",
    "{S} stayed in bed for two days.",
    "You should drink a lot of water and rest.",
    "{S} <go/goes> running every morning to keep fit.",
    "{S} washed {his} hands before dinner.",
    "{S} <be> allergic to cats.",
    # time and dates
    "What time is it?",
    "It's {CLOCK}.",
    "It's {HOUR} o'clock.",
    "It is half past {HOUR}.",
    "The film starts at {CLOCK}.",
    "The party is on {DAYS}.",
    "My birthday is in {MONTH}.",
    "Today is {DAYS}, so tomorrow is {DAYS}.",
    "There are seven days in a week.",
    "There are twelve months in a year.",
    "We have been waiting for an hour.",
    "I'll be back in five minutes.",
    "See you on {DAYS}.",
    "See you tomorrow.",
    "{S} will be home {FUTURE}.",
    "{S} <be> going to visit {his} {FAMILY} {FUTURE}.",
    "{S} <be> going to {CHORE_BASE} {FUTURE}.",
    "{S} will call you {FUTURE}.",
    "{S} <have> lived here for {NUMBER} years.",
    "{S} left an hour ago.",
    # feelings and people
    "{S} <was> too {FEELING} to {TOO_TIRED_TO}.",
    "{S} <was> very {FEELING} {WHEN}.",
    "{S} <be> {FEELING} because {he} <was> {FEELING}.",
    "{S} went to bed early because {he} <was> tired.",
    "{S} <was> happy to see {his} friends again.",
    "{S} <was> sad when {his} dog died.",
    "{S} <was> afraid of the dark.",
    "{S} <was> angry because {his} brother broke {his} {THING}.",
    "{S} <was> excited about the holidays.",
    "{S} <was> nervous before the {SCHOOL_THING}.",
    "{S} smiled and said thank you.",
    "{S} said thank you and went home.",
    "{S} laughed at the joke.",
    "{S} started to cry.",
    "{S} <be> always happy in the morning.",
    "{NAME} is a very kind person.",
    "{S} <be> tall and {he} <have/has> short {COLOUR} hair.",
    "{S} <have/has> blue eyes and long hair.",
    "I'm sorry, I didn't mean it.",
    "Don't worry, everything will be fine.",
    "I'm so happy for you!",
    # hobbies and free time
    "{S} <like/likes> {HOBBY}.",
    "{S} <love/loves> {HOBBY} at the weekend.",
    "In the evenings {S} <like/likes> {HOBBY}.",
    "{S} <play/plays> {GAME} every {DAYS}.",
    "{S} played {GAME} with {his} friends after school.",
    "{S} <be> learning to play {GAME}.",
    "{S} watched a film on television.",
    "{S} listened to music in {his} room.",
    "{S} read a book in the {ROOM} {WHEN}.",
    "What do you like doing at the weekend?",
    "I like reading and going for walks.",
    "Do you want to play a game?",
    "{S} won the game.",
    "Our team won the match.",
    "{S} <be> reading a very good book.",
    # animals
    "The {ANIMAL} {ANIMAL_DOING} in the {OUTDOOR} all day.",
    "The {ANIMAL} {ANIMAL_DOING} under the {SURFACE}.",
    "The {ANIMAL} ran across the {OUTDOOR}.",
    "{S} <have/has> a {ANIMAL} called {NAME}.",
    "{S} <have/has> {NUMBER} {ANIMALS} and a {ANIMAL}.",
    "{S} fed the {ANIMALS} on the farm.",
    "There are {NUMBER} {ANIMALS} in the field.",
    "The dog barked at the postman.",
    "The cat is sleeping on the sofa.",
    "The cat caught a mouse in the garden.",
    "The birds were singing in the trees.",
    "{S} took the dog for a walk.",
    "{S} opened the door and the {ANIMAL} ran out.",
    "{S} sat on the {SURFACE} and looked at the {ANIMAL}.",
    "The {COLOUR} {ANIMAL} slept by the fire.",
    # clothes
    "{S} put on {his} {CLOTHES} and went out.",
    "{S} took off {his} {CLOTHES}.",
    "{S} <be> wearing a {COLOUR} {CLOTHES}.",
    "Put on your coat, it's cold outside.",
    "These shoes are too small for me.",
    "{S} forgot {his} {CLOTHES} at school.",
    # talking and asking
    "Please {IMPERATIVE}.",
    "Please {IMPERATIVE} before you go.",
    "Don't forget to {IMPERATIVE}.",
    "Could you {IMPERATIVE}, please?",
    "Can you help me with my homework?",
    "Can I ask you a question?",
    "Thank you very much.",
    "Thank you for your help.",
    "You're welcome.",
    "How are you?",
    "I'm fine, thanks. And you?",
    "Nice to meet you.",
    "What is your name?",
    "My name is {NAME}.",
    "Where do you live?",
    "I live in a small town near the sea.",
    "How old are you?",
    "I am {NUMBER} years old.",
    "Where are you from?",
    "What do you do?",
    "What are you doing?",
    "I'm {DOING}.",
    "{S} <be> {DOING} at the moment.",
    "{S} <was> {DOING} when the phone rang.",
    "Do you know where the {THING} is?",
    "I don't know.",
    "I think so.",
    "I don't think so.",
    "That sounds like {SOUNDS_LIKE}.",
    "What a lovely day!",
    "Sorry, I'm late.",
    "Excuse me, is this seat free?",
    "Let me know if you need anything.",
    "I would like to book a table for two, please.",
    "See you later.",
    "Have a nice day!",
    "Goodbye, see you soon.",
    "Hello, can I speak to {NAME}, please?",
    "What do you want to do {FUTURE}?",
    "Do you want to come with us?",
    "Why are you so {FEELING}?",
    "Where did you put the {THING}?",
    "When are you going to {CHORE_BASE}?",
    "Who is that man over there?",
    "Which one do you want, the {COLOUR} one or the {COLOUR} one?",
    "How many {ANIMALS} are there?",
    "How much bread do we need?",
    "Is there any milk left?",
    "Are you ready to go?",
    "Did you have a good day at work?",
    "I'm going to make some tea. Do you want some?",
    # telling what happened
    "{S} looked out of the window and saw {SEEN}.",
    "{S} opened the door and saw {SEEN}.",
    "{S} heard a noise in the {ROOM}.",
    "{S} found a {THING} in the {CONTAINER}.",
    "{S} lost {his} {THING} on the way to the {PLACE}.",
    "{S} waited at the {PLACE} for {NUMBER} hours.",
    "{S} sat down on the {SURFACE} and read a book.",
    "{S} forgot to lock the door.",
    "{S} fell asleep in front of the television.",
    "Suddenly the lights went out.",
    "The phone rang, but nobody answered.",
    "Somebody left the door open.",
    "{S} knocked on the door, but nobody was at home.",
    "{S} ran to catch the {VEHICLE}.",
    "{S} helped the old woman carry her bags.",
    "{S} carried the {THING} upstairs.",
    "{S} picked up the {THING} and put it in {his} bag.",
    "{S} gave {his} {THING} to {his} friend.",
    "{S} showed {his} friends a picture of {his} dog.",
    "{S} told {his} mother about {his} day at school.",
    "{S} asked {his} father for some money.",
    "{S} wrote {his} name at the top of the page.",
    "{S} read the letter and smiled.",
    "{S} took a photo of the sea.",
    "At the end of the day {S} <was> very tired.",
    "In the end {S} went home.",
    "First {S} had breakfast, then {he} went to work.",
    "Before going out, {S} locked the door.",
    "{S} stayed at home because it <was> raining.",
    "{S} went out even though it <was> raining.",
    "If it rains tomorrow, we will stay at home.",
    "If you are tired, you should go to bed.",
    "I would like to go to {TRAVEL_PLACE} one day.",
    "{S} <want/wants> to go to {TRAVEL_PLACE} {FUTURE}.",
    "{S} <need/needs> to buy some {FOOD} and some {FOOD}.",
    "{S} <have/has> to {CHORE_BASE} before dinner.",
    "{S} <have/has> a {SIZE} {COLOUR} {THING}.",
    "The {THING} is {COLOUR} and {SIZE}.",
    "This {THING} is too {SIZE}.",
    "The street was quiet and dark.",
    "The house was empty when we arrived.",
    "The room was warm and the fire was bright.",
    "The animal didn't cross the street because it was too {FEELING}.",
    "The dog didn't eat its food because it was too {FEELING}.",
    "The children didn't go outside because it was too {WEATHER}.",
    "We didn't go to the beach because it was too cold.",
    "{S} didn't go to school because {he} <was> ill.",
    "{S} didn't finish {his} dinner because {he} <was> not hungry.",
    "{S} couldn't sleep because it was too {WEATHER}.",
    # cooking and the kitchen
    "{S} boiled some water and made {DRINK}.",
    "{S} peeled the potatoes and put them in a pot.",
    "{S} chopped the onions and fried them in butter.",
    "{S} put the cake in the oven for forty minutes.",
    "{S} mixed the flour, the eggs and the milk in a bowl.",
    "{S} made sandwiches with {FOOD} and {FOOD}.",
    "{S} warmed up the soup for lunch.",
    "{S} followed the recipe in the cookbook.",
    "The kettle is boiling.",
    "The bread is in the oven.",
    "Wash the vegetables before you cook them.",
    "Add a little salt and pepper.",
    "Stir the soup and let it cook for ten minutes.",
    "Be careful, the pan is very hot.",
    "{S} burnt the toast again.",
    "There is a bowl of fruit on the kitchen table.",
    "{S} took the milk out of the fridge.",
    "{S} poured {DRINK} into a glass.",
    "{S} <be> cooking {DISH} for {MEAL}.",
    # phones, computers and television
    "{S} sent {his} friend a message.",
    "{S} called {his} {FAMILY} on the phone.",
    "{S} <be> talking to {his} {FAMILY} on the phone.",
    "My phone battery is almost dead.",
    "Can I use your phone, please?",
    "{S} turned on the computer and read {his} emails.",
    "{S} watched the news on television.",
    "{S} <be> watching a film on television.",
    "What's on television tonight?",
    "Turn the music down, please.",
    "{S} forgot to charge {his} phone.",
    "{S} took a picture with {his} phone.",
    "I'll text you when I get home.",
    "{S} did not answer the phone.",
    # the town and the street
    "There is a {PLACE} at the end of our street.",
    "There is a bakery next to the bank.",
    "The {PLACE} is opposite the {PLACE}.",
    "The {PLACE} is between the bank and the post office.",
    "{S} crossed the road at the traffic lights.",
    "{S} parked the car outside the {PLACE}.",
    "The streets were busy with people and cars.",
    "{S} <live/lives> in a flat in the city centre.",
    "Our town has a small market every {DAYS}.",
    "The new {PLACE} opened last month.",
    "The bus stops in front of the {PLACE}.",
    "{S} walked past the {PLACE} on the way home.",
    # nature and the countryside
    "{S} went for a walk in the woods.",
    "The trees are green in the summer.",
    "There were flowers all along the path.",
    "We climbed to the top of the hill.",
    "The river was cold and clear.",
    "{S} sat under a tree and read a book.",
    "The sun went down behind the hills.",
    "The stars were bright in the night sky.",
    "{S} picked some apples from the tree.",
    "The farmer drove the tractor across the field.",
    "The cows were eating grass in the field.",
    "We swam in the lake and lay in the sun.",
    # sport and games
    "{S} <play/plays> football with {his} friends on {DAYS}.",
    "{S} scored a goal in the last minute.",
    "{S} <go/goes> swimming twice a week.",
    "{S} ran five kilometres this morning.",
    "The match starts at {CLOCK}.",
    "Who won the game last night?",
    "{S} <be> the best player in the team.",
    "{S} fell and hurt {his} {BODY} during the game.",
    "{S} <be> learning to swim.",
    "{S} rode {his} bike around the park.",
    # wanting, planning, deciding
    "{S} <want/wants> to {CHORE_BASE} before {MEAL}.",
    "{S} <want/wants> to go home.",
    "{S} <want/wants> a new {THING} for {OCCASION}.",
    "{S} decided to stay at home.",
    "{S} decided to walk to the {PLACE}.",
    "{S} <be> going to the {PLACE} {FUTURE}.",
    "{S} <be> going to buy {BUY} {FUTURE}.",
    "{S} <hope/hopes> to see {his} friends {FUTURE}.",
    "{S} <need/needs> a new {THING}.",
    "{S} <need/needs> to go to the {PLACE}.",
    "{S} forgot to buy {FOOD}.",
    "{S} remembered to lock the door.",
    "{S} tried to open the window, but it was stuck.",
    "{S} started to read a new book.",
    "{S} stopped to look at the {ANIMAL}.",
    "{S} used to live in {TRAVEL_PLACE}.",
    "{S} can swim, but {he} can't ride a bike.",
    "{S} can't come to the party.",
    "You must not run in the corridor.",
    "You should see a doctor.",
    "You can sit here if you like.",
    "We must leave at {CLOCK}.",
    "I might go to the {PLACE} {FUTURE}.",
    "Let's go to the {PLACE}.",
    "Let's have a cup of tea.",
    "Why don't we go for a walk?",
    "Shall I open the window?",
    # comparing and describing
    "{S} <be> taller than {his} brother.",
    "This {THING} is bigger than that one.",
    "The {PLACE} is not far from our house.",
    "This is the best {DISH} I have ever eaten.",
    "The new {THING} is much better than the old one.",
    "It is colder today than yesterday.",
    "The {THING} was old and dirty.",
    "The {ROOM} was small but very clean.",
    "It was the longest day of the year.",
    "{S} <have/has> a {SIZE} {ANIMAL} with {COLOUR} fur.",
    "Everything was quiet in the house.",
    "There is nothing in the fridge.",
    "There are some apples on the table.",
    "There is a letter for you on the table.",
    "There was nobody in the street.",
    "There were a lot of people at the {PLACE}.",
    "Is there a {PLACE} near here?",
    "Are there any shops near here?",
    # saying and asking
    "{S} said that {he} <was> {FEELING}.",
    "{S} told me that the {PLACE} was closed.",
    "{S} asked me where the {PLACE} was.",
    "{S} asked if {he} could borrow my {THING}.",
    "{S} said goodbye and left.",
    "{S} said hello to the neighbours.",
    "\"Where are you going?\" asked {S}.",
    "\"I'm going to the {PLACE},\" said {S}.",
    "\"Can I help you?\" asked the shop assistant.",
    "\"Thank you,\" said {S}.",
    "\"Come in and sit down,\" said {S}.",
    "\"What time is it?\" asked {S}.",
    "\"Is it going to rain?\" asked {S}.",
    "\"I'm hungry,\" said the little boy.",
    "\"Be careful!\" shouted {S}.",
    # a little story
    "One day {S} went to the {PLACE} and met an old friend.",
    "One morning {S} woke up and saw that it was snowing.",
    "Last {DAYS} {S} went to the {PLACE} with {his} {FAMILY}.",
    "Last summer we went camping by the lake.",
    "When {S} <was> young, {he} lived in a small village.",
    "When the rain stopped, the children went outside to play.",
    "When the film ended, everyone went home.",
    "As soon as {S} got home, {he} went to bed.",
    "While {S} <was> {DOING}, the phone rang.",
    "After a long day at work, {S} <was> very tired.",
    "Later that evening {S} called {his} {FAMILY}.",
    "The next morning {S} got up early.",
    "{S} <was> so {FEELING} that {he} could not speak.",
    "{S} ran all the way home.",
    "{S} looked everywhere for {his} {THING}.",
    "{S} found {his} {THING} under the {SURFACE}.",
    "At last the bus came.",
    "It took us two hours to get there.",
    "In the morning the ground was covered in snow.",
    "Everyone was happy at the end of the day.",
]

HOURS = words("one | two | three | four | five | six | seven | eight | nine | ten | eleven | twelve")
NAMES = words("Tom | Anna | Sam | Mary | John | Emma | Ben | Lucy | Jack | Sarah | David | Kate | Peter | Max | "
              "Bella | Charlie | Daisy | Rex | Sophie")
SLOTS = {"CLOCK": CLOCK, "DAYS": DAYS, "MONTH": MONTHS, "WHEN": WHEN, "FUTURE": FUTURE, "FOOD": FOODS,
         "DISH": DISHES, "MEAL": MEALS, "DRINK": DRINKS, "THING": THINGS, "SURFACE": SURFACES,
         "CONTAINER": CONTAINERS, "ROOM": ROOMS, "PLACE": PLACES, "ANIMAL": ANIMALS, "ANIMALS": ANIMALS_PLURAL,
         "ANIMAL_DOING": ANIMAL_DOINGS, "OUTDOOR": OUTDOORS, "FEELING": FEELINGS, "TOO_TIRED_TO": TOO_TIRED_TO,
         "WEATHER": WEATHER, "DAY_PART": DAY_PARTS, "STAYED": STAYED, "GIFT": GIFTS, "OCCASION": OCCASIONS,
         "COLOUR": COLOURS, "SIZE": SIZES, "BODY": BODY, "ACHE": ACHES, "NUMBER": NUMBERS, "MONEY": MONEY,
         "SUBJECT": SUBJECTS_AT_SCHOOL, "SCHOOL_THING": SCHOOL_THINGS, "JOB": JOBS, "WORK_THING": WORK_THINGS,
         "CLOTHES": CLOTHES, "VEHICLE": VEHICLES, "TRAVEL_PLACE": TRAVEL_PLACES, "CHORE": CHORES,
         "CHORE_BASE": CHORES_BASE, "HOBBY": HOBBIES, "GAME": GAMES, "IMPERATIVE": IMPERATIVES, "DOING": DOINGS,
         "SEEN": SEEN, "TOPIC": TOPICS, "SHOP": SHOPS, "BUY": BUYS, "FAMILY": FAMILY, "SOUNDS_LIKE": SOUNDS_LIKE,
         "DIRECTION": DIRECTIONS, "NAME": NAMES, "HOUR": HOURS}

# <be> <was> <have> <do> <don't>: the forms for ("I", "pl", "3")
AGREEING = {"be": ("am", "are", "is"), "was": ("was", "were", "was"), "have": ("have", "have", "has"),
            "do": ("do", "do", "does"), "don't": ("don't", "don't", "doesn't")}
PIECE = re.compile(r"\{(\w+)\}|<([^>]+)>")


def verb(spec, agreement):
    """<go/goes> or <be>-style agreement for a subject of agreement "I", "pl" or "3"."""
    if spec in AGREEING:
        return AGREEING[spec][("I", "pl", "3").index(agreement)]
    base, third = spec.split("/")
    return third if agreement == "3" else base


def fill(template, rng):
    """One sentence: each slot replaced by a random choice, verbs and pronouns agreeing with the subject."""
    subject = None
    out, at = [], 0
    for m in PIECE.finditer(template):
        out.append(template[at:m.start()])
        at = m.end()
        slot, spec = m.groups()
        if slot in ("S", "S1"):
            subject = rng.choice(SUBJECTS if slot == "S" else [s for s in SUBJECTS if s[0] != "you" and s[1] != "pl"])
            out.append(subject[0])
        elif slot in ("he", "his", "him"):
            out.append(subject[("he", "his", "him").index(slot) + 2])
        elif spec is not None:
            out.append(verb(spec, subject[1] if subject else "3"))
        else:
            out.append(rng.choice(SLOTS[slot]))
    text = "".join(out) + template[at:]
    text = re.sub(r"\b([Aa]) ([aeio]|u(?!ni|se|s))", r"\1n \2", text)  # "a apple" → "an apple"
    return text[0].upper() + text[1:]


def everyday_sentences(rng, count):
    return [fill(rng.choice(TEMPLATES), rng) for _ in range(count)]
