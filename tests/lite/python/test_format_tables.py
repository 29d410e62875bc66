"""lite/FORMAT.md's tables are the one statement of the format's codes: the Python writer
and reader (lite/python/lite_model.py) hold exactly their dtype codes, argument tags,
device types and memory formats. (//tests/lite:model_reader_test holds the C++ reader
to the same dtype table.)"""

import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "lite", "python"))

from lite_model import DEVICE_TYPES, DTYPES, MEMORY_FORMATS, Tag  # noqa: E402

with open(os.path.join(ROOT, "lite", "FORMAT.md"), encoding="utf-8") as f:
    FORMAT = f.read()


def section(title: str) -> str:
    """The text of FORMAT.md from the heading `title` to the next heading."""
    found = re.search(r"^#+ " + re.escape(title) + r"\n(.*?)(?=^#)", FORMAT, re.S | re.M)
    assert found, f"lite/FORMAT.md has no section {title!r}"
    return found[1]


def table_rows(text: str) -> list[list[str]]:
    """The cells of a Markdown table's body rows."""
    rows = []
    for line in text.splitlines():
        if line.startswith("|") and not line.startswith("|-"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows[1:]  # the header row


def test_dtype_codes():
    listed = {}
    for row in table_rows(section("dtype codes")):
        for code, name in zip(row[0::3], row[1::3], strict=False):
            if code:
                listed[int(code)] = name
    assert listed == {code: name for code, (name, _) in DTYPES.items()}


def test_argument_tags():
    arg = FORMAT[FORMAT.index("`arg`, a tag then its payload") :]
    codes = [int(row[0]) for row in table_rows(arg.split("\n\n", 2)[1])]
    assert codes == [t.value for t in Tag], "FORMAT.md's argument tags and lite_model.Tag differ"
    assert "| 11 | ScalarType |" in arg and Tag.SCALAR_TYPE == 11


def test_device_types_and_memory_formats():
    device = re.search(r"\| Device \| `u8` type \(([^)]*)\)", FORMAT)
    memory = re.search(r"\| MemoryFormat \| `u8` \(([^)]*)\)", FORMAT)
    assert device and memory, "FORMAT.md no longer spells the Device or MemoryFormat codes"

    def codes(text: str) -> dict[int, str]:
        return {int(n): name for n, name in (item.split(" ", 1) for item in text.split(", "))}

    assert codes(device[1]) == DEVICE_TYPES
    assert codes(memory[1]) == MEMORY_FORMATS
