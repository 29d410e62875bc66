"""The generator's entry point in Bazel's actions:

    python3 -S -E codegen/action_main.py ROOT... -- ARGS

`-S` keeps the site module from running, so nothing of the machine's site-packages can
be imported (a host's own pyyaml or jinja2 included); `-E` ignores PYTHONPATH and the
other PYTHON* variables. The ROOTs (the directory holding this `codegen` package and
the pinned pyyaml, MarkupSafe and Jinja2 wheels, MODULE.bazel) are then the only places
imports come from besides the standard library. ARGS are the command line of
codegen/cli.py.
"""

import sys


def main() -> None:
    try:
        end = sys.argv.index("--")
    except ValueError:
        sys.exit("usage: python3 -S -E action_main.py ROOT... -- ARGS")
    # The roots replace the script's own directory (sys.path[0]): nothing else of
    # codegen/ should be importable as a top-level module.
    sys.path[0:1] = sys.argv[1:end]
    from codegen import cli

    cli.exit_with(cli.main(sys.argv[end + 1 :]))


if __name__ == "__main__":
    main()
