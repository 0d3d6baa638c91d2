// classic_vocabularies.cpp — GPT-2's and BERT's vocabulary files as pipeline definitions. See classic_vocabularies.h.
#include "core/tokenizers/classic_vocabularies.h"

#include "core/display_text.h"  // echoed
#include "core/tokenizer.h"  // InputError
#include "core/tokenizers/byte_level.h"

namespace attnviz::core {
namespace {

constexpr const char* kEndOfText = "<|endoftext|>";
constexpr const char* kMask = "[MASK]";

// An added token matched in the raw text, as the converters add the vocabulary's special tokens.
AddedToken addedToken(int id, std::string content, bool special) {
    AddedToken token;
    token.id = id;
    token.content = std::move(content);
    token.special = special;
    return token;
}

}  // namespace

TokenizerDefinition byteLevelBpeDefinition(std::unordered_map<std::string, int> vocabulary,
                                           std::vector<std::pair<std::string, std::string>> merges) {
    for (const std::string& single : byteToUnicode()) {
        if (!vocabulary.contains(single)) throw InputError("The vocabulary lacks the byte piece \"" + single + "\", which every GPT-2 vocabulary has.");
    }
    TokenizerDefinition definition;
    definition.source = "vocab.json + merges.txt";
    definition.preTokenizer.emplace().kind = PreTokenizerStep::Kind::ByteLevel;  // addPrefixSpace false, GPT-2's pattern
    if (const auto endOfText = vocabulary.find(kEndOfText); endOfText != vocabulary.end()) {
        definition.addedTokens.push_back(addedToken(endOfText->second, kEndOfText, true));
    }
    definition.model.kind = VocabularyModel::Kind::Bpe;
    definition.model.vocabulary = std::move(vocabulary);
    definition.model.merges = std::move(merges);
    definition.labels = LabelStyle::ByteLevel;
    return definition;
}

TokenizerDefinition wordPieceDefinition(const std::vector<std::string>& pieces, const WordPieceOptions& options) {
    TokenizerDefinition definition;
    definition.source = "vocab.txt";
    VocabularyModel& model = definition.model;
    model.kind = VocabularyModel::Kind::WordPiece;
    for (std::size_t id = 0; id < pieces.size(); ++id) {
        if (const auto [first, added] = model.vocabulary.emplace(pieces[id], static_cast<int>(id)); !added) {
            throw InputError("The vocabulary has \"" + echoed(pieces[id]) + "\" twice (lines " + std::to_string(first->second + 1) + " and " +
                             std::to_string(id + 1) + ").");
        }
    }
    for (const char* special : {"[UNK]", "[CLS]", "[SEP]"}) {
        if (!model.vocabulary.contains(special)) throw InputError(std::string("The vocabulary has no ") + special + ", which BERT needs.");
    }
    model.unknownToken = "[UNK]";
    model.continuingSubwordPrefix = "##";

    NormalizerStep& normalizer = definition.normalizer.emplace();
    normalizer.kind = NormalizerStep::Kind::Bert;
    normalizer.handleChineseChars = options.splitCjk;
    normalizer.lowercase = options.lowercase;
    normalizer.stripAccents = options.stripAccents;
    definition.preTokenizer.emplace().kind = PreTokenizerStep::Kind::Bert;
    PostProcessorStep& around = definition.postProcessor.emplace();
    around.kind = PostProcessorStep::Kind::Bert;
    around.cls = {"[CLS]", model.vocabulary.at("[CLS]")};
    around.sep = {"[SEP]", model.vocabulary.at("[SEP]")};
    if (const auto mask = model.vocabulary.find(kMask); mask != model.vocabulary.end()) {
        definition.addedTokens.push_back(addedToken(mask->second, kMask, false));
    }
    return definition;
}

}  // namespace attnviz::core
