// model_family.cpp — looking a family up in the table of model_family.h.
#include "core/transformer/model_family.h"

namespace attnviz::core {

const FamilyTraits& familyTraits(ModelFamily layout, std::string_view modelType) {
    if (const FamilyTraits* named = findModelFamily(modelType); named && named->layout == layout) return *named;
    for (const FamilyTraits& family : kModelFamilies) {
        if (family.layout == layout) return family;
    }
    return kModelFamilies.front();
}

std::string openedModelTypes() {
    std::string text;
    for (std::size_t i = 0; i < kModelFamilies.size(); ++i) {
        text += (i == 0 ? "" : i + 1 == kModelFamilies.size() ? " and " : ", ") + std::string(kModelFamilies[i].modelType);
    }
    return text;
}

}  // namespace attnviz::core
