// input_queue.h — key presses and typed characters kept in order and handed to Dear ImGui a frame at a time,
// so none is lost. Dear ImGui 1.86 reads keys as "down at the start of the frame": a tap shorter than a frame
// (a presenter's clicker, a quick "2", Ctrl+A before typing) was pressed and released between two frames and
// never seen. queueInput installs GLFW key and character callbacks that push() here and feedQueuedInput, before
// each frame, passes takeFrame()'s events to ImGui's own GLFW callbacks (the desktop's and the page's main loops).
//
// One frame's batch is everything up to, and including, the first press of a non-modifier key and the characters
// it typed (GLFW reports them right after the press: a typed key takes one frame, so typing at 25 keys/s keeps up
// with 30 frames a second); its release and whatever follows wait for the next frame, and a key released in a batch
// is not pressed again in it. Other characters share a batch with each other but not with a later key press (ImGui
// applies a frame's characters before its keys, so "Ctrl+A, then type" would type first), and a modifier's release
// waits while a key pressed with it is still to be seen.
#pragma once

#include <deque>
#include <vector>

struct GLFWwindow;

namespace attnviz::app {

struct InputEvent {
    enum class Kind { Key, Character };
    Kind kind = Kind::Key;
    int key = 0;           // GLFW key code (Kind::Key)
    int scancode = 0;
    int action = 0;        // GLFW_PRESS, GLFW_RELEASE or GLFW_REPEAT
    int mods = 0;
    unsigned int codepoint = 0;  // Kind::Character
};

class InputQueue;

// Replaces the key and character callbacks ImGui's GLFW backend installed on `window` with ones that push into
// `queue` (the window's user pointer); feedQueuedInput, before each frame, passes one frame's batch to ImGui
// through the same backend functions.
void queueInput(GLFWwindow* window, InputQueue& queue);
void feedQueuedInput(GLFWwindow* window, InputQueue& queue);

class InputQueue {
public:
    void push(const InputEvent& event) { events_.push_back(event); }
    bool empty() const { return events_.empty(); }
    // The events for the next frame, in the order they happened (see above); removed from the queue.
    std::vector<InputEvent> takeFrame();

private:
    std::deque<InputEvent> events_;
};

}  // namespace attnviz::app
