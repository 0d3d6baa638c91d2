// widget_label.cpp — widget text shown whole, its id apart. See widget_label.h.
#include "ui/widgets/widget_label.h"

namespace attnviz::ui {

std::string widgetLabel(std::string_view text, std::string_view id) {
    constexpr std::string_view kWordJoiner = "\u2060";
    std::string label;
    label.reserve(text.size() + id.size() + 8);
    for (std::size_t i = 0; i < text.size(); ++i) {
        label += text[i];
        if (text[i] == '#' && i + 1 < text.size() && text[i + 1] == '#') label += kWordJoiner;
    }
    if (!id.empty()) label.append("###").append(id);
    return label;
}

}  // namespace attnviz::ui
