#!/usr/bin/env node
// make_bundled_decoder_ids.js — expected token ids for attnviz's bundled decoder (assets/models/attnviz-mini-llama)
// from HuggingFace's own JavaScript tokenizer (@huggingface/tokenizers 0.2.0, which scripts/fetch-reference-vocab puts
// in the cache) run on its tokenizer.json: every held-out prefix line (tests/data/bundled_decoder/
// held_out_prefixes.txt) and sentences that try the byte-level pre-tokenizer (contractions, digits, accents, emoji,
// whitespace runs, the special token as text).
//
//   node tests/reference/tokenizers/make_bundled_decoder_ids.js [cache]   # default ~/.cache/attnviz/reference
// writes tests/data/bundled_decoder/tokenizer_ids.json: [{"text": …, "ids": [...]}, …]. Run it again whenever the
// bundled decoder is retrained.
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');

const cache = process.argv[2] || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'attnviz', 'reference');
const { Tokenizer } = require(path.join(cache, 'hf-tokenizers', 'dist', 'tokenizers.cjs'));
const root = path.join(__dirname, '..', '..', '..');
const folder = path.join(root, 'assets', 'models', 'attnviz-mini-llama');
const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

const heldOut = fs.readFileSync(path.join(root, 'tests', 'data', 'bundled_decoder', 'held_out_prefixes.txt'), 'utf8')
  .split('\n').filter((line) => line && !line.startsWith('#')).map((line) => line.replace(' | ', ' '));
const tricky = [
  "The animal didn't cross the street because it was too tired.", "I'm sure they'll say it's what we'd've done.",
  "SHE'S HERE; YOU'RE THERE.", 'Caf\u00e9 na\u00efve r\u00e9sum\u00e9', 'In 1984 there were 12 cats and 7 dogs.',
  'What?! No... really???', 'A  B   C    D', '   three leading spaces', 'trailing spaces   ', 'tab\tseparated',
  'new\nline', 'I love \ud83d\ude00', '\u4f60\u597d\u4e16\u754c', '<|begin_of_text|>Hello', '<|end_of_text|> done',
  'snake_case camelCase', 'And God said, Let there be light: and there was light.', 'Supercalifragilisticexpialidocious',
];

const tokenizer = new Tokenizer(readJson(path.join(folder, 'tokenizer.json')), readJson(path.join(folder, 'tokenizer_config.json')));
const out = [...heldOut, ...tricky].map((text) => ({ text, ids: tokenizer.encode(text).ids }));
const file = path.join(root, 'tests', 'data', 'bundled_decoder', 'tokenizer_ids.json');
fs.writeFileSync(file, JSON.stringify(out, null, 0).replace(/\},\{/g, '},\n{') + '\n');
console.log(`${file}: ${out.length} sentences`);
