#!/usr/bin/env bash
# The style, checked: ruff (format and lint) over the Python, clang-format over the C++,
# buildifier (format and lint) over the Starlark, mypy over codegen/. Settings:
# pyproject.toml, .clang-format; versions: tools/lint/requirements.txt and BUILDIFIER_*
# below, installed once into a cache directory (PyPI and npm must answer the first time).
#
#   tools/lint/run.sh          # check: lists what to fix, exit status 1 if anything
#   tools/lint/run.sh --fix    # format and fix in place what the tools can
set -euo pipefail
cd "$(dirname "$0")/../.."

readonly BUILDIFIER_VERSION=8.2.1
readonly BUILDIFIER_SHA256=b96ea9b13003036c801f52bee6f9b0314738f8432e5cb9d814c89f59292604ee
fix=false
case "${1:-}" in
  "") ;;
  --fix) fix=true ;;
  *) echo "usage: tools/lint/run.sh [--fix]" >&2; exit 2 ;;
esac

# The tools, once per version set.
pins=$(cat tools/lint/requirements.txt <(echo "buildifier $BUILDIFIER_VERSION $BUILDIFIER_SHA256") |
       sha256sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/structured_ops/lint/$pins
if [[ ! -x $cache/bin/buildifier ]]; then
  echo "tools/lint/run.sh: installing the pinned tools into $cache (once)" >&2
  rm -rf "$cache"
  python3 -m venv "$cache"
  "$cache/bin/pip" install -q --disable-pip-version-check -r tools/lint/requirements.txt
  tarball=$cache/buildifier.tgz
  curl -fsSL -o "$tarball" \
    "https://registry.npmjs.org/@bazel/buildifier/-/buildifier-$BUILDIFIER_VERSION.tgz"
  echo "$BUILDIFIER_SHA256  $tarball" | sha256sum -c --quiet
  tar -xzf "$tarball" -C "$cache" package/buildifier-linux_amd64
  mv "$cache/package/buildifier-linux_amd64" "$cache/bin/buildifier.tmp"
  chmod +x "$cache/bin/buildifier.tmp"
  mv "$cache/bin/buildifier.tmp" "$cache/bin/buildifier"  # last: marks the cache complete
fi
bin=$cache/bin

mapfile -t cxx < <(git ls-files '*.h' '*.cc' '*.cpp' '*.cu' '*.cuh' ':!third_party/**')
status=0
step() {  # step NAME COMMAND...: runs a check, reporting it
  local name=$1
  shift
  if "$@"; then echo "lint: $name: ok"; else echo "lint: $name: FAILED" >&2; status=1; fi
}
if $fix; then
  "$bin/ruff" format --quiet .
  "$bin/ruff" check --fix --quiet . || true
  "$bin/clang-format" -i "${cxx[@]}"
  "$bin/buildifier" -r -lint=fix .
fi
step "ruff format" "$bin/ruff" format --check --quiet .
step "ruff check" "$bin/ruff" check --quiet .
step "clang-format (${#cxx[@]} files)" "$bin/clang-format" --dry-run -Werror "${cxx[@]}"
step "buildifier" "$bin/buildifier" -r -mode=check -lint=warn .
step "mypy codegen/" "$bin/mypy" --no-error-summary
exit $status
