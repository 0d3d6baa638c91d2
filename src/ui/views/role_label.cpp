// role_label.cpp — a head role's short name and a head's strongest role as a caption. See role_label.h.
#include "ui/views/role_label.h"

#include <cstdio>

namespace attnviz::ui {

const char* roleShortName(core::HeadRole role) {
    switch (role) {
        case core::HeadRole::PreviousToken: return "prev";
        case core::HeadRole::DuplicateToken: return "dup";
        case core::HeadRole::Induction: return "induct";
        case core::HeadRole::FirstToken: return "sink";
        case core::HeadRole::Self: return "self";
    }
    return "";
}

std::string strongestRoleLabel(const core::HeadRoles& roles, int layer, int head) {
    const core::HeadRole role = core::strongestRole(roles, layer, head);
    char score[16];
    std::snprintf(score, sizeof score, " %.2f", static_cast<double>(roles.scores[static_cast<std::size_t>(role)](layer, head)));
    return roleShortName(role) + std::string(score);
}

}  // namespace attnviz::ui
