"""`lite_runtime` run as a user runs it, for the command-line tests: the binary named by
$LITE_RUNTIME, its arguments, a clean failure and outputs against eager PyTorch's."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
import npy_io  # noqa: E402

LITE_RUNTIME = os.environ["LITE_RUNTIME"]
# Eager PyTorch's outputs within 1e-5 relative: |ours - eager| <= 1e-5 * (|eager| + max|eager|).
RTOL = 1e-5


def lite(*args):
    return subprocess.run([LITE_RUNTIME, *args], capture_output=True, text=True, timeout=120)


def input_args(paths):
    return [a for p in paths for a in ("--input", p)]


def assert_clean_failure(result, *needles):
    """Exit status 1, one `lite_runtime: error:` message naming the problem, no crash."""
    assert result.returncode == 1, (result.returncode, result.stderr)
    assert result.stderr.startswith("lite_runtime: error: "), result.stderr
    for bad in ("Traceback", "terminate called", "Aborted", "Sanitizer", "Segmentation"):
        assert bad not in result.stderr
    for needle in needles:
        assert needle in result.stderr, (needle, result.stderr)


def assert_matches_eager(got_path, want_path, what):
    """The .npy at got_path has want_path's dtype and shape and its values within RTOL."""
    want_dtype, want_shape, want = npy_io.read(want_path)
    got_dtype, got_shape, got = npy_io.read(got_path)
    assert (got_dtype, got_shape) == (want_dtype, want_shape), what
    scale = max(abs(v) for v in want) if want else 0.0
    worst = max((abs(g - w) - RTOL * (abs(w) + scale) for g, w in zip(got, want)), default=0.0)
    assert worst <= 0, f"{what}: off by more than {RTOL} relative"
