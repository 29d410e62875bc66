# shellcheck shell=bash
# The offline Bazel of tools/bazel: provisioned on first use, reused afterwards.
# Sourced by tools/bazel; the recipe and its reasons are in tools/provision/README.md.

# Bump when the recipe below changes: a root made by an older recipe is re-provisioned.
readonly OFFLINE_BAZEL_RECIPE=3
readonly OFFLINE_BAZEL_SUITE=sid
readonly OFFLINE_BAZEL_PACKAGES=(
  bazel-bootstrap g++ python3 python3-yaml python3-jinja2 python3-pytest
  python3-hypothesis googletest ca-certificates
)
# Modules that Bazel's own bazel_tools names but Debian does not package; nothing in
# this workspace builds them, so empty local modules stand in (as Debian's own
# package tests do). zlib links the system library.
readonly OFFLINE_BAZEL_EMPTY_MODULES=(apple_support buildozer protobuf)
# GoogleTest comes from a local registry rather than an override, so that a workspace
# without it in its module graph still builds (Bazel rejects overrides of absent
# modules). Debian's sources are served under the versions workspaces commonly ask for.
readonly OFFLINE_BAZEL_GOOGLETEST_VERSIONS=(1.14.0 1.15.0 1.15.2 1.16.0 1.17.0 1.18.0)

provision_dir=$(dirname "${BASH_SOURCE[0]}")

say() { printf 'tools/bazel: %s\n' "$*" >&2; }

# One paragraph that says why, what to do instead, and exits.
cannot_provision() {
  {
    printf '\ntools/bazel: cannot provision the offline Bazel: %s\n' "$1"
    printf '%s\n' \
      "  This workspace needs Bazel 7.1 or newer. Either install one yourself (bazelisk from" \
      "  https://github.com/bazelbuild/bazelisk, which reads .bazelversion, or any Bazel 7.1+ on" \
      "  PATH; tools/bazel then just uses it), or let tools/bazel provision Debian sid's" \
      "  bazel-bootstrap offline, which needs: root (it uses debootstrap, mount and chroot)," \
      "  the debootstrap package (apt-get install debootstrap), about 2.5 GB of disk under" \
      "  ${home:-\$STRUCTURED_OPS_BAZEL_HOME}, and a reachable Debian mirror" \
      "  (${mirror:-http://deb.debian.org/debian}; set STRUCTURED_OPS_DEBIAN_MIRROR for another)."
    if [[ -n "${log:-}" && -s "$log" ]]; then
      printf '  The last lines of %s:\n' "$log"
      tail -n 8 "$log" | sed 's/^/    /'
    fi
  } >&2
  exit 1
}

is_ready() {
  [[ -f "$1/.structured_ops_ready" ]] && [[ "$(cat "$1/.structured_ops_ready")" == "$OFFLINE_BAZEL_RECIPE" ]]
}

# Runs a command inside the root ($1) in a private mount namespace.
in_root() {
  local target=$1
  shift
  unshare --mount --propagation private -- \
    bash "$provision_dir/enter.sh" "$target" "" / -- "$@"
}

ensure_debootstrap() {
  command -v debootstrap >/dev/null && return 0
  command -v apt-get >/dev/null || cannot_provision "debootstrap is not installed and there is no apt-get to install it."
  say "installing debootstrap with apt-get"
  if ! apt-get install -y -q debootstrap >>"$log" 2>&1; then
    apt-get update -q >>"$log" 2>&1 && apt-get install -y -q debootstrap >>"$log" 2>&1 \
      || cannot_provision "apt-get could not install debootstrap."
  fi
}

write_module() {  # write_module DIR NAME BUILD_CONTENT
  mkdir -p "$1"
  printf 'module(name = "%s")\n' "$2" >"$1/MODULE.bazel"
  printf '%s' "$3" >"$1/BUILD.bazel"
}

readonly OFFLINE_BAZEL_MODULES=/usr/share/structured_ops/modules
readonly OFFLINE_BAZEL_REGISTRY=/usr/share/structured_ops/registry

# The root's system bazelrc: what every workspace built with the offline Bazel gets
# first (a workspace's own .bazelrc, read after it, may say otherwise).
offline_bazelrc() {
  local name
  echo "# Written by structured_ops' tools/bazel: offline module overrides and the CUDA hand-off."
  for name in "${OFFLINE_BAZEL_EMPTY_MODULES[@]}" zlib; do
    echo "common --override_module=$name=$OFFLINE_BAZEL_MODULES/$name"
  done
  echo "common --registry=file://$OFFLINE_BAZEL_REGISTRY"
  echo "common --repo_env=STRUCTURED_OPS_NVCC=/usr/local/bin/host-nvcc"
  echo "# No WORKSPACE file: its implicit dependencies would be fetched from the network."
  echo "common --noenable_workspace"
}

# Settings, not packages: a root keeps its recipe but gets this script's bazelrc.
update_bazelrc() {
  local rc="$1/etc/bazel.bazelrc"
  [[ "$(cat "$rc" 2>/dev/null)" == "$(offline_bazelrc)" ]] || offline_bazelrc >"$rc"
}

configure_bazel() {
  local target=$1 modules=$OFFLINE_BAZEL_MODULES name
  local registry=$OFFLINE_BAZEL_REGISTRY
  update_bazelrc "$target"
  for name in "${OFFLINE_BAZEL_EMPTY_MODULES[@]}"; do
    write_module "$target$modules/$name" "$name" ""
  done
  write_module "$target$modules/zlib" zlib \
    'cc_library(name = "zlib", linkopts = ["-lz"], visibility = ["//visibility:public"])
'
  # GoogleTest: Debian ships its sources without Bazel files; ours builds them.
  mkdir -p "$target$modules/googletest"
  cp -a "$target/usr/src/googletest/googletest" "$target/usr/src/googletest/googlemock" \
    "$target$modules/googletest/"
  write_module "$target$modules/googletest" googletest "$(cat "$provision_dir/googletest.BUILD")"
  mkdir -p "$target$registry/modules/googletest"
  printf '{"mirrors": [], "module_base_path": "%s"}\n' "$modules" >"$target$registry/bazel_registry.json"
  printf '{"versions": [%s], "yanked_versions": {}}\n' \
    "$(printf '"%s", ' "${OFFLINE_BAZEL_GOOGLETEST_VERSIONS[@]}" | sed 's/, $//')" \
    >"$target$registry/modules/googletest/metadata.json"
  for version in "${OFFLINE_BAZEL_GOOGLETEST_VERSIONS[@]}"; do
    mkdir -p "$target$registry/modules/googletest/$version"
    printf 'module(name = "googletest", version = "%s", compatibility_level = 1)\n' "$version" \
      >"$target$registry/modules/googletest/$version/MODULE.bazel"
    printf '{"type": "local_path", "path": "googletest"}\n' \
      >"$target$registry/modules/googletest/$version/source.json"
  done
  # CUDA hand-off: sid's gcc is too new for nvcc, so host-nvcc runs the host's nvcc
  # (seen at /host) in the host's own root, in the same working directory.
  install -m 0755 "$provision_dir/host-nvcc" "$target/usr/local/bin/host-nvcc"
}

provision() {
  local partial="$home/root.partial"
  [[ "$(id -u)" == 0 ]] || cannot_provision "it must run as root (it uses debootstrap, mount and chroot), and this is uid $(id -u)."
  command -v unshare >/dev/null || cannot_provision "unshare (util-linux) is missing."
  : >"$log"
  ensure_debootstrap
  # Never reuse a half-made or outdated root: start over from nothing.
  rm -rf --one-file-system "$partial" "$root.stale"
  if [[ -e "$root" ]]; then
    # An outdated root: its Bazel server and namespace holder go with it.
    [[ -s "$home/namespace.pid" ]] && is_holder "$(<"$home/namespace.pid")" \
      && kill "$(<"$home/namespace.pid")" 2>/dev/null
    rm -f "$home/namespace.pid"
    mv "$root" "$root.stale"
  fi
  rm -rf --one-file-system "$root.stale"

  say "provisioning an offline Bazel 7 (Debian $OFFLINE_BAZEL_SUITE's bazel-bootstrap) in $root, once; about 2 minutes. Log: $log"
  say "[1/4] debootstrap $OFFLINE_BAZEL_SUITE (about 35 s)"
  unshare --mount --propagation private -- \
    debootstrap --variant=minbase "$OFFLINE_BAZEL_SUITE" "$partial" "$mirror" >>"$log" 2>&1 \
    || cannot_provision "debootstrap of Debian $OFFLINE_BAZEL_SUITE from $mirror failed (is the mirror reachable?)."
  mkdir -p "$partial/host"
  # Registry traffic may pass a TLS proxy whose CA the host trusts: trust it inside too.
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    mkdir -p "$partial/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$partial/usr/local/share/ca-certificates/"
  fi
  say "[2/4] apt-get install ${OFFLINE_BAZEL_PACKAGES[*]} (about 65 s)"
  # The mirror may serve a snapshot whose Release file is past its Valid-Until date.
  in_root "$partial" apt-get -q -o Acquire::Check-Valid-Until=false update >>"$log" 2>&1 \
    || cannot_provision "apt-get update inside the $OFFLINE_BAZEL_SUITE root failed (is $mirror reachable?)."
  in_root "$partial" apt-get install -y -q --no-install-recommends "${OFFLINE_BAZEL_PACKAGES[@]}" >>"$log" 2>&1 \
    || cannot_provision "apt-get install inside the $OFFLINE_BAZEL_SUITE root failed."
  in_root "$partial" update-ca-certificates >>"$log" 2>&1 \
    || cannot_provision "update-ca-certificates inside the root failed."
  in_root "$partial" apt-get clean >>"$log" 2>&1 || true
  say "[3/4] offline module overrides and the CUDA hand-off"
  configure_bazel "$partial"
  say "[4/4] checking the result"
  in_root "$partial" bazel --version >>"$log" 2>&1 \
    || cannot_provision "the provisioned bazel does not start."
  printf '%s\n' "$OFFLINE_BAZEL_RECIPE" >"$partial/.structured_ops_ready"
  mv "$partial" "$root"
  say "offline Bazel ready: $(grep -m1 "^bazel " "$log" || true)"
}

# The directories a workspace's build reads besides itself: the paths of its
# local_path_override()s (MODULE.bazel) and of the --override_module=NAME=PATH options
# on the command line and in its .bazelrc, relative ones resolved against the
# workspace; one absolute path per line, those that exist. (local_path_overrides is
# tools/bazel's, which sources this file.)
override_paths() {
  local workspace=$1 path
  shift
  {
    local_path_overrides "$workspace/MODULE.bazel" | cut -d ' ' -f 2-
    { printf '%s\n' "$@"; cat "$workspace/.bazelrc" 2>/dev/null || true; } \
      | grep -o -- '--override_module=[^= ]*=[^ ]*' | sed 's/^--override_module=[^=]*=//' || true
  } | while IFS= read -r path; do
    path=${path//%workspace%/$workspace}
    [[ "$path" == /* ]] || path="$workspace/$path"
    if [[ -d "$path" ]]; then (cd "$path" && pwd -P); fi
  done | sort -u
}

# offline_bazel_main WORKSPACE ARGS...: Bazel in WORKSPACE (the current directory when it
# lies inside), with WORKSPACE and the module paths it overrides visible inside the root.
offline_bazel_main() {
  local workspace=$1 cwd
  shift
  home=${STRUCTURED_OPS_BAZEL_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/structured_ops/bazel}
  mirror=${STRUCTURED_OPS_DEBIAN_MIRROR:-http://deb.debian.org/debian}
  mkdir -p "$home"
  home=$(cd "$home" && pwd -P)  # the same path inside the root: no symlinks in it
  root="$home/root" log="$home/provision.log"
  local output_root="$home/output_user_root"
  mkdir -p "$output_root"

  if ! is_ready "$root"; then
    # One provisioning at a time; a second first call waits, then finds the root ready.
    {
      if ! flock -n 9; then
        say "waiting for another tools/bazel that is provisioning $root"
        flock 9
      fi
      is_ready "$root" || provision
    } 9>"$home/lock"
  fi

  [[ "$(id -u)" == 0 ]] || { say "running the offline Bazel needs root (mount and chroot); install Bazel 7.1+ or bazelisk instead."; exit 1; }
  # Bazel finds the workspace from the working directory; outside it, use the workspace.
  cwd=$(pwd -P)
  [[ "$cwd" == "$workspace" || "$cwd" == "$workspace"/* ]] || cwd=$workspace
  update_bazelrc "$root"
  local holder dirs
  mapfile -t dirs < <(override_paths "$workspace" "$@")
  holder=$(namespace_holder)
  exec nsenter --target "$holder" --mount -- \
    bash "$provision_dir/enter.sh" "$root" "$output_root" "$cwd" "$workspace" "${dirs[@]}" -- \
    bazel --output_user_root="$output_root" "$@"
}

# The Bazel client restarts any server whose working directory it cannot see as the
# workspace, which is what it sees of a server in another mount namespace. So every
# call enters one shared private namespace, held open by a sleeping process whose pid
# is kept in $home/namespace.pid; a missing or dead holder is replaced.
namespace_holder() {
  local pidfile="$home/namespace.pid" pid=""
  {
    flock 9
    [[ -s "$pidfile" ]] && pid=$(<"$pidfile")
    if [[ -z "$pid" ]] || ! is_holder "$pid"; then
      rm -f "$pidfile"
      setsid unshare --mount --propagation private -- \
        bash -c 'echo $$ >"$1.tmp" && mv "$1.tmp" "$1" && exec -a structured_ops_namespace sleep infinity' \
        holder "$pidfile" </dev/null >/dev/null 2>&1 9>&- &
      for _ in $(seq 100); do [[ -s "$pidfile" ]] && break; sleep 0.05; done
      pid=$(<"$pidfile")
      for _ in $(seq 100); do is_holder "$pid" && break; sleep 0.05; done
    fi
  } 9>"$home/lock"
  is_holder "$pid" || { say "could not start the mount-namespace holder"; exit 1; }
  printf '%s\n' "$pid"
}

is_holder() {
  [[ "$(tr '\0' ' ' <"/proc/$1/cmdline" 2>/dev/null)" == "structured_ops_namespace "* ]]
}
