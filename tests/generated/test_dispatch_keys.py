"""codegen/dispatch_keys.bzl is the one table of the runtime's dispatch keys: the C++
enum of runtime/dispatch_key.h (and the device types of runtime/device.h that number
the backend keys) must say the same, key for key, in the same order."""

import os
import pathlib
import re

from codegen.bzl_table import read_table
from codegen.dest import library

ROOT = pathlib.Path(os.path.abspath(__file__)).parents[2]
KEYS = read_table("dispatch_keys.bzl")["DISPATCH_KEYS"]


def enum_members(header: str, enum: str) -> list[tuple[str, int]]:
    """(name, value) of `enum class <enum> : T { A = 0, ... }` in runtime/<header>."""
    text = (ROOT / "runtime" / header).read_text(encoding="utf-8")
    body = re.search(r"enum class " + enum + r" : \w+ \{(.*?)\};", text, re.S)
    assert body, f"runtime/{header} declares no `enum class {enum}`"
    return [(m[0], int(m[1])) for m in re.findall(r"(\w+) = (\d+),", body[1])]


def constant(header: str, name: str) -> int:
    text = (ROOT / "runtime" / header).read_text(encoding="utf-8")
    found = re.search(r"inline constexpr int " + name + r" = (\d+);", text)
    assert found, f"runtime/{header} declares no `{name}`"
    return int(found[1])


def test_the_enum_lists_the_tables_keys_in_order():
    assert enum_members("dispatch_key.h", "DispatchKey") == [
        (k["name"], i) for i, k in enumerate(KEYS)
    ], "runtime/dispatch_key.h and codegen/dispatch_keys.bzl disagree: change both"
    assert constant("dispatch_key.h", "kNumDispatchKeys") == len(KEYS)


def test_backend_keys_come_first_and_number_the_device_types():
    kinds = [k["kind"] for k in KEYS]
    backends = [k["name"] for k in KEYS if k["kind"] == "backend"]
    assert kinds == ["backend"] * len(backends) + ["fallback"] * (len(KEYS) - len(backends))
    assert constant("dispatch_key.h", "kNumBackendKeys") == len(backends)
    assert enum_members("device.h", "DeviceType") == [(b, i) for i, b in enumerate(backends)]


def test_fallbacks_are_tried_in_the_tables_order():
    text = (ROOT / "runtime" / "dispatch_key.h").read_text(encoding="utf-8")
    body = re.search(r"kFallbackKeys\[\] = \{(.*?)\};", text, re.S)
    assert body, "runtime/dispatch_key.h declares no kFallbackKeys"
    assert re.findall(r"DispatchKey::(\w+)", body[1]) == [
        k["name"] for k in KEYS if k["kind"] == "fallback"
    ]


def test_the_generator_reads_the_table():
    assert library.DISPATCH_KEYS == tuple(k["name"] for k in KEYS)
    assert library.RUNTIME_BACKENDS == ("CPU", "CUDA")
    assert library.DEVICE_KEYS == frozenset({"CUDA"})
    assert library.FALLBACK_KEYS == ("Common",) + library.COMPOSITES
