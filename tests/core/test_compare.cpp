// test_compare.cpp — two sentences side by side (issue 35 item 2) on the bundled model. A − B of every head against
// tests/reference/make_compare_fixture.py's float64 NumPy difference of two separate `attnviz dump` runs (never our
// compare code) within 1e-6, for the tired/wide pair and for a pair of different lengths (aligned by the shared
// positions); the compared run is runModel's own (ModelRun::compared), kept through rerunAttention; the minimal pair
// compare starts from; what the coreference head does on it; and the length warning. A sentence compared with itself
// with a head off (against every head on) and through the model untrained, against the same script's differences of
// `dump --ablate` and `dump --untrained` with a plain dump, within 1e-6; and the seeded layer refusing both.
#include "core/compare.h"
#include "io/model_library.h"
#include "io/npy.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using namespace attnviz;

const fs::path kCompare = fs::path(ATTNVIZ_SOURCE_DIR) / "tests/reference/compare";

nlohmann::json facts() {
    std::ifstream in(kCompare / "tired_wide.json");
    return nlohmann::json::parse(in);
}

core::ModelSpec bundledSpec(const std::string& a, const std::optional<std::string>& b) {
    static const std::shared_ptr<const core::TrainedModel> model = io::loadBundledModel();
    REQUIRE(model != nullptr);
    core::ModelSpec spec;
    spec.model = core::TrainedLayer{model, model->featuredLayer()};
    spec.sentences = {a};
    spec.attention.dModel = model->config().dModel;
    spec.attention.heads = model->config().heads;
    spec.compareWith = b;
    return spec;
}

// The largest |compareSentences(…).difference − reference| over every head (reference: h × aligned × aligned).
double largestError(const core::ModelRun& run, const core::Tensor& reference) {
    REQUIRE(reference.shape.size() == 3);
    const int heads = reference.shape[0], aligned = reference.shape[1];
    REQUIRE(heads == run.trace.dims.heads);
    double largest = 0.0;
    for (int head = 0; head < heads; ++head) {
        const core::SentenceComparison c = core::compareSentences(run, 0, head);
        REQUIRE(c.aligned == aligned);
        for (int r = 0; r < aligned; ++r) {
            for (int k = 0; k < aligned; ++k) {
                const double expected = reference.data[(static_cast<std::size_t>(head) * aligned + r) * aligned + k];
                largest = std::max(largest, std::fabs(static_cast<double>(c.difference(r, k)) - expected));
            }
        }
    }
    return largest;
}

}  // namespace

TEST_CASE("compare: A − B of every head equals NumPy's difference of two separate dumps within 1e-6") {
    const nlohmann::json f = facts();
    const core::ModelRun run = core::runModel(bundledSpec(f["a"], f["b"].get<std::string>()));
    REQUIRE(run.compared != nullptr);
    CHECK(run.compared->tokens.at(0) == f["tokens_b"][0].get<std::vector<std::string>>());
    CHECK(largestError(run, io::readNpy(kCompare / "tired_wide_difference.npy")) <= 1e-6);
}

TEST_CASE("compare: sentences of different lengths are aligned by their shared positions, checked against NumPy, and warned about") {
    const nlohmann::json f = facts();
    const core::ModelRun run = core::runModel(bundledSpec(f["a"], f["longer"].get<std::string>()));
    CHECK(largestError(run, io::readNpy(kCompare / "longer_difference.npy")) <= 1e-6);
    const core::SentenceComparison c = core::compareSentences(run, 0, 0);
    CHECK_FALSE(c.sameLength());
    CHECK(c.aligned == f["aligned_longer"].get<int>());
    const std::string warning = core::lengthWarning(c);
    CHECK(warning.find("B's last token (\u201C[SEP]\u201D) is marked") != std::string::npos);
    CHECK(warning.find("marked") != std::string::npos);
}

TEST_CASE("compare: the compared run is runModel's, absent when compare is off, and its refusal names the compared sentence") {
    const nlohmann::json f = facts();
    CHECK(core::runModel(bundledSpec(f["a"], std::nullopt)).compared == nullptr);
    CHECK_THROWS_AS(core::compareSentences(core::runModel(bundledSpec(f["a"], std::nullopt)), 0, 0), core::InputError);
    try {
        core::runModel(bundledSpec(f["a"], std::string("   ")));
        FAIL("an empty compared sentence was accepted");
    } catch (const core::InputError& error) {
        CHECK(std::string(error.what()).rfind("The sentence to compare with: ", 0) == 0);
    }
}

TEST_CASE("compare: rerunAttention on the seeded layer reruns the compared sentence too, equal to runModel's") {
    core::ModelSpec spec;
    spec.sentences = {"the cat sat on the mat"};
    spec.compareWith = "the dog sat on the rug";
    const core::ModelRun first = core::runModel(spec);
    spec.attention.mask = core::MaskKind::Causal;
    const core::ModelRun rerun = core::rerunAttention(first, spec), fresh = core::runModel(spec);
    REQUIRE(rerun.compared != nullptr);
    const core::SentenceComparison a = core::compareSentences(rerun, 0, 1), b = core::compareSentences(fresh, 0, 1);
    CHECK(a.difference == b.difference);
    CHECK(a.b(0, 3) == 0.0f);  // the causal mask reached the compared sentence
}

TEST_CASE("compare: a cross-attention run (decoder queries over encoder keys) is refused in one sentence, never read out of range") {
    core::ModelSpec spec;
    spec.sentences = {"the cat"};
    spec.seeded()->decoderSentences = {"le chat est assis sur le tapis rouge"};  // more queries than keys: l_dec × l_enc
    spec.compareWith = "the dog";
    const core::ModelRun run = core::runModel(spec);
    REQUIRE(run.compared != nullptr);
    CHECK_THROWS_WITH_AS(core::compareSentences(run, 0, 0), doctest::Contains("cross-attention"), core::InputError);
}

TEST_CASE("compare: turned on, it starts from the lesson's minimal pair") {
    CHECK(core::defaultComparedSentence(std::string(core::kDefaultSentence)) == "The animal didn't cross the street because it was too wide");
    CHECK(core::defaultComparedSentence("the cat sat") == "the cat sat");
}

TEST_CASE("compare: on the bundled model's coreference head, “it” moves its weight from “animal” towards “street” (what the docs caption)") {
    const nlohmann::json f = facts();
    const core::ModelRun run = core::runModel(bundledSpec(f["a"], f["b"].get<std::string>()));
    const int head = 0;  // heads.json's coreference head of the featured layer
    const core::SentenceComparison c = core::compareSentences(run, 0, head);
    const auto position = [&](const std::string& token) {
        for (int p = 0; p < c.aligned; ++p) {
            if (c.tokensA[static_cast<std::size_t>(p)] == token) return p;
        }
        FAIL("no token " << token);
        return -1;
    };
    const int it = position("it"), animal = position("animal"), street = position("street");
    MESSAGE("A[it, animal] " << c.a(it, animal) << "  B[it, animal] " << c.b(it, animal) << "  A[it, street] " << c.a(it, street)
                             << "  B[it, street] " << c.b(it, street));
    CHECK(c.difference(it, animal) > 0.0f);
    CHECK(c.difference(it, street) < 0.0f);
    const core::CellChange change = core::largestChange(c);
    CHECK(std::fabs(change.difference()) == doctest::Approx(c.largestDifference()));
    CHECK(core::largestChangeText(c).find("Largest change: the row of") == 0);
}

namespace {

// The bundled model's "…tired" compared with itself: with heads `off` switched off against every head on, or through
// the model against it untrained (compareWith keeps a sentence only as compare's switch and draft).
core::ModelSpec selfComparedSpec(core::CompareKind kind, const std::vector<core::HeadAblation>& off = {}) {
    const nlohmann::json f = facts();
    core::ModelSpec spec = bundledSpec(f["a"], f["b"].get<std::string>());
    spec.compareKind = kind;
    spec.headsOff = off;
    return spec;
}

const std::vector<core::HeadAblation> kHeadOff{{0, 1, core::HeadOffMode::Zero}};  // tired_wide.json's "heads_off": 0.1

}  // namespace

TEST_CASE("compare heads off: A (head 0.1 off) − B (every head on) of every head equals NumPy's difference of two dumps within 1e-6") {
    REQUIRE(facts()["heads_off"] == "0.1");
    const core::ModelRun run = core::runModel(selfComparedSpec(core::CompareKind::HeadsOff, kHeadOff));
    REQUIRE(run.compared != nullptr);
    CHECK(run.compared->spec.headsOff.empty());
    const core::Tensor reference = io::readNpy(kCompare / "heads_off_difference.npy");
    CHECK(*std::max_element(reference.data.begin(), reference.data.end()) > 0.01f);  // switching 0.1 off moves layer 2
    CHECK(largestError(run, reference) <= 1e-6);
    const core::SentenceComparison c = core::compareSentences(run, 0, 0);
    CHECK(c.tokensA == c.tokensB);
    CHECK(core::pairWords(run, 0).a.find("with head 0.1 off") != std::string::npos);
    CHECK(core::whyNoDifference(run.spec).empty());
}

TEST_CASE("compare untrained: A (trained) − B (untrained, seed 42) of every head equals NumPy's difference of two dumps within 1e-6") {
    const core::ModelRun run = core::runModel(selfComparedSpec(core::CompareKind::Untrained));
    REQUIRE(run.compared != nullptr);
    CHECK(run.compared->spec.trained()->model == core::untrainedTwin(run.spec.trained()->model));  // made once, shared
    CHECK(largestError(run, io::readNpy(kCompare / "untrained_difference.npy")) <= 1e-6);
    CHECK(core::pairWords(run, 0).b.find("untrained") != std::string::npos);
}

TEST_CASE("compare heads off: B is kept when heads change, and with no head below the stepped layer off, A − B is zero and the view says why") {
    const core::ModelRun none = core::runModel(selfComparedSpec(core::CompareKind::HeadsOff));
    CHECK(core::compareSentences(none, 0, 0).largestDifference() == 0.0f);
    CHECK(core::whyNoDifference(none.spec).find("No head is off yet") == 0);
    // Head 2.3 off, in the stepped layer itself: its attention is computed before its output is dropped.
    const core::ModelRun same = core::rerunHeadsOff(none, selfComparedSpec(core::CompareKind::HeadsOff, {{2, 3, core::HeadOffMode::Zero}}));
    CHECK(same.compared == none.compared);  // every head on: not run again
    CHECK(core::compareSentences(same, 0, 3).largestDifference() == 0.0f);
    CHECK(core::whyNoDifference(same.spec).find("No head below this layer is off (the lowest off is in layer 2; this is layer 2)") == 0);
    const core::ModelRun moved = core::rerunHeadsOff(same, selfComparedSpec(core::CompareKind::HeadsOff, kHeadOff));
    CHECK(largestError(moved, io::readNpy(kCompare / "heads_off_difference.npy")) <= 1e-6);
}

TEST_CASE("compare heads off and untrained are refused on the seeded layer in one sentence") {
    core::ModelSpec spec;
    spec.compareWith = "x";
    spec.compareKind = core::CompareKind::HeadsOff;
    CHECK_THROWS_WITH_AS(core::runModel(spec), "Comparing with heads off needs a trained model (--model): the seeded layer has no heads to switch off around it.",
                         core::InputError);
    spec.compareKind = core::CompareKind::Untrained;
    CHECK_THROWS_WITH_AS(core::runModel(spec), "Comparing with the untrained model needs a trained model (--model): the seeded layer's weights are already random.",
                         core::InputError);
}
