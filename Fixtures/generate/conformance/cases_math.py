"""Elementwise math, comparison and selection cases (float32, int32/int64, bool, int8, uint8).

Bool and SIGN outputs have two or three values, so they cannot pass the near-constant
rule; they get `_every_value` instead: each possible value appears at least twice.
Integer divisors are drawn without zeros (TFLite refuses a zero integer divisor).
"""
import zlib

import numpy as np
import tensorflow as tf

from common import Case, In, variant
from converters import build_float, build_int8, build_uint8

SH = (2, 3, 4)


def _every_value(*values):
    def check(outputs):
        for a in outputs:
            for v in values:
                if np.count_nonzero(a == v) < 2:
                    return f"output has {np.count_nonzero(a == v)} elements equal to {v}"
        return None
    return check


_both_values = _every_value(False, True)


def _values(name, shape, kind, lo=-9, hi=9):
    """Fixed seeded input values (bool tensors, integer divisors without zeros)."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    if kind == "bool":
        return rng.random(shape) < 0.5
    v = rng.integers(lo, hi + 1, size=shape)
    if kind == "nonzero":
        v[v == 0] = 1
    return v


def F(op, cid, params, inputs, fn, **kw):
    return Case(op=op, case_id=cid, dtype="float32", params=params, inputs=inputs, build=build_float, fn=fn, **kw)


def unary_float():
    gelu = lambda approx: (lambda x: tf.nn.gelu(x, approximate=approx))
    return [
        ("ABS", "basic", tf.abs, -3, 3),
        ("NEG", "basic", tf.negative, -3, 3),
        ("LOG", "basic", tf.math.log, 0.01, 20),
        ("SIN", "basic", tf.sin, -7, 7),
        ("COS", "basic", tf.cos, -7, 7),
        ("FLOOR", "basic", tf.floor, -5, 5),
        ("CEIL", "basic", tf.math.ceil, -5, 5),
        ("SQUARE", "basic", tf.square, -3, 3),
        ("ELU", "basic", tf.nn.elu, -4, 3),
        ("GELU", "exact", gelu(False), -4, 4),
        ("GELU", "approximate", gelu(True), -4, 4),
    ]


def float_cases():
    out = []
    for op, cid, f, lo, hi in unary_float():
        out.append(F(op, cid, dict(input=SH), [In(SH, lo, hi)], lambda r, x, f=f: f(x)))
    signs = (_values("SIGN/f32", SH, "int", -3, 3) * 0.75).astype(np.float32)
    out.append(F("SIGN", "basic", dict(input=SH), [In(SH, values=signs)], lambda r, x: tf.sign(x),
                 allow_constant_output=True, validate=_every_value(-1, 0, 1)))
    # ROUND: halves of both parities and signs, plus random values.
    halves = np.concatenate([np.arange(-5.5, 6, 1.0), _values("ROUND/halves", (12,), "int") * 0.37]).astype(np.float32)
    out.append(F("ROUND", "halves", dict(input=(24,), values="±k+0.5 and random"),
                 [In((24,), values=halves)], lambda r, x: tf.round(x)))
    # Binary float ops, with broadcasting.
    out.append(F("POW", "positive_base", dict(lhs=SH, rhs=(4,)), [In(SH, 0.1, 3), In((4,), -2, 2)],
                 lambda r, x, y: tf.pow(x, y)))
    div = np.where(_values("FLOOR/div", SH, "int") >= 0, 1, -1) * np.linspace(0.5, 2, 24).reshape(SH)
    for op, f in (("FLOOR_DIV", tf.math.floordiv), ("FLOOR_MOD", tf.math.floormod)):
        out.append(F(op, "signs", dict(lhs=SH, rhs=SH), [In(SH, -6, 6), In(SH, values=div.astype(np.float32))],
                     lambda r, x, y, f=f: f(x, y)))
        out.append(F(op, "bcast_scalar", dict(lhs=SH, rhs=()), [In(SH, -6, 6), In((), values=np.float32(-1.5))],
                     lambda r, x, y, f=f: f(x, y)))
    return out


def int_cases():
    out = []
    isigns = _values("SIGN/i32", SH, "int", -3, 3)
    out.append(F("SIGN", "int32", dict(input=SH, dtype="int32"), [In(SH, values=isigns, dtype="int32")],
                 lambda r, x: tf.sign(x), op_input_dtype="int32", allow_constant_output=True,
                 validate=_every_value(-1, 0, 1)))
    for op, f, dt in (("ABS", tf.abs, "int32"), ("NEG", tf.negative, "int32"), ("NEG", tf.negative, "int64")):
        out.append(F(op, f"{dt}", dict(input=SH, dtype=dt), [In(SH, -1000, 1000, dtype=dt)],
                     lambda r, x, f=f: f(x), op_input_dtype=dt))
    for op, f, dt in (("FLOOR_DIV", tf.math.floordiv, "int32"), ("FLOOR_MOD", tf.math.floormod, "int32"),
                      ("FLOOR_MOD", tf.math.floormod, "int64")):
        den = np.array([5, -3, 7, -6])
        out.append(F(op, f"{dt}_bcast", dict(lhs=SH, rhs=(4,), dtype=dt),
                     [In(SH, -50, 50, dtype=dt), In((4,), values=den, dtype=dt)],
                     lambda r, x, y, f=f: f(x, y), op_input_dtype=dt))
    exps = _values("POW/int32", SH, "int", 0, 5)
    out.append(F("POW", "int32", dict(lhs=SH, rhs=SH, dtype="int32"),
                 [In(SH, -6, 6, dtype="int32"), In(SH, values=exps, dtype="int32")],
                 lambda r, x, y: tf.pow(x, y), op_input_dtype="int32"))
    return out


def logical_cases():
    out = []
    a = _values("LOGICAL/a", SH, "bool")
    # The right operand is mostly the op's neutral value, so the left one shows through.
    for op, f, b in (("LOGICAL_AND", tf.logical_and, np.array([True, False, True, True])),
                     ("LOGICAL_OR", tf.logical_or, np.array([False, True, False, False]))):
        out.append(F(op, "bcast", dict(lhs=SH, rhs=(4,)), [In(SH, values=a, dtype="bool"), In((4,), values=b, dtype="bool")],
                     lambda r, x, y, f=f: f(x, y), op_input_dtype="bool", allow_constant_output=True,
                     validate=_both_values))
    out.append(F("LOGICAL_NOT", "basic", dict(input=SH), [In(SH, values=a, dtype="bool")],
                 lambda r, x: tf.logical_not(x), op_input_dtype="bool", allow_constant_output=True,
                 validate=_both_values))
    return out


COMPARISONS = {"EQUAL": tf.equal, "NOT_EQUAL": tf.not_equal, "LESS": tf.less, "LESS_EQUAL": tf.less_equal,
               "GREATER": tf.greater, "GREATER_EQUAL": tf.greater_equal}


def comparison_bodies():
    """(op, case_id, inputs, fn, op_input_dtype) for the float and integer paths."""
    out = []
    for op, f in COMPARISONS.items():
        # Few distinct values, so that EQUAL and the *_EQUAL relations meet ties.
        ties_a = (_values(f"{op}/a", SH, "int", -2, 2) * 0.5).astype(np.float32)
        ties_b = (_values(f"{op}/b", (4,), "int", -2, 2) * 0.5).astype(np.float32)
        out.append((op, "bcast_ties", [In(SH, values=ties_a), In((4,), values=ties_b)], f, None))
        if op not in ("EQUAL", "NOT_EQUAL"):
            out.append((op, "same_shape", [In(SH, -1, 1), In(SH, -1, 1)], f, None))
        ia = _values(f"{op}/ia", SH, "int", -3, 3)
        ib = _values(f"{op}/ib", (3, 1), "int", -3, 3)
        out.append((op, "int32_bcast", [In(SH, values=ia, dtype="int32"), In((3, 1), values=ib, dtype="int32")], f, "int32"))
    out.append(("EQUAL", "int64", [In(SH, values=_values("EQUAL/l1", SH, "int", -2, 2), dtype="int64"),
                                   In(SH, values=_values("EQUAL/l2", SH, "int", -2, 2), dtype="int64")], tf.equal, "int64"))
    out.append(("NOT_EQUAL", "bool", [In(SH, values=_values("NE/b1", SH, "bool"), dtype="bool"),
                                      In(SH, values=_values("NE/b2", SH, "bool"), dtype="bool")], tf.not_equal, "bool"))
    return out


def comparison_cases():
    out = []
    for op, cid, inputs, f, dt in comparison_bodies():
        out.append(F(op, cid, dict(inputs=[i.shape for i in inputs], dtype=dt or "float32"), inputs,
                     lambda r, x, y, f=f: f(x, y), op_input_dtype=dt, allow_constant_output=True,
                     validate=_both_values))
    return out


def quantized_comparison_cases():
    """int8 and uint8 operands on different scales and zero points (the rescaling path);
    EQUAL on one range with tied values. The converter leaves NOT_EQUAL in float."""
    out = []
    for op, f in COMPARISONS.items():
        if op == "NOT_EQUAL":
            continue
        if op == "EQUAL":
            ties = lambda name, shape: (_values(name, shape, "int", -1, 1) * 0.5).astype(np.float32)
            inputs, cid, ranges = [In(SH, -1, 1, values=ties("EQUAL/q1", SH)), In(SH, -1, 1, values=ties("EQUAL/q2", SH))], "ties", [[-1, 1], [-1, 1]]
        else:
            inputs, cid, ranges = [In(SH, -1, 1), In((4,), -1.2, 0.9)], "differing_scales", [[-1, 1], [-1.2, 0.9]]
        body = Case(op=op, case_id=cid, dtype="float32", params=dict(inputs=[i.shape for i in inputs], ranges=ranges),
                    inputs=inputs, build=build_float, fn=lambda r, x, y, f=f: f(x, y),
                    allow_constant_output=True, validate=_both_values, input_mode="float")
        out.append(variant(body, "int8", build_int8, extra={"io_types": ("int8", "float32"), "float_check": False}))
        out.append(variant(body, "uint8", build_uint8, extra={"float_check": False}))
    return out


def select_cases():
    out = []
    cond = _values("SELECT/c", SH, "bool")
    rows = _values("SELECT/rows", (2,), "bool")
    rows[:] = [True, False]
    v1 = lambda r, c, x, y: tf.raw_ops.Select(condition=c, x=x, y=y)
    out.append(F("SELECT", "same_shape", dict(shape=SH), [In(SH, values=cond, dtype="bool"), In(SH, -2, 2), In(SH, -2, 2)],
                 v1, aux_ops=(), op_input_dtype="bool"))
    out.append(F("SELECT", "rank1_condition", dict(condition=(2,), x=SH),
                 [In((2,), values=rows, dtype="bool"), In(SH, -2, 2), In(SH, -2, 2)], v1, op_input_dtype="bool"))
    c2 = _values("SELECT_V2/c", (3, 1), "bool")
    c2[:, 0] = [True, False, True]
    v2 = lambda r, c, x, y: tf.where(c, x, y)
    out.append(F("SELECT_V2", "bcast3", dict(condition=(3, 1), x=SH, y=(4,)),
                 [In((3, 1), values=c2, dtype="bool"), In(SH, -2, 2), In((4,), -2, 2)], v2, op_input_dtype="bool"))
    out.append(F("SELECT_V2", "int32_scalar_y", dict(condition=SH, x=SH, y=()),
                 [In(SH, values=cond, dtype="bool"), In(SH, -50, 50, dtype="int32"), In((), values=np.int32(7), dtype="int32")],
                 v2, op_input_dtype="bool"))
    return out


def quantized_unary_cases():
    """int8 ABS, LOG and GELU: TFLite's tables over every code."""
    out = []
    for op, cid, f, lo, hi in unary_float():
        if op in ("ABS", "GELU"):   # the converter keeps ELU in float
            body = F(op, cid, dict(input=SH), [In(SH, lo, hi)], lambda r, x, f=f: f(x))
            out.append(variant(body, "int8", build_int8))
    body = F("LOG", "basic", dict(input=SH), [In(SH, 0.05, 8)], lambda r, x: tf.math.log(x))
    out.append(variant(body, "int8", build_int8))
    return out


def cases():
    float_path = float_cases() + int_cases() + logical_cases() + comparison_cases() + select_cases()
    out = [variant(c, "float32", build_float) for c in float_path]
    return out + quantized_unary_cases() + quantized_comparison_cases()
