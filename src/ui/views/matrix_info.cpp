// matrix_info.cpp — names, shapes, axes and slices of on-screen matrices. See matrix_info.h.
#include "ui/views/matrix_info.h"

#include "core/derived_maps.h"
#include "core/display_text.h"

namespace attnviz::ui {
namespace {

using core::TensorId;

std::string baseName(TensorId tensor, int head) {
    const std::string i = subscript(head);
    switch (tensor) {
        case TensorId::X: return "X";
        case TensorId::XQuery: return "X_dec";
        case TensorId::WQ: return "W^Q";
        case TensorId::WK: return "W^K";
        case TensorId::WV: return "W^V";
        case TensorId::WO: return "W^O";
        case TensorId::Q: return "Q";
        case TensorId::K: return "K";
        case TensorId::V: return "V";
        case TensorId::QHeads: return "Q" + i;
        case TensorId::KHeads: return "K" + i;
        case TensorId::VHeads: return "V" + i;
        case TensorId::Scores: return "S" + i;
        case TensorId::ScaledScores: return "S" + i + " / √d_k";
        case TensorId::Mask: return "mask";
        case TensorId::MaskedScores: return "S" + i + " masked";
        case TensorId::AttentionWeights: return "A" + i;
        case TensorId::ZHeads: return "Z" + i;
        case TensorId::Concat: return "Z";
        case TensorId::Output: return "O";
        case TensorId::QHeadsBeforeRope: return "Q" + i + " before RoPE";
        case TensorId::KHeadsBeforeRope: return "K" + i + " before RoPE";
        case TensorId::Count: break;
    }
    return "?";
}

// "b × h × l × d_k" → "l × d_k": the matrix is the last two factors.
std::string lastTwoFactors(const std::string& shape) {
    const std::string times = " × ";
    const std::size_t last = shape.rfind(times);
    if (last == std::string::npos) return shape;
    const std::size_t before = shape.rfind(times, last - 1);
    return before == std::string::npos ? shape : shape.substr(before + times.size());
}

render::MatrixSlice sliceOf(const core::MatrixView& view) {
    return {std::span<const float>(view.data(), static_cast<std::size_t>(view.size())), static_cast<int>(view.rows()),
            static_cast<int>(view.cols()), nullptr};
}

render::MatrixSlice sliceOf(core::MapSlice slice) {
    const std::size_t size = static_cast<std::size_t>(slice.rows) * slice.cols;
    return {std::span<const float>(slice.data, size), slice.rows, slice.cols, std::move(slice.owner)};
}

void setHeadBlocks(MatrixInfo& info, TensorId tensor, const core::Dimensions& d) {
    switch (tensor) {
        case TensorId::WQ: case TensorId::WK: case TensorId::Q: case TensorId::K: info.headBlockCols = d.dK; break;
        case TensorId::WV: case TensorId::V: case TensorId::Concat: info.headBlockCols = d.dV; break;
        case TensorId::WO: info.headBlockRows = d.dV; break;
        default: break;
    }
    if (d.heads <= 1) info.headBlockCols = info.headBlockRows = 0;
}

MatrixInfo traceMatrix(const core::ModelRun& run, const MatrixRef& ref) {
    const core::Trace& trace = run.trace;
    const core::Tensor& tensor = trace[ref.tensor];
    MatrixInfo info;
    info.rows = tensor.rows();  // Tensor::slice(batch, head) is the last two dimensions
    info.cols = tensor.cols();
    const core::TensorAxes axes = core::tensorAxes(ref.tensor, trace);
    info.rowAxis = axes.rows;
    info.colAxis = axes.cols;
    info.name = baseName(ref.tensor, ref.head);
    info.tensorShape = core::symbolicShape(ref.tensor, trace);
    info.paperShape = lastTwoFactors(info.tensorShape);
    info.numericShape = tensor.shapeString();
    info.probability = core::tensorInfo(ref.tensor).probability;
    setHeadBlocks(info, ref.tensor, trace.dims);
    return info;
}

// A question view's matrix: it says its own name, shapes and axes.
MatrixInfo computedMatrix(const scene::Computed& computed) {
    MatrixInfo info;
    info.rows = static_cast<int>(computed.values.rows());
    info.cols = static_cast<int>(computed.values.cols());
    info.rowAxis = computed.rowAxis;
    info.colAxis = computed.colAxis;
    info.name = computed.name;
    info.paperShape = computed.paperShape;
    info.tensorShape = computed.tensorShape.empty() ? computed.paperShape : computed.tensorShape;
    info.numericShape = computed.numericShape.empty() ? std::to_string(info.rows) + " × " + std::to_string(info.cols) : computed.numericShape;
    info.probability = computed.probability;
    info.tokenLabels = computed.tokenLabels;
    return info;
}

}  // namespace

bool hasMatrix(const core::ModelRun& run, const MatrixRef& ref) {
    switch (ref.source) {
        case MatrixSource::TokenEmbeddings: return !run.embeddings.empty();
        case MatrixSource::Positions: return !run.positions.empty();
        case MatrixSource::Computed: return ref.computed && ref.computed->values.size() > 0;
        case MatrixSource::Trace: {
            // A reference kept from an earlier run (a pinned cell) may name a head this run no longer has.
            const core::Tensor& tensor = run.trace[ref.tensor];
            // K_i and V_i are named by query head (grouped-query attention shares each K/V head among several).
            const bool keyValue = ref.tensor == TensorId::KHeads || ref.tensor == TensorId::VHeads || ref.tensor == TensorId::KHeadsBeforeRope;
            // A broadcast map (the mask: b × 1 × l × l) serves every query head of the run, and no more.
            const bool broadcast = !keyValue && tensor.rank() == 4 && tensor.dim(1) == 1 && run.trace.dims.heads > 1;
            const int heads = keyValue || broadcast ? run.trace.dims.heads : tensor.rank() < 4 ? 0 : tensor.dim(1);
            const bool headExists = tensor.rank() < 4 || (ref.head >= 0 && ref.head < heads);
            return run.trace.has(ref.tensor) && headExists;
        }
    }
    return false;
}

render::MatrixSlice matrixSlice(const core::ModelRun& run, const MatrixRef& ref, int batch) {
    switch (ref.source) {
        case MatrixSource::Trace: return sliceOf(core::mapSlice(run.trace, ref.tensor, batch, ref.head));
        case MatrixSource::TokenEmbeddings: return sliceOf(run.embeddings.slice(batch));
        case MatrixSource::Computed: return sliceOf(core::MatrixView(ref.computed->values.data(), ref.computed->values.rows(), ref.computed->values.cols()));
        case MatrixSource::Positions: break;
    }
    // PE has a row per position of the longest sentence; show the positions X uses.
    const int rows = run.trace.keyLength, cols = run.positions.cols();
    return {std::span<const float>(run.positions.data.data(), static_cast<std::size_t>(rows) * cols), rows, cols};
}

MatrixInfo matrixInfo(const core::ModelRun& run, const MatrixRef& ref, int batch) {
    if (ref.source == MatrixSource::Trace) return traceMatrix(run, ref);
    if (ref.source == MatrixSource::Computed) return computedMatrix(*ref.computed);
    MatrixInfo info;
    const render::MatrixSlice slice = matrixSlice(run, ref, batch);  // a view: embeddings and positions are stored
    info.rows = slice.rows;
    info.cols = slice.cols;
    info.rowAxis = Axis::KeyTokens;
    info.colAxis = Axis::Features;
    info.paperShape = "l × d_model";
    if (ref.source == MatrixSource::TokenEmbeddings) {
        info.name = "E[ids]";
        info.tensorShape = "b × l × d_model";
        info.numericShape = run.embeddings.shapeString();
    } else {
        info.name = "PE";
        info.tensorShape = "l × d_model";
        info.numericShape = std::to_string(info.rows) + " × " + std::to_string(info.cols);
    }
    return info;
}

std::string axisLabel(const core::ModelRun& run, Axis axis, int batch, int index) {
    if (axis == Axis::Features) return std::to_string(index);
    if (axis == Axis::Broadcast) return "every query";
    const auto& tokens = axis == Axis::QueryTokens ? run.queryTokens : run.tokens;
    const auto& sentence = tokens.at(static_cast<std::size_t>(batch));
    return index < static_cast<int>(sentence.size()) ? core::labelText(sentence[static_cast<std::size_t>(index)]) : "<pad>";
}

render::TextureKey textureKey(const MatrixRef& ref, int batch, bool transposed, bool isMask, bool rowNormalised) {
    using Key = render::TextureKey;
    Key key;
    key.batch = batch;
    key.head = ref.head;
    key.transposed = transposed;
    key.content = isMask ? Key::Content::Mask : rowNormalised ? Key::Content::RowNormalised : Key::Content::Values;
    switch (ref.source) {
        case MatrixSource::Trace: key.source = Key::Source::Trace, key.tensor = static_cast<int>(ref.tensor); break;
        case MatrixSource::TokenEmbeddings: key.source = Key::Source::TokenEmbeddings; break;
        case MatrixSource::Positions: key.source = Key::Source::Positions; break;
        case MatrixSource::Computed: {
            const scene::Computed::Identity& id = ref.computed->identity;
            key.source = Key::Source::Question;
            key.owner = id.owner;
            key.tensor = id.matrix;
            key.head = id.head;
            key.variant = id.variant;
            key.batch = id.batch;
            break;
        }
    }
    return key;
}

core::TensorId rangeTensor(const MatrixRef& ref) {
    return ref.source == MatrixSource::Trace ? ref.tensor : TensorId::X;
}

}  // namespace attnviz::ui
