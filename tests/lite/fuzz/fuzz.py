"""The structure-aware fuzzer of the lite runtime: mutants of well-formed models and of
their .npy inputs, each run through the `lite_runtime` command line and classified
(runner.py). Deterministic for a seed: case k of a run is drawn from Random(seed, k).

  python3 tests/lite/fuzz/fuzz.py --runtime bazel-bin/ops/lite_runtime \\
      --models models --seed 1 --count 2000 --save /tmp/found

Every BAD case is written to --save as NAME.sopsm with NAME.in0.npy, ... beside it (the
layout of corpus/, which the test replays), NAME saying what was mutated.
"""

import argparse
import collections
import copy
import glob
import os
import random
import re
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "lite", "python"))

import lite_model  # noqa: E402
import mutate  # noqa: E402
import npy_files  # noqa: E402
import runner  # noqa: E402
import seeds  # noqa: E402


@dataclass
class Case:
    name: str
    command: str
    model: bytes
    inputs: list  # .npy bytes, one per model input


def load_seeds(models_dir=None):
    """(name, LiteModel): the built seeds, and the example models under `models_dir`.

    Models with symbols (version 2: models/*_dynamic) are left out: their inputs have no
    one shape to make .npy files from (npy_files.input_npy takes static sizes).
    """
    found = list(seeds.seed_models())
    if models_dir:
        for path in sorted(glob.glob(os.path.join(models_dir, "*", "model.sopsm"))):
            with open(path, "rb") as f:
                model = lite_model.parse(f.read())
            if not model.symbols:
                found.append((os.path.basename(os.path.dirname(path)), model))
    return found


def serialize(model, unchecked):
    """The model's bytes; `unchecked` skips the writer's checks (for the loader to refuse)."""
    if not unchecked:
        return lite_model.serialize(model)
    saved = lite_model.validate
    lite_model.validate = lambda m: None
    try:
        return lite_model.serialize(model)
    finally:
        lite_model.validate = saved


def slug(parts):
    text = "+".join(parts) or "seed"
    text = re.sub(r"[^A-Za-z0-9_.=+-]+", "-", text.replace("::", "-"))
    return text[:120].strip("-.")


def make_case(rng, seed_list):
    """One mutant: of the model (nine in ten) or of one of its .npy inputs."""
    seed_name, original = rng.choice(seed_list)
    model = copy.deepcopy(original)
    command = "shapes" if rng.random() < 0.2 else "run"
    if rng.random() < 0.9 or not model.inputs:
        unchecked = rng.random() < 0.1
        for _ in range(8):  # a mutant the writer refuses: draw again
            candidate = copy.deepcopy(original)
            applied = mutate.mutate_model(rng, candidate, unchecked)
            try:
                data = serialize(candidate, unchecked)
            except (lite_model.LiteModelError, OverflowError, TypeError, ValueError, KeyError):
                continue
            model = candidate
            break
        else:
            return None
        inputs = [npy_files.input_npy(i.desc) for i in model.inputs]
        return Case(slug([seed_name] + applied), command, data, inputs)
    data = lite_model.serialize(model)
    inputs = [npy_files.input_npy(i.desc) for i in model.inputs]
    k = rng.randrange(len(inputs))
    inputs[k], label = npy_files.mutate_npy(rng, inputs[k], model.inputs[k].desc)
    return Case(slug([seed_name, f"in{k}", label]), command, data, inputs)


def write_case(folder, name, model_bytes, inputs):
    """NAME.sopsm and NAME.in<k>.npy in `folder`; the model's path and the inputs' paths."""
    model_path = os.path.join(folder, name + ".sopsm")
    with open(model_path, "wb") as f:
        f.write(model_bytes)
    paths = []
    for k, data in enumerate(inputs):
        paths.append(os.path.join(folder, f"{name}.in{k}.npy"))
        with open(paths[-1], "wb") as f:
            f.write(data)
    return model_path, paths


def corpus_inputs(model_path):
    """The .npy files beside a corpus model, in order."""
    stem = model_path[: -len(".sopsm")]
    return sorted(glob.glob(stem + ".in*.npy"), key=lambda p: int(p.rsplit(".in", 1)[1][:-4]))


def run_one(binary, case, timeout_s, asan):
    with tempfile.TemporaryDirectory(prefix="fuzz_case_") as folder:
        model_path, input_paths = write_case(folder, "case", case.model, case.inputs)
        return runner.run_case(binary, case.command, model_path, input_paths, timeout_s, asan)


def fuzz(binary, seed_list, seed, count, budget_s, timeout_s, workers=2, save=None, log=print):
    """Runs up to `count` mutants (or for `budget_s` seconds); the verdicts' counts and
    the BAD cases as (case, result)."""
    asan = runner.is_asan(binary)
    deadline = time.monotonic() + budget_s
    counts = collections.Counter()
    bad = []

    def one(k):
        if time.monotonic() > deadline:
            return None
        case = make_case(random.Random(f"{seed}:{k}"), seed_list)
        if case is None:
            return None
        return case, run_one(binary, case, timeout_s, asan)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        for outcome in pool.map(one, range(count)):
            if outcome is None:
                counts["skipped"] += 1
                continue
            case, result = outcome
            counts[result.verdict] += 1
            if result.bad:
                bad.append((case, result))
                log(f"BAD {result.verdict} ({case.command}) {case.name}: {result.stderr[-2000:]}")
                if save:
                    os.makedirs(save, exist_ok=True)
                    write_case(
                        save,
                        f"{result.verdict}.{case.command}.{case.name}",
                        case.model,
                        case.inputs,
                    )
    return counts, bad


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runtime", required=True, help="the lite_runtime binary")
    parser.add_argument("--models", help="the models/ folder (example models as seeds)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--budget", type=float, default=600, help="seconds in all")
    parser.add_argument("--timeout", type=float, default=10, help="seconds per run")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--save", help="a folder for the BAD cases")
    args = parser.parse_args()
    counts, bad = fuzz(
        args.runtime,
        load_seeds(args.models),
        args.seed,
        args.count,
        args.budget,
        args.timeout,
        args.workers,
        args.save,
    )
    print(dict(sorted(counts.items())))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
