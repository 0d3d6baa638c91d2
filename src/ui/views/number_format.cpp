// number_format.cpp — cell and inspector number formats. See number_format.h.
#include "ui/views/number_format.h"

#include <cmath>
#include <cstdio>

namespace attnviz::ui {
namespace {

std::string printf1(const char* format, double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, format, value);
    return buffer;
}

// Returns the text for NaN and ±inf, or an empty string for finite values.
std::string special(float value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "+∞" : "−∞";
    return {};
}

// "-1e+09" → "-1e9": shorter, and how the mask fill is written in the PyTorch line.
std::string compactExponent(std::string text) {
    const std::size_t e = text.find('e');
    if (e == std::string::npos) return text;
    std::size_t digits = e + 1;
    const bool negative = digits < text.size() && text[digits] == '-';
    if (digits < text.size() && (text[digits] == '+' || text[digits] == '-')) ++digits;
    while (digits + 1 < text.size() && text[digits] == '0') ++digits;
    return text.substr(0, e + 1) + (negative ? "-" : "") + text.substr(digits);
}

}  // namespace

std::string formatCell(float value) {
    if (const std::string s = special(value); !s.empty()) return s;
    const float magnitude = std::fabs(value);
    if (magnitude >= 1000.0f) return compactExponent(printf1("%.0e", value));
    if (magnitude >= 100.0f) return printf1("%.0f", value);
    if (magnitude >= 10.0f) return printf1("%.1f", value);
    const std::string text = printf1("%.2f", value);
    return text == "-0.00" ? "0.00" : text;
}

std::string formatProbabilityCell(float value) {
    if (const std::string s = special(value); !s.empty()) return s;
    if (value >= 0.995f) return "1";
    const std::string text = printf1("%.2f", value);  // "0.12" → ".12"
    return text.rfind("0.", 0) == 0 ? text.substr(1) : text;
}

std::string formatValue(float value) {
    if (const std::string s = special(value); !s.empty()) return s;
    if (value != 0.0f && (std::fabs(value) >= 1e5f || std::fabs(value) < 1e-3f)) return compactExponent(printf1("%.3g", value));
    return printf1("%.4g", value);
}

}  // namespace attnviz::ui
