// rollout.cpp — attention rollout through every layer. See rollout.h.
#include "core/transformer/rollout.h"

namespace attnviz::core {

Tensor attentionRollout(const Tensor& attention, int sentence, int length) {
    const int layers = attention.dim(0), batch = attention.dim(1), heads = attention.dim(2);
    Tensor rollout({layers, length, length});
    Eigen::MatrixXd rolled = Eigen::MatrixXd::Identity(length, length);  // R_{−1} = I
    for (int layer = 0; layer < layers; ++layer) {
        Eigen::MatrixXd mixed = Eigen::MatrixXd::Zero(length, length);  // length × length: ½·mean_h A + ½I
        for (int head = 0; head < heads; ++head) {
            mixed += attention.slice((layer * batch + sentence) * heads + head).topLeftCorner(length, length).cast<double>();
        }
        mixed = 0.5 * mixed / heads + 0.5 * Eigen::MatrixXd::Identity(length, length);
        mixed = (mixed.array().colwise() / mixed.rowwise().sum().array()).matrix();  // rows renormalised
        rolled = mixed * rolled;
        Eigen::Map<Matrix>(rollout.sliceData(layer), length, length) = rolled.cast<float>();
    }
    return rollout;
}

}  // namespace attnviz::core
