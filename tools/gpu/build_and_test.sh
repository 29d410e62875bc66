#!/usr/bin/env bash
# Builds //ops:aten_cpu with its CUDA backend, the CUDA tests and the CUDA benchmark with
# CMake (tools/gpu/CMakeLists.txt) from the working tree and .gpu_stage/ (tools/gpu/stage.sh),
# then runs the tests and the benchmark. For the GPU machine, which has no Bazel; where no
# GPU is, the tests skip their GPU cases. Three files go to $OUT (the device tool's folder
# that comes back) or the build folder: build.log, tests.log and summary.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD_DIR:-/tmp/structured_ops_gpu_build}
out=${OUT:-$build/logs}
mkdir -p "$out"
summary=$out/summary.txt
: > "$summary"
say() { echo "$@" | tee -a "$summary"; }
if [[ ! -f .gpu_stage/ops/aten_cpu/Functions.h ]]; then
  echo "build_and_test.sh: no .gpu_stage here: run tools/gpu/stage.sh first (and carry .gpu_stage)" >&2
  exit 2
fi
if command -v nvidia-smi > /dev/null; then
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee -a "$summary"
fi

start=$(date +%s)
if ! { cmake -S tools/gpu -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
         -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCHS:-90}" &&
       ninja -C "$build" -j "$(nproc)"; } > "$out/build.log" 2>&1; then
  grep -m 20 -B 2 -A 6 "error" "$out/build.log"
  tail -20 "$out/build.log"
  say "BUILD FAILED"
  exit 1
fi
say "built in $(($(date +%s) - start)) s"

status=0
: > "$out/tests.log"
for path in "$build"/*_test; do  # the tests CMakeLists.txt builds
  t=$(basename "$path")
  # From the repository root: the golden test reads tests/golden/data/ from there.
  log=$build/$t.log
  if "$build/$t" > "$log" 2>&1; then
    skipped=$(grep -oE '^\[  SKIPPED \] [0-9]+' "$log" | grep -oE '[0-9]+$')
    say "PASS $t: $(grep -E '^\[  PASSED  \]' "$log") (${skipped:-0} skipped)"
  else
    status=1
    say "FAIL $t"
    grep -E "Failure|FAILED|raised|Expected|Which is|actual" "$log" | head -40
  fi
  cat "$log" >> "$out/tests.log"
done
grep -h "cases on the GPU" "$build/cuda_golden_test.log" | tee -a "$summary"
"$build/cuda_bench" 2>&1 | tee -a "$summary" || status=1
exit $status
