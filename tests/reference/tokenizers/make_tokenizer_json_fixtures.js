#!/usr/bin/env node
// make_tokenizer_json_fixtures.js — expected token ids for attnviz's tokenizer.json pipeline, from HuggingFace's
// own JavaScript implementation (@huggingface/tokenizers 0.2.0) run on real tokenizer.json files: GPT-2, Llama-2
// (SentencePiece-style BPE with ▁ and byte fallback), Llama-3 and Qwen3 (byte-level BPE with a \p{L} Split
// pattern) and all-MiniLM-L6-v2 (BERT WordPiece). scripts/fetch-reference-vocab puts them all in the cache.
//
//   node tests/reference/tokenizers/make_tokenizer_json_fixtures.js [cache]   # default ~/.cache/attnviz/reference
// writes tokenizer_json_ids.json beside this script: {"<folder>": [{"text": …, "ids": [...]}, …], …}; only
// sentences and ids, never the vocabularies.
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');

const cache = process.argv[2] || path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'attnviz', 'reference');
const { Tokenizer } = require(path.join(cache, 'hf-tokenizers', 'dist', 'tokenizers.cjs'));

const readJson = (file) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : {});

// Shared sentences: scripts, accents, emoji (with joiners and skin tones), digits in runs, whitespace runs, tabs,
// newlines, contractions in both cases, punctuation runs, and text that only looks like a special token.
const shared = [
  'Hello world', 'The animal didn\'t cross the street because it was too tired.', "I'm sure they'll say it's what we'd've done.",
  "SHE'S HERE; YOU'RE THERE, AND WE'VE GONE. DON'T!", 'Caf\u00e9 na\u00efve r\u00e9sum\u00e9 fa\u00e7ade co\u00f6perate',
  '\u00c9COLE \u00c0 PARIS, \u00dcBER M\u00dcNCHEN', 'Z\u00fcrich, S\u00e3o Paulo and Krak\u00f3w', 'Numbers: 3.14159, 1,000,000 and 2026-11-24.',
  '12345678901234567890', 'In 1984 there were 12 cats and 7 dogs.', 'Attention is all you need (Vaswani et al., 2017).',
  'What?! No... really???', '"Quoted," she said \u2014 and left \u2026', 'email me at someone@example.com or https://example.com/a?b=c',
  'UPPER lower MiXeD CaSe', 'A  B   C    D', '   three leading spaces', 'trailing spaces   ', 'tab\tseparated\tvalues',
  'new\nline and\r\nwindows line', 'two\n\nparagraphs\n\n\nhere', ' \t \n mixed whitespace run \n\t ', '\u4f60\u597d\u4e16\u754c',
  '\u732b\u304c\u597d\u304d\u3067\u3059\u3002', '\ud55c\uad6d\uc5b4 \ubb38\uc7a5', '\u0645\u0631\u062d\u0628\u0627 \u0628\u0627\u0644\u0639\u0627\u0644\u0645',
  '\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd', '\u0928\u092e\u0938\u094d\u0924\u0947 \u0926\u0941\u0928\u093f\u092f\u093e',
  '\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e04\u0e23\u0e31\u0e1a', '\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440!',
  '\u039a\u03b1\u03bb\u03b7\u03bc\u03ad\u03c1\u03b1 \u03ba\u03cc\u03c3\u03bc\u03b5', 'I love \ud83d\ude00 and \ud83d\udc08\u200d\u2b1b',
  '\ud83d\udc4d\ud83c\udffd thumbs', '\ud83d\ude80\ud83d\ude80\ud83d\ude80', '\ud83c\uddef\ud83c\uddf5 flag', 'price: $5 + 3 = 8 <ok> ^_^ `code` a|b ~tilde',
  'x = y * 2 / z % 3 & 1', '#hashtag @mention', 'mixed\u00a0non-breaking\u00a0space', 'end.', 'Supercalifragilisticexpialidocious',
  "rock 'n' roll, o'clock, y'all", 'U.S.A. and U.K.', '3D printing and 5G networks', 'def f(x):\n    return x ** 2\n',
  'for (int i = 0; i < n; ++i) { sum += a[i]; }', '\u00bd \u2153 \u2155 \u2167 \u2460 \u00b2 \u00b3', '\u0660\u0661\u0662 \u0966\u0967\u0968 \uff11\uff12\uff13',
  '\uff21\uff22\uff23 full-width', '\ufb01ne ligature', 'e\u0301 combining acute vs \u00e9', '\u212b \u00c5 angstrom', '\u0130stanbul \u0131',
  'stra\u00dfe STRASSE', 'zero\u200bwidth', 'soft\u00adhyphen', 'a\u2028b\u2029c', '\u3000ideographic space', '\u2018single\u2019 \u201cdouble\u201d',
  '\u00a1Hola! \u00bfQu\u00e9 tal?', '1st 2nd 3rd 4th', 'v1.2.3-beta+build.7', '0x1F 0b1010 1e-9', '$1,234.56 \u20ac99 \u00a35 \u00a5100',
  'C++ C# F# .NET', 'snake_case camelCase PascalCase kebab-case', 'ALLCAPSWORDSTOGETHER', 'lowercasewordstogether',
  'a b c d e f g h i j k l m n o p', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '!!!???...;;;', '[CLS] and [SEP] as text',
  '<s> and </s> as text', '<|endoftext|>', '<|begin_of_text|>Hello', '<|im_start|>user\nHi<|im_end|>', 'almost <|special|> token',
  '<<|endoftext|>>', 'The quick brown fox jumps over the lazy dog.', 'Pack my box with five dozen liquor jugs.',
  'Sphinx of black quartz, judge my vow.', 'It\'s 9:30 a.m. on 25/11/2026.', 'Temperature: -3.5\u00b0C (feels like -8\u00b0C)',
  '\u2603 \u2764\ufe0f \u2728 \u26a1', '\ud835\udc00\ud835\udc01 math bold', '\u1100\u1161 jamo', 'tea\u0301 time',
  'Le c\u0153ur a ses raisons.', '\u00e6\u00f8\u00e5 \u00c6\u00d8\u00c5', '\u0141\u00f3d\u017a \u017b\u00f3\u0142w', 'Dvo\u0159\u00e1k \u0160koda',
  'Ng\u01b0\u1eddi Vi\u1ec7t Nam', '\u10e5\u10d0\u10e0\u10d7\u10e3\u10da\u10d8', '\u0540\u0561\u0575\u0565\u0580\u0565\u0576',
  '\u12a0\u121b\u122d\u129b', '\u0ba4\u0bae\u0bbf\u0bb4\u0bcd', '\u65e5\u672c\u8a9e\u3068English\u306e\u6df7\u5728',
  '\u4e2d\u6587\uff0c\u6807\u70b9\u7b26\u53f7\uff01', 'Mixed \u4e2d\u6587 and \ud55c\uae00 and \u0639\u0631\u0628\u064a',
  'line one\rline two', 'form\ffeed', 'vertical\vtab', 'bell\u0007char', 'null\u0000char',
  "  'quoted'  ", '(((nested)))', '--dashes-- and __underscores__', '...leading dots', 'https://huggingface.co/docs',
];

const cases = {
  'tokenizer-gpt2': ['<|endoftext|>Hello<|endoftext|>', 'one<|endoftext|> two'],
  'tokenizer-llama2': ['<s>Hello</s>', '<unk> in text', '\u2581already a metaspace', 'byte fallback: \ud800\udc00 \u{1F9FF}'],
  'tokenizer-llama3': ['<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>', '<|end_of_text|> done',
                       '<|reserved_special_token_5|>x'],
  'tokenizer-qwen3': ['<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\n\u4f60\u597d<|im_end|>', '<think>\nok\n</think>',
                      '<|endoftext|>tail'],
  'all-MiniLM-L6-v2': ['[CLS] hello [SEP]', '[MASK] fills the gap', 'hello[SEP]world', '[PAD][UNK]'],
};

const out = {};
for (const [folder, extra] of Object.entries(cases)) {
  const dir = path.join(cache, folder);
  const tokenizer = new Tokenizer(readJson(path.join(dir, 'tokenizer.json')), readJson(path.join(dir, 'tokenizer_config.json')));
  out[folder] = [...shared, ...extra].map((text) => ({ text, ids: tokenizer.encode(text).ids }));
}
fs.writeFileSync(path.join(__dirname, 'tokenizer_json_ids.json'), JSON.stringify(out, null, 0).replace(/\},\{/g, '},\n{') + '\n');
for (const [folder, list] of Object.entries(out)) console.log(`${folder}: ${list.length} sentences`);
