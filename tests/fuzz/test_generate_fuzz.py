"""What `check` accepts, `generate` writes (exit 0), and what it writes compiles.

Files: valid ones from the strategies, and mutations of them that `check` still
accepts.  The compile stage runs `g++ -std=c++17 -fsyntax-only` on every generated
.h/.cpp of a few larger files against the runtime's headers; it is skipped, saying
why, when there is no compiler or the runtime headers are not there (under Bazel they
come from //runtime:headers).
"""

import harness
import mutations
import pytest
import strategies
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.skipif(
    not harness.has_generate(), reason="`python3 -m codegen generate` does not exist yet"
)


def fuzz(examples: int, shrink: bool = True) -> settings:
    phases = (Phase.explicit, Phase.generate) + ((Phase.shrink,) if shrink else ())
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        database=None,
        print_blob=False,
        suppress_health_check=list(HealthCheck),
        phases=phases,
    )


options = st.builds(
    harness.Options,
    backends=st.sampled_from(["CPU", "CPU,CUDA"]),
    shards=st.integers(1, 3),
    namespace=st.sampled_from(["fuzz::ops", "f", "a::b::c"]),
    include_prefix=st.sampled_from([None, "fuzz/ops"]),
)


def assert_promise(tmp, text: str, opts: harness.Options, valid: bool = False) -> None:
    check, problems = harness.examine(text, str(tmp), opts)
    assert not problems, (
        "\n".join(f"[{stage}] {p}" for stage, p in problems) + "\n--- file:\n" + text
    )
    assert check.rc == 0 or not valid, (
        f"check rejects a valid file:\n{check.stderr}\n--- file:\n{text}"
    )


@fuzz(120)
@given(strategies.valid_files(), options)
def test_valid_files_generate(tmp_path_factory, text, opts):
    assert_promise(tmp_path_factory.mktemp("valid"), text, opts, valid=True)


@fuzz(300)
@given(strategies.valid_files().flatmap(mutations.mutation), options)
def test_accepted_mutations_generate(tmp_path_factory, text, opts):
    assert_promise(tmp_path_factory.mktemp("mutated"), text, opts)


def _compile_skip_reason() -> str | None:
    if harness.compiler() is None:
        return "no C++ compiler (g++ or c++) on PATH"
    if not harness.runtime_headers_present():
        return f"the runtime headers are not under {harness.ROOT}/runtime (add //runtime:headers to the test's data)"
    return None


@pytest.mark.skipif(_compile_skip_reason() is not None, reason=str(_compile_skip_reason()))
@fuzz(4, shrink=False)
@given(strategies.valid_files(min_families=8, max_families=14), options)
def test_generated_code_compiles(tmp_path_factory, text, opts):
    opts.compile = True
    assert_promise(tmp_path_factory.mktemp("compile"), text, opts, valid=True)
