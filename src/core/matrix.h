// matrix.h — the storage types every layer of attnviz shares.
//
// Storage order is explicit: everything is ROW-MAJOR (C order), like NumPy arrays, GL textures and PNG rows,
// so a matrix's bytes can go to a .npy file, a texture upload or a raster without transposing. Eigen's default
// is column-major; never use plain Eigen::MatrixXf for data that leaves a function.
#pragma once

#include <Eigen/Core>
#include <Eigen/StdVector>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace attnviz::core {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVector = Eigen::Matrix<float, 1, Eigen::Dynamic, Eigen::RowMajor>;
using MatrixView = Eigen::Map<const Matrix>;

// Tensor storage is aligned to Eigen's widest vector (64 bytes), so vectorised loops split a row into the
// same head/body/tail on every run: without it, results varied in the last bit with the heap address.
// Growing it leaves new floats uninitialised (Tensor::reshape), because the forward pass overwrites every
// element and zero-filling 100 MB of score maps first cost a third of its time.
template <typename T>
struct UninitialisedAlignedAllocator : Eigen::aligned_allocator<T> {
    template <typename U>
    struct rebind {
        using other = UninitialisedAlignedAllocator<U>;
    };
    UninitialisedAlignedAllocator() = default;
    template <typename U>
    UninitialisedAlignedAllocator(const UninitialisedAlignedAllocator<U>&) noexcept {}
    template <typename U>
    void construct(U* p) noexcept { ::new (static_cast<void*>(p)) U; }
    template <typename U, typename... Args>
    void construct(U* p, Args&&... args) { ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...); }
};
using FloatBuffer = std::vector<float, UninitialisedAlignedAllocator<float>>;

// An n-dimensional float array in C order with PyTorch's shapes (e.g. b × h × l × d_k).
// The last two dimensions are a matrix; the leading ones index batch and head.
struct Tensor {
    std::vector<int> shape;
    FloatBuffer data;  // size == product of shape, row-major

    Tensor() = default;
    explicit Tensor(std::vector<int> shape_);  // zero-filled

    // Gives the tensor a new shape, keeping its buffer when large enough (no allocation, no page faults).
    // New contents are unspecified: for outputs that are overwritten in full.
    void reshape(std::vector<int> newShape);

    int rank() const { return static_cast<int>(shape.size()); }
    int dim(int axis) const { return shape.at(static_cast<std::size_t>(axis < 0 ? rank() + axis : axis)); }
    std::size_t size() const { return data.size(); }
    bool empty() const { return data.empty(); }

    int rows() const { return rank() >= 2 ? dim(-2) : 1; }
    int cols() const { return rank() >= 1 ? dim(-1) : 1; }
    // Number of (rows × cols) slices: the product of the leading dimensions (b·h for b × h × l × d_k).
    int sliceCount() const;

    // The matrix slice at a flat leading index (for b × h × l × l: slice = batch·h + head).
    MatrixView slice(int flatIndex) const;
    float* sliceData(int flatIndex);
    // Slice for (batch, head) of a rank-4 tensor, or (batch) of a rank-3 one (head ignored), where a leading
    // dimension of 1 broadcasts (a b×1×1×l padding mask gives the same slice for every head).
    MatrixView slice(int batch, int head) const;

    std::string shapeString() const;  // "2 × 8 × 11 × 64"
};

}  // namespace attnviz::core
