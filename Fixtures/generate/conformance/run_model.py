"""Child process: run one .tflite model with one LiteRT op resolver.

Usage: run_model.py MODEL RESOLVER OUTDIR INPUT_0.npy [INPUT_1.npy ...]

Runs in its own process because the reference resolver (BUILTIN_REF) aborts
the whole process on some models; the parent sees a signal exit code instead
of dying with it.  Writes OUTDIR/out_<i>.npy (model output order) and
OUTDIR/ops.json (op names LiteRT resolved, for the parent to cross-check).
"""
import json
import os
import sys

import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType


def main():
    model_path, resolver, outdir = sys.argv[1:4]
    input_paths = sys.argv[4:]
    with open(model_path, "rb") as f:
        content = f.read()
    interp = Interpreter(
        model_content=content,
        experimental_op_resolver_type=OpResolverType[resolver],
        num_threads=1,
    )
    interp.allocate_tensors()
    ins = interp.get_input_details()
    if len(ins) != len(input_paths):
        raise SystemExit(f"model has {len(ins)} inputs, got {len(input_paths)}")
    for detail, path in zip(ins, input_paths):
        interp.set_tensor(detail["index"], np.load(path))
    interp.invoke()
    for i, detail in enumerate(interp.get_output_details()):
        np.save(os.path.join(outdir, f"out_{i}.npy"), interp.get_tensor(detail["index"]))
    ops = [op["op_name"] for op in interp._get_ops_details()]
    with open(os.path.join(outdir, "ops.json"), "w") as f:
        json.dump(ops, f)


if __name__ == "__main__":
    main()
