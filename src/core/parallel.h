// parallel.h — split independent work items (heads, column blocks) across the machine's cores.
//
// Eigen runs one thread per matmul (EIGEN_DONT_PARALLELIZE): at attention sizes its own threading was 3× slower
// than giving each core whole heads. Items must write disjoint memory, so the result never depends on timing.
#pragma once

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace attnviz::core {

// Calls work(i) for i in [0, count), on up to hardware_concurrency threads; serially when `worthThreads`
// is false (tiny problems, where starting threads costs more than the work).
template <typename Work>
void parallelFor(int count, bool worthThreads, Work&& work) {
    const int threads = worthThreads ? std::min<int>(count, static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))) : 1;
    if (threads <= 1) {
        for (int i = 0; i < count; ++i) work(i);
        return;
    }
    std::atomic<int> nextItem{0};
    const auto drain = [&] {
        for (int i = nextItem++; i < count; i = nextItem++) work(i);
    };
    std::vector<std::jthread> helpers;
    helpers.reserve(static_cast<std::size_t>(threads - 1));
    for (int t = 1; t < threads; ++t) helpers.emplace_back(drain);
    drain();
}

}  // namespace attnviz::core
