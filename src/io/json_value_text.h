// json_value_text.h — a JSON value from a file, as an error message may quote it. Internal to src/io (the only
// layer that parses files): no message ever dump()s a value from a file, since a value nested 10^5 deep makes
// dump() recurse until the stack ends, and a string would carry its escape sequences and megabytes into the message.
#pragma once

#include "core/display_text.h"  // echoed

#include <nlohmann/json.hpp>

#include <string>

namespace attnviz::io {

// "\"text\"" (cut and escaped by core::echoed), "42", "1.5e+20", "true", "null", "a list of 3", "an object".
inline std::string quotedJsonValue(const nlohmann::json& value) {
    if (value.is_string()) return "\"" + core::echoed(value.get_ref<const std::string&>()) + "\"";
    if (value.is_number_unsigned()) return std::to_string(value.get<std::uint64_t>());
    if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
    if (value.is_number_float()) return value.dump();  // a number: nothing to recurse into or escape
    if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
    if (value.is_null()) return "null";
    if (value.is_array()) return "a list of " + std::to_string(value.size());
    return "an object";
}

}  // namespace attnviz::io
