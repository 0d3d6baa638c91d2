// test_names.cpp — core/names.h: every mask kind, fill and softmax mode has one name, and the name reads back.
#include "core/names.h"

#include <doctest/doctest.h>

using namespace attnviz::core;

TEST_CASE("enum names: each value's name reads back to it, and the choices are listed as a sentence") {
    for (const auto& [value, name] : kMaskKindNames) CHECK(valueNamed(nameOf(value), kMaskKindNames) == value);
    for (const auto& [value, name] : kMaskFillNames) CHECK(valueNamed(nameOf(value), kMaskFillNames) == value);
    for (const auto& [value, name] : kSoftmaxModeNames) CHECK(valueNamed(nameOf(value), kSoftmaxModeNames) == value);
    CHECK(nameOf(MaskKind::Causal) == "causal");
    CHECK_FALSE(valueNamed("Causal", kMaskKindNames).has_value());
    CHECK(namesListed(kMaskKindNames) == "none, padding, causal or both");
    CHECK(namesListed(kMaskFillNames) == "-1e9 or -inf");
}
