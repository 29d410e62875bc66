#!/usr/bin/env bash
# Stages what the GPU machine cannot make itself (it has nvcc, g++, CMake and ninja, but no
# Bazel and no network; ../../../shared/ENVIRONMENT.md): the generated sources of
# //ops:aten with its CUDA backend, and GoogleTest's sources, into .gpu_stage/
# (ignored by git). The device tool then carries .gpu_stage beside the working tree and
# tools/gpu/build_and_test.sh builds and runs the CUDA tests and benchmark there:
#
#   tools/gpu/stage.sh
#   (device) run: carry [".gpu_stage"], command "tools/gpu/build_and_test.sh"
set -euo pipefail
cd "$(dirname "$0")/../.."
stage=.gpu_stage

tools/bazel build --config=cuda //ops:aten
generated=bazel-bin/ops/aten
if [[ ! -f $generated/RegisterCUDA_0.cpp ]]; then
  echo "stage.sh: $generated has no RegisterCUDA_*.cpp: it was not generated under --config=cuda" >&2
  exit 1
fi

# GoogleTest as Bazel resolved it: the offline root's module (a link into the root), else
# a real directory under the output base.
external="$(tools/bazel info --config=cuda output_base 2>/dev/null)/external/googletest~"
home=${STRUCTURED_OPS_BAZEL_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/structured_ops/bazel}
googletest=""
if [[ -L $external && -d "$home/root$(readlink "$external")" ]]; then
  googletest="$home/root$(readlink "$external")"
elif [[ -d $external/googletest/src ]]; then
  googletest=$external
fi
if [[ -z $googletest ]]; then
  echo "stage.sh: GoogleTest's sources were not found at $external" >&2
  exit 1
fi

rm -rf "$stage"
mkdir -p "$stage/ops/aten/ops" "$stage/googletest"
# The files the generator action declares (the output folder may also hold stale ones,
# e.g. of an operator since removed), the per-operator headers out of their folders
# (aten_ops/<shard>/aten/ops/, each folder rewritten whole by every run).
tools/bazel cquery --config=cuda --output=files //ops:aten_codegen 2> /dev/null |
  while read -r path; do
    case $path in
      */aten_ops/*) cp "$path"/aten/ops/*.h "$stage/ops/aten/ops/" 2> /dev/null || true ;;
      *) cp "$path" "$stage/ops/aten/" ;;
    esac
  done
cp -R "$googletest/googletest/include" "$googletest/googletest/src" "$stage/googletest/"
chmod -R u+w "$stage"
echo "staged $(find "$stage" -type f | wc -l) files ($(du -sh "$stage" | cut -f1)) in $stage"
