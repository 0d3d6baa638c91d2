// test_model_hooks.cpp — the two ways a ModelSpec takes numbers from outside the seeded model: a trained
// embedding table (ModelSpec::embeddingTable) and typed-in cells (ModelSpec::cellEdits). Each test compares
// against a run without the hook, so it fails if the hook is ignored. Not tested here: reading tables from
// files (tests/io/test_weight_files.cpp).
#include "core/embedding.h"
#include "core/model.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <memory>

using namespace attnviz::core;

namespace {

ModelSpec tinySpec(std::string sentence) {
    ModelSpec spec;
    spec.sentences = {std::move(sentence)};
    spec.attention.dModel = 4;
    spec.attention.heads = 2;
    spec.seeded()->positional = false;  // X = E[ids] exactly
    return spec;
}

// Rows 0, 1, 2 = "cat", "[UNK]", "sat"; row r holds r + 0.25·c in column c.
std::shared_ptr<const EmbeddingTable> tinyTable(bool withUnknown) {
    auto table = std::make_shared<EmbeddingTable>();
    table->rows.resize(3, 4);
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c) table->rows(r, c) = static_cast<float>(r) + 0.25f * static_cast<float>(c);
    }
    table->index = {{"cat", 0}, {"[UNK]", 1}, {"sat", 2}};
    table->unknownRow = withUnknown ? 1 : -1;
    return table;
}

Matrix xOf(const ModelRun& run) { return run.trace[TensorId::X].slice(0); }
Matrix outputOf(const ModelRun& run) { return run.trace[TensorId::Output].slice(0); }

}  // namespace

TEST_CASE("an embedding table gives each known token its row, and unknown ones the [UNK] row") {
    ModelSpec spec = tinySpec("cat dog sat");
    spec.seeded()->embeddingTable = tinyTable(true);
    const Matrix x = xOf(runModel(spec));
    CHECK(x.row(0).isApprox(spec.seeded()->embeddingTable->rows.row(0)));
    CHECK(x.row(1).isApprox(spec.seeded()->embeddingTable->rows.row(1)));  // "dog" is not in the table
    CHECK(x.row(2).isApprox(spec.seeded()->embeddingTable->rows.row(2)));
}

TEST_CASE("without an [UNK] row, unknown tokens keep the seeded embedding") {
    ModelSpec spec = tinySpec("cat dog");
    spec.seeded()->embeddingTable = tinyTable(false);
    const Matrix x = xOf(runModel(spec));
    CHECK(x.row(0).isApprox(spec.seeded()->embeddingTable->rows.row(0)));
    CHECK(x.row(1).isApprox(tokenEmbedding("dog", 4, spec.seeded()->seed)));
}

TEST_CASE("positions are added to table rows, and cross-attention's decoder side uses the table too") {
    ModelSpec spec = tinySpec("cat sat");
    spec.seeded()->positional = true;
    spec.seeded()->decoderSentences = {"sat"};
    spec.seeded()->embeddingTable = tinyTable(true);
    const ModelRun run = runModel(spec);
    const Matrix positions = positionalEncoding(2, 4);
    CHECK(xOf(run).row(1).isApprox(spec.seeded()->embeddingTable->rows.row(2) + positions.row(1)));
    CHECK(run.trace[TensorId::XQuery].slice(0).row(0).isApprox(spec.seeded()->embeddingTable->rows.row(2) + positions.row(0)));
}

TEST_CASE("a table whose width is not d_model is refused") {
    ModelSpec spec = tinySpec("cat");
    spec.attention.dModel = 8;
    spec.seeded()->embeddingTable = tinyTable(true);
    CHECK_THROWS_WITH_AS(runModel(spec), "The embedding table has 4 columns but d_model is 8.", InputError);
}

TEST_CASE("a cell edit of X changes that cell and every matrix downstream, and nothing else of X") {
    ModelSpec spec = tinySpec("the cat sat");
    const ModelRun before = runModel(spec);
    spec.seeded()->cellEdits = {{TensorId::X, 0, 1, 2, 5.0f}};
    const ModelRun after = runModel(spec);
    Matrix expected = xOf(before);
    expected(1, 2) = 5.0f;
    CHECK(xOf(after) == expected);
    CHECK(after.embeddings.data == before.embeddings.data);  // E[ids] stays as generated; the edit is on X
    CHECK_FALSE(outputOf(after).isApprox(outputOf(before)));
}

TEST_CASE("a cell edit of a weight changes the weights the layer uses — a later edit of the same cell wins") {
    ModelSpec spec = tinySpec("the cat sat");
    const ModelRun before = runModel(spec);
    spec.seeded()->cellEdits = {{TensorId::WK, 0, 3, 1, 7.0f}, {TensorId::WO, 0, 0, 0, -1.0f}, {TensorId::WO, 0, 0, 0, 2.5f}};
    const ModelRun after = runModel(spec);
    CHECK(after.weights.wk(3, 1) == 7.0f);
    CHECK(after.weights.wo(0, 0) == 2.5f);
    CHECK(after.trace[TensorId::WK].data[3 * 4 + 1] == 7.0f);
    CHECK(after.weights.wq == before.weights.wq);
    CHECK_FALSE(after.trace[TensorId::K].data == before.trace[TensorId::K].data);
}

TEST_CASE("weight edits apply on top of custom weights without changing the spec's copy") {
    ModelSpec spec = tinySpec("the cat");
    spec.seeded()->customWeights = std::make_shared<const Weights>(initWeights(resolveDimensions(spec.attention), 7, false));
    spec.seeded()->cellEdits = {{TensorId::WQ, 0, 0, 0, 9.0f}};
    const ModelRun run = runModel(spec);
    CHECK(run.weights.wq(0, 0) == 9.0f);
    CHECK(spec.seeded()->customWeights->wq(0, 0) != 9.0f);
}

TEST_CASE("X_dec edits go to the decoder side in cross-attention, and are refused in self-attention") {
    ModelSpec spec = tinySpec("the cat sat");
    spec.seeded()->decoderSentences = {"le chat"};
    spec.seeded()->cellEdits = {{TensorId::XQuery, 0, 1, 3, -4.0f}};
    CHECK(runModel(spec).trace[TensorId::XQuery].slice(0)(1, 3) == -4.0f);
    spec.seeded()->decoderSentences.clear();
    CHECK_THROWS_WITH_AS(runModel(spec), "X_dec exists only in cross-attention: give decoder sentences, or edit X.", InputError);
}

TEST_CASE("bad cell edits are refused with one clear sentence") {
    ModelSpec spec = tinySpec("the cat sat");
    const auto refusal = [&](CellEdit edit) {
        spec.seeded()->cellEdits = {edit};
        try {
            runModel(spec);
        } catch (const InputError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    CHECK(refusal({TensorId::X, 0, 3, 0, 1.0f}) == "The edited cell X[3, 0] lies outside the matrix, which is 3 x 4.");
    CHECK(refusal({TensorId::X, 0, 0, -1, 1.0f}) == "The edited cell X[0, -1] lies outside the matrix, which is 3 x 4.");
    CHECK(refusal({TensorId::X, 1, 0, 0, 1.0f}) == "An edit of X names sentence 2 but the batch has 1.");
    CHECK(refusal({TensorId::X, std::numeric_limits<int>::max(), 0, 0, 1.0f}) ==
          "An edit of X names sentence 2147483648 but the batch has 1.");
    CHECK(refusal({TensorId::WV, 1, 0, 0, 1.0f}) == "An edit of W^V takes batch 0: every sentence shares the weights.");
    CHECK(refusal({TensorId::Q, 0, 0, 0, 1.0f}) == "Only cells of X, X_dec, W^Q, W^K, W^V and W^O can be edited (not Q).");
    CHECK(refusal({TensorId::X, 0, 0, 0, std::nanf("")}) == "The edited cell X[0, 0] must hold a finite number.");
    CHECK(refusal({TensorId::WQ, 0, 0, 0, -std::numeric_limits<float>::infinity()}) ==
          "The edited cell W^Q[0, 0] must hold a finite number.");
}
