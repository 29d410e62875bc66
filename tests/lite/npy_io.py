"""Just enough of NumPy's .npy format for the tests, without numpy (Bazel's python has
none): read an array's dtype, shape and values; write one. Independent of lite/npy.cc."""

import ast
import struct
from array import array

# numpy descr -> (name, array typecode)
_TYPES = {
    "<f4": ("float32", "f"),
    "<f8": ("float64", "d"),
    "<i8": ("int64", "q"),
    "<i4": ("int32", "i"),
    "|i1": ("int8", "b"),
    "|u1": ("uint8", "B"),
    "|b1": ("bool", "B"),
}


def read(path):
    """(dtype name, shape tuple, flat list of values) of the .npy file at path."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", f"{path}: not a .npy file"
    major = data[6]
    if major == 1:
        (hlen,) = struct.unpack_from("<H", data, 8)
        start = 10
    else:
        (hlen,) = struct.unpack_from("<I", data, 8)
        start = 12
    header = ast.literal_eval(data[start : start + hlen].decode("latin1"))
    assert not header["fortran_order"]
    name, code = _TYPES[header["descr"]]
    values = array(code)
    values.frombytes(data[start + hlen :])
    return name, tuple(header["shape"]), list(values)


def write(path, descr, shape, values):
    """Writes values (flat) as a .npy file of numpy descr `descr` and `shape`."""
    _, code = _TYPES[descr]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %r, }" % (descr, tuple(shape))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(array(code, values).tobytes())
