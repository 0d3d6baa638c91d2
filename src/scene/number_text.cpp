// number_text.cpp — compact number formatting for figures. See number_text.h.
#include "scene/number_text.h"

#include <cmath>
#include <cstdio>

namespace attnviz::scene {
namespace {

constexpr const char* kMinus = "\u2212";

std::string printed(const char* format, double value, int precision) {
    char text[48];
    std::snprintf(text, sizeof text, format, precision, value);
    return text;
}

// "-1e+09" → "−1e9", "2.5e-05" → "2.5e−5", "-0.00" → "0.00", and '-' → '−'.
std::string tidy(std::string text) {
    if (const std::size_t e = text.find('e'); e != std::string::npos) {
        std::string exponent = text.substr(e + 1);
        const bool negative = !exponent.empty() && exponent[0] == '-';
        if (!exponent.empty() && (exponent[0] == '-' || exponent[0] == '+')) exponent.erase(0, 1);
        while (exponent.size() > 1 && exponent[0] == '0') exponent.erase(0, 1);
        text = text.substr(0, e) + "e" + (negative ? "-" : "") + exponent;
    }
    if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
    std::string result;
    for (char c : text) {
        if (c == '-') {
            result += kMinus;
        } else {
            result += c;
        }
    }
    return result;
}

// "0.50" → "0.5", "1.0" → "1", "-0.0" → "-0": a tick's label depends on its value, not on its bar's step.
std::string withoutTrailingZeros(std::string text) {
    if (text.find('.') == std::string::npos) return text;
    while (text.back() == '0') text.pop_back();
    if (text.back() == '.') text.pop_back();
    return text;
}

std::string special(float value) {
    if (std::isnan(value)) return "NaN";
    return value > 0 ? "\u221E" : std::string(kMinus) + "\u221E";
}

}  // namespace

std::string formatCellValue(float value) {
    if (!std::isfinite(value)) return special(value);
    const double magnitude = std::fabs(value);
    if (magnitude >= 1e4) return tidy(printed("%.*e", value, 0));
    if (magnitude >= 100) return tidy(printed("%.*f", value, 0));
    if (magnitude >= 10) return tidy(printed("%.*f", value, 1));
    return tidy(printed("%.*f", value, 2));
}

std::string formatTick(float value, float step) {
    if (!std::isfinite(value)) return special(value);
    if (std::fabs(value) >= 1e5f) return tidy(printed("%.*g", value, 2));
    int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-6)));
    const float mantissa = step / std::pow(10.0f, -static_cast<float>(decimals));
    if (std::fabs(mantissa - std::round(mantissa)) > 1e-3f) ++decimals;  // 0.25 needs two decimals
    return tidy(withoutTrailingZeros(printed("%.*f", value, decimals)));
}

std::string formatRangeEnd(float value) {
    if (!std::isfinite(value)) return special(value);
    return tidy(printed("%.*g", value, 3));
}

float niceStep(float span, int count) {
    if (!(span > 0.0f) || count <= 0) return 1.0f;
    const float rough = span / static_cast<float>(count);
    const float power = std::pow(10.0f, std::floor(std::log10(rough)));
    const float fraction = rough / power;
    const float nice = fraction < 1.5f ? 1.0f : fraction < 3.5f ? 2.0f : fraction < 7.5f ? 5.0f : 10.0f;
    return nice * power;
}

}  // namespace attnviz::scene
