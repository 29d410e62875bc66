#!/usr/bin/env python3
"""Writes the model files of //bench:lite_bench's side-by-side section into OUT_DIR.

    python bench/peers/export_peer_models.py OUT_DIR [--formats=sopsm,onnx,pte]
                                                     [--only=mlp,resnet18,...]

OUT_DIR must lie outside the checkout (these files are large and never committed); the
benchmark reads it with `--peer-models=OUT_DIR`. Each runtime wants the torch it was
built with, so the script runs once per virtual environment and makes, by default, what
that environment can (--formats names them; a named one it cannot make is an error):

  sopsm  (torch 2.13 + torchvision): MobileNetV2 and ResNet18 from torchvision at
         224x224, random weights (torch.manual_seed(0); no network) with batch-norm
         statistics averaged over 4 random batches, eval mode, exported
         with torch.export: OUT_DIR/NAME/{model.pt2, model.sopsm (our converter,
         lite/python/export_model.py), input0.npy, expected0.npy (eager PyTorch)}.
         Run this first: the other formats read its model.pt2.
  onnx   (torch 2.13 + onnx + onnxscript): OUT_DIR/NAME/model.onnx through
         torch.onnx.export(dynamo=True) of the same exported program.
  pte    (executorch 1.5): OUT_DIR/NAME/portable.pte (to_edge(...).to_executorch():
         ExecuTorch's portable kernels) and OUT_DIR/NAME/xnnpack.pte
         (to_edge_transform_and_lower with the XnnpackPartitioner).

Every format starts from the same torch.export archive, so every runtime computes with
the same weights: models/NAME/model.pt2 for the example models (made by
models/make_models.py), OUT_DIR/NAME/model.pt2 for the torchvision ones. A model a
format cannot export gets OUT_DIR/NAME/<file>.failed holding the reason in one line
(the benchmark prints it) and the script goes on; it exits 1 when anything failed.
"""

import argparse
import os
import sys
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
PROG = "export_peer_models.py"

EXAMPLE_MODELS = ["mlp", "cnn", "transformer", "bert", "llama", "vit_swin", "convgn"]
VISION_MODELS = ["mobilenet_v2", "resnet18"]
FORMATS = ["sopsm", "onnx", "pte"]
# What each format needs, and the install that gives it (for the error and the docs).
NEEDS = {
    "sopsm": (["torch", "torchvision"], "pip install torch==2.13.0 torchvision"),
    "onnx": (["torch", "onnx", "onnxscript"], "pip install torch==2.13.0 onnx onnxscript"),
    "pte": (["torch", "executorch"], "pip install executorch==1.5.1 (its own venv)"),
}


class CliError(Exception):
    """One line for the user (without the program's name)."""


def _importable(module: str) -> bool:
    import importlib.util  # pylint: disable=import-outside-toplevel

    return importlib.util.find_spec(module) is not None


def _missing(fmt: str) -> list:
    return [m for m in NEEDS[fmt][0] if not _importable(m)]


def _inside(path: str, folder: str) -> bool:
    path, folder = os.path.realpath(path), os.path.realpath(folder)
    return path == folder or path.startswith(folder + os.sep)


def parse_args(argv):
    """The options, checked: OUT_DIR outside the checkout, known formats and models,
    and each named format's packages importable. Raises CliError."""
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", metavar="OUT_DIR", help="a folder outside the checkout")
    parser.add_argument(
        "--formats",
        default="",
        help="comma-separated, of " + ", ".join(FORMATS) + " (default: what this venv can make)",
    )
    parser.add_argument(
        "--only", default="", help="comma-separated model names (default: all of them)"
    )
    args = parser.parse_args(argv)
    if _inside(args.out_dir, REPO):
        raise CliError(
            f"OUT_DIR {args.out_dir} is inside the checkout; choose a folder outside it "
            "(model files are never committed)"
        )
    names = [n for n in args.only.split(",") if n]
    unknown = [n for n in names if n not in EXAMPLE_MODELS + VISION_MODELS]
    if unknown:
        raise CliError(
            f"unknown model(s) {','.join(unknown)}; known: "
            + ",".join(EXAMPLE_MODELS + VISION_MODELS)
        )
    args.models = names or EXAMPLE_MODELS + VISION_MODELS
    formats = [f for f in args.formats.split(",") if f]
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise CliError(f"unknown format(s) {','.join(unknown)}; known: {','.join(FORMATS)}")
    for fmt in formats:
        missing = _missing(fmt)
        if missing:
            raise CliError(
                f"--formats={fmt} needs {', '.join(missing)} in this Python "
                f"({sys.executable}): {NEEDS[fmt][1]}"
            )
    if not formats:
        formats = [f for f in FORMATS if not _missing(f)]
        if not formats:
            raise CliError(
                "this Python can make none of the formats: "
                + "; ".join(f"{f}: {NEEDS[f][1]}" for f in FORMATS)
            )
    args.formats = formats
    return args


def _program_path(name: str, out_dir: str) -> str:
    if name in EXAMPLE_MODELS:
        return os.path.join(REPO, "models", name, "model.pt2")
    return os.path.join(out_dir, name, "model.pt2")


def _load_program(name: str, out_dir: str):
    import torch  # pylint: disable=import-outside-toplevel

    path = _program_path(name, out_dir)
    if not os.path.exists(path):
        how = (
            "run models/make_models.py"
            if name in EXAMPLE_MODELS
            else "run this script with --formats=sopsm first (torch 2.13 + torchvision)"
        )
        raise CliError(f"{path} does not exist: {how}")
    return torch.export.load(path)


def _import_torchvision():
    """torchvision, for its model definitions alone. PyPI's torchvision wheels are CUDA
    builds: beside a CPU torch their C++ operators (nms, roi_align) do not load and
    registering their Meta kernels fails on import. The models use none of them, so
    that registration is skipped then."""
    # pylint: disable=import-outside-toplevel
    import types

    try:
        import torchvision
    except RuntimeError as e:
        if "torchvision::" not in str(e):
            raise
        for module in [m for m in sys.modules if m.startswith("torchvision")]:
            del sys.modules[module]
        sys.modules["torchvision._meta_registrations"] = types.ModuleType(
            "torchvision._meta_registrations"
        )
        import torchvision
    return torchvision


def write_sopsm(name: str, folder: str) -> None:
    """MobileNetV2/ResNet18 from torchvision: model.pt2, model.sopsm and the arrays."""
    # pylint: disable=import-outside-toplevel
    import numpy as np
    import torch

    torchvision = _import_torchvision()
    sys.path.insert(0, os.path.join(REPO, "lite", "python"))
    sys.path.insert(0, os.path.join(REPO, "models"))
    import export_model
    from portable_archives import export_without_stack_traces

    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(weights=None)
    # Batch-norm statistics from data (the average over 4 random batches), as a trained
    # model has: with the initial ones (mean 0, variance 1) MobileNetV2's outputs shrink
    # to about 1e-9, and comparing the runtimes' outputs would show nothing.
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.reset_running_stats()
            module.momentum = None  # a cumulative average
    model.train()
    with torch.no_grad():
        for _ in range(4):
            model(torch.randn(4, 3, 224, 224))
    model.eval()
    inputs = (torch.randn(1, 3, 224, 224),)
    path = os.path.join(folder, "model.pt2")
    torch.export.save(export_without_stack_traces(torch.export.export(model, inputs)), path)
    with open(os.path.join(folder, "model.sopsm"), "wb") as f:
        f.write(export_model.convert(path))
    with torch.no_grad():
        expected = model(*inputs)
    np.save(os.path.join(folder, "input0.npy"), inputs[0].numpy())
    np.save(os.path.join(folder, "expected0.npy"), expected.numpy())


def write_onnx(name: str, folder: str, out_dir: str) -> None:
    import torch  # pylint: disable=import-outside-toplevel

    ep = _load_program(name, out_dir)
    path = os.path.join(folder, "model.onnx")
    onnx_program = torch.onnx.export(ep, f=None, dynamo=True, optimize=True, verbose=False)
    onnx_program.save(path, external_data=False)


def write_pte(name: str, folder: str, out_dir: str) -> int:
    """portable.pte and xnnpack.pte; returns how many failed."""
    # pylint: disable=import-outside-toplevel
    from executorch.backends.xnnpack.partition.xnnpack_partitioner import XnnpackPartitioner
    from executorch.exir import to_edge, to_edge_transform_and_lower

    makers = {
        "portable.pte": lambda ep: to_edge(ep).to_executorch(),
        "xnnpack.pte": lambda ep: to_edge_transform_and_lower(
            ep, partitioner=[XnnpackPartitioner()]
        ).to_executorch(),
    }
    failures = 0
    for file, make in makers.items():
        # A fresh program each: lowering may change the one it is given.
        action = lambda make=make, file=file: _write(  # noqa: E731
            folder, file, make(_load_program(name, out_dir)).buffer
        )
        failures += not _attempt(folder, file, action)
    return failures


def _write(folder: str, file: str, data: bytes) -> None:
    with open(os.path.join(folder, file), "wb") as f:
        f.write(data)


def _attempt(folder: str, file: str, action) -> bool:
    """Runs action(); on failure writes FILE.failed with the reason, on success removes
    a stale one. Returns whether it succeeded."""
    failed = os.path.join(folder, file + ".failed")
    try:
        action()
    except Exception as e:  # pylint: disable=broad-exception-caught
        lines = [line.strip() for line in str(e).splitlines() if line.strip()]
        reason = f"{type(e).__name__}: {lines[0] if lines else ''}"[:400]
        with open(failed, "w", encoding="utf-8") as f:
            f.write(reason + "\n")
        print(f"  {os.path.basename(folder)}/{file}: FAILED: {reason}", flush=True)
        if os.environ.get("EXPORT_PEER_MODELS_TRACEBACK"):
            traceback.print_exc()
        return False
    if os.path.exists(failed):
        os.remove(failed)
    print(f"  {os.path.basename(folder)}/{file}: written", flush=True)
    return True


def run(args) -> int:
    import warnings  # pylint: disable=import-outside-toplevel

    warnings.filterwarnings("ignore")
    failures = 0
    # sopsm before the others: they read the model.pt2 it writes.
    for fmt in [f for f in FORMATS if f in args.formats]:
        print(f"{PROG}: {fmt} into {args.out_dir}", flush=True)
        for name in args.models:
            folder = os.path.join(args.out_dir, name)
            os.makedirs(folder, exist_ok=True)
            if fmt == "sopsm":
                if name in VISION_MODELS:  # the example models' are in models/
                    action = lambda name=name, folder=folder: write_sopsm(name, folder)  # noqa: E731
                    failures += not _attempt(folder, "model.sopsm", action)
            elif fmt == "onnx":
                action = lambda name=name, folder=folder: write_onnx(  # noqa: E731
                    name, folder, args.out_dir
                )
                failures += not _attempt(folder, "model.onnx", action)
            else:
                failures += write_pte(name, folder, args.out_dir)
    return 1 if failures else 0


def main(argv=None) -> int:
    try:
        return run(parse_args(sys.argv[1:] if argv is None else argv))
    except CliError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
