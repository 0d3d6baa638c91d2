// imgui_harness.h — runs App frames without a window (ImGui's example_null): a context with a built font
// atlas, DisplaySize and DeltaTime, key codes mapped like GLFW's, and input fed through io.MousePos,
// io.MouseDown[], io.KeysDown[] and io.AddInputCharacter (Dear ImGui 1.86). Textures go to the null renderer.
#pragma once

#include "io/model_library.h"
#include "render/heatmap_renderer.h"
#include "ui/app.h"
#include "ui/session/session_actions.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attnviz::test {

// GLFW's key codes, which the real backend puts in io.KeysDown[] (digits and letters are ASCII).
inline constexpr int kKeyLeft = 263, kKeyRight = 262, kKeyHome = 268, kKeyEnd = 269, kKeySpace = 32, kKeyEscape = 256,
                     kKeyBackspace = 259, kKeyEnter = 257, kKeyPageUp = 266, kKeyPageDown = 267, kKeyF5 = 294,
                     kKeyDelete = 261;

class ImGuiHarness {
public:
    // `scale` is the UI scale App gets (2 on a HiDPI screen, with fonts twice as big).
    explicit ImGuiHarness(ImVec2 displaySize = {1600.0f, 1000.0f}, float scale = 1.0f) : renderer_(render::createNullRenderer()), scale_(scale) {
        ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = displaySize;
        io.DeltaTime = 1.0f / 60.0f;
        unsigned char* pixels = nullptr;
        int width = 0, height = 0;
        ImFontConfig font;
        font.SizePixels = 13.0f * scale;
        io.Fonts->AddFontDefault(&font);
        io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);  // builds the atlas
        ImGui::GetStyle().ScaleAllSizes(scale);
        io.KeyMap[ImGuiKey_LeftArrow] = kKeyLeft;
        io.KeyMap[ImGuiKey_RightArrow] = kKeyRight;
        io.KeyMap[ImGuiKey_Home] = kKeyHome;
        io.KeyMap[ImGuiKey_End] = kKeyEnd;
        io.KeyMap[ImGuiKey_Space] = kKeySpace;
        io.KeyMap[ImGuiKey_Escape] = kKeyEscape;
        io.KeyMap[ImGuiKey_Backspace] = kKeyBackspace;
        io.KeyMap[ImGuiKey_Enter] = kKeyEnter;
        io.KeyMap[ImGuiKey_PageUp] = kKeyPageUp;
        io.KeyMap[ImGuiKey_PageDown] = kKeyPageDown;
        io.KeyMap[ImGuiKey_Delete] = kKeyDelete;
    }
    ImGuiHarness(const ImGuiHarness&) = delete;
    ImGuiHarness& operator=(const ImGuiHarness&) = delete;
    ~ImGuiHarness() { ImGui::DestroyContext(); }

    void frame(ui::App& app) {
        ImGui::NewFrame();
        app.frame(*renderer_, fonts_, scale_);
        ImGui::Render();
    }
    // A frame drawn with another renderer (a test's counting wrapper around renderer()).
    void frame(ui::App& app, render::HeatmapRenderer& renderer) {
        ImGui::NewFrame();
        app.frame(renderer, fonts_, scale_);
        ImGui::Render();
    }
    void frames(ui::App& app, int count) {
        for (int i = 0; i < count; ++i) frame(app);
    }
    // Down for one frame, up for the next (ImGui sees a press).
    void pressKey(ui::App& app, int key, bool ctrl = false) {
        ImGuiIO& io = ImGui::GetIO();
        io.KeyCtrl = ctrl;
        io.KeysDown[key] = true;
        frame(app);
        io.KeysDown[key] = false;
        io.KeyCtrl = false;
        frame(app);
    }
    // Down for as many frames as `frameSeconds` has, each that long (a slow frame: the font atlas rebuilt after F5),
    // then up for a frame of 1/60 s: a press as a person makes it, which ImGui's key repeat may see more than once.
    void holdKey(ui::App& app, int key, bool ctrl, const std::vector<float>& frameSeconds) {
        ImGuiIO& io = ImGui::GetIO();
        io.KeyCtrl = ctrl;
        io.KeysDown[key] = true;
        for (float seconds : frameSeconds) {
            io.DeltaTime = seconds;
            frame(app);
        }
        io.KeysDown[key] = false;
        io.KeyCtrl = false;
        io.DeltaTime = 1.0f / 60.0f;
        frame(app);
    }
    void hover(ui::App& app, ImVec2 at) {
        ImGui::GetIO().MousePos = at;
        frames(app, 2);  // the first frame finds the cell, the second explains it
    }
    void click(ui::App& app, ImVec2 at) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = at;
        frame(app);
        io.MouseDown[0] = true;
        frame(app);
        io.MouseDown[0] = false;
        frame(app);
    }
    void type(ui::App& app, unsigned int character) {
        ImGui::GetIO().AddInputCharacter(character);
        frame(app);
    }
    // A UTF-8 string, one character per frame.
    void typeText(ui::App& app, const std::string& text) {
        for (std::size_t i = 0; i < text.size();) {
            const unsigned char lead = static_cast<unsigned char>(text[i]);
            const std::size_t length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
            ImGui::GetIO().AddInputCharactersUTF8(text.substr(i, length).c_str());
            i += length;
            frame(app);
        }
    }
    // Two clicks within ImGui's double-click time, after a pause longer than it (so that no earlier click
    // pairs with the first one).
    void doubleClick(ui::App& app, ImVec2 at) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = at;
        frames(app, static_cast<int>(io.MouseDoubleClickTime / io.DeltaTime) + 1);
        for (int i = 0; i < 2; ++i) {
            io.MouseDown[0] = true;
            frame(app);
            io.MouseDown[0] = false;
            frame(app);
        }
    }
    void rightClick(ui::App& app, ImVec2 at) {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = at;
        frame(app);
        io.MouseDown[1] = true;
        frame(app);
        io.MouseDown[1] = false;
        frame(app);
    }
    // Another UI scale between two frames, as the window's look changes it (app/gui_style.h): ImGui's default font
    // rebuilt at 13 px × `scale`, `style` in place of the current one.
    void setLook(float scale, const ImGuiStyle& style) {
        scale_ = scale;
        ImGuiIO& io = ImGui::GetIO();
        io.Fonts->Clear();
        ImFontConfig font;
        font.SizePixels = std::round(13.0f * scale);
        io.Fonts->AddFontDefault(&font);
        unsigned char* pixels = nullptr;
        int width = 0, height = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &width, &height);
        ImGui::GetStyle() = style;
    }
    render::HeatmapRenderer& renderer() { return *renderer_; }
    // How far (pixels) the last frame drew right of the visible area in the child windows whose name contains
    // `child` ("/stage_": the stage panel): more than a pixel of anti-aliasing means the content needs a horizontal
    // scrollbar. The visible area's right edge is the widest clip rectangle of the window's draw list (a clip pushed
    // inside it, around a map's cells, never reaches past the window's).
    static float drawnPastRightEdge(const char* child) {
        const ImDrawData* data = ImGui::GetDrawData();
        float past = 0.0f;
        for (int l = 0; data != nullptr && l < data->CmdListsCount; ++l) {
            const ImDrawList& list = *data->CmdLists[l];
            if (list._OwnerName == nullptr || std::strstr(list._OwnerName, child) == nullptr) continue;
            float right = -1e9f;
            for (const ImDrawCmd& cmd : list.CmdBuffer) right = std::max(right, cmd.ClipRect.z);
            for (const ImDrawVert& v : list.VtxBuffer) past = std::max(past, v.pos.x - right);
        }
        return past;
    }

    // How far a child window (its name containing `child`) can scroll down, in pixels: 0 when its content fits.
    static float scrollRoom(const char* child) {
        for (const ImGuiWindow* window : GImGui->Windows) {
            if (window->Active && std::strstr(window->Name, child) != nullptr) return window->ScrollMax.y;
        }
        return 0.0f;
    }

    // The area a child window (its name containing `child`) shows on screen: the union of its draw commands' clip
    // rectangles (x0, y0, x1, y1); nullopt when it drew nothing.
    static std::optional<ImVec4> shownArea(const char* child) {
        const ImDrawData* data = ImGui::GetDrawData();
        std::optional<ImVec4> area;
        for (int l = 0; data != nullptr && l < data->CmdListsCount; ++l) {
            const ImDrawList& list = *data->CmdLists[l];
            if (list._OwnerName == nullptr || std::strstr(list._OwnerName, child) == nullptr) continue;
            for (const ImDrawCmd& cmd : list.CmdBuffer) {
                const ImVec4 c = cmd.ClipRect;
                area = area ? ImVec4{std::min(area->x, c.x), std::min(area->y, c.y), std::max(area->z, c.z), std::max(area->w, c.w)} : c;
            }
        }
        return area;
    }

private:
    std::unique_ptr<render::HeatmapRenderer> renderer_;
    float scale_;
    ui::Fonts fonts_;  // all null: the panels use ImGui's default font
};

// The centre of cell (row, col) of a drawn heatmap, in display order; nullopt when `ref` was not drawn.
// With several drawings of the same matrix (the centre and a thumbnail), `nth` picks one, in drawing order.
inline std::optional<ImVec2> cellCentre(const ui::App& app, const ui::MatrixRef& ref, int row, int col, int nth = 0) {
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) {
        if (!(d.matrix == ref) || nth-- > 0) continue;
        const float cw = (d.max.x - d.min.x) / static_cast<float>(d.cols), ch = (d.max.y - d.min.y) / static_cast<float>(d.rows);
        return ImVec2(d.min.x + (static_cast<float>(col) + 0.5f) * cw, d.min.y + (static_cast<float>(row) + 0.5f) * ch);
    }
    return std::nullopt;
}

inline int drawnCount(const ui::App& app, const ui::MatrixRef& ref) {
    int count = 0;
    for (const ui::DrawnHeatmap& d : app.drawnHeatmaps()) count += d.matrix == ref ? 1 : 0;
    return count;
}

// Where the last frame drew `label`: the centre of the first glyph of each time it was drawn (in draw order). Read
// from the draw lists: each visible glyph of ImGui's font is a quad of four corners, the first at the glyph's (U0, V0),
// the second on its top row (V0), the fourth on its left column (U0); a glyph cut by a clip rectangle (a button's
// descender) keeps those. Spaces draw nothing, so `label` is matched without them. ASCII text only.
inline std::vector<ImVec2> drawnTextCentres(const std::string& label) {
    std::string wanted;
    for (char c : label) {
        if (c != ' ') wanted += c;
    }
    std::vector<ImVec2> found;
    if (wanted.empty()) return found;
    std::map<std::pair<float, float>, const ImFontGlyph*> glyphs;  // (U0, V0) → glyph
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts) {
        for (const ImFontGlyph& glyph : font->Glyphs) {
            if (glyph.Visible && glyph.Codepoint < 128) glyphs[{glyph.U0, glyph.V0}] = &glyph;
        }
    }
    const ImDrawData* data = ImGui::GetDrawData();
    for (int l = 0; data != nullptr && l < data->CmdListsCount; ++l) {
        const ImVector<ImDrawVert>& v = data->CmdLists[l]->VtxBuffer;
        std::string text;
        std::vector<ImVec2> centres;
        for (int i = 0; i + 3 < v.Size; ++i) {
            const auto glyph = glyphs.find({v[i].uv.x, v[i].uv.y});
            if (glyph == glyphs.end() || v[i + 1].uv.y != glyph->second->V0 || v[i + 3].uv.x != glyph->second->U0) continue;
            text += static_cast<char>(glyph->second->Codepoint);
            centres.push_back({(v[i].pos.x + v[i + 2].pos.x) / 2.0f, (v[i].pos.y + v[i + 2].pos.y) / 2.0f});
            i += 3;
        }
        for (std::size_t at = text.find(wanted); at != std::string::npos; at = text.find(wanted, at + 1)) found.push_back(centres[at]);
    }
    return found;
}

// Where the last frame first drew `label` (drawnTextCentres), or nullopt when it was not drawn.
inline std::optional<ImVec2> drawnTextAt(const std::string& label) {
    const std::vector<ImVec2> centres = drawnTextCentres(label);
    return centres.empty() ? std::nullopt : std::optional(centres.front());
}

// Two frames, the model run they asked for finished, two more frames: the app drawn with the run's results.
inline void settle(ImGuiHarness& ui, ui::App& app) {
    ui.frames(app, 2);
    app.waitForRun();
    ui.frames(app, 2);
}

// The state of a first start: the bundled trained model open (std::runtime_error when it cannot be read).
inline ui::AppState bundledState() {
    ui::AppState state;
    auto model = io::loadBundledModel();
    if (model == nullptr) throw std::runtime_error("the bundled model was not found");
    ui::useTrainedModel(std::move(model), state);
    return state;
}

inline ui::MatrixRef traceRef(core::TensorId tensor, int head = 0) { return {ui::MatrixSource::Trace, tensor, head}; }

// The seeded layer (core::ModelSpec's defaults) over `sentence` at `stage`: App's state for a test of what it draws.
inline ui::AppState seededStageState(const std::string& sentence, core::StageId stage) {
    ui::AppState state;
    state.spec = core::ModelSpec{};
    state.spec.sentences = {sentence};
    state.stage = stage;
    return state;
}

// Frames until App's first run is done, and two more that draw it.
inline void drawFirstRun(ImGuiHarness& ui, ui::App& app) {
    ui.frames(app, 3);
    app.waitForRun();
    ui.frames(app, 2);
}

}  // namespace attnviz::test
