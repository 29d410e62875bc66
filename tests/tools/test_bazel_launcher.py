"""tools/bazel as a user meets it: which Bazel it picks, and how it fails to provision.

The real provisioning takes minutes and needs the network; here every program it would
call is a stand-in on a PATH of our own, so each case is fast and exact.
"""

import os
import pathlib
import shutil
import stat
import subprocess

import pytest

RUNFILES = pathlib.Path(os.path.abspath(__file__)).parents[2]
LAUNCHER = RUNFILES / "tools" / "bazel"
# What the launcher may use from the system; debootstrap/apt-get/id are stand-ins per case.
SYSTEM_TOOLS = [
    "bash",
    "cat",
    "dirname",
    "flock",
    "head",
    "mkdir",
    "mv",
    "readlink",
    "rm",
    "sed",
    "seq",
    "sleep",
    "tail",
    "tr",
    "unshare",
    "mountpoint",
    "nsenter",
    "setsid",
]


def executable(path, text):
    path.write_text("#!/bin/sh\n" + text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


def plain_unshare(path_dir):
    """unshare cannot make a private namespace inside Bazel's sandbox: run the command as is."""
    (path_dir / "unshare").unlink()
    executable(path_dir / "unshare", 'while [ "$1" != -- ]; do shift; done; shift; exec "$@"\n')


@pytest.fixture
def path_dir(tmp_path):
    """A PATH holding only the system tools the launcher needs."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in SYSTEM_TOOLS:
        found = shutil.which(tool)
        if found:
            (bin_dir / tool).symlink_to(found)
    return bin_dir


def launch(tmp_path, path_dir, *args, **env):
    full_env = {
        "PATH": str(path_dir),
        "HOME": str(tmp_path / "home"),
        "STRUCTURED_OPS_BAZEL_HOME": str(tmp_path / "bazel_home"),
        **env,
    }
    return subprocess.run(
        [str(LAUNCHER), *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=tmp_path,
        timeout=60,
    )


def test_bazel_real_from_bazelisk_wins_and_exit_status_passes_through(tmp_path, path_dir):
    real = executable(tmp_path / "real_bazel", 'echo "real $*"; exit 7\n')
    result = launch(tmp_path, path_dir, "build", "//x", BAZEL_REAL=str(real))
    assert result.returncode == 7
    assert result.stdout == "real build //x\n"


def test_a_bazel_7_1_or_newer_on_path_is_used(tmp_path, path_dir):
    executable(
        path_dir / "bazel",
        '[ "$1" = --version ] && { echo "bazel 7.4.1"; exit 0; }\necho "path bazel $*"; exit 3\n',
    )
    result = launch(tmp_path, path_dir, "test", "//tests/...")
    assert result.returncode == 3
    assert result.stdout == "path bazel test //tests/...\n"


@pytest.mark.parametrize("version", ["bazel 4.2.3", "bazel 7.0.2", "not a bazel"])
def test_an_old_or_unknown_bazel_on_path_is_not_used(tmp_path, path_dir, version):
    executable(path_dir / "bazel", f'echo "{version}"; exit 0\n')
    executable(path_dir / "id", "echo 1000\n")  # then provisioning stops at once: not root
    result = launch(tmp_path, path_dir, "info")
    assert result.returncode == 1
    assert "cannot provision the offline Bazel" in result.stderr


def test_the_launcher_itself_on_path_is_not_taken_for_a_bazel(tmp_path, path_dir):
    (path_dir / "bazel").symlink_to(LAUNCHER)
    executable(path_dir / "id", "echo 1000\n")
    result = launch(tmp_path, path_dir, "info")
    assert result.returncode == 1
    assert "cannot provision the offline Bazel" in result.stderr


def test_not_root_gets_one_paragraph_saying_what_to_install(tmp_path, path_dir):
    executable(path_dir / "id", "echo 1000\n")
    result = launch(tmp_path, path_dir, "info")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "it must run as root" in result.stderr
    assert "bazelisk" in result.stderr and "Bazel 7.1 or newer" in result.stderr


def test_no_debootstrap_and_no_apt_get(tmp_path, path_dir):
    executable(path_dir / "id", "echo 0\n")
    result = launch(tmp_path, path_dir, "info")
    assert result.returncode == 1
    assert "debootstrap is not installed and there is no apt-get to install it" in result.stderr
    assert "apt-get install debootstrap" in result.stderr


def test_unreachable_mirror_is_named_with_the_log(tmp_path, path_dir):
    executable(path_dir / "id", "echo 0\n")
    executable(
        path_dir / "debootstrap",
        'echo "E: Failed getting release file $4/dists/sid/Release" >&2; exit 1\n',
    )
    plain_unshare(path_dir)
    mirror = "http://127.0.0.1:9/debian"
    result = launch(tmp_path, path_dir, "info", STRUCTURED_OPS_DEBIAN_MIRROR=mirror)
    assert result.returncode == 1
    assert (
        f"debootstrap of Debian sid from {mirror} failed (is the mirror reachable?)"
        in result.stderr
    )
    assert "E: Failed getting release file" in result.stderr  # the log's tail is shown
    # Nothing half-made is left where a later call would take it for a ready root.
    assert not (tmp_path / "bazel_home" / "root").exists()


def test_a_root_without_the_ready_marker_is_never_used(tmp_path, path_dir):
    broken = tmp_path / "bazel_home" / "root" / "usr" / "bin"
    broken.mkdir(parents=True)
    executable(broken / "bazel", "echo must-not-run\n")
    executable(path_dir / "id", "echo 0\n")
    executable(path_dir / "debootstrap", "exit 1\n")
    plain_unshare(path_dir)
    result = launch(tmp_path, path_dir, "info")
    assert result.returncode == 1
    assert "must-not-run" not in result.stdout
    assert "debootstrap of Debian sid" in result.stderr
    assert not (tmp_path / "bazel_home" / "root").exists()
