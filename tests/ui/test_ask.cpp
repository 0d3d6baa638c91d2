// test_ask.cpp — ask mode (issue #36) with App drawn in a headless ImGui frame: before reveal no part of the frame
// names or draws the answer (none of the answer row's colormap colours inside the answer's rectangle, none of the
// reveal's words anywhere in the frame's glyphs), after reveal both are there; the question's type stays at the
// lecture's 14 px floor or more and nothing scrolls when presenting at 1024 × 768 and 1280 × 800; the keys pick,
// count, reveal and go on to the stage; a new run redraws the question and clears its picks. The picture alone
// (scene/question_drawing.h) adds its answer only when revealed.
#include "app/gui_style.h"
#include "colormap/colormap.h"
#include "imgui_harness.h"
#include "scene/question_drawing.h"
#include "core/transformer/prediction_words.h"
#include "core/typed_prediction.h"
#include "core/unicode.h"
#include "io/model_folder.h"
#include "ui/session/session_actions.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <variant>

namespace attnviz::test {
namespace {

constexpr int kKeyEqual = 61, kKeyMinus = 45;

// App at one window size whose look follows the state as the window's loop makes it follow (app/gui_style.h).
class AskHall {
public:
    AskHall(ImVec2 size, bool presenting, core::StageId stage, core::MaskKind mask = core::MaskKind::None, const std::function<void(ui::AppState&)>& setUp = {})
        : ui_(size), keeper_(ImGui::GetStyle()), app_(startState(presenting, stage, mask, setUp)) {
        settle();
        app_.waitForRun();
        settle();
    }
    void press(int key) {
        ui_.pressKey(app_, key);
        settle();
    }
    void typeText(const std::string& text) {
        ui_.typeText(app_, text);
        settle();
    }
    // A click at a point of the question's drawing (its pixels, as the layout gives them).
    void clickDrawing(int x, int y) {
        const ImVec2 o = report().origin;
        ui_.click(app_, {o.x + static_cast<float>(x) + 0.5f, o.y + static_cast<float>(y) + 0.5f});
        settle();
    }
    void settle() {
        if (keeper_.follow(app::lookInputsOf(app_.state(), ImGui::GetIO().DisplaySize.y, 1.0f))) ui_.setLook(keeper_.look().scale, keeper_.look().style);
        ui_.frames(app_, 2);
    }
    ui::App& app() { return app_; }
    const ui::AskReport& report() const { return app_.askReport(); }
    // The answer's rectangle on screen.
    ImVec4 answerOnScreen() const {
        const scene::PixelRect r = report().layout.answer;
        const ImVec2 o = report().origin;
        return {o.x + static_cast<float>(r.x), o.y + static_cast<float>(r.y), o.x + static_cast<float>(r.right()), o.y + static_cast<float>(r.bottom())};
    }

private:
    static ui::AppState startState(bool presenting, core::StageId stage, core::MaskKind mask, const std::function<void(ui::AppState&)>& setUp) {
        ui::AppState state;
        state.presenting = presenting;
        state.stage = stage;
        state.spec.attention.mask = mask;
        if (setUp) setUp(state);
        return state;
    }
    ImGuiHarness ui_;
    app::LookKeeper keeper_;
    ui::App app_;
};

// Every glyph the frame drew, in drawing order, spaces left out (ImGui draws none for them): each glyph is a quad
// whose first and third vertices carry its atlas corners (ImDrawList::PrimRectUV), so its UVs name it.
std::string drawnGlyphs() {
    std::map<std::tuple<float, float, float, float>, char> glyphs;
    const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
    for (const ImFont* f : atlas.Fonts) {
        for (const ImFontGlyph& g : f->Glyphs) {
            if (g.Codepoint > ' ' && g.Codepoint < 127) glyphs[{g.U0, g.V0, g.U1, g.V1}] = static_cast<char>(g.Codepoint);
        }
    }
    std::string text;
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; l < data->CmdListsCount; ++l) {
        const ImVector<ImDrawVert>& v = data->CmdLists[l]->VtxBuffer;
        for (int i = 0; i + 3 < v.Size; ++i) {
            const auto found = glyphs.find({v[i].uv.x, v[i].uv.y, v[i + 2].uv.x, v[i + 2].uv.y});
            if (found == glyphs.end()) continue;
            if (found->second != '?') text += found->second;  // '?' is also the harness font's glyph for what it lacks (“ ” ₀)
            i += 3;
        }
    }
    return text;
}

// `sentence` as the glyph stream holds it: its printable ASCII but '?', no spaces (the harness's font has no “ ” ₀).
std::string asDrawn(const std::string& sentence) {
    std::string kept;
    for (char c : sentence) {
        if (static_cast<unsigned char>(c) > ' ' && static_cast<unsigned char>(c) < 127 && c != '?') kept += c;
    }
    return kept;
}

// How many vertices of the frame inside `rect` carry one of `colours`.
int verticesColoured(ImVec4 rect, const std::vector<ImU32>& colours) {
    int count = 0;
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; l < data->CmdListsCount; ++l) {
        for (const ImDrawVert& v : data->CmdLists[l]->VtxBuffer) {
            const bool inside = v.pos.x >= rect.x && v.pos.x <= rect.z && v.pos.y >= rect.y && v.pos.y <= rect.w;
            if (inside && std::find(colours.begin(), colours.end(), v.col) != colours.end()) ++count;
        }
    }
    return count;
}

// The colours the answer rows are drawn in: each value's on the sequential colormap over 0 … the rows' largest.
std::vector<ImU32> answerColours(const core::Question& q, colormap::Colormap map) {
    float top = 0.0f;
    for (float v : q.answer.values) top = std::max(top, v);
    for (float v : q.answer.before) top = std::max(top, v);
    std::vector<ImU32> colours;
    std::vector<float> values = q.answer.values;
    values.insert(values.end(), q.answer.before.begin(), q.answer.before.end());
    for (float v : values) {
        const colormap::Rgb8 c = colormap::sample(map, v, 0.0f, top);
        colours.push_back(IM_COL32(c.r, c.g, c.b, 255));
    }
    return colours;
}

// The bundled decoder on `sentence`, at the output stage (its prediction question).
std::function<void(ui::AppState&)> bundledDecoder(std::string sentence) {
    return [sentence](ui::AppState& state) {
        ui::useTrainedModel(io::loadModelFolder(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "assets/models/attnviz-mini-llama"), state);
        state.spec.sentences = {sentence};
        state.stage = core::StageId::Output;
    };
}

// The seeded layer on a short sentence: the mask question's grid small enough to click every cell.
void shortSentence(ui::AppState& state) { state.spec.sentences = {"the cat sat on the mat"}; }

float textWidth(std::string_view text, float size, scene::FontFace) { return static_cast<float>(text.size()) * size * 0.55f; }

}  // namespace

TEST_CASE("before reveal no part of the frame draws the answer row's colours in its rectangle or the reveal's words — after reveal both are there") {
    AskHall hall({1280.0f, 800.0f}, false, core::StageId::Softmax);
    hall.press('Q');
    REQUIRE(hall.report().drawn);
    const core::Question q = *hall.report().question;
    REQUIRE(q.kind == core::QuestionKind::MostAttended);
    const int wrong = q.truth == 0 ? 1 : 0;
    hall.press('1' + wrong);  // the class picks a wrong word: reveal names the gap
    const std::string gap = asDrawn(core::gapSentence(q, wrong)), why = asDrawn(q.why);
    const std::vector<ImU32> colours = answerColours(q, hall.app().state().sequential);
    const std::string before = drawnGlyphs();
    CHECK(before.find(asDrawn(q.prompt)) != std::string::npos);  // the glyph reading works: the prompt is found
    CHECK(before.find(gap) == std::string::npos);
    CHECK(before.find(why) == std::string::npos);
    CHECK(before.find("themodelput") == std::string::npos);
    CHECK(verticesColoured(hall.answerOnScreen(), colours) == 0);
    // Nor anywhere else: no heads' thumbnails, prediction bars or inspector beside the question, and no number of the
    // truth's (its weight, to two decimals) in any panel.
    CHECK(verticesColoured({0.0f, 0.0f, 1e6f, 1e6f}, colours) == 0);
    CHECK(hall.app().drawnHeatmaps().empty());  // maps on screen are textures: no vertex carries their colours
    CHECK(before.find(asDrawn(core::questionValueText(*q.choices[static_cast<std::size_t>(q.truth)].value))) == std::string::npos);

    hall.press(kKeyRight);  // reveal
    REQUIRE(hall.report().revealed);
    const std::string after = drawnGlyphs();
    CHECK(after.find(gap) != std::string::npos);
    CHECK(after.find(why) != std::string::npos);
    CHECK(verticesColoured(hall.answerOnScreen(), colours) >= 4 * static_cast<int>(q.answer.values.size()));
}

TEST_CASE("before reveal the mask and weighted-sum questions mark no truth, draw no answer row and none of the reveal's words — after reveal they do") {
    const ImU32 truthFill = IM_COL32(222, 243, 224, 255);  // question_drawing.cpp's kTruthFill: the truth's row, revealed
    for (core::StageId stage : {core::StageId::Mask, core::StageId::WeightedSum}) {
        CAPTURE(static_cast<int>(stage));
        AskHall hall({1280.0f, 800.0f}, false, stage, core::MaskKind::Causal);
        hall.press('Q');
        REQUIRE(hall.report().drawn);
        const core::Question q = *hall.report().question;
        CHECK(q.kind == (stage == core::StageId::Mask ? core::QuestionKind::Mask : core::QuestionKind::WeightedSum));
        const int wrong = q.truth == 0 ? 1 : 0;
        hall.press('1' + wrong);
        const std::string gap = asDrawn(core::gapSentence(q, wrong)), why = asDrawn(q.why);
        const std::vector<ImU32> colours = answerColours(q, hall.app().state().sequential);
        const std::string before = drawnGlyphs();
        CHECK(before.find(asDrawn(q.prompt)) != std::string::npos);
        CHECK(before.find(gap) == std::string::npos);
        CHECK(before.find(why) == std::string::npos);
        CHECK(verticesColoured({0.0f, 0.0f, 1e6f, 1e6f}, {truthFill}) == 0);
        CHECK(verticesColoured(hall.answerOnScreen(), colours) == 0);
        if (const std::optional<float> value = q.choices[static_cast<std::size_t>(q.truth)].value) {
            CHECK(before.find(asDrawn("cosine " + core::questionValueText(*value))) == std::string::npos);
        }
        hall.press(kKeyRight);
        REQUIRE(hall.report().revealed);
        const std::string after = drawnGlyphs();
        CHECK(after.find(gap) != std::string::npos);
        CHECK(after.find(why) != std::string::npos);
        CHECK(verticesColoured({0.0f, 0.0f, 1e6f, 1e6f}, {truthFill}) > 0);
        CHECK(verticesColoured(hall.answerOnScreen(), colours) >= 4 * static_cast<int>(q.answer.values.size()));
    }
}

TEST_CASE("the mask question draws its four pictures as cells: the truth's picture is the run's mask, cell for cell") {
    AskHall hall({1280.0f, 800.0f}, false, core::StageId::Mask, core::MaskKind::Causal);
    hall.press('Q');
    REQUIRE(hall.report().drawn);
    const core::Question& q = *hall.report().question;
    std::vector<const scene::Drawing::Cells*> grids;
    for (const scene::Drawing::Primitive& p : hall.report().layout.drawing.primitives) {
        if (const auto* cells = std::get_if<scene::Drawing::Cells>(&p)) grids.push_back(cells);
    }
    REQUIRE(grids.size() == 4u);  // one picture per choice, no answer row before reveal
    const scene::Drawing::Cells& truth = *grids[static_cast<std::size_t>(q.truth)];
    const int l = truth.rows;
    REQUIRE(truth.cols == l);
    const scene::Rgba8 removed = truth.colors[static_cast<std::size_t>(l - 1)], kept = truth.colors[0];  // row 0: (0, 0) kept, (0, l − 1) removed
    CHECK_FALSE(removed == kept);
    for (int i = 0; i < l; ++i) {
        for (int j = 0; j < l; ++j) CHECK(truth.colors[static_cast<std::size_t>(i * l + j)] == (j > i ? removed : kept));
    }
    for (const scene::Drawing::Cells* grid : grids) CHECK(grid->cellWidth >= 4);
}

TEST_CASE("a student alone: reveal counts the pick in a running score on the question bar, kept in the session and undone like any edit") {
    AskHall hall({1280.0f, 800.0f}, false, core::StageId::Softmax);
    ui::AppState& state = hall.app().state();
    hall.press('Q');
    const int truth = hall.report().question->truth;
    hall.press('1' + truth);
    CHECK(drawnGlyphs().find("yourpicks") == std::string::npos);  // nothing revealed yet: no score
    hall.press(kKeyRight);
    REQUIRE(state.ask.asked.size() == 1u);
    CHECK(state.ask.asked[0].right());
    CHECK(state.ask.asked[0].kind == "attended");
    CHECK(drawnGlyphs().find("yourpicks:1of1right") != std::string::npos);
    hall.press('1' + (truth + 1) % 4);  // revealed, the pick is final
    CHECK(state.ask.picks.picked == truth);
    hall.press(kKeyEqual);  // counts typed after reveal are kept with the question
    CHECK(state.ask.asked[0].counts == state.ask.picks.counts);
    hall.press(kKeyRight);  // on to the stage
    hall.press('Q');  // the next question
    const int second = hall.report().question->truth;
    hall.press('1' + (second + 1) % static_cast<int>(hall.report().question->choices.size()));
    hall.press(kKeyRight);
    REQUIRE(state.ask.asked.size() == 2u);
    CHECK(drawnGlyphs().find("yourpicks:1of2right") != std::string::npos);
    CHECK(ui::sessionOf(state).questions == state.ask.asked);  // saved with the session
    CHECK(state.session.modified);

    state.session.request = {ui::SessionAction::Undo};
    hall.settle();
    CHECK(state.ask.asked.size() == 1u);
    CHECK(drawnGlyphs().find("yourpicks:1of1right") != std::string::npos);
    state.session.request = {ui::SessionAction::Redo};
    hall.settle();
    CHECK(state.ask.asked.size() == 2u);
}

TEST_CASE("presenting at 1024x768 and 1280x800, every question a causal run offers keeps 14 px type or more and does not scroll, revealed or not") {
    for (ImVec2 size : {ImVec2{1024.0f, 768.0f}, ImVec2{1280.0f, 800.0f}}) {
        for (core::StageId stage : {core::StageId::Softmax, core::StageId::Scale, core::StageId::Concat, core::StageId::Mask, core::StageId::WeightedSum}) {
            AskHall hall(size, true, stage, core::MaskKind::Causal);
            hall.press('Q');
            hall.press('2');
            for (int i = 0; i < 5; ++i) hall.press(kKeyEqual);  // the class's counts drawn too
            for (bool revealed : {false, true}) {
                CAPTURE(size.x);
                CAPTURE(revealed);
                REQUIRE(hall.report().drawn);
                const ui::AskReport& r = hall.report();
                CAPTURE(r.question->prompt);
                CHECK(r.revealed == revealed);
                CHECK(r.layout.smallestType >= 14.0f);
                CHECK(static_cast<float>(r.layout.bottom) <= r.size.y);
                CHECK(ImGuiHarness::scrollRoom("/ask_") == 0.0f);
                CHECK(r.layout.choices.size() == r.question->choices.size());
                for (const scene::PixelRect& c : r.layout.choices) CHECK(static_cast<float>(c.right()) <= r.size.x);
                CHECK(static_cast<float>(r.layout.distribution.right()) <= r.size.x);
                hall.press(kKeyPageDown);  // the clicker reveals
            }
        }
    }
}

TEST_CASE("while a question is open, 1–4 pick instead of focusing heads, + and − count the picked choice, → reveals and then goes to the stage, Esc closes") {
    AskHall hall({1280.0f, 800.0f}, false, core::StageId::Scores);
    hall.app().state().head = 1;
    hall.settle();
    hall.press('Q');
    const ui::AskState& ask = hall.app().state().ask;
    REQUIRE(ask.open);
    hall.press('3');
    CHECK(ask.picks.picked == 2);
    CHECK(hall.app().state().head == 1);  // not head 2
    hall.press(kKeyEqual);
    hall.press(kKeyEqual);
    hall.press(kKeyMinus);
    CHECK(ask.picks.counts == std::vector<int>{0, 0, 1, 0});
    hall.press(kKeyRight);
    CHECK(ask.revealed);
    CHECK(hall.app().state().stage == core::StageId::Scores);  // → revealed, it did not step the stages
    hall.press(kKeyRight);
    CHECK_FALSE(ask.open);
    CHECK(hall.app().state().stage == core::StageId::Softmax);  // the stage the question was about, as usual
    CHECK(hall.app().state().head == 1);
    hall.press('Q');
    CHECK(ask.open);
    hall.press(kKeyEscape);
    CHECK_FALSE(ask.open);
}

TEST_CASE("a new run redraws the question and clears its picks, counts and reveal") {
    AskHall hall({1280.0f, 800.0f}, false, core::StageId::Softmax);
    hall.press('Q');
    hall.press('2');
    hall.press(kKeyEqual);
    hall.press(kKeyRight);
    hall.app().state().spec.sentences = {"The trophy did not fit in the suitcase because it was too big"};
    hall.settle();
    hall.app().waitForRun();
    hall.settle();
    const ui::AskState& ask = hall.app().state().ask;
    CHECK(ask.open);
    CHECK_FALSE(ask.revealed);
    CHECK(ask.picks == scene::QuestionPicks{});
    CHECK(hall.report().question->prompt.find("Which word does") == 0);  // the same kind, of the new sentence's numbers
    const std::vector<std::string>& labels = hall.report().question->answer.labels;
    CHECK(std::find(labels.begin(), labels.end(), "trophy") != labels.end());
}

TEST_CASE("the question's picture holds no answer row and no reveal sentence until revealed, in the same rectangles") {
    core::Question q;
    q.prompt = "Which word does “it” attend to most in head 0?";
    q.choices = {{"street", 0.12f}, {"animal", 0.61f}, {"cross", 0.05f}, {"tired", 0.2f}};
    q.truth = 1;
    q.valueName = "weight";
    q.why = "Row “it” of A₀: its largest weight is on “animal”.";
    q.answer = {"A₀, row “it”", {"The", "animal", "street", "it"}, {0.1f, 0.61f, 0.12f, 0.17f}, {}, {}};
    scene::QuestionLook look;
    look.probabilityColour = [](float v) { return scene::Rgba8{static_cast<std::uint8_t>(255.0f * v), 0, 0, 255}; };
    const scene::QuestionPicks picks{0, {3, 9, 0, 1}};
    const scene::QuestionLayout asked = scene::layoutQuestion(q, picks, false, 1000, 700, look, textWidth);
    const scene::QuestionLayout revealed = scene::layoutQuestion(q, picks, true, 1000, 700, look, textWidth);
    const auto holds = [](const scene::Drawing& d, const std::string& needle) {
        return std::any_of(d.primitives.begin(), d.primitives.end(), [&](const scene::Drawing::Primitive& p) {
            const auto* t = std::get_if<scene::Drawing::Text>(&p);
            return t != nullptr && t->utf8.find(needle) != std::string::npos;
        });
    };
    const auto cells = [](const scene::Drawing& d) {
        return std::count_if(d.primitives.begin(), d.primitives.end(), [](const auto& p) { return std::holds_alternative<scene::Drawing::Cells>(p); });
    };
    CHECK(cells(asked.drawing) == 0);
    CHECK(cells(revealed.drawing) == 1);
    CHECK_FALSE(holds(asked.drawing, "the model put 0.61"));
    CHECK(holds(revealed.drawing, "You chose “street” (weight 0.12); the model put 0.61 on “animal”."));
    CHECK_FALSE(holds(asked.drawing, "0.61"));
    CHECK(holds(asked.drawing, "9 · 69%"));  // the class's distribution is drawn before reveal: 9 of 13
    CHECK(asked.answer.y == revealed.answer.y);
    CHECK(asked.answer.height == revealed.answer.height);
    CHECK(asked.choices[1].y == revealed.choices[1].y);
}

TEST_CASE("the prediction answered by a typed word: T and typing fill the field, nothing of its rank is drawn before reveal, Enter reveals its rank and probability") {
    const std::string sentence = "The animal didn't cross the street because it was too";
    AskHall hall({1280.0f, 800.0f}, false, core::StageId::Output, core::MaskKind::None, bundledDecoder(sentence));
    hall.press('Q');
    REQUIRE(hall.report().drawn);
    const core::Question q = *hall.report().question;
    REQUIRE(q.kind == core::QuestionKind::NextToken);
    CHECK(hall.report().layout.typedField.width > 0);
    hall.press('2');  // a pick first: typing replaces it
    hall.press('T');
    hall.typeText("tired");
    const ui::AskState& ask = hall.app().state().ask;
    CHECK(ask.picks.typed == "tired");
    CHECK_FALSE(ask.picks.picked);
    REQUIRE(ask.picks.typedRank);
    // The run's own numbers: the same as core::rankTypedWord of the run on screen (checked against an independent
    // float64 forward in test_questions.cpp: rank 8, probability 0.0337).
    const core::TypedWordRank expected = *core::rankTypedWord(*hall.app().run(), 0, "tired");
    CHECK(*ask.picks.typedRank == expected);
    CHECK(expected.rank == 8);
    const std::string gap = asDrawn(core::typedGapSentence(q, expected));
    const std::string before = drawnGlyphs();
    CHECK(before.find("tired") != std::string::npos);  // the field shows what was typed
    CHECK(before.find(gap) == std::string::npos);
    CHECK(before.find("ranksit") == std::string::npos);
    CHECK(before.find(asDrawn(core::percentText(expected.probability))) == std::string::npos);
    CHECK(verticesColoured({0.0f, 0.0f, 1e6f, 1e6f}, answerColours(q, hall.app().state().sequential)) == 0);
    hall.press(kKeyEnter);  // Enter in the field reveals
    REQUIRE(ask.revealed);
    CHECK(drawnGlyphs().find(gap) != std::string::npos);
    REQUIRE(ask.asked.size() == 1u);
    CHECK(ask.asked[0].typed == "tired");
    CHECK_FALSE(ask.asked[0].right());  // rank 8, not the model's top
    CHECK(drawnGlyphs().find("yourpicks:0of1right") != std::string::npos);
}

TEST_CASE("the mask answered by clicking cells: clicks at cell centres mark those cells, reveal counts them against the mask rule j > i") {
    AskHall hall({1280.0f, 800.0f}, false, core::StageId::Mask, core::MaskKind::Causal, shortSentence);
    hall.press('Q');
    REQUIRE(hall.report().question->kind == core::QuestionKind::Mask);
    hall.press('G');
    const ui::AskState& ask = hall.app().state().ask;
    REQUIRE(ask.picks.cells);
    const int l = ask.picks.cells->rows;
    REQUIRE(l == static_cast<int>(hall.app().run()->tokens[0].size()));
    REQUIRE(hall.report().layout.cellSize >= 8);
    CHECK(hall.report().layout.choices.empty());  // the grid instead of the four pictures
    // Its rows and columns carry the sentence's words: "mat" once beside the last row and once above the last column.
    const std::vector<scene::Drawing::Primitive>& drawn = hall.report().layout.drawing.primitives;
    CHECK(std::count_if(drawn.begin(), drawn.end(), [](const scene::Drawing::Primitive& p) {
              const auto* t = std::get_if<scene::Drawing::Text>(&p);
              return t != nullptr && t->utf8 == "mat";
          }) == 2);
    // Mark every cell above the diagonal but (0, l − 1), and (2, 2) on the diagonal: one missed, one extra.
    std::vector<std::pair<int, int>> clicks;
    for (int i = 0; i < l; ++i) {
        for (int j = i + 1; j < l; ++j) {
            if (!(i == 0 && j == l - 1)) clicks.push_back({i, j});
        }
    }
    clicks.push_back({2, 2});
    for (const auto& [i, j] : clicks) {
        const scene::QuestionLayout& layout = hall.report().layout;
        const int half = layout.cellSize / 2;
        hall.clickDrawing(layout.cellGrid.x + j * layout.cellSize + half, layout.cellGrid.y + i * layout.cellSize + half);
    }
    for (int i = 0; i < l; ++i) {
        for (int j = 0; j < l; ++j) {
            const bool clicked = std::find(clicks.begin(), clicks.end(), std::pair{i, j}) != clicks.end();
            CHECK(ask.picks.cells->isRemoved(i, j) == clicked);
        }
    }
    const core::Question q = *hall.report().question;
    // The truth by the rule, not by the run: removed exactly when j > i.
    const int right = l * l - 2;
    const std::string gap = "You marked " + std::to_string(right) + " of " + std::to_string(l * l) + " cells right: 1 removed cell not marked and 1 kept cell marked.";
    CHECK(core::cellsGapSentence(q, *ask.picks.cells) == gap);
    const ImU32 extra = IM_COL32(215, 60, 50, 255), missed = IM_COL32(240, 160, 40, 255);  // question_drawing.cpp's kExtraCell, kMissedCell
    CHECK(drawnGlyphs().find(asDrawn(gap)) == std::string::npos);
    CHECK(verticesColoured({0.0f, 0.0f, 1e6f, 1e6f}, {extra, missed}) == 0);
    hall.press(kKeyRight);
    REQUIRE(ask.revealed);
    CHECK(drawnGlyphs().find(asDrawn(gap)) != std::string::npos);
    CHECK(verticesColoured({0.0f, 0.0f, 1e6f, 1e6f}, {extra}) >= 4);
    CHECK(verticesColoured({0.0f, 0.0f, 1e6f, 1e6f}, {missed}) >= 4);
    REQUIRE(ask.asked.size() == 1u);
    CHECK(ask.asked[0].cells.size() == static_cast<std::size_t>(l * l));
    CHECK_FALSE(ask.asked[0].right());
}

TEST_CASE("a click on a choice picks it, and the score's Clear button and Delete clear the lesson's questions, Undo brings them back") {
    AskHall hall({1280.0f, 800.0f}, false, core::StageId::Softmax);
    ui::AppState& state = hall.app().state();
    hall.press('Q');
    const scene::PixelRect third = hall.report().layout.choices.at(2);
    hall.clickDrawing(third.x + third.width / 2, third.y + third.height / 2);
    CHECK(state.ask.picks.picked == 2);
    hall.press(kKeyRight);
    REQUIRE(state.ask.asked.size() == 1u);
    CHECK(hall.report().layout.tally.width > 0);
    hall.press(kKeyDelete);
    CHECK(state.ask.asked.empty());
    CHECK(state.status.find("Score cleared") == 0);
    CHECK(drawnGlyphs().find("yourpicks") == std::string::npos);
    CHECK(ui::sessionOf(state).questions.empty());  // the session file saves the cleared score
    state.session.request = {ui::SessionAction::Undo};
    hall.settle();
    CHECK(state.ask.asked.size() == 1u);
    CHECK(drawnGlyphs().find("yourpicks") != std::string::npos);
}

// The typed-word field kept its first 40 bytes, not characters: 41 "é" became 20, and a cut could split one.
TEST_CASE("the typed-word field keeps 40 characters of a longer word, each whole") {
    AskHall hall({1280.0f, 800.0f}, false, core::StageId::Output, core::MaskKind::None,
                 bundledDecoder("The animal didn't cross the street because it was too"));
    hall.press('Q');
    REQUIRE(hall.report().question->kind == core::QuestionKind::NextToken);
    hall.press('T');
    std::string accents;
    for (int i = 0; i < core::kMaxTypedWord + 5; ++i) accents += "\xc3\xa9";  // é, two bytes each
    hall.typeText(accents);
    const ui::AskState& ask = hall.app().state().ask;
    CHECK(ask.picks.typed == accents.substr(0, 2 * static_cast<std::size_t>(core::kMaxTypedWord)));
    CHECK(core::findInvalidUtf8(ask.picks.typed) == std::string::npos);
}

TEST_CASE("a clicker's PageDown reveals a typed word although the field has the keyboard") {
    AskHall hall({1280.0f, 800.0f}, true, core::StageId::Output, core::MaskKind::None, bundledDecoder("The animal didn't cross the street because it was too"));
    hall.press('Q');
    hall.press('T');
    hall.typeText("cold");
    REQUIRE(ImGui::GetIO().WantTextInput);
    REQUIRE_FALSE(hall.app().state().ask.revealed);
    hall.press(kKeyPageDown);
    CHECK(hall.app().state().ask.revealed);
    REQUIRE(hall.app().state().ask.asked.size() == 1u);
    CHECK(hall.app().state().ask.asked[0].typed == "cold");
}

TEST_CASE("presenting at 1024x768 and 1280x800, the typed-word field and the clicked cells keep 14 px type or more and do not scroll") {
    for (ImVec2 size : {ImVec2{1024.0f, 768.0f}, ImVec2{1280.0f, 800.0f}}) {
        for (bool typed : {true, false}) {  // one hall at a time: each has its own ImGui context
            CAPTURE(size.x);
            CAPTURE(typed);
            AskHall hall(size, true, typed ? core::StageId::Output : core::StageId::Mask, typed ? core::MaskKind::None : core::MaskKind::Causal,
                         typed ? bundledDecoder("The animal didn't cross the street because it was too") : std::function<void(ui::AppState&)>{});
            hall.press('Q');
            hall.press(typed ? 'T' : 'G');
            if (typed) hall.typeText("elephantine");
            for (bool revealed : {false, true}) {
                CAPTURE(revealed);
                const ui::AskReport& r = hall.report();
                REQUIRE(r.drawn);
                CHECK(r.revealed == revealed);
                CHECK((typed ? r.layout.typedField.width : r.layout.cellSize) > 0);
                CHECK(r.layout.smallestType >= 14.0f);
                CHECK(static_cast<float>(r.layout.bottom) <= r.size.y);
                CHECK(ImGuiHarness::scrollRoom("/ask_") == 0.0f);
                CHECK(static_cast<float>(std::max(r.layout.typedField.right(), r.layout.cellGrid.right())) <= r.size.x);
                hall.press(typed && !revealed ? kKeyEnter : kKeyPageDown);  // the field has the keyboard: Enter reveals
            }
        }
    }
}

TEST_CASE("the clickable grid maps each cell's centre and corners to that cell, and nothing outside it") {
    scene::QuestionLayout layout;
    layout.cellGrid = {100, 50, 7 * 12, 5 * 12};
    layout.cellSize = 12;
    const core::CellPicture grid{5, 7, std::vector<std::uint8_t>(35, 0)};
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 7; ++j) {
            const int x = 100 + j * 12, y = 50 + i * 12;
            CHECK(scene::cellAt(layout, grid, x + 6, y + 6) == std::pair{i, j});
            CHECK(scene::cellAt(layout, grid, x, y) == std::pair{i, j});
            CHECK(scene::cellAt(layout, grid, x + 11, y + 11) == std::pair{i, j});
        }
    }
    CHECK_FALSE(scene::cellAt(layout, grid, 99, 55));
    CHECK_FALSE(scene::cellAt(layout, grid, 100 + 84, 55));
    CHECK_FALSE(scene::cellAt(layout, grid, 110, 50 + 60));
}

}  // namespace attnviz::test
