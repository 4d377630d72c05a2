"""int8 full-integer single-op cases (TF2 converter, per-channel weights by default)."""
import dataclasses

import tensorflow as tf

import cases_float
from common import Case, In, variant
from converters import build_int8

OPS = {
    "CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED", "TRANSPOSE_CONV", "AVERAGE_POOL_2D", "MAX_POOL_2D",
    "SOFTMAX", "LOGISTIC", "TANH", "ADD", "SUB", "MUL", "MAXIMUM", "MINIMUM", "CONCATENATION", "RESHAPE",
    "SQUEEZE", "PAD", "PADV2", "MEAN", "SUM", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR", "HARD_SWISH",
    "PRELU", "LEAKY_RELU", "RELU", "RELU6", "DEPTH_TO_SPACE", "STRIDED_SLICE", "GATHER", "TRANSPOSE",
}
# Cases whose float body has no integer counterpart worth a case.
SKIP = {("GATHER", "indices_input")}
PER_TENSOR = {("CONV_2D", "k3_s2_same_odd"), ("CONV_2D", "k3_dil2_valid"), ("CONV_2D", "k1_s1"),
              ("DEPTHWISE_CONV_2D", "k3_m2_s2_same"), ("DEPTHWISE_CONV_2D", "k3_m1_s2_valid"),
              ("FULLY_CONNECTED", "16to10_relu"), ("TRANSPOSE_CONV", "k3_s2_same")}


def _mark(params, quantization):
    return {**params, "quantization": quantization}


def quantize_cases():
    """QUANTIZE / DEQUANTIZE at the model boundary around a value-preserving RESHAPE."""
    body = (lambda r, x: tf.reshape(x, (2, 12)))
    shape = (1, 2, 3, 4)
    out = []
    for cid, io, op, in_dt, lo, hi in [
        ("f32_to_i8", ("float32", "int8"), "QUANTIZE", "float32", -3.0, 5.0),
        ("u8_to_i8", ("uint8", "int8"), "QUANTIZE", "uint8", -2.0, 6.0),
        ("i8_to_u8", ("int8", "uint8"), "QUANTIZE", "int8", -4.0, 1.5),
        ("i8_to_f32", ("int8", "float32"), "DEQUANTIZE", "int8", -1.5, 4.0),
    ]:
        out.append(Case(op=op, case_id=f"i8_{cid}", dtype="int8", params=dict(input=shape, io_types=io),
                        inputs=[In(shape, lo, hi)], build=build_int8, fn=body, aux_ops=("RESHAPE",),
                        op_input_dtype=in_dt, input_mode="float" if in_dt == "float32" else "codes",
                        extra={"io_types": io}))
    return out


def cases():
    out = []
    for c in cases_float.base_cases():
        if c.op not in OPS or (c.op, c.case_id) in SKIP:
            continue
        out.append(variant(c, "int8", build_int8, params=c.params))
        if (c.op, c.case_id) in PER_TENSOR:
            out.append(variant(c, "int8", build_int8, case_id=c.case_id + "_per_tensor",
                               params=_mark(c.params, "per_tensor")))
    # CONCATENATION whose inputs have very different ranges (hence scales).
    shapes = [(1, 2, 3, 2), (1, 2, 3, 3), (1, 2, 3, 1)]
    out.append(Case(op="CONCATENATION", case_id="i8_differing_scales", dtype="int8",
                    params=dict(inputs=shapes, axis=3, ranges=[[-1, 1], [-8, 2], [0, 0.5]]),
                    inputs=[In(shapes[0], -1, 1), In(shapes[1], -8, 2), In(shapes[2], 0, 0.5)],
                    build=build_int8, fn=lambda r, *xs: tf.concat(list(xs), 3)))
    out.append(Case(op="ADD", case_id="i8_differing_scales", dtype="int8",
                    params=dict(lhs=(1, 3, 3, 2), rhs=(1, 3, 3, 2), ranges=[[-0.5, 0.5], [-6, 10]]),
                    inputs=[In((1, 3, 3, 2), -0.5, 0.5), In((1, 3, 3, 2), -6, 10)],
                    build=build_int8, fn=lambda r, x, y: x + y))
    out.extend(quantize_cases())
    return out
