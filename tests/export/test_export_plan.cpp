// test_export_plan.cpp — which files a request writes (names, order, heads, sentences), and every bad value or
// combination refused with one sentence that says what is allowed.
#include "export/export_error.h"
#include "export/export_plan.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

using namespace attnviz;
using namespace attnviz::exporting;

namespace {

const core::ModelRun& defaultRun() {
    static const core::ModelRun run = core::runModel(core::ModelSpec{});
    return run;
}

std::vector<std::string> fileNames(const core::ModelRun& run, const ExportRequest& request) {
    std::vector<std::string> names;
    for (const PlannedFigure& figure : planExport(run, request)) names.push_back(figure.fileName);
    return names;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

// The ExportError message of `action`, or "" when it does not throw one.
template <typename Action>
std::string errorOf(Action action) {
    try {
        action();
    } catch (const ExportError& error) {
        return error.what();
    }
    return {};
}

bool mentions(const std::string& message, std::initializer_list<std::string_view> words) {
    return std::all_of(words.begin(), words.end(), [&](std::string_view w) { return message.find(w) != std::string::npos; });
}

}  // namespace

TEST_CASE("plan: --stage all --kind matrix writes every matrix once, sorted by stage") {
    const std::vector<std::string> names = fileNames(defaultRun(), ExportRequest{});
    CHECK(names.front() == "00-tokens.png");
    CHECK(contains(names, "01-embed-x.png"));
    CHECK(contains(names, "02-project-w_q.png"));
    CHECK(contains(names, "02-project-q.png"));
    CHECK(contains(names, "03-split-q_heads-head0.png"));
    CHECK(contains(names, "07-softmax-attention_weights-head0.png"));
    CHECK(contains(names, "10-output-w_o.png"));
    CHECK_FALSE(contains(names, "06-mask-mask.png"));  // the default run has no mask
    CHECK(std::set<std::string>(names.begin(), names.end()).size() == names.size());
    CHECK(std::is_sorted(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
        return a.substr(0, 2) < b.substr(0, 2);
    }));
}

TEST_CASE("plan: a stage's matrices, one matrix, one head") {
    ExportRequest request;
    request.stage = core::StageId::Softmax;
    CHECK(fileNames(defaultRun(), request) ==
          std::vector<std::string>{"07-softmax-masked_scores-head0.png", "07-softmax-attention_weights-head0.png"});
    request.matrix = core::TensorId::AttentionWeights;
    request.head = 2;
    CHECK(fileNames(defaultRun(), request) == std::vector<std::string>{"07-softmax-attention_weights-head2.png"});
    request.stage.reset();
    request.matrix = core::TensorId::WQ;
    CHECK(fileNames(defaultRun(), request) == std::vector<std::string>{"02-project-w_q.png"});
}

TEST_CASE("plan: stage, heads and poster kinds") {
    ExportRequest request;
    request.kind = FigureKind::Stage;
    request.head = 2;
    const std::vector<std::string> stages = fileNames(defaultRun(), request);
    CHECK(stages.size() == static_cast<std::size_t>(core::kStageCount));
    CHECK(contains(stages, "07-softmax-head2.png"));
    CHECK(contains(stages, "02-project.png"));
    CHECK(contains(stages, "09-concat.png"));  // every head at once

    request.kind = FigureKind::Heads;
    request.head.reset();
    CHECK(fileNames(defaultRun(), request) ==
          std::vector<std::string>{"03-split-heads.png", "04-scores-heads.png", "05-scale-heads.png", "06-mask-heads.png",
                                   "07-softmax-heads.png", "08-weighted_sum-heads.png", "09-concat-heads.png"});

    request.kind = FigureKind::Poster;
    CHECK(fileNames(defaultRun(), request) == std::vector<std::string>{"poster-head0.png"});
}

TEST_CASE("plan: a batch gets every figure once per sentence, named -s0, -s1") {
    core::ModelSpec spec;
    spec.sentences = {"the cat sat", "a dog barked loudly"};
    spec.attention.mask = core::MaskKind::Padding;
    const core::ModelRun run = core::runModel(spec);
    ExportRequest request;
    request.kind = FigureKind::Stage;
    request.stage = core::StageId::Mask;
    CHECK(fileNames(run, request) == std::vector<std::string>{"06-mask-head0-s0.png", "06-mask-head0-s1.png"});
    request.kind = FigureKind::Matrix;
    CHECK(contains(fileNames(run, request), "06-mask-mask-s1.png"));
}

TEST_CASE("plan: bad words are refused with what is allowed") {
    CHECK(mentions(errorOf([] { parseStage("sofmax"); }), {"unknown stage 'sofmax'", "0-10", "softmax", "all"}));
    CHECK(mentions(errorOf([] { parseStage("11"); }), {"unknown stage '11'"}));
    CHECK(mentions(errorOf([] { parseMatrix("attention"); }), {"unknown matrix 'attention'", "attention_weights", "w_q"}));
    CHECK(mentions(errorOf([] { parseKind("grid"); }), {"'grid'", "matrix, stage, heads, poster, slide, lines, next, compare or quiz"}));
    CHECK(mentions(errorOf([] { parseBackground("white"); }), {"'white'", "light, dark or transparent"}));
    CHECK(mentions(errorOf([] { parseColormap("jet"); }), {"'jet'", "viridis", "coolwarm"}));
    CHECK(mentions(errorOf([] { checkScale(5); }), {"--scale 5", "1-4"}));
    CHECK(mentions(errorOf([] { checkScale(0); }), {"--scale 0"}));
    CHECK(parseStage("all") == std::nullopt);
    CHECK(parseStage("7") == core::StageId::Softmax);
    CHECK(parseStage("softmax") == core::StageId::Softmax);
    CHECK(parseMatrix("") == std::nullopt);
    CHECK(parseColormap("magma") == colormap::Colormap::Magma);
}

TEST_CASE("plan: combinations that make no figure are refused before anything is drawn") {
    const core::ModelRun& run = defaultRun();
    ExportRequest request;
    request.head = 8;
    CHECK(mentions(errorOf([&] { planExport(run, request); }), {"--head 8", "8 heads", "0-7"}));

    request = {};
    request.stage = core::StageId::Embed;
    request.matrix = core::TensorId::AttentionWeights;
    CHECK(mentions(errorOf([&] { planExport(run, request); }), {"attention_weights", "stage embed", "shows x"}));

    request = {};
    request.kind = FigureKind::Heads;
    request.stage = core::StageId::Project;
    CHECK(mentions(errorOf([&] { planExport(run, request); }), {"project", "no per-head", "softmax"}));

    request.stage.reset();
    request.matrix = core::TensorId::WQ;
    CHECK(mentions(errorOf([&] { planExport(run, request); }), {"w_q", "not split into heads"}));

    request = {};
    request.kind = FigureKind::Poster;
    request.stage = core::StageId::Scores;
    CHECK(mentions(errorOf([&] { planExport(run, request); }), {"poster", "every stage"}));

    request = {};
    request.kind = FigureKind::Stage;
    request.matrix = core::TensorId::X;
    CHECK(mentions(errorOf([&] { planExport(run, request); }), {"--matrix", "--kind stage"}));

    request = {};
    request.matrix = core::TensorId::Mask;
    CHECK(mentions(errorOf([&] { planExport(run, request); }), {"mask", "--mask padding"}));

    request.matrix = core::TensorId::XQuery;
    CHECK(mentions(errorOf([&] { planExport(run, request); }), {"x_query", "cross"}));
}
