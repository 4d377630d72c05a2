"""TensorFlow → .tflite conversion for the four dtype paths.

Every builder returns the flatbuffer bytes.  Conversions are deterministic:
constants come from seeded numpy streams, calibration data is seeded, and the
converter is given a fixed input signature (no dynamic dims).
"""
from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

import numpy as np
import tensorflow as tf

from common import Case

tf.get_logger().setLevel("ERROR")

_TF_DTYPES = {"float32": tf.float32, "int32": tf.int32, "int64": tf.int64,
              "uint8": tf.uint8, "int8": tf.int8, "bool": tf.bool}


def _signature(case: Case):
    return [tf.TensorSpec(i.shape, _TF_DTYPES[i.dtype], name=f"in{k}")
            for k, i in enumerate(case.inputs)]


def _concrete(case: Case, rng):
    """tf.function of the case body with constants drawn from `rng`."""
    body = case.fn

    def f(*args):
        return body(rng, *args)

    module = tf.Module()
    module.f = tf.function(f, input_signature=_signature(case), autograph=False)
    return module.f.get_concrete_function(), module


def _from_case(case, rng):
    cfn, module = _concrete(case, rng)
    return tf.lite.TFLiteConverter.from_concrete_functions([cfn], module)


def build_float(case: Case, rng) -> bytes:
    conv = _from_case(case, rng)
    return conv.convert()


def build_float16_weights(case: Case, rng) -> bytes:
    conv = _from_case(case, rng)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.target_spec.supported_types = [tf.float16]
    return conv.convert()


def build_hybrid(case: Case, rng) -> bytes:
    """Dynamic-range quantization: DEFAULT optimizations and no representative dataset.

    Constant weights of at least 1024 elements become int8 (per channel unless the
    case says per_tensor); activations stay float32, so the weighted ops run their
    hybrid kernels. `case.extra["asymmetric_inputs"] = False` rewrites the ops'
    asymmetric_quantize_inputs flag afterwards (the converter always sets it).
    """
    conv = _from_case(case, rng)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    if case.params.get("quantization") == "per_tensor":
        conv._experimental_disable_per_channel = True
    content = conv.convert()
    if case.extra.get("asymmetric_inputs", True) is False:
        from modelinfo import patch_asymmetric_inputs
        content = patch_asymmetric_inputs(content, False)
    return content


def _static(shape):
    """Dynamic (None) dims are fed as 1, as the interpreter does by default."""
    return tuple(1 if d is None else d for d in shape)


def _representative(case: Case, n=64):
    def gen():
        rng = case.rng(2)
        for _ in range(n):
            sample = []
            for spec in case.inputs:
                if spec.values is not None:
                    sample.append(np.asarray(spec.values))
                else:
                    sample.append(rng.uniform(spec.lo, spec.hi, size=_static(spec.shape)).astype(np.float32))
            # Make sure the calibrated range reaches both ends.
            yield sample
        ends = []
        for spec in case.inputs:
            if spec.values is not None:
                ends.append(np.asarray(spec.values))
            else:
                a = np.full(_static(spec.shape), spec.lo, np.float32).reshape(-1)
                a[1::2] = spec.hi
                ends.append(a.reshape(_static(spec.shape)))
        yield ends
    return gen


def build_int8(case: Case, rng) -> bytes:
    """TF2 full-integer quantization (per-channel weights unless disabled)."""
    conv = _from_case(case, rng)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = _representative(case)
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    io = case.extra.get("io_types", ("int8", "int8"))
    conv.inference_input_type = _TF_DTYPES.get(io[0], tf.float32) if io[0] != "float32" else tf.float32
    conv.inference_output_type = _TF_DTYPES.get(io[1], tf.float32) if io[1] != "float32" else tf.float32
    if case.params.get("quantization") == "per_tensor":
        conv._experimental_disable_per_channel = True
    return conv.convert()


# ---------------------------------------------------------------- legacy uint8

# Set while a legacy uint8 graph is being built: op constants (weights, alpha,
# constant operands) then get their own fake-quant range.
_FAKE_QUANT_CONSTS = False


def qconst(a: np.ndarray):
    """An op's constant operand (weights etc.); fake-quantized in the uint8 path."""
    if _FAKE_QUANT_CONSTS:
        return fq_const(np.asarray(a, np.float32))
    return tf.constant(a)


def fq(x, lo, hi):
    """Fake-quant an activation to [lo, hi] (8 bits, nudged so 0 is exact)."""
    return tf.quantization.fake_quant_with_min_max_args(x, min=lo, max=hi, num_bits=8)


def fq_const(w: np.ndarray):
    """Constant weights with their own asymmetric per-tensor range.

    The range is the weights' own min/max, so the zero point is generally far
    from 128 — keeping the weights-offset term honest.
    """
    lo = float(min(w.min(), 0.0))
    hi = float(max(w.max(), 0.0))
    return tf.quantization.fake_quant_with_min_max_vars(
        tf.constant(w), min=tf.constant(lo), max=tf.constant(hi), num_bits=8)


def qrange(scale: float, zero_point: int):
    """Float range whose uint8 quantization is exactly (scale, zero_point)."""
    return (-zero_point * scale, (255 - zero_point) * scale)


def _nudged(lo, hi):
    """The exactly representable uint8 range fake-quant would use for [lo, hi]."""
    scale = (hi - lo) / 255.0
    zp = int(min(255, max(0, round(-lo / scale))))
    return qrange(scale, zp), scale, zp


def build_uint8(case: Case, rng) -> bytes:
    """tf.compat.v1 graph with fake-quant ops, converted with inference_type=uint8.

    Inputs get a fake-quant on their nudged [lo, hi] and matching
    quantized_input_stats; op constants get their own asymmetric range
    (`qconst`); each output gets a fake-quant whose range is calibrated by
    running the float graph on the seeded calibration samples, unless the op
    demands a fixed output quantization (case.extra["uint8_out_range"]) or
    keeps its input quantization (case.extra["uint8_shared_range"]: every
    float input and output share the first input's range).
    """
    global _FAKE_QUANT_CONSTS
    g = tf.Graph()
    with g.as_default():
        phs = [tf.compat.v1.placeholder(_TF_DTYPES[i.dtype], i.shape, name=f"in{k}")
               for k, i in enumerate(case.inputs)]
        quantized_in = []
        stats = {}
        shared = case.extra.get("uint8_shared_range", False)
        first = next(i for i in case.inputs if i.dtype == "float32")
        for k, (ph, spec) in enumerate(zip(phs, case.inputs)):
            if spec.dtype == "float32":
                (lo, hi), scale, zp = _nudged(*((first.lo, first.hi) if shared else (spec.lo, spec.hi)))
                quantized_in.append(fq(ph, lo, hi))
                stats[f"in{k}"] = (float(zp), 1.0 / scale)
            else:
                quantized_in.append(ph)
        _FAKE_QUANT_CONSTS = True
        try:
            out = case.fn(rng, *quantized_in)
        finally:
            _FAKE_QUANT_CONSTS = False
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        with tf.compat.v1.Session(graph=g) as sess:
            fixed = case.extra.get("uint8_out_range")
            if shared:
                # Ops that move values without arithmetic keep the input quantization.
                ranges = [_nudged(first.lo, first.hi)[0]] * len(outs)
            elif fixed:
                ranges = [fixed] * len(outs)
            else:
                lows = [0.0] * len(outs)
                highs = [0.0] * len(outs)
                for sample in _representative(case)():
                    feed = {ph: np.reshape(v, _static(spec.shape)) for ph, v, spec in zip(phs, sample, case.inputs)}
                    for j, v in enumerate(sess.run(outs, feed)):
                        lows[j] = min(lows[j], float(v.min()))
                        highs[j] = max(highs[j], float(v.max()))
                ranges = [_nudged(lo, hi)[0] for lo, hi in zip(lows, highs)]
            outs = [fq(o, lo, hi) for o, (lo, hi) in zip(outs, ranges)]
            conv = tf.compat.v1.lite.TFLiteConverter.from_session(sess, phs, outs)
            conv.inference_type = tf.uint8
            conv.quantized_input_stats = stats
            io = case.extra.get("io_types")
            if io:
                conv.inference_input_type = _TF_DTYPES.get(io[0], tf.float32)
                conv.inference_output_type = _TF_DTYPES.get(io[1], tf.float32)
            return conv.convert()
