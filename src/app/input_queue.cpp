// input_queue.cpp — splitting queued input into frames. See input_queue.h.
#include "app/input_queue.h"

#include "ui/widgets/wide_characters.h"

#include <GLFW/glfw3.h>
#include <imgui_impl_glfw.h>

#include <set>

namespace attnviz::app {
namespace {

bool isModifier(int key) { return key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER; }

InputQueue& queueOf(GLFWwindow* window) { return *static_cast<InputQueue*>(glfwGetWindowUserPointer(window)); }

void queueKey(GLFWwindow* window, int key, int scancode, int action, int mods) {
    queueOf(window).push({InputEvent::Kind::Key, key, scancode, action, mods, 0});
}

void queueCharacter(GLFWwindow* window, unsigned int codepoint) {
    queueOf(window).push({InputEvent::Kind::Character, 0, 0, 0, 0, codepoint});
}

}  // namespace

void queueInput(GLFWwindow* window, InputQueue& queue) {
    glfwSetWindowUserPointer(window, &queue);
    glfwSetKeyCallback(window, queueKey);
    glfwSetCharCallback(window, queueCharacter);
}

void feedQueuedInput(GLFWwindow* window, InputQueue& queue) {
    for (const InputEvent& event : queue.takeFrame()) {
        if (event.kind == InputEvent::Kind::Character) ui::typeCharacter(event.codepoint);  // keeps emoji (wide_characters.h)
        else ImGui_ImplGlfw_KeyCallback(window, event.key, event.scancode, event.action, event.mods);
    }
}

std::vector<InputEvent> InputQueue::takeFrame() {
    std::vector<InputEvent> batch;
    bool hasCharacters = false;
    std::set<int> released;  // keys that went up in this batch: ImGui must see them up for a frame
    while (!events_.empty()) {
        const InputEvent& next = events_.front();
        if (next.kind == InputEvent::Kind::Character) {
            batch.push_back(next);
            hasCharacters = true;
            events_.pop_front();
            continue;
        }
        const bool press = next.action != GLFW_RELEASE;  // a repeat counts as a press of its own
        if (isModifier(next.key)) {
            batch.push_back(next);
            events_.pop_front();
            continue;
        }
        if (press && (hasCharacters || released.contains(next.key))) break;  // what came before goes first
        if (!press) released.insert(next.key);
        batch.push_back(next);
        events_.pop_front();
        if (!press) continue;
        // Down for this whole frame, with the characters it typed (GLFW reports them right after it); its release, and
        // what follows, next frame. A typed key so takes one frame, not two.
        while (!events_.empty() && events_.front().kind == InputEvent::Kind::Character) {
            batch.push_back(events_.front());
            events_.pop_front();
        }
        break;
    }
    return batch;
}

}  // namespace attnviz::app
