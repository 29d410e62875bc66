#!/usr/bin/env bash
# Builds //ops:aten with its CUDA backend, the CUDA tests and the CUDA benchmark with
# CMake (tools/gpu/CMakeLists.txt) from the working tree and .gpu_stage/ (tools/gpu/stage.sh),
# then runs the tests and the benchmark. For the GPU machine, which has no Bazel; where no
# GPU is, the tests skip their GPU cases. Four files go to $OUT (the device tool's folder
# that comes back) or the build folder: build.log, tests.log, cuda_bench.txt and summary.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD_DIR:-/tmp/structured_ops_gpu_build}
out=${OUT:-$build/logs}
mkdir -p "$out"
summary=$out/summary.txt
: > "$summary"
say() { echo "$@" | tee -a "$summary"; }
if [[ ! -f .gpu_stage/ops/aten/Functions.h ]]; then
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
  : > "$log"
  # A case that kills the process (a signal) is named and left out, and the rest run on:
  # one crash must not hide what the cases after it do.
  crashed=""
  while true; do
    timeout "${TEST_TIMEOUT:-120}" "$build/$t" --gtest_filter="*${crashed:+-$crashed}" \
      > "$log.part" 2>&1
    rc=$?
    cat "$log.part" >> "$log"
    ((rc > 128 && rc != 137)) || break
    case=$(awk '/^\[ RUN      \]/ {c = $4} /^\[       OK \]|^\[  FAILED  \]|^\[  SKIPPED \]/ {c = ""}
                END {print c}' "$log.part")
    [[ -n $case && ${#crashed} -lt 4000 ]] || break
    say "CRASH $t: $case (signal $((rc - 128)))"
    status=1
    crashed=${crashed:+$crashed:}$case
  done
  [[ -n $crashed ]] && ((rc == 0)) && rc=1
  if ((rc == 124)); then
    # A hang: run its cases one by one to name the ones that hang.
    status=1
    say "FAIL $t: no answer in ${TEST_TIMEOUT:-120} s; its cases one by one:"
    for case in $("$build/$t" --gtest_list_tests |
                  awk '/^[^ ]/ {suite = $1} /^  [^ ]/ {print suite $1}'); do
      timeout "${CASE_TIMEOUT:-20}" "$build/$t" --gtest_filter="$case" >> "$log" 2>&1
      case $? in
        0) say "  ok   $case" ;;
        124) say "  HANG $case" ;;
        *) say "  FAIL $case" ;;
      esac
    done
  elif ((rc == 0)); then
    skipped=$(grep -oE '^\[  SKIPPED \] [0-9]+' "$log" | grep -oE '[0-9]+$')
    say "PASS $t: $(grep -E '^\[  PASSED  \]' "$log") (${skipped:-0} skipped)"
  else
    status=1
    say "FAIL $t"
    grep -E "Failure|FAILED|raised|Expected|Which is|actual" "$log" | head -40
  fi
  cat "$log" >> "$out/tests.log"
done
grep -h "cases on the GPU" "$build/cuda_golden_test.log" >> "$summary"
timeout 300 "$build/cuda_bench" > "$out/cuda_bench.txt" 2>&1 || status=1
cat "$out/cuda_bench.txt" >> "$summary"
# The same rows with PyTorch's CUDA kernels, where the machine's python3 has a CUDA torch.
if python3 -c "import torch; assert torch.cuda.is_available()" 2> /dev/null; then
  python3 tools/gpu/compare_torch.py "$out/cuda_bench.txt" 2>&1 | tee -a "$summary" || status=1
else
  cat "$out/cuda_bench.txt"
fi
exit $status
