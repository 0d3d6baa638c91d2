// test_head_reading.cpp — core::headReading, what a named head's caption says it does on this sentence (issue 32):
// never more than the numbers show. Hand-made maps, so each wording has one cause: the "it" row's weights, a close
// call (top two within 0.2 as shown), weight on no word, other rows copying the pronoun's noun, a sentence without
// "it", and a row other than the pronoun's. (The bundled model's own sentences: test_bundled_model.cpp.)
#include "core/head_reading.h"

#include <doctest/doctest.h>

namespace {

using namespace attnviz::core;

// "[CLS] w1 … wn [SEP]" with one piece per word.
Encoding encodingOf(const std::vector<std::string>& words) {
    Encoding encoding;
    encoding.labels.push_back("[CLS]");
    for (const std::string& word : words) encoding.labels.push_back(word);
    encoding.labels.push_back("[SEP]");
    encoding.pieces = encoding.labels;
    encoding.special.assign(encoding.labels.size(), false);
    encoding.special.front() = encoding.special.back() = true;
    encoding.ids.assign(encoding.labels.size(), 0);
    return encoding;
}

// Every row puts `weight` on key `key` and the rest on [SEP]; row `row` (when ≥ 0) is replaced by `special`.
AttentionRows mapOf(std::size_t length, int key, float weight) {
    AttentionRows map(length, std::vector<float>(length, 0.0f));
    for (auto& row : map) {
        row[static_cast<std::size_t>(key)] += weight;
        row.back() += 1.0f - weight;
    }
    return map;
}

const std::vector<std::string> kTired = {"the", "animal", "crossed", "the", "street", "because", "it", "was", "tired"};
constexpr int kIt = 7, kAnimal = 2, kStreet = 5;

}  // namespace

TEST_CASE("head reading: the it row's weights, and nothing more when the numbers are clear and the other rows rest") {
    const Encoding encoding = encodingOf(kTired);
    AttentionRows map = mapOf(encoding.labels.size(), static_cast<int>(encoding.labels.size()) - 1, 1.0f);  // all on [SEP]
    map[kIt].assign(map.size(), 0.0f);
    map[kIt][kAnimal] = 0.95f;
    map[kIt][kStreet] = 0.05f;
    CHECK(headReading(encoding, sentenceWords(encoding), map, kIt, true) == "it → animal 0.95, street 0.05");
    CHECK(headReading(encoding, sentenceWords(encoding), map, -1, true) == "it → animal 0.95, street 0.05");  // no row outlined: "it"
}

TEST_CASE("head reading: other rows copying the noun are called a copy the head was not taught") {
    const Encoding encoding = encodingOf(kTired);
    const AttentionRows map = mapOf(encoding.labels.size(), kAnimal, 1.0f);  // every row, "it" too, on "animal"
    const std::string reading = headReading(encoding, sentenceWords(encoding), map, kIt, true);
    CHECK(reading == "it → animal 1.00; the other rows copy the same noun (animal 1.00 on average): the head was only taught the \"it\" row");
}

TEST_CASE("head reading: a close call when the top two are within 0.2 as shown") {
    const Encoding encoding = encodingOf(kTired);
    AttentionRows map = mapOf(encoding.labels.size(), static_cast<int>(encoding.labels.size()) - 1, 1.0f);
    map[kIt].assign(map.size(), 0.0f);
    map[kIt][kStreet] = 0.604f;  // 0.60 and 0.40 on screen: 0.20 apart
    map[kIt][kAnimal] = 0.396f;
    CHECK(headReading(encoding, sentenceWords(encoding), map, kIt, true) == "it → street 0.60, animal 0.40: a close call (the top two within 0.2)");
    map[kIt][kStreet] = 0.62f;
    map[kIt][kAnimal] = 0.38f;
    CHECK(headReading(encoding, sentenceWords(encoding), map, kIt, true) == "it → street 0.62, animal 0.38");
}

TEST_CASE("head reading: weight on [SEP] or a full stop names no noun") {
    const Encoding encoding = encodingOf({"the", "cat", "sat", "because", "it", "was", "warm", "."});
    AttentionRows map = mapOf(encoding.labels.size(), static_cast<int>(encoding.labels.size()) - 1, 1.0f);
    CHECK(headReading(encoding, sentenceWords(encoding), map, 5, true) ==
          "it → [SEP] 1.00: most of its weight is on no word, so the head names no noun here");
    map[5].assign(map.size(), 0.0f);
    map[5][8] = 0.9f;  // the full stop
    map[5][2] = 0.1f;
    CHECK(headReading(encoding, sentenceWords(encoding), map, 5, true).find("names no noun") != std::string::npos);
}

TEST_CASE("head reading: a sentence without \"it\" says so, and reports only the outlined row") {
    const Encoding encoding = encodingOf({"my", "grandmother", "baked", "bread", "because", "she", "was", "hungry", "."});
    const AttentionRows map = mapOf(encoding.labels.size(), 4, 0.77f);
    const int sep = static_cast<int>(encoding.labels.size()) - 1;
    CHECK(headReading(encoding, sentenceWords(encoding), map, -1, true) == "no \"it\" here (the only row this head was taught)");
    CHECK(headReading(encoding, sentenceWords(encoding), map, sep, true) ==
          "no \"it\" here (the only row this head was taught); [SEP] → bread 0.77, [SEP] 0.23");
}

TEST_CASE("head reading: another row of the coreference head is read with what was taught — other heads plainly") {
    const Encoding encoding = encodingOf(kTired);
    const AttentionRows map = mapOf(encoding.labels.size(), kAnimal, 0.7f);
    CHECK(headReading(encoding, sentenceWords(encoding), map, kStreet, true) == "street → animal 0.70, [SEP] 0.30 (the head was taught only the \"it\" row)");
    CHECK(headReading(encoding, sentenceWords(encoding), map, kStreet, false) == "street → animal 0.70, [SEP] 0.30");
    CHECK(headReading(encoding, sentenceWords(encoding), map, -1, false).empty());
    CHECK(headReading(encoding, sentenceWords(encoding), AttentionRows(3, std::vector<float>(3)), kIt, true).empty());  // not l × l
}
