// role_label.h — the words a head's role is printed with: the head roles view's grid cells ("prev", "induct") and the
// model view's caption under each head ("prev 0.93"), both from core's scores (core/head_measures.h), so the two
// views name a head alike. No drawing.
#pragma once

#include "core/head_measures.h"

#include <string>

namespace attnviz::ui {

// The short name a grid cell prints for a role: "prev", "dup", "induct", "sink", "self".
const char* roleShortName(core::HeadRole role);
// A head's strongest role (core::strongestRole) and its score to two decimals: "prev 0.93".
std::string strongestRoleLabel(const core::HeadRoles& roles, int layer, int head);

}  // namespace attnviz::ui
