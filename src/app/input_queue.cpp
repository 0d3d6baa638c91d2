// input_queue.cpp — splitting queued input into frames. See input_queue.h.
#include "app/input_queue.h"

#include <GLFW/glfw3.h>

#include <set>

namespace attnviz::app {
namespace {

bool isModifier(int key) { return key >= GLFW_KEY_LEFT_SHIFT && key <= GLFW_KEY_RIGHT_SUPER; }

}  // namespace

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
