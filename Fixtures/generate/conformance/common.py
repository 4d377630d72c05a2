"""Shared pieces of the conformance corpus generator.

A case is declared as a `Case`: the op we intend to exercise, the dtype path,
the parameters that change the arithmetic, the model inputs and a builder that
returns the .tflite bytes.  `generate.py` turns every case into a folder
`Fixtures/conformance/<OP>/<case_id>/`.
"""
from __future__ import annotations

import dataclasses
import zlib
from typing import Callable, Optional

import numpy as np

GENERATOR_VERSION = 1


@dataclasses.dataclass
class In:
    """One model input.

    Float inputs are drawn uniformly from [lo, hi].  For quantized models the
    same range is used for calibration / fake-quant, and the test input is
    random integer codes over the whole quantized range (every code is legal
    input, and it exercises the extremes).  `values` fixes the input exactly.
    """
    shape: tuple
    lo: float = -1.0
    hi: float = 1.0
    dtype: str = "float32"
    values: Optional[np.ndarray] = None


@dataclasses.dataclass
class Case:
    op: str                      # TFLite op name the model must contain
    case_id: str                 # unique within op
    dtype: str                   # float32 | int8 | uint8 | float16_weights
    params: dict
    inputs: list                 # list[In]
    build: Callable              # build(case, rng) -> bytes
    tolerance: str = ""         # default derived from dtype
    allow_constant_output: bool = False
    # Extra op names that may legitimately appear next to `op`.
    aux_ops: tuple = ()
    # Input dtype the `op` must read (defaults from dtype path).
    op_input_dtype: Optional[str] = None
    # For quantized cases: how to make test inputs ("codes" or "float").
    input_mode: str = "codes"
    fn: Optional[Callable] = None     # op body, used by the builders
    # Extra acceptance check on the expected outputs: reason string or None.
    validate: Optional[Callable] = None
    extra: dict = dataclasses.field(default_factory=dict)

    @property
    def seed(self) -> int:
        return zlib.crc32(f"{self.op}/{self.case_id}".encode())

    def rng(self, stream: int) -> np.random.Generator:
        """Independent deterministic streams: 0 constants, 1 inputs, 2 calibration."""
        return np.random.default_rng([self.seed, stream])


def uniform(rng, shape, lo, hi, dtype=np.float32):
    return rng.uniform(lo, hi, size=shape).astype(dtype)


def weights(rng, shape, scale=None):
    """Random weights with a fan-in scaled range so outputs stay O(1)."""
    if scale is None:
        fan_in = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
        scale = 1.5 / np.sqrt(max(fan_in, 1))
    return rng.uniform(-scale, scale, size=shape).astype(np.float32)


def near_constant(arr: np.ndarray) -> Optional[str]:
    """Reason string if an output carries too little information to test with."""
    flat = np.asarray(arr).reshape(-1)
    if flat.size <= 1:
        return None
    if flat.dtype.kind == "f" and not np.all(np.isfinite(flat)):
        return "non-finite values in output"
    values, counts = np.unique(flat, return_counts=True)
    if values.size == 1:
        return "constant output"
    if flat.size >= 8 and values.size < min(4, flat.size):
        return f"only {values.size} distinct values"
    if flat.size >= 8 and counts.max() > 0.8 * flat.size:
        return f"{counts.max()}/{flat.size} elements share one value"
    return None


PREFIX = {"float32": "f32", "int8": "i8", "uint8": "u8", "float16_weights": "f16w"}


def variant(base: Case, dtype: str, build, case_id: str = "", **changes) -> Case:
    """The same op body on another dtype path; ids are prefixed by the path."""
    cid = f"{PREFIX[dtype]}_{case_id or base.case_id}"
    return dataclasses.replace(base, dtype=dtype, build=build, case_id=cid, **changes)
