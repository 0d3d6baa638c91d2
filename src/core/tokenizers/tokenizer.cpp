// tokenizer.cpp — what every tokenizer shares. See tokenizer.h.
#include "core/tokenizers/tokenizer.h"

#include <algorithm>
#include <utility>

namespace attnviz::core {

void appendToken(Encoding& encoding, int id, std::string piece, std::string label, bool special) {
    encoding.ids.push_back(id);
    encoding.pieces.push_back(std::move(piece));
    encoding.labels.push_back(std::move(label));
    encoding.special.push_back(special);
}

PaddedBatch padBatch(const std::vector<Encoding>& sentences, int padId) {
    std::size_t length = 0;
    for (const Encoding& e : sentences) length = std::max(length, e.ids.size());
    PaddedBatch batch;
    for (const Encoding& e : sentences) {
        std::vector<int> ids = e.ids, mask(e.ids.size(), 1);
        ids.resize(length, padId);
        mask.resize(length, 0);
        batch.ids.push_back(std::move(ids));
        batch.attentionMask.push_back(std::move(mask));
    }
    return batch;
}

}  // namespace attnviz::core
