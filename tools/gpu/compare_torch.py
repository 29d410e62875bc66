#!/usr/bin/env python3
"""Times the rows of //bench:cuda_bench with PyTorch's CUDA kernels on the same GPU.

Reads cuda_bench's output (lines `row NAME median_us min_us max_us UNIT RATE`), runs the
same float32 operation on the same sizes with PyTorch (TF32 off, as our kernels compute
in plain float32), and prints each row's medians and our speed relative to PyTorch's
(PyTorch's time over ours: 1.0 is parity, above 1 we are faster). A device-to-device copy
of 64 MB gives the bandwidth ceiling the GB/s rows sit under.

    tools/gpu/compare_torch.py cuda_bench.txt
"""

import statistics
import sys

import torch

# cuda_bench's sizes: 16M-element vectors (64 MB of float32) and 4096 x 4096 matrices.
N, M = 16 << 20, 4096


def _median_us(fn, rounds=11, calls=20):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    samples = []
    for _ in range(rounds):
        start = torch.cuda.Event(enable_timing=True)
        stop = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(calls):
            fn()
        stop.record()
        stop.synchronize()
        samples.append(start.elapsed_time(stop) * 1e3 / calls)
    return statistics.median(samples), min(samples), max(samples)


def _rows():
    """Each row of cuda_bench as a PyTorch call on the same sizes and values."""
    cuda = torch.device("cuda")

    def full(*sizes, value):
        return torch.full(sizes, value, dtype=torch.float32, device=cuda)

    n, m = N, M
    a, b, out = full(n, value=1.0), full(n, value=2.0), full(n, value=0.0)
    x, y, z = full(m, m, value=0.5), full(m, m, value=0.25), full(m, m, value=0.0)
    rows = full(m, value=0.0)
    gamma, beta = full(m, value=1.0), full(m, value=0.0)
    image, weight = full(8, 64, 56, 56, value=0.5), full(64, 64, 3, 3, value=0.01)
    return {
        "add_16M": (lambda: torch.add(a, b, out=out), 20),
        "relu_16M": (lambda: torch.relu(a), 20),  # no out= overload: the caching allocator
        "sum_16M": (lambda: torch.sum(a), 20),
        "sum_rows_4096": (lambda: torch.sum(x, dim=1, out=rows), 20),
        "softmax_4096": (lambda: torch._softmax(x, 1, False), 20),
        "layer_norm_4096": (lambda: torch.native_layer_norm(x, [m], gamma, beta, 1e-5), 20),
        "mm_4096": (lambda: torch.mm(x, y, out=z), 3),
        "conv3x3_56": (lambda: torch.conv2d(image, weight, None, 1, 1), 3),
        "copy_64MB": (lambda: out.copy_(a), 20),
    }


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: compare_torch.py CUDA_BENCH_OUTPUT")
    if not torch.cuda.is_available():
        print("compare_torch.py: PyTorch sees no CUDA device: nothing to compare")
        return
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    ours = {}
    with open(argv[1], encoding="utf-8") as f:
        for line in f:
            fields = line.split()
            if len(fields) == 7 and fields[0] == "row" and fields[1] != "NAME":
                ours[fields[1]] = (float(fields[2]), fields[5], float(fields[6]))
    rows = _rows()
    print(f"{torch.cuda.get_device_name()}, PyTorch {torch.__version__}, float32, TF32 off")
    median, _, _ = _median_us(rows["copy_64MB"][0])
    moved = 2 * N * 4  # bytes read and written
    print(f"ceiling: PyTorch's 64 MB device-to-device copy {moved / median / 1e3:.0f} GB/s")
    print(f"{'row':16} {'ours us':>10} {'torch us':>10} {'ours rate':>17} {'x torch':>8}")
    for name, (our_us, unit, rate) in ours.items():
        fn, calls = rows[name]
        torch_us, _, _ = _median_us(fn, calls=calls)
        print(
            f"{name:16} {our_us:10.1f} {torch_us:10.1f} {rate:9.1f} {unit:7} {torch_us / our_us:8.2f}"
        )


if __name__ == "__main__":
    main(sys.argv)
