// test_input_queue.cpp — quick taps are not lost: GLFW events queued by app/input_queue.h and handed to ImGui a
// frame at a time, driven through the windowless harness exactly as gui_main feeds ImGui's GLFW callbacks.
#include "app/input_queue.h"
#include "ui/imgui_harness.h"

#include <GLFW/glfw3.h>
#include <doctest/doctest.h>

namespace attnviz::test {
namespace {

using app::InputEvent;
using core::StageId;

InputEvent key(int code, int action) { return {InputEvent::Kind::Key, code, 0, action, 0, 0}; }
InputEvent character(unsigned int codepoint) { return {InputEvent::Kind::Character, 0, 0, 0, 0, codepoint}; }

// What ImGui_ImplGlfw_KeyCallback and _CharCallback do to io in Dear ImGui 1.86.
void applyToImGui(const InputEvent& event) {
    ImGuiIO& io = ImGui::GetIO();
    if (event.kind == InputEvent::Kind::Character) {
        io.AddInputCharacter(event.codepoint);
        return;
    }
    io.KeysDown[event.key] = event.action != GLFW_RELEASE;
    io.KeyCtrl = io.KeysDown[GLFW_KEY_LEFT_CONTROL] || io.KeysDown[GLFW_KEY_RIGHT_CONTROL];
    io.KeyShift = io.KeysDown[GLFW_KEY_LEFT_SHIFT] || io.KeysDown[GLFW_KEY_RIGHT_SHIFT];
}

// A clicker sends four PageDown taps faster than one frame: all four arrive before the next frame starts.
void pushFourQuickTaps(app::InputQueue& queue) {
    for (int i = 0; i < 4; ++i) {
        queue.push(key(GLFW_KEY_PAGE_DOWN, GLFW_PRESS));
        queue.push(key(GLFW_KEY_PAGE_DOWN, GLFW_RELEASE));
    }
}

ui::AppState tinyRandomState() {
    ui::AppState state;
    state.spec.sentences = {"the cat sat"};
    state.spec.attention.dModel = 8;
    state.spec.attention.heads = 2;
    return state;
}

}  // namespace

TEST_CASE("input queue: four taps within one frame step four stages when fed a frame at a time") {
    ImGuiHarness ui;
    ui::App app(tinyRandomState());
    ui.frame(app);
    REQUIRE(app.state().stage == StageId::Tokens);
    app::InputQueue queue;
    pushFourQuickTaps(queue);
    int frames = 0;
    while (!queue.empty() && frames < 20) {
        for (const InputEvent& event : queue.takeFrame()) applyToImGui(event);
        ui.frame(app);
        ++frames;
    }
    ui.frame(app);
    CHECK(app.state().stage == StageId::Scores);  // Tokens → Embed → Project → SplitHeads → Scores
    CHECK(frames == 8);  // each tap down for one frame and up for the next
}

TEST_CASE("input queue: the same taps applied all at once, as ImGui 1.86 alone would see them, are lost") {
    ImGuiHarness ui;
    ui::App app(tinyRandomState());
    ui.frame(app);
    app::InputQueue queue;
    std::vector<InputEvent> all;
    pushFourQuickTaps(queue);
    for (std::vector<InputEvent> batch; !(batch = queue.takeFrame()).empty();) all.insert(all.end(), batch.begin(), batch.end());
    for (const InputEvent& event : all) applyToImGui(event);  // one frame: down and up before NewFrame
    ui.frames(app, 2);
    CHECK(app.state().stage == StageId::Tokens);
}

TEST_CASE("input queue: Ctrl+A stays down with its Ctrl for a frame, and the characters typed after it come after") {
    app::InputQueue queue;
    queue.push(key(GLFW_KEY_LEFT_CONTROL, GLFW_PRESS));
    queue.push(key(GLFW_KEY_A, GLFW_PRESS));
    queue.push(key(GLFW_KEY_A, GLFW_RELEASE));
    queue.push(key(GLFW_KEY_LEFT_CONTROL, GLFW_RELEASE));
    queue.push(key(GLFW_KEY_H, GLFW_PRESS));
    queue.push(character('h'));
    queue.push(key(GLFW_KEY_H, GLFW_RELEASE));
    queue.push(character('i'));  // typed so fast its key press came first in the batch before
    queue.push(key(GLFW_KEY_ENTER, GLFW_PRESS));

    const std::vector<InputEvent> first = queue.takeFrame();
    REQUIRE(first.size() == 2);  // Ctrl down, A down: ImGui sees Ctrl+A
    CHECK(first[1].key == GLFW_KEY_A);
    const std::vector<InputEvent> second = queue.takeFrame();
    REQUIRE(second.size() == 3);  // A up, Ctrl up, H down
    CHECK(second[1].key == GLFW_KEY_LEFT_CONTROL);
    CHECK(second[1].action == GLFW_RELEASE);
    CHECK(second[2].key == GLFW_KEY_H);
    const std::vector<InputEvent> third = queue.takeFrame();
    REQUIRE(third.size() == 3);  // 'h', H up, 'i': characters together; Enter waits for them
    CHECK(third[0].codepoint == 'h');
    CHECK(third[2].codepoint == 'i');
    const std::vector<InputEvent> fourth = queue.takeFrame();
    REQUIRE(fourth.size() == 1);
    CHECK(fourth[0].key == GLFW_KEY_ENTER);
    CHECK(queue.empty());
}

}  // namespace attnviz::test
