// test_gemm.cpp — core::gemm (whatever ATTNVIZ_GEMM chose) against Eigen's GEMM, normwise: for every shape,
// max |C − C_Eigen| ≤ 1e-5 · max |A| · max |B| · k, the bound of float products summed in another order. Odd shapes
// on purpose: one row or column, k = 1, sizes that are no multiple of any kernel's blocks, operands with a row
// stride wider than their width (columns of a fused buffer) and B stored transposed (nn.Linear's out × in).
#include "core/gemm.h"

#include <doctest/doctest.h>

#include <random>

using namespace attnviz::core;

namespace {

// Values in [−2, 2) from a fixed seed: a fixed input, not a random test.
Matrix filled(Eigen::Index rows, Eigen::Index cols, unsigned seed) {
    std::mt19937 engine(seed);
    std::uniform_real_distribution<float> value(-2.0f, 2.0f);
    Matrix m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = value(engine);
    return m;
}

// gemm and gemmEigen on the same operands; the largest difference ÷ the bound.
double errorOverBound(const GemmInput& a, const GemmInput& b, BLayout layout) {
    const Eigen::Index n = layout == BLayout::Transposed ? b.rows() : b.cols();
    Matrix c = Matrix::Constant(a.rows(), n, 1e30f), reference(a.rows(), n);  // gemm must overwrite every element
    gemm(a, b, layout, c);
    gemmEigen(a, b, layout, reference);
    const double bound = 1e-5 * a.cwiseAbs().maxCoeff() * b.cwiseAbs().maxCoeff() * static_cast<double>(a.cols());
    return (c - reference).cwiseAbs().maxCoeff() / bound;
}

struct Shape {
    Eigen::Index m, k, n;
};

}  // namespace

TEST_CASE("gemm equals Eigen's GEMM within float reordering, on odd shapes and both layouts of B") {
    INFO("implementation: " << gemmImplementation());
    const Shape shapes[] = {{1, 1, 1}, {1, 384, 1536}, {42, 384, 1}, {7, 1, 9}, {42, 384, 1536}, {17, 33, 65}, {64, 130, 257},
                            {129, 63, 31}, {3, 1000, 5}};
    for (const Shape& s : shapes) {
        CAPTURE(s.m);
        CAPTURE(s.k);
        CAPTURE(s.n);
        const Matrix a = filled(s.m, s.k, 1), inByOut = filled(s.k, s.n, 2);
        const Matrix outByIn = inByOut.transpose();
        CHECK(errorOverBound(a, inByOut, BLayout::AsStored) <= 1.0);
        CHECK(errorOverBound(a, outByIn, BLayout::Transposed) <= 1.0);
    }
}

TEST_CASE("gemm reads operands and writes results with a row stride wider than their width") {
    // A: columns 5 … 5+k−1 of a 37 × 80 buffer; B: columns 3 … of a k × 90 buffer (AsStored) or rows of n × 70
    // (Transposed); C: columns 11 … 11+n−1 of a wider buffer, whose other columns must stay untouched.
    const Eigen::Index m = 37, k = 50, n = 29;
    const Matrix bufferA = filled(m, 80, 3), bufferB = filled(k, 90, 4), bufferBt = filled(n, 70, 5);
    const auto a = bufferA.middleCols(5, k);
    for (const BLayout layout : {BLayout::AsStored, BLayout::Transposed}) {
        CAPTURE(static_cast<int>(layout));
        const GemmInput b = layout == BLayout::AsStored ? GemmInput(bufferB.middleCols(3, n)) : GemmInput(bufferBt.middleCols(7, k));
        Matrix wide = Matrix::Constant(m, 64, 7.0f), reference(m, n);
        gemm(a, b, layout, wide.middleCols(11, n));
        gemmEigen(a, b, layout, reference);
        const double bound = 1e-5 * a.cwiseAbs().maxCoeff() * b.cwiseAbs().maxCoeff() * static_cast<double>(k);
        CHECK((wide.middleCols(11, n) - reference).cwiseAbs().maxCoeff() <= bound);
        CHECK((wide.leftCols(11).array() == 7.0f).all());
        CHECK((wide.rightCols(64 - 11 - n).array() == 7.0f).all());
    }
}
