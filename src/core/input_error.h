// input_error.h — the one error type for input a user can get wrong (a sentence, a setting, a file's contents):
// every layer throws it with one sentence the screen and the command line show as is.
#pragma once

#include "core/display_text.h"  // clipped

#include <stdexcept>
#include <string_view>

namespace attnviz::core {

// Every error a user can cause with bad input. The message is one sentence that says what is wrong and what
// is allowed; callers show it as is.
// Its message is cut to kMaxShownCharacters where it is made: it may quote what it refuses (issue 31).
class InputError : public std::runtime_error {
public:
    explicit InputError(std::string_view message) : std::runtime_error(clipped(message)) {}
};

}  // namespace attnviz::core
