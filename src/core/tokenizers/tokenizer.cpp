// tokenizer.cpp — what every tokenizer shares. See tokenizer.h.
#include "core/tokenizers/tokenizer.h"

#include <utility>

namespace attnviz::core {

void appendToken(Encoding& encoding, int id, std::string piece, std::string label, bool special) {
    encoding.ids.push_back(id);
    encoding.pieces.push_back(std::move(piece));
    encoding.labels.push_back(std::move(label));
    encoding.special.push_back(special);
}

}  // namespace attnviz::core
