// classic_vocabularies.h — the classic vocabulary files as tokenizer pipelines (pipeline.h), the way HuggingFace's
// slow→fast converters (transformers' convert_slow_tokenizer.py: GPT2Converter, BertConverter) turn them into a
// tokenizer.json, so that every vocabulary runs through one BPE and one WordPiece.
//
//   GPT-2's vocab.json + merges.txt   no normalizer; ByteLevel pre-tokenizer (GPT-2's pattern, no prefix space);
//                                      BPE by merge rank, no unknown token; "<|endoftext|>" a special token when the
//                                      vocabulary has it; ByteLevel labels ("Ġcat" → "␣cat")
//   BERT's vocab.txt                   BertNormalizer (controls dropped, CJK ideographs spaced, lower case and
//                                      accents as WordPieceOptions say); BertPreTokenizer; WordPiece ("##", [UNK], at
//                                      most 100 characters a word); [CLS] … [SEP] around the sentence
// One departure from BertConverter, kept from attnviz's first BERT tokenizer (tests/reference/tokenizers/
// bert_ids.json pins it): of BERT's special tokens only a typed "[MASK]" stays one token, for the masked-word head to
// fill; a typed "[CLS]" is text, split like any punctuation.
// Pure: the files' contents come in as data (io/tokenizer_files.h reads them). Throws InputError with one sentence
// when the vocabulary cannot be used.
#pragma once

#include "core/tokenizers/pipeline.h"

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attnviz::core {

// vocabulary: piece (in GPT-2's byte alphabet, byte_level.h) → id; merges in rank order (rank 0 first). Refuses a
// vocabulary without one of the 256 byte pieces.
TokenizerDefinition byteLevelBpeDefinition(std::unordered_map<std::string, int> vocabulary,
                                           std::vector<std::pair<std::string, std::string>> merges);

// BERT's tokenizer_config.json settings.
struct WordPieceOptions {
    bool lowercase = true;       // do_lower_case (uncased models)
    bool stripAccents = true;    // strip_accents; HuggingFace's default follows do_lower_case
    bool splitCjk = true;        // tokenize_chinese_chars
};

// pieces: vocab.txt's lines, id = line − 1. Refuses a piece that repeats (naming both lines) and a vocabulary without
// [UNK], [CLS] or [SEP].
TokenizerDefinition wordPieceDefinition(const std::vector<std::string>& pieces, const WordPieceOptions& options);

}  // namespace attnviz::core
