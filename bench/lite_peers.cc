// Section 5 of //bench:lite_bench (lite_peers.h): ours against ExecuTorch and ONNX Runtime.
//
// Per model: every runtime with a model file loads it in this process and runs once, and
// its outputs are compared with ours (max |peer - ours| over all outputs; ours against
// eager PyTorch's expected0.npy). Then interleaved rounds: in each, every runtime takes
// one sample, the mean of as many back-to-back calls as fill >= 50 ms (one call when a
// call takes longer), so that noise hits them alike; the median and the min-max over
// the rounds are reported. Last, for load time and memory, each runtime's own child
// binary (peer_child.cc) is spawned --children times: a fresh process that loads the
// model (timed), runs it once (timed: the first run) and reports VmHWM, its peak
// resident memory; the medians of the children are reported.
#include "bench/lite_peers.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/host_array.h"
#include "bench/peer_runtime.h"
#include "bench/process_timing.h"
#include "bench/timing.h"

namespace sops_bench {
namespace {

// A column of the table: a runtime and the model file it reads in a model's folder.
struct Column {
  const char* name;
  const char* file;  // in models/NAME (ours only) or PEER_MODELS/NAME
  std::function<std::unique_ptr<LoadedModel>(const std::string&, const std::vector<HostArray>&,
                                             int)>
      load;
  const std::string* child;  // the child binary (peer_child.cc) of this runtime
  bool built_in;
};

struct Result {
  bool ran = false;
  std::string note;  // why it did not run, or a mismatch
  double median_us = 0, min_us = 0, max_us = 0;
  double load_ms = -1, first_run_ms = -1, floor_mib = -1, peak_mib = -1;
  double diff = 0;  // max |outputs - ours'|
};

bool exists(const std::string& path) { return std::ifstream(path).good(); }

// The folder that holds `file` for model `name`: models/NAME first, then the peers' folder.
std::string find_file(const std::string& name, const std::string& file, const std::string& peers) {
  if (exists("models/" + name + "/" + file)) return "models/" + name + "/" + file;
  if (!peers.empty() && exists(peers + "/" + name + "/" + file)) {
    return peers + "/" + name + "/" + file;
  }
  return "";
}

// input0.npy, input1.npy, ... beside ours' model file.
std::vector<std::string> input_files(const std::string& folder) {
  std::vector<std::string> files;
  for (int k = 0; exists(folder + "/input" + std::to_string(k) + ".npy"); ++k) {
    files.push_back(folder + "/input" + std::to_string(k) + ".npy");
  }
  return files;
}

// The first line of PEER_MODELS/NAME/FILE.failed (the export script's reason), or "".
std::string export_failure(const std::string& peers, const std::string& name,
                           const std::string& file) {
  std::ifstream in(peers + "/" + name + "/" + file + ".failed");
  std::string line;
  if (in && std::getline(in, line)) return line;
  return "";
}

// Max |a - b| over all outputs, infinity when their counts or sizes differ; `scale` gets
// max |b| (for a relative tolerance).
double max_abs_diff(const std::vector<HostArray>& a, const std::vector<HostArray>& b,
                    double* scale) {
  *scale = 0;
  if (a.size() != b.size()) return INFINITY;
  double m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].numel() != b[i].numel()) return INFINITY;
    const std::vector<double> x = host_values(a[i]), y = host_values(b[i]);
    for (std::size_t k = 0; k < x.size(); ++k) {
      m = std::max(m, std::fabs(x[k] - y[k]));
      *scale = std::max(*scale, std::fabs(y[k]));
    }
  }
  return m;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// Calls per sample: as many as fill about 50 ms, after a first timed call (the warm-up).
int64_t calls_per_sample(LoadedModel& m, double* one_call_ms) {
  const auto start = std::chrono::steady_clock::now();
  m.run();
  *one_call_ms = ms_since(start);
  if (*one_call_ms >= 50) return 1;
  int64_t calls = 0;
  const auto again = std::chrono::steady_clock::now();
  while (calls < 3 || ms_since(again) < 50) {
    m.run();
    ++calls;
  }
  return std::max<int64_t>(1, static_cast<int64_t>(std::ceil(50.0 * calls / ms_since(again))));
}

double median_of(std::vector<double> v) { return median(std::move(v)); }

// Load time, first run and memory from `children` fresh processes of `child`.
void measure_children(const std::string& child, const std::string& model_file,
                      const std::vector<std::string>& inputs, int threads, int64_t children,
                      const TempDir& tmp, Result* r) {
  std::vector<double> load, first, floor, peak;
  const std::string result = tmp.path() + "/child.txt", err = tmp.path() + "/child_err.txt";
  for (int64_t k = 0; k < children; ++k) {
    std::vector<std::string> argv = {child, model_file, result, std::to_string(threads), "1"};
    argv.insert(argv.end(), inputs.begin(), inputs.end());
    const ProcessRun run = spawn_and_wait(argv, err);
    std::ifstream in(result);
    double l = 0, f = 0, before = 0, hwm = 0;
    std::string line;
    if (run.exit_code != 0 || !std::getline(in, line) ||
        std::sscanf(line.c_str(), "load_us=%lf first_run_us=%lf rss_before_kib=%lf hwm_kib=%lf", &l,
                    &f, &before, &hwm) != 4) {
      std::ifstream e(err);
      std::string why;
      std::getline(e, why);
      r->note += " (child failed: " + why + ")";
      return;
    }
    std::remove(result.c_str());
    load.push_back(l / 1e3);
    first.push_back(f / 1e3);
    floor.push_back(before / 1024);
    peak.push_back(hwm / 1024);
  }
  if (load.empty()) return;
  r->load_ms = median_of(load);
  r->first_run_ms = median_of(first);
  r->floor_mib = median_of(floor);
  r->peak_mib = median_of(peak);
}

// A figure as the tables print it: one decimal below 100, else whole, with thousands
// separators ("1,943,936").
std::string us_text(double us) {
  char buf[32];
  if (us < 100) {
    std::snprintf(buf, sizeof buf, "%.1f", us);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.0f", us);
  std::string digits = buf, out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// One model: returns its results by column, or an empty vector when it cannot run.
std::vector<Result> bench_model(const std::string& name, const std::vector<Column>& columns,
                                const PeerBenchOptions& o, const TempDir& tmp, bool* ok) {
  *ok = true;
  const std::string sopsm = find_file(name, "model.sopsm", o.peer_models);
  if (sopsm.empty()) {
    std::printf("  %-14s skipped: no model.sopsm in models/%s%s%s\n", name.c_str(), name.c_str(),
                o.peer_models.empty() ? "" : " or ",
                o.peer_models.empty() ? " (give --peer-models=DIR, made by "
                                        "bench/peers/export_peer_models.py)"
                                      : (o.peer_models + "/" + name).c_str());
    return {};
  }
  const std::string folder = sopsm.substr(0, sopsm.rfind('/'));
  const std::vector<std::string> input_paths = input_files(folder);
  std::vector<HostArray> inputs;
  for (const std::string& p : input_paths) inputs.push_back(read_npy_host(p));

  std::vector<Result> results(columns.size());
  std::vector<std::unique_ptr<LoadedModel>> loaded(columns.size());
  std::vector<std::string> files(columns.size());
  std::vector<HostArray> ours_out;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    Result& r = results[c];
    if (!columns[c].built_in) {
      r.note = "not built in";
      continue;
    }
    files[c] =
        c == 0 ? sopsm
               : (o.peer_models.empty() ? "" : o.peer_models + "/" + name + "/" + columns[c].file);
    if (files[c].empty() || !exists(files[c])) {
      const std::string why =
          o.peer_models.empty() ? "" : export_failure(o.peer_models, name, columns[c].file);
      r.note = why.empty() ? std::string("no ") + columns[c].file : "export failed: " + why;
      continue;
    }
    try {
      loaded[c] = columns[c].load(files[c], inputs, o.threads);
      loaded[c]->run();
      const std::vector<HostArray> out = loaded[c]->outputs();
      if (c == 0) {
        ours_out = out;
        const std::string expected = folder + "/expected0.npy";
        if (exists(expected)) {
          double scale = 0;
          r.diff = max_abs_diff({out.at(0)}, {read_npy_host(expected)}, &scale);
        }
      } else {
        double scale = 0;
        r.diff = max_abs_diff(out, ours_out, &scale);
      }
    } catch (const std::exception& e) {
      r.note = std::string("failed: ") + e.what();
      loaded[c].reset();
      continue;
    }
    r.ran = true;
  }

  // Interleaved rounds over the runtimes that loaded.
  std::vector<int64_t> calls(columns.size(), 0), wanted(columns.size(), 0);
  std::vector<std::vector<double>> samples(columns.size());
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (!loaded[c]) continue;
    double one_ms = 0;
    calls[c] = calls_per_sample(*loaded[c], &one_ms);
    wanted[c] = one_ms > 1000 ? std::min<int64_t>(o.rounds, 3) : o.rounds;
  }
  for (int64_t round = 0; round < o.rounds; ++round) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      if (!loaded[c] || round >= wanted[c]) continue;
      // At 2+ threads a runtime's idle threads spin for a while after its last call.
      if (o.threads > 1) std::this_thread::sleep_for(std::chrono::milliseconds(50));
      LoadedModel& m = *loaded[c];
      samples[c].push_back(ns_per_call(calls[c], [&] { m.run(); }) / 1e3);
    }
  }
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (samples[c].empty()) continue;
    Result& r = results[c];
    r.median_us = median(samples[c]);
    r.min_us = *std::min_element(samples[c].begin(), samples[c].end());
    r.max_us = *std::max_element(samples[c].begin(), samples[c].end());
    loaded[c].reset();  // its memory back before the children run
    measure_children(*columns[c].child, files[c], input_paths, o.threads,
                     wanted[c] < o.rounds ? 1 : o.children, tmp, &r);
  }

  // The model's block: one line per runtime.
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const Result& r = results[c];
    std::printf("  %-14s %-12s", c == 0 ? name.c_str() : "", columns[c].name);
    if (!r.ran) {
      std::printf(" %s\n", r.note.c_str());
      continue;
    }
    // Outputs within 1e-3 of ours relative to the larger of 1 and ours' largest value.
    double scale = 1;
    for (const HostArray& a : ours_out) {
      for (double v : host_values(a)) scale = std::max(scale, std::fabs(v));
    }
    const bool close = r.diff <= (c == 0 ? 1e-4 : 1e-3) * scale;
    if (!close) *ok = false;
    std::printf(" %12.1f %12s %9.2f %9.2f %8.1f %8.1f %10.2g%s%s\n", r.median_us,
                (us_text(r.min_us) + "-" + us_text(r.max_us)).c_str(), r.load_ms, r.first_run_ms,
                r.peak_mib, r.floor_mib, r.diff, close ? "" : "  MISMATCH", r.note.c_str());
  }
  std::fflush(stdout);
  return results;
}

}  // namespace

int bench_peers(const PeerBenchOptions& o) {
  const PeerAbout et = executorch_about(), ort = onnxruntime_about();
  std::printf(
      "\n5. side by side, %d thread%s: ours (lite::Program) against ExecuTorch %s and ONNX "
      "Runtime %s, all in C++\n",
      o.threads, o.threads == 1 ? "" : "s", et.version.empty() ? "(absent)" : et.version.c_str(),
      ort.version.empty() ? "(absent)" : ort.version.c_str());
  if (et.version.empty()) std::printf("  %s\n", et.how_to_get.c_str());
  if (ort.version.empty()) std::printf("  %s\n", ort.how_to_get.c_str());
  if (o.peer_models.empty()) {
    std::printf(
        "  no --peer-models=DIR: the peers' model files (and MobileNetV2, ResNet18) come from "
        "bench/peers/export_peer_models.py DIR (docs/benchmarks.md)\n");
  }
  std::printf(
      "  inference: median and min-max of %lld interleaved rounds of >= 50 ms (3 rounds of "
      "one call for a runtime over 1 s a call); load, first run and peak RSS: medians of "
      "%lld fresh processes per runtime (1 for one over 1 s a call) that load, run once and "
      "read VmHWM; floor: VmRSS of that process before the load (libraries, inputs); "
      "|diff|: max |outputs - ours| (ours: against eager PyTorch's expected0.npy)\n",
      static_cast<long long>(o.rounds), static_cast<long long>(o.children));
  std::printf("  %-14s %-12s %12s %12s %9s %9s %8s %8s %10s\n", "model", "runtime", "median us",
              "min-max us", "load ms", "1st ms", "peak MiB", "floor", "|diff|");
  const std::vector<Column> columns = {
      {"ours", "model.sopsm", load_ours, &o.child_ours, true},
      {"ET portable", "portable.pte", load_executorch, &o.child_executorch, !et.version.empty()},
      {"ET+XNNPACK", "xnnpack.pte", load_executorch, &o.child_executorch, !et.version.empty()},
      {"ORT", "model.onnx", load_onnxruntime, &o.child_onnxruntime, !ort.version.empty()},
  };
  std::fflush(stdout);
  const TempDir tmp("lite_peers_");
  int wrong = 0;
  std::vector<std::pair<std::string, std::vector<Result>>> table;
  for (const std::string& name : o.models) {
    bool ok = true;
    try {
      std::vector<Result> results = bench_model(name, columns, o, tmp, &ok);
      if (!results.empty()) table.emplace_back(name, std::move(results));
    } catch (const std::exception& e) {
      std::printf("  %-14s failed: %s\n", name.c_str(), e.what());
      ok = false;
    }
    if (!ok) ++wrong;
  }

  // The same as Markdown, for docs/benchmarks.md and the README: inference, then load and
  // memory.
  const auto header = [&](const char* title) {
    std::printf("\n  | %s |", title);
    for (const Column& c : columns) std::printf(" %s |", c.name);
    std::printf("\n  |---|");
    for (std::size_t c = 0; c < columns.size(); ++c) std::printf("---|");
    std::printf("\n");
  };
  header("inference, us: median (min-max)");
  for (const auto& [name, results] : table) {
    std::printf("  | %s |", name.c_str());
    for (const Result& r : results) {
      std::printf(r.ran ? " %s (%s-%s) |" : " - |", us_text(r.median_us).c_str(),
                  us_text(r.min_us).c_str(), us_text(r.max_us).c_str());
    }
    std::printf("\n");
  }
  header("load ms / first run ms / peak RSS MiB");
  for (const auto& [name, results] : table) {
    std::printf("  | %s |", name.c_str());
    for (const Result& r : results) {
      if (!r.ran || r.load_ms < 0) {
        std::printf(" - |");
        continue;
      }
      std::printf(" %.1f / %s / %.0f |", r.load_ms, us_text(r.first_run_ms).c_str(), r.peak_mib);
    }
    std::printf("\n");
  }
  std::fflush(stdout);
  return wrong;
}

}  // namespace sops_bench
