// Where a lite Program's time goes: each node timed through the interpreter's
// NodeObserver (called after every node), the times summed per operator.
//
// A node's time is the clock between the observer call before it (or the start of
// run() for the first node) and its own: its stack's copy, the kernel, and the freeing
// of the previous node's dead values. The clock reads add ~20 ns a node.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "lite/interpreter.h"

namespace sops_bench {

struct OperatorTime {
  std::string op;     // "aten::addmm"
  int64_t nodes = 0;  // how many nodes call it
  double us = 0;      // per run, all its nodes together
};

// Runs `program` `runs` times; the time per run of each node, in us.
inline std::vector<double> profile_nodes(const sops::lite::Program& program,
                                         const std::vector<sops::Tensor>& inputs, int runs) {
  using Clock = std::chrono::steady_clock;
  std::vector<double> node_ns(program.model().nodes.size(), 0.0);
  Clock::time_point last;
  const sops::lite::NodeObserver observer = [&](std::size_t node, const std::vector<sops::Value>&) {
    const Clock::time_point now = Clock::now();
    node_ns[node] += std::chrono::duration<double, std::nano>(now - last).count();
    last = Clock::now();
  };
  for (int r = 0; r < runs; ++r) {
    last = Clock::now();
    program.run(inputs, observer);
  }
  for (double& t : node_ns) t /= 1e3 * runs;
  return node_ns;
}

// The nodes' times (profile_nodes) summed per operator, most first.
inline std::vector<OperatorTime> by_operator(const sops::lite::Model& model,
                                             const std::vector<double>& node_us) {
  std::map<std::string, OperatorTime> by_op;
  for (std::size_t i = 0; i < model.nodes.size(); ++i) {
    const std::string& op = model.operators[model.nodes[i].op];
    OperatorTime& t = by_op[op];
    t.op = op;
    t.nodes += 1;
    t.us += node_us[i];
  }
  std::vector<OperatorTime> out;
  for (auto& [name, t] : by_op) out.push_back(t);
  std::sort(out.begin(), out.end(),
            [](const OperatorTime& a, const OperatorTime& b) { return a.us > b.us; });
  return out;
}

}  // namespace sops_bench
