"""Legacy uint8 single-op cases: tf.compat.v1 fake-quant graphs, inference_type=uint8.

Weights are asymmetric per-tensor (their own min/max, so non-zero zero points).
"""
import tensorflow as tf

import cases_float
import cases_int8
from common import Case, In, variant
from converters import build_uint8

SKIP = {("GATHER", "indices_input")}
# Ops whose uint8 kernels require a fixed output quantization.
FIXED_OUT = {"LOGISTIC": (0.0, 255 / 256), "SOFTMAX": (0.0, 255 / 256), "TANH": (-1.0, 127 / 128)}

# Ops the legacy converter only quantizes with input and output (and all
# inputs) on one scale; otherwise it inserts requantizing QUANTIZE ops.
SHARED_RANGE = {"AVERAGE_POOL_2D", "MAX_POOL_2D", "DEPTH_TO_SPACE", "GATHER", "MAXIMUM", "MINIMUM", "PAD",
                "PADV2", "RESHAPE", "RESIZE_BILINEAR", "RESIZE_NEAREST_NEIGHBOR", "SQUEEZE", "STRIDED_SLICE",
                "TRANSPOSE"}


def cases():
    out = []
    for c in cases_float.base_cases():
        if c.op not in cases_int8.OPS or (c.op, c.case_id) in SKIP:
            continue
        extra = dict(c.extra)
        if c.op in FIXED_OUT:
            extra["uint8_out_range"] = FIXED_OUT[c.op]
        if c.op in SHARED_RANGE:
            extra["uint8_shared_range"] = True
        out.append(variant(c, "uint8", build_uint8, extra=extra))
    shapes = [(1, 2, 3, 2), (1, 2, 3, 3), (1, 2, 3, 1)]
    out.append(Case(op="CONCATENATION", case_id="u8_differing_scales", dtype="uint8",
                    params=dict(inputs=shapes, axis=3, ranges=[[-1, 1], [-8, 2], [0, 0.5]]),
                    inputs=[In(shapes[0], -1, 1), In(shapes[1], -8, 2), In(shapes[2], 0, 0.5)],
                    build=build_uint8, fn=lambda r, *xs: tf.concat(list(xs), 3)))
    out.append(Case(op="ADD", case_id="u8_differing_scales", dtype="uint8",
                    params=dict(lhs=(1, 3, 3, 2), rhs=(1, 3, 3, 2), ranges=[[-0.5, 0.5], [-6, 10]]),
                    inputs=[In((1, 3, 3, 2), -0.5, 0.5), In((1, 3, 3, 2), -6, 10)],
                    build=build_uint8, fn=lambda r, x, y: x + y))
    body = (lambda r, x: tf.reshape(x, (2, 12)))
    # The v1 converter keeps a float output when the input is float, so one
    # model QUANTIZE(f32->u8) -> RESHAPE -> DEQUANTIZE(u8->f32) serves both ops.
    for cid, io, op, in_dt in [("f32_to_u8", ("float32", "uint8"), "QUANTIZE", "float32"),
                               ("f32_roundtrip", ("float32", "uint8"), "DEQUANTIZE", "uint8")]:
        out.append(Case(op=op, case_id=f"u8_{cid}", dtype="uint8", params=dict(input=(1, 2, 3, 4), io_types=io),
                        inputs=[In((1, 2, 3, 4), -3.0, 5.0)], build=build_uint8, fn=body,
                        aux_ops=("RESHAPE", "QUANTIZE", "DEQUANTIZE"),
                        op_input_dtype=in_dt, input_mode="float",
                        extra={"io_types": io, "uint8_shared_range": True}))
    return out
