#!/usr/bin/env bash
# Whether a change left the kernels' machine code alone: compiles every hand-written
# kernel, meta function and composite of //ops:aten (backends/cpu/kernels, ops/meta,
# ops/composite) at BASE and in the working tree, each against its own generated headers,
# with g++ -O2, and compares the disassembled code. A layout or header change that passes
# cannot have changed the kernels' speed.
#
#   tools/objcode/same_machine_code.sh BASE_REVISION
set -uo pipefail
base=${1:?usage: same_machine_code.sh BASE_REVISION}
cd "$(dirname "$0")/../.."
here=$PWD
work=$(mktemp -d)
trap 'git -C "$here" worktree remove --force "$work/base" > /dev/null 2>&1; rm -rf "$work"' EXIT
git worktree add -f "$work/base" "$base" > /dev/null 2>&1 || { echo "no revision $base" >&2; exit 2; }

# The generated headers of a tree, per operator where its generator has them: the include
# flags that find them.
generate() {  # generate TREE OUT
  local args=(generate ops/native_functions.yaml --namespace sops::aten --backends CPU
              --shards 2 --output-dir "$2/aten" --no-warnings)
  if (cd "$1" && python3 -m codegen "${args[@]}" --op-headers "$2/ops" --op-header-shards 256) \
       2> /dev/null; then
    printf -- "-iquote %s " "$2" "$2"/ops/*
  else
    (cd "$1" && python3 -m codegen "${args[@]}") || exit 2
    printf -- "-iquote %s " "$2"
  fi
}
base_flags=$(generate "$work/base" "$work/base_gen")
here_flags=$(generate "$here" "$work/here_gen")

same=0 differ=0
for src in $(ls backends/cpu/kernels/*.cpp ops/meta/*.cpp ops/composite/*.cpp); do
  object=$work/$(echo "$src" | tr / _)
  # shellcheck disable=SC2086  # the flags are words
  if [[ ! -f $work/base/$src ]] ||
     ! (cd "$work/base" && g++ -std=c++17 -O2 -Wno-psabi -iquote . $base_flags -c "$src" -o "$object.base") ||
     ! (cd "$here" && g++ -std=c++17 -O2 -Wno-psabi -iquote . $here_flags -c "$src" -o "$object.here"); then
    echo "not compared: $src"
    differ=$((differ + 1))
    continue
  fi
  if cmp -s <(objdump -d --no-show-raw-insn "$object.base" | tail -n +3) \
            <(objdump -d --no-show-raw-insn "$object.here" | tail -n +3); then
    same=$((same + 1))
  else
    echo "different machine code: $src"
    differ=$((differ + 1))
  fi
done
echo "same machine code as $base: $same sources; different or not compared: $differ"
((differ == 0))
