"""Runs pytest on the test files given as arguments: the main of every pytest_test."""

import os
import sys

import pytest

if __name__ == "__main__":
    # Runfiles are read-only: keep pytest's cache and hypothesis' database out of them.
    tmp = os.environ.get("TEST_TMPDIR")
    if tmp:
        os.environ.setdefault("HYPOTHESIS_STORAGE_DIRECTORY", os.path.join(tmp, "hypothesis"))
    args = ["-p", "no:cacheprovider", "-q", *sys.argv[1:]]
    xml = os.environ.get("XML_OUTPUT_FILE")
    if xml:
        args.append("--junitxml=" + xml)
    sys.exit(pytest.main(args))
