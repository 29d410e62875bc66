"""pytest_test: a py_test whose files are run by pytest."""

load("@rules_python//python:defs.bzl", "py_test")

def pytest_test(name, srcs, deps = [], args = [], **kwargs):
    """A py_test that runs pytest over `srcs` (the system python3 must have pytest).

    Args:
      name: the test's name.
      srcs: the test files (test_*.py); pytest collects the tests in them.
      deps: py_library dependencies.
      args: more pytest arguments.
      **kwargs: passed to py_test (data, size, tags, ...).
    """
    py_test(
        name = name,
        srcs = srcs + [Label("//tools/pytest:pytest_main.py")],
        main = Label("//tools/pytest:pytest_main.py"),
        args = ["$(rootpath %s)" % src for src in srcs] + args,
        deps = deps,
        **kwargs
    )
