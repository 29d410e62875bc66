"""Writes testdata/npy/*.npy with numpy.save: the bytes lite/npy.cc must read and write
exactly. Run with numpy (any recent version): python3 tests/lite/make_npy_testdata.py"""

import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "testdata", "npy")


def main():
    os.makedirs(OUT, exist_ok=True)
    arrays = {
        "float32_0d": np.array(1.5, dtype=np.float32),
        "float64_1d": np.array([1.0, -2.5, 3.25]),
        "float16_2d": np.array([[0.5, -1.0], [2.0, 65504.0]], dtype=np.float16),
        "int64_2d": np.arange(6, dtype=np.int64).reshape(2, 3) - 2,
        "int32_1d": np.array([7, -8, 9, 2**31 - 1, -(2**31)], dtype=np.int32),
        "int8_1d": np.array([-128, -1, 0, 127], dtype=np.int8),
        "uint8_2d": np.array([[0, 255], [1, 128]], dtype=np.uint8),
        "bool_1d": np.array([True, False, True]),
        "float32_empty": np.zeros((0, 3), dtype=np.float32),
    }
    # A shape whose header ends exactly at a multiple of 64 bytes: numpy then pads 64 more.
    for extra in range(0, 64):
        shape = (0, 1) + (1,) * extra
        header = "{'descr': '<f4', 'fortran_order': False, 'shape': %r, }" % (shape,)
        if (10 + len(header) + 1) % 64 == 0:
            arrays["float32_aligned_header"] = np.zeros(shape, dtype=np.float32)
            break
        shape = (0, 10) + (1,) * extra
        header = "{'descr': '<f4', 'fortran_order': False, 'shape': %r, }" % (shape,)
        if (10 + len(header) + 1) % 64 == 0:
            arrays["float32_aligned_header"] = np.zeros(shape, dtype=np.float32)
            break
    for name, a in arrays.items():
        np.save(os.path.join(OUT, name + ".npy"), a)


if __name__ == "__main__":
    main()
