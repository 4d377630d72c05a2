"""Reductions, index ops, shape-generating and data-movement ops, normalization and
the real FFT: float32 cases, plus int8/uint8 and int32/int64/bool paths where TFLite's
kernels have them.

Ops whose output shape depends on an input's value (RANGE, FILL's dims, BROADCAST_TO's
shape...) are folded away by the converter when TensorFlow sees those inputs as
constants, so such cases are converted with placeholders and the values are written
into the model afterwards (`tflite_edit.freeze_inputs`): the file then holds the op
with constant inputs, which is what exported models contain.
"""
import dataclasses

import numpy as np
import tensorflow as tf

from common import Case, In, variant
from converters import build_float, build_int8, build_uint8


def F(op, cid, params, inputs, fn, build=build_float, **kw):
    return Case(op=op, case_id=f"f32_{cid}", dtype="float32", params=params, inputs=inputs,
                build=build, fn=fn, **kw)


def T(op, cid, dtype, params, inputs, fn, build=build_float, **kw):
    """A float-path (unquantized) case whose op reads `dtype` (int32, int64, bool)."""
    prefix = {"int32": "i32", "int64": "i64", "bool": "b"}[dtype]
    return Case(op=op, case_id=f"{prefix}_{cid}", dtype="float32", params=params, inputs=inputs,
                build=build, fn=fn, op_input_dtype=dtype, **kw)


def frozen(values):
    """A float builder whose inputs at the given positions become constants."""
    def build(case, rng):
        from tflite_edit import edit, freeze_inputs
        return edit(build_float(case, rng), freeze_inputs(values))
    return build


def q8(c, dtype, **extra):
    """The int8 or uint8 variant of float case `c` (op keeps the input quantization)."""
    build = build_int8 if dtype == "int8" else build_uint8
    base = dataclasses.replace(c, case_id=c.case_id[len("f32_"):])
    return variant(base, dtype, build, extra={**c.extra, "uint8_shared_range": True, **extra})


def reduction_cases():
    out = []
    specs = [("axis1", (2, 5, 3), [1], False), ("axes02_keep", (2, 3, 4), [0, 2], True),
             ("last_neg", (3, 6), [-1], False), ("all", (2, 3, 2), [0, 1, 2], False),
             ("middle4d", (1, 4, 4, 3), [1, 2], True)]
    for cid, shape, axes, keep in specs:
        for op, f in (("REDUCE_MIN", tf.reduce_min), ("REDUCE_PROD", tf.reduce_prod)):
            lo, hi = (0.5, 1.5) if op == "REDUCE_PROD" else (-2.0, 2.0)
            c = F(op, cid, dict(input=shape, axes=axes, keep_dims=keep), [In(shape, lo, hi)],
                  lambda r, x, f=f, axes=axes, keep=keep: f(x, axis=axes, keepdims=keep))
            out.append(c)
            if op == "REDUCE_MIN" and cid in ("axis1", "axes02_keep", "middle4d"):
                out.append(q8(c, "int8"))
                out.append(q8(c, "uint8"))
        out.append(T("REDUCE_MIN", cid, "int32", dict(input=shape, axes=axes, keep_dims=keep),
                     [In(shape, -100, 100, dtype="int32")],
                     lambda r, x, axes=axes, keep=keep: tf.reduce_min(x, axis=axes, keepdims=keep)))
        out.append(T("REDUCE_PROD", cid, "int32", dict(input=shape, axes=axes, keep_dims=keep),
                     [In(shape, 1, 3, dtype="int32")],
                     lambda r, x, axes=axes, keep=keep: tf.reduce_prod(x, axis=axes, keepdims=keep)))
        out.append(T("REDUCE_ANY", cid, "bool", dict(input=shape, axes=axes, keep_dims=keep),
                     [In(shape, dtype="bool")],
                     lambda r, x, axes=axes, keep=keep: tf.reduce_any(x, axis=axes, keepdims=keep),
                     allow_constant_output=True))
    out.append(T("REDUCE_MIN", "int64_axis1", "int64", dict(input=(3, 4), axes=[1]), [In((3, 4), -9, 9, dtype="int64")],
                 lambda r, x: tf.reduce_min(x, axis=tf.constant([1], tf.int64))))
    out.append(T("REDUCE_PROD", "int64_axis0", "int64", dict(input=(3, 4), axes=[0]), [In((3, 4), -5, 5, dtype="int64")],
                 lambda r, x: tf.reduce_prod(x, axis=0)))
    return out


def arg_cases():
    out = []
    ties = np.array([[1, 3, 3, 0, -2, 3], [-1, -1, 0, -4, -4, 2]], np.float32)
    for op, f in (("ARG_MAX", tf.math.argmax), ("ARG_MIN", tf.math.argmin)):
        for cid, shape, axis, otype in [("axis1_i32", (3, 7), 1, tf.int32), ("axis0_i64", (5, 4), 0, tf.int64),
                                        ("4d_axis3", (1, 3, 3, 6), 3, tf.int32),
                                        ("4d_axis_neg3_i64", (2, 3, 4, 2), -3, tf.int64)]:
            c = F(op, cid, dict(input=shape, axis=axis, output_type=otype.name), [In(shape, -3, 3)],
                  lambda r, x, f=f, axis=axis, otype=otype: f(x, axis=axis, output_type=otype),
                  allow_constant_output=True)
            out.append(c)
            if cid in ("axis1_i32", "4d_axis3"):
                out.append(q8(c, "int8"))
            out.append(T(op, cid, "int32", dict(input=shape, axis=axis, output_type=otype.name),
                         [In(shape, -50, 50, dtype="int32")],
                         lambda r, x, f=f, axis=axis, otype=otype: f(x, axis=axis, output_type=otype),
                         allow_constant_output=True))
        out.append(F(op, "ties_first_index", dict(input=ties.shape, axis=1), [In(ties.shape, values=ties)],
                     lambda r, x, f=f: f(x, axis=1, output_type=tf.int32)))
        out.append(F(op, "int64_axis_tensor", dict(input=(4, 5), axis="int64 constant 1"), [In((4, 5), -3, 3)],
                     lambda r, x, f=f: f(x, axis=tf.constant(1, tf.int64), output_type=tf.int32)))
    return out


def topk_cases():
    out = []
    ties = np.array([[2, 5, 5, 1, 5, 0, 2, -1], [0, 0, 0, 0, 1, 1, 1, 1]], np.float32)
    for cid, shape, k in [("k3_row10", (2, 10), 3), ("k1", (4, 6), 1), ("k_all", (3, 5), 5), ("3d_k4", (2, 3, 9), 4)]:
        c = F("TOPK_V2", cid, dict(input=shape, k=k), [In(shape, -5, 5)],
              lambda r, x, k=k: tf.math.top_k(x, k=k, sorted=True))
        out.append(c)
        if cid == "k3_row10":
            out.append(q8(c, "int8"))
        out.append(T("TOPK_V2", cid, "int32", dict(input=shape, k=k), [In(shape, -20, 20, dtype="int32")],
                     lambda r, x, k=k: tf.math.top_k(x, k=k, sorted=True)))
    out.append(F("TOPK_V2", "ties_lower_index_first", dict(input=ties.shape, k=5), [In(ties.shape, values=ties)],
                 lambda r, x: tf.math.top_k(x, k=5), allow_constant_output=True))
    return out


def cumsum_cases():
    out = []
    for exclusive in (False, True):
        for reverse in (False, True):
            name = ("excl" if exclusive else "incl") + ("_rev" if reverse else "")
            for cid, shape, axis in [(f"axis1_{name}", (3, 6), 1), (f"3d_axis0_{name}", (4, 2, 3), 0)]:
                out.append(F("CUMSUM", cid, dict(input=shape, axis=axis, exclusive=exclusive, reverse=reverse),
                             [In(shape, -2, 2)],
                             lambda r, x, axis=axis, e=exclusive, rv=reverse: tf.math.cumsum(x, axis=axis, exclusive=e, reverse=rv)))
            out.append(T("CUMSUM", f"axis_neg1_{name}", "int32", dict(input=(2, 7), axis=-1, exclusive=exclusive, reverse=reverse),
                         [In((2, 7), -9, 9, dtype="int32")],
                         lambda r, x, e=exclusive, rv=reverse: tf.math.cumsum(x, axis=-1, exclusive=e, reverse=rv)))
    out.append(T("CUMSUM", "axis0", "int64", dict(input=(5, 3), axis=0), [In((5, 3), -99, 99, dtype="int64")],
                 lambda r, x: tf.math.cumsum(x, axis=0)))
    return out


def generate_cases():
    out = []
    # FILL: dims frozen into the model, value a run-time scalar input.
    for dt, lo, hi in [("float32", -3, 3), ("int32", -50, 50), ("int64", -50, 50), ("bool", 0, 1)]:
        for cid, dims, ddt in [("dims_i32_2x3x4", [2, 3, 4], np.int32), ("dims_i64_5x1", [5, 1], np.int64)]:
            make = F if dt == "float32" else (lambda op, c, p, i, fn, dt=dt, **kw: T(op, c, dt, p, i, fn, **kw))
            out.append(make("FILL", cid, dict(dims=dims, value_dtype=dt),
                            [In((len(dims),), dtype="int32" if ddt == np.int32 else "int64"), In((), lo, hi, dtype=dt)],
                            lambda r, d, v: tf.fill(d, v), allow_constant_output=True,
                            build=frozen({0: np.asarray(dims, ddt)})))
    # RANGE: all three scalars frozen.
    for cid, dt, start, limit, delta in [("up", "int32", 3, 20, 4), ("down", "int32", 10, -7, -3),
                                         ("up", "int64", -5, 6, 2), ("fraction", "float32", -1.0, 2.3, 0.1),
                                         ("down", "float32", 4.0, -2.5, -0.75)]:
        np_dt = {"int32": np.int32, "int64": np.int64, "float32": np.float32}[dt]
        make = F if dt == "float32" else (lambda op, c, p, i, fn, dt=dt, **kw: T(op, c, dt, p, i, fn, **kw))
        out.append(make("RANGE", cid, dict(start=start, limit=limit, delta=delta),
                        [In((), dtype=dt), In((), dtype=dt), In((), dtype=dt)],
                        lambda r, a, b, c: tf.range(a, b, c),
                        build=frozen({0: np.asarray(start, np_dt), 1: np.asarray(limit, np_dt), 2: np.asarray(delta, np_dt)})))
    # ZEROS_LIKE of a run-time input.
    for dt in ("float32", "int32", "int64"):
        make = F if dt == "float32" else (lambda op, c, p, i, fn, dt=dt, **kw: T(op, c, dt, p, i, fn, **kw))
        # A dynamic leading dimension keeps the converter from folding the op into a constant.
        out.append(make("ZEROS_LIKE", "dyn_x3x2", dict(input=(None, 3, 2)), [In((None, 3, 2), -5, 5, dtype=dt)],
                        lambda r, x: tf.zeros_like(x), allow_constant_output=True))
    # BROADCAST_ARGS of two run-time shapes.
    for dt in ("int32", "int64"):
        for cid, a, b in [("3d_2d", [2, 1, 4], [3, 1]), ("equal", [5, 6], [5, 1])]:
            out.append(T("BROADCAST_ARGS", cid, dt, dict(s0=a, s1=b),
                         [In((len(a),), values=np.array(a), dtype=dt), In((len(b),), values=np.array(b), dtype=dt)],
                         lambda r, x, y: tf.raw_ops.BroadcastArgs(s0=x, s1=y)))
    return out


def movement_cases():
    out = []
    for cid, shape, mult, mdt in [("2d_2x3", (2, 3), [2, 3], np.int32), ("3d_i64_multiples", (2, 1, 3), [1, 4, 2], np.int64),
                                  ("4d_batch", (1, 2, 2, 3), [3, 1, 2, 1], np.int32)]:
        c = F("TILE", cid, dict(input=shape, multiples=mult), [In(shape, -3, 3)],
              lambda r, x, mult=mult, mdt=mdt: tf.tile(x, tf.constant(mult, tf.as_dtype(mdt))))
        out.append(c)
        if cid == "2d_2x3":
            out.append(q8(c, "int8"))
            out.append(q8(c, "uint8"))
        out.append(T("TILE", cid, "int32", dict(input=shape, multiples=mult), [In(shape, -9, 9, dtype="int32")],
                     lambda r, x, mult=mult: tf.tile(x, tf.constant(mult, tf.int32))))
    out.append(T("TILE", "bool_2d", "bool", dict(input=(2, 3), multiples=[2, 2]), [In((2, 3), dtype="bool")],
                 lambda r, x: tf.tile(x, [2, 2]), allow_constant_output=True))
    for cid, shape, target, sdt in [("1d_to_3d", (3,), [2, 4, 3], np.int32), ("middle_one_i64", (2, 1, 3), [2, 5, 3], np.int64),
                                    ("4d_two_axes", (1, 3, 1, 2), [2, 3, 4, 2], np.int32)]:
        sdn = "int32" if sdt == np.int32 else "int64"
        c = F("BROADCAST_TO", cid, dict(input=shape, shape=target), [In(shape, -3, 3), In((len(target),), dtype=sdn)],
              lambda r, x, s: tf.broadcast_to(x, s), build=frozen({1: np.asarray(target, sdt)}),
              allow_constant_output=True)
        out.append(c)
        out.append(T("BROADCAST_TO", cid, "int32", dict(input=shape, shape=target),
                     [In(shape, -9, 9, dtype="int32"), In((len(target),), dtype=sdn)],
                     lambda r, x, s: tf.broadcast_to(x, s), build=frozen({1: np.asarray(target, sdt)}),
                     allow_constant_output=True))
    for cid, shape, axes in [("axis0", (4, 3), [0]), ("axis_last", (2, 3, 5), [-1]), ("4d_axis2", (1, 3, 4, 2), [2]),
                             ("two_adjacent_axes", (2, 3, 4), [1, 2])]:
        c = F("REVERSE_V2", cid, dict(input=shape, axes=axes), [In(shape, -3, 3)],
              lambda r, x, axes=axes: tf.reverse(x, axes))
        out.append(c)
        if cid == "4d_axis2":
            out.append(q8(c, "int8"))
        out.append(T("REVERSE_V2", cid, "int32", dict(input=shape, axes=axes), [In(shape, -9, 9, dtype="int32")],
                     lambda r, x, axes=axes: tf.reverse(x, axes)))
    s2b = [("4d_block2", (1, 4, 4, 2), [2, 2], [[0, 0], [0, 0]]), ("4d_pad", (2, 3, 5, 1), [2, 3], [[1, 0], [2, 2]]),
           ("3d_block3_pad", (2, 7, 3), [3], [[1, 1]])]
    for cid, shape, block, pads in s2b:
        c = F("SPACE_TO_BATCH_ND", cid, dict(input=shape, block_shape=block, paddings=pads), [In(shape, 0.5, 3)],
              lambda r, x, block=block, pads=pads: tf.space_to_batch_nd(x, block, pads), allow_constant_output=True)
        out.append(c)
        if cid in ("4d_pad", "3d_block3_pad"):
            # Inputs away from 0 so the padding (the zero point) shows.
            out.append(q8(c, "int8"))
            out.append(q8(c, "uint8"))
    b2s = [("4d_block2", (4, 2, 2, 3), [2, 2], [[0, 0], [0, 0]]), ("4d_crop", (6, 3, 2, 2), [3, 2], [[1, 2], [0, 1]]),
           ("3d_block2_crop", (4, 3, 2), [2], [[1, 0]])]
    for cid, shape, block, crops in b2s:
        c = F("BATCH_TO_SPACE_ND", cid, dict(input=shape, block_shape=block, crops=crops), [In(shape, -3, 3)],
              lambda r, x, block=block, crops=crops: tf.batch_to_space(x, block, crops))
        out.append(c)
        if cid == "4d_crop":
            out.append(q8(c, "int8"))
            out.append(q8(c, "uint8"))
    return out


def gather_scatter_cases():
    out = []
    params = (4, 3, 5)
    for cid, idx, idt in [("full_tuples", [[0, 1, 2], [3, 2, 4], [1, 0, 0]], "int32"),
                          ("row_slices_i64", [[1], [3], [0], [1]], "int64"),
                          ("pairs_batched", [[[0, 2], [3, 1]], [[2, 2], [1, 0]]], "int32")]:
        idx = np.asarray(idx)
        c = F("GATHER_ND", cid, dict(params=params, indices=idx.tolist(), indices_dtype=idt),
              [In(params, -3, 3), In(idx.shape, values=idx, dtype=idt)],
              lambda r, p, i: tf.gather_nd(p, i))
        out.append(c)
        out.append(T("GATHER_ND", cid, "int32", dict(params=params, indices=idx.tolist(), indices_dtype=idt),
                     [In(params, -9, 9, dtype="int32"), In(idx.shape, values=idx, dtype=idt)],
                     lambda r, p, i: tf.gather_nd(p, i)))
    # int8 with the indices in the file (a run-time int32 input would need int32 calibration data).
    idx = np.array([[0, 1, 2], [3, 2, 4], [1, 0, 0], [2, 2, 1]])
    out.append(q8(F("GATHER_ND", "const_tuples", dict(params=params, indices=idx.tolist()), [In(params, -3, 3)],
                    lambda r, p: tf.gather_nd(p, tf.constant(idx, tf.int32))), "int8"))
    # The converter casts int64 SCATTER_ND indices to int32 (TFLite's kernel takes int32).
    for cid, shape, idx, idt in [("rows_duplicates", [5, 3], [[1], [3], [1], [0]], "int32"),
                                 ("elements_duplicates", [4, 4], [[0, 0], [3, 2], [1, 3], [3, 2]], "int32"),
                                 ("3d_slices", [3, 2, 4], [[2, 1], [0, 0]], "int32")]:
        idx = np.asarray(idx)
        ushape = tuple(idx.shape[:-1]) + tuple(shape[idx.shape[-1]:])
        for dt in ("float32", "int32"):
            make = F if dt == "float32" else (lambda op, c, p, i, fn, dt=dt, **kw: T(op, c, dt, p, i, fn, **kw))
            c = make("SCATTER_ND", cid, dict(shape=shape, indices=idx.tolist(), indices_dtype=idt),
                     [In(idx.shape, values=idx, dtype=idt), In(ushape, -5, 5, dtype=dt), In((len(shape),), dtype=idt)],
                     lambda r, i, u, s: tf.scatter_nd(i, u, s), allow_constant_output=True,
                     build=frozen({2: np.asarray(shape, np.int32 if idt == "int32" else np.int64)}))
            # The op's first input is the indices: verify_ops checks their type.
            out.append(dataclasses.replace(c, op_input_dtype=idt))
    return out


def normalization_cases():
    out = []
    for cid, shape in [("1x8", (1, 8)), ("3x5", (3, 5)), ("4d", (1, 2, 3, 6)), ("wide_2x300", (2, 300))]:
        c = F("L2_NORMALIZATION", cid, dict(input=shape, axis=-1), [In(shape, -2, 2)],
              lambda r, x: tf.math.l2_normalize(x, axis=-1))
        out.append(c)
        # TFLite fixes the 8-bit output at scale 1/128 (zero point 0, or 128 for uint8).
        out.append(q8(c, "int8"))
        out.append(q8(c, "uint8", uint8_shared_range=False, uint8_out_range=(-1.0, 127.0 / 128)))
    zero_row = np.array([[0, 0, 0, 0], [3, 4, 0, 0], [1e-8, 0, 0, 0]], np.float32)
    out.append(F("L2_NORMALIZATION", "zero_and_tiny_rows", dict(input=zero_row.shape),
                 [In(zero_row.shape, values=zero_row)], lambda r, x: tf.math.l2_normalize(x, axis=-1)))
    for cid, shape, radius, bias, alpha, beta in [("r2_default", (1, 3, 3, 8), 2, 1.0, 1.0, 0.5),
                                                  ("r1_b2_a1e-1_b075", (2, 2, 2, 5), 1, 2.0, 0.1, 0.75),
                                                  ("r5_wider_than_depth", (1, 2, 2, 4), 5, 0.5, 0.3, 0.6)]:
        out.append(F("LOCAL_RESPONSE_NORMALIZATION", cid,
                     dict(input=shape, radius=radius, bias=bias, alpha=alpha, beta=beta), [In(shape, -2, 2)],
                     lambda r, x, rd=radius, b=bias, a=alpha, bt=beta: tf.nn.local_response_normalization(
                         x, depth_radius=rd, bias=b, alpha=a, beta=bt),
                     extra={"reference_defect": "sums channels [c - r, c + r) instead of TensorFlow's [c - r, c + r]"}))
    return out


def signal_cases():
    out = []
    for cid, shape, fft in [("8x8", (8, 8), [8, 8]), ("batch_4x16", (3, 4, 16), [4, 16]),
                            ("pad_5x6_to_8x8", (5, 6), [8, 8]), ("crop_6x20_to_4x16", (2, 6, 20), [4, 16]),
                            ("row_1x256", (2, 1, 256), [1, 256]), ("1x2", (3, 1, 2), [1, 2])]:
        # A larger fft_length makes the converter pad explicitly (PAD) before RFFT2D.
        out.append(F("RFFT2D", cid, dict(input=shape, fft_length=fft), [In(shape, -1, 1)],
                     lambda r, x, fft=fft: tf.signal.rfft2d(x, fft_length=fft), aux_ops=("PAD",)))
        out.append(F("COMPLEX_ABS", cid, dict(input=shape, fft_length=fft), [In(shape, -1, 1)],
                     lambda r, x, fft=fft: tf.abs(tf.signal.rfft2d(x, fft_length=fft)), aux_ops=("RFFT2D", "PAD"),
                     op_input_dtype="complex64"))
    return out


def cases():
    return (reduction_cases() + arg_cases() + topk_cases() + cumsum_cases() + generate_cases() + movement_cases()
            + gather_scatter_cases() + normalization_cases() + signal_cases())
