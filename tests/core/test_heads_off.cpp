// test_heads_off.cpp — core/transformer/heads_off.h: the heads-off list kept in one order (so == compares sets), its
// words, and the prediction before → after on hand-made logits (log-probabilities worked out by hand below).
#include "core/transformer/heads_off.h"

#include <doctest/doctest.h>

#include <cmath>

namespace attnviz::core {

TEST_CASE("heads off: setHeadOff keeps one sorted list, so the same heads chosen in any order compare ==") {
    std::vector<HeadAblation> a, b;
    CHECK(setHeadOff(a, 2, 1, HeadOffMode::Zero));
    CHECK(setHeadOff(a, 0, 3, HeadOffMode::Mean));
    CHECK(setHeadOff(b, 0, 3, HeadOffMode::Mean));
    CHECK(setHeadOff(b, 2, 1, HeadOffMode::Zero));
    CHECK(a == b);
    CHECK(!setHeadOff(a, 2, 1, HeadOffMode::Zero));  // already so
    CHECK(setHeadOff(a, 2, 1, HeadOffMode::Mean));
    CHECK(headOffMode(a, 2, 1) == HeadOffMode::Mean);
    CHECK(headsOffText(a) == "0.3 mean, 2.1 mean");
    CHECK(setHeadOff(a, 0, 3, std::nullopt));
    CHECK(!setHeadOff(a, 0, 3, std::nullopt));
    CHECK(!headOffMode(a, 0, 3));
    CHECK(headsOffCaption(a) == "Heads switched off: 2.1 (Z_i replaced by its mean); every number after them is the ablated run's.");
    CHECK(headsOffCaption({}).empty());
}

TEST_CASE("heads off: predictionShift — the token before, the token after, and the change in the first's log-probability") {
    // Before: logits (0, ln 3): p = (1/4, 3/4), token 1. After: (ln 3, 0): p = (3/4, 1/4), token 0.
    RowVector before(2), after(2);
    before << 0.0f, std::log(3.0f);
    after << std::log(3.0f), 0.0f;
    const PredictionShift s = predictionShift(before, after);
    CHECK(s.beforeId == 1);
    CHECK(s.afterId == 0);
    CHECK(s.beforeLogProb == doctest::Approx(std::log(0.75)).epsilon(1e-6));
    CHECK(s.afterLogProb == doctest::Approx(std::log(0.75)).epsilon(1e-6));
    CHECK(s.beforeIdAfter == doctest::Approx(std::log(0.25)).epsilon(1e-6));
    CHECK(s.change() == doctest::Approx(std::log(1.0 / 3.0)).epsilon(1e-6));
    // Logits far beyond exp's range still give finite log-probabilities (the largest is subtracted first).
    before << 1000.0f, 999.0f;
    const PredictionShift large = predictionShift(before, before);
    CHECK(large.beforeLogProb == doctest::Approx(-std::log1p(std::exp(-1.0))).epsilon(1e-6));
    CHECK(large.change() == 0.0);
}

}  // namespace attnviz::core
