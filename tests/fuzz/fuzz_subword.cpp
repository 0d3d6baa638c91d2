// fuzz_subword.cpp — libFuzzer entry point: any bytes as text for GPT-2's byte-level BPE and BERT's WordPiece, each
// with a small vocabulary built here. Each must return ids inside its vocabulary with one piece and one label per id,
// or throw InputError (invalid UTF-8); anything else is a bug.
#include "core/tokenizer.h"
#include "core/tokenizers/byte_level.h"
#include "core/tokenizers/classic_vocabularies.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

using namespace attnviz::core;

const PipelineTokenizer& bpe() {
    static const PipelineTokenizer tokenizer([] {
        std::unordered_map<std::string, int> vocabulary;
        for (int b = 0; b < 256; ++b) vocabulary.emplace(byteToUnicode()[static_cast<std::size_t>(b)], b);
        vocabulary.emplace("Ġt", 256);
        vocabulary.emplace("he", 257);
        vocabulary.emplace("Ġthe", 258);
        vocabulary.emplace("<|endoftext|>", 259);
        return byteLevelBpeDefinition(vocabulary, {{"Ġ", "t"}, {"h", "e"}, {"Ġt", "he"}});
    }());
    return tokenizer;
}

const PipelineTokenizer& wordPiece() {
    static const PipelineTokenizer tokenizer(wordPieceDefinition({"[PAD]", "[UNK]", "[CLS]", "[SEP]", "the", "cat", "##s", "a", "##a", "é", "猫", "!"}, {}));
    return tokenizer;
}

void check(const Encoding& encoding, int vocabularySize) {
    if (encoding.pieces.size() != encoding.ids.size() || encoding.labels.size() != encoding.ids.size()) __builtin_trap();
    for (int id : encoding.ids) {
        if (id < 0 || id >= vocabularySize) __builtin_trap();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        check(bpe().encode(text), bpe().vocabularySize());
        check(wordPiece().encode(text), wordPiece().vocabularySize());
    } catch (const InputError&) {
    }
    return 0;
}
