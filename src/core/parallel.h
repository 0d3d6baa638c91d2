// parallel.h — split independent work items (heads, column blocks) across the machine's cores.
//
// Eigen runs one thread per matmul (EIGEN_DONT_PARALLELIZE): at attention sizes its own threading was 3× slower
// than giving each core whole heads. Items must write disjoint memory, so the result never depends on timing.
#pragma once

#include "core/portable.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include <sched.h>

namespace attnviz::core {

// The cores this process may run on: its affinity mask (taskset, a cgroup's cpuset), not every core online. On one
// core a second thread only takes turns with the first and evicts its cached weights.
inline int usableCores() {
    if constexpr (!kThreadsAvailable) return 1;
    static const int cores = [] {
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
        return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    }();
    return cores;
}

// Calls work(i) for i in [0, count), on up to usableCores() threads; serially when `worthThreads` is false (tiny
// problems, where starting threads costs more than the work).
template <typename Work>
void parallelFor(int count, bool worthThreads, Work&& work) {
    const int threads = worthThreads ? std::min(count, usableCores()) : 1;
    if (threads <= 1) {
        for (int i = 0; i < count; ++i) work(i);
        return;
    }
    std::atomic<int> nextItem{0};
    const auto drain = [&] {
        for (int i = nextItem++; i < count; i = nextItem++) work(i);
    };
    std::vector<JoiningThread> helpers;
    helpers.reserve(static_cast<std::size_t>(threads - 1));
    for (int t = 1; t < threads; ++t) helpers.emplace_back(drain);
    drain();
}

}  // namespace attnviz::core
