#!/usr/bin/env bash
# enter.sh ROOT OUTPUT_ROOT CWD [DIR...] -- COMMAND...
#
# Runs COMMAND inside the offline-Bazel root ROOT through chroot, in directory CWD. Must
# run in a private mount namespace (the caller uses `unshare` or `nsenter`): every mount
# below lives only there, so nothing leaks into the host's mount table and nothing is
# left behind when the namespace's last process ends. Mounts already in place are kept
# (idempotent), so every Bazel client can share one namespace with the Bazel server: the
# client kills a server whose working directory it cannot see as the workspace.
#
# Inside the root:
#   - OUTPUT_ROOT and each DIR (the workspace and the module paths it overrides) are
#     bind-mounted at their own absolute paths, so the paths Bazel prints and the bazel-*
#     symlinks it writes are valid on the host too;
#   - the host's / is visible at /host: the CUDA hand-off (/usr/local/bin/host-nvcc runs
#     the host's nvcc there, see offline_bazel.sh);
#   - /proc, /dev and /sys are the host's.
# An empty OUTPUT_ROOT is not mounted (provisioning needs none).
set -euo pipefail
root=$1 output_root=$2 cwd=$3
shift 3
dirs=("$output_root")
while [[ $# -gt 0 && "$1" != "--" ]]; do
  dirs+=("$1")
  shift
done
[[ "${1:-}" == "--" ]] && shift

mounted() { mountpoint -q "$1"; }
mounted "$root/host" || mount --rbind / "$root/host"
mounted "$root/proc" || mount -t proc proc "$root/proc"
mounted "$root/dev" || mount --rbind /dev "$root/dev"
mounted "$root/sys" || mount --rbind /sys "$root/sys"
for dir in "${dirs[@]}"; do
  [[ -n "$dir" ]] || continue
  mkdir -p "$root$dir"
  mounted "$root$dir" || mount --bind "$dir" "$root$dir"
done

exec chroot "$root" /usr/bin/env -i \
  HOME=/root \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 \
  TERM="${TERM:-dumb}" \
  ${COLUMNS:+COLUMNS="$COLUMNS"} \
  DEBIAN_FRONTEND=noninteractive \
  /bin/sh -c 'cd "$1" && shift && exec "$@"' enter "$cwd" "$@"
