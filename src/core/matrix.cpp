// matrix.cpp — Tensor bookkeeping: sizes, slices and shape strings. No arithmetic lives here.
#include "core/matrix.h"

#include <numeric>
#include <stdexcept>

namespace attnviz::core {

Tensor::Tensor(std::vector<int> shape_) : shape(std::move(shape_)) {
    std::size_t count = 1;
    for (int extent : shape) count *= static_cast<std::size_t>(extent);
    data.assign(count, 0.0f);
}

void Tensor::reshape(std::vector<int> newShape) {
    std::size_t count = 1;
    for (int extent : newShape) count *= static_cast<std::size_t>(extent);
    shape = std::move(newShape);
    data.resize(count);
}

int Tensor::sliceCount() const {
    int count = 1;
    for (int axis = 0; axis + 2 < rank(); ++axis) count *= shape[static_cast<std::size_t>(axis)];
    return count;
}

MatrixView Tensor::slice(int flatIndex) const {
    if (flatIndex < 0 || flatIndex >= sliceCount()) throw std::out_of_range("Tensor::slice: index out of range");
    const std::size_t offset = static_cast<std::size_t>(flatIndex) * rows() * cols();
    if (data.size() < offset + static_cast<std::size_t>(rows()) * cols()) {
        throw std::logic_error("Tensor::slice: the tensor has a shape but no data (a derived map: use core::mapSlice)");
    }
    return MatrixView(data.data() + offset, rows(), cols());
}

float* Tensor::sliceData(int flatIndex) {
    if (flatIndex < 0 || flatIndex >= sliceCount()) throw std::out_of_range("Tensor::sliceData: index out of range");
    return data.data() + static_cast<std::size_t>(flatIndex) * rows() * cols();
}

MatrixView Tensor::slice(int batch, int head) const {
    if (rank() <= 2) return slice(0);
    const int batches = shape[0];
    const int b = batches == 1 ? 0 : batch;
    if (rank() == 3) return slice(b);
    const int heads = shape[1];
    const int h = heads == 1 ? 0 : head;
    return slice(b * heads + h);
}

std::string Tensor::shapeString() const {
    std::string text;
    for (std::size_t axis = 0; axis < shape.size(); ++axis) {
        if (axis > 0) text += " × ";
        text += std::to_string(shape[axis]);
    }
    return text;
}

}  // namespace attnviz::core
