#!/usr/bin/env bash
# enter.sh ROOT WORKSPACE OUTPUT_ROOT CWD -- COMMAND...
#
# Runs COMMAND inside the offline-Bazel root ROOT through chroot. Must run in a private
# mount namespace (the caller uses `unshare` or `nsenter`): every mount below lives only
# there, so nothing leaks into the host's mount table and nothing is left behind when
# the namespace's last process ends. Mounts already in place are kept (idempotent), so
# every Bazel client can share one namespace with the Bazel server: the client kills a
# server whose working directory it cannot see as the workspace.
#
# Inside the root:
#   - WORKSPACE and OUTPUT_ROOT are bind-mounted at their own absolute paths, so the
#     paths Bazel prints and the bazel-* symlinks it writes are valid on the host too;
#   - the host's / is visible at /host: the CUDA hand-off (/usr/local/bin/host-nvcc runs
#     the host's nvcc there, see offline_bazel.sh);
#   - /proc, /dev and /sys are the host's.
# An empty WORKSPACE or OUTPUT_ROOT is not mounted (provisioning needs neither).
set -euo pipefail
root=$1 workspace=$2 output_root=$3 cwd=$4
shift 4
[[ "${1:-}" == "--" ]] && shift

mounted() { mountpoint -q "$1"; }
mounted "$root/host" || mount --rbind / "$root/host"
mounted "$root/proc" || mount -t proc proc "$root/proc"
mounted "$root/dev" || mount --rbind /dev "$root/dev"
mounted "$root/sys" || mount --rbind /sys "$root/sys"
for dir in "$workspace" "$output_root"; do
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
