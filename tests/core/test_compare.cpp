// test_compare.cpp — two sentences side by side (issue 35 item 2) on the bundled model. A − B of every head against
// tests/reference/make_compare_fixture.py's float64 NumPy difference of two separate `attnviz dump` runs (never our
// compare code) within 1e-6, for the tired/wide pair and for a pair of different lengths (aligned by the shared
// positions); the compared run is runModel's own (ModelRun::compared), kept through rerunAttention; the minimal pair
// compare starts from; what the coreference head does on it; and the length warning.
#include "core/compare.h"
#include "io/model_library.h"
#include "io/npy.h"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

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
