"""Shared set-up for the demo-bundle scripts: determinism, LiteRT reference runs, files.

Importing this module pins TensorFlow to one thread and deterministic kernels before any
op runs, so every script that imports it first trains and converts the same way each time.
"""
from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
os.environ.setdefault("TF_DETERMINISTIC_OPS", "1")
os.environ.setdefault("PYTHONHASHSEED", "0")
# oneDNN reorders float sums by CPU features; the plain kernels are the same everywhere.
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")
# One thread everywhere: the machines are shared, and float sums then have one order.
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(var, "1")

import hashlib
import json
import pathlib

import numpy as np
import tensorflow as tf

tf.config.threading.set_intra_op_parallelism_threads(1)
tf.config.threading.set_inter_op_parallelism_threads(1)
tf.config.experimental.enable_op_determinism()

ROOT = pathlib.Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "Fixtures"
BUNDLES = FIXTURES / "bundles"
IMAGES = FIXTURES / "images"


def seed_everything(seed: int) -> None:
    """Python, NumPy and TensorFlow (Keras initialisers, shuffles, dropout) from one seed."""
    tf.keras.utils.set_random_seed(seed)


def reference_interpreter(model: bytes):
    """LiteRT with its reference kernels: the numbers our Swift runtime must reproduce."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    it = Interpreter(model_content=model, num_threads=1,
                     experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    return it


def invoke(it, *inputs: np.ndarray) -> list[np.ndarray]:
    for d, x in zip(it.get_input_details(), inputs):
        it.set_tensor(d["index"], x)
    it.invoke()
    return [it.get_tensor(d["index"]).copy() for d in it.get_output_details()]


def tensor_description(d: dict) -> dict:
    scale, zero = d["quantization"]
    return {"name": d["name"], "shape": [int(v) for v in d["shape"]],
            "dtype": np.dtype(d["dtype"]).name, "scale": float(scale), "zero_point": int(zero)}


def op_names(model: bytes) -> list[str]:
    """Operator names in execution order, custom ops by their custom code."""
    import tflite

    m = tflite.Model.GetRootAsModel(model, 0)
    builtin = {v: k for k, v in vars(tflite.BuiltinOperator).items() if not k.startswith("_")}
    sg = m.Subgraphs(0)
    names = []
    for i in range(sg.OperatorsLength()):
        code = m.OperatorCodes(sg.Operators(i).OpcodeIndex())
        op = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        names.append(code.CustomCode().decode() if code.CustomCode() else builtin[op])
    return names


def frozen(fn):
    """The tf.function's concrete graph with every variable folded to a constant, so the
    converter sees plain weights (Keras 3 variables otherwise stay resource reads)."""
    from tensorflow.python.framework.convert_to_constants import (
        convert_variables_to_constants_v2)

    return convert_variables_to_constants_v2(fn.get_concrete_function())


def write_json(path: pathlib.Path, value) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(value, indent=2) + "\n")


def write_png(path: pathlib.Path, rgb: np.ndarray) -> None:
    """8-bit RGB PNG with no timestamp or other varying chunk."""
    import skimage.io

    assert rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[2] == 3
    path.parent.mkdir(parents=True, exist_ok=True)
    skimage.io.imsave(str(path), rgb, check_contrast=False)


def read_png(path: pathlib.Path) -> np.ndarray:
    import skimage.io

    return np.asarray(skimage.io.imread(path))


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
