"""Goldens of the 8-bit convolution-family kernels, from LiteRT's reference kernels.

Writes one small single-op `.tflite` per case plus `goldens.json` (input codes and the
expected output codes) into Tests/TFLiteRuntimeTests/Resources/quantized/, which
Tests/TFLiteRuntimeTests/QuantizedGoldenTests.swift loads with `Model(contentsOfFile:)`.

Models are written with the TFLite schema's object API rather than the converter, so
each case states its quantization exactly: legacy uint8 (asymmetric per-tensor weights
with non-zero weight zero points) and int8 (symmetric weights, per-channel along the
output-channel dimension, or per-tensor), with int32 biases of scale s_in * s_w. Output
scales are taken from the float result's range so that outputs use the whole code range
without saturating everywhere. Every model runs in LiteRT with
`OpResolverType.BUILTIN_REF`; those outputs are the goldens.

It also records, for the two quantized MobileNet fixtures, the FULLY_CONNECTED output
(the tensor before SOFTMAX) on a fixed input, read with `experimental_preserve_all_tensors`.

    Fixtures/generate/.venv/bin/python Fixtures/generate/goldens_quantized_conv.py
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import flatbuffers
import numpy as np
import tensorflow as tf
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from tensorflow.lite.python import schema_py_generated as schema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "TFLiteRuntimeTests", "Resources", "quantized")
T = schema.TensorType
OP = schema.BuiltinOperator
ACT = {"NONE": 0, "RELU": 1, "RELU_N1_TO_1": 2, "RELU6": 3}
PAD = {"SAME": 0, "VALID": 1}
QRANGE = {T.UINT8: (0, 255), T.INT8: (-128, 127)}


class Tensor:
    def __init__(self, name, shape, ttype, scale=None, zero_point=None, axis=0, data=None):
        self.name, self.shape, self.type = name, list(shape), ttype
        self.scale, self.zero_point, self.axis, self.data = scale, zero_point, axis, data


def build(op_code, options_type, options, tensors, op_inputs, graph_inputs, graph_outputs):
    """A one-operator model; `tensors` are `Tensor`s, constants carry `data`."""
    buffers = [schema.BufferT()]
    ts = []
    for t in tensors:
        x = schema.TensorT()
        x.name = t.name.encode()
        x.shape = t.shape
        x.type = t.type
        x.buffer = 0
        if t.data is not None:
            b = schema.BufferT()
            b.data = list(np.ascontiguousarray(t.data).tobytes())
            buffers.append(b)
            x.buffer = len(buffers) - 1
        if t.scale is not None:
            q = schema.QuantizationParametersT()
            q.scale = [float(v) for v in np.atleast_1d(t.scale)]
            q.zeroPoint = [int(v) for v in np.atleast_1d(t.zero_point)]
            q.quantizedDimension = t.axis
            x.quantization = q
        ts.append(x)
    code = schema.OperatorCodeT()
    code.builtinCode = op_code
    code.deprecatedBuiltinCode = op_code
    code.version = 1
    op = schema.OperatorT()
    op.opcodeIndex = 0
    op.inputs = op_inputs
    op.outputs = [len(tensors) - 1]
    op.builtinOptionsType = options_type
    op.builtinOptions = options
    g = schema.SubGraphT()
    g.tensors = ts
    g.inputs = graph_inputs
    g.outputs = graph_outputs
    g.operators = [op]
    model = schema.ModelT()
    model.version = 3
    model.operatorCodes = [code]
    model.subgraphs = [g]
    model.buffers = buffers
    b = flatbuffers.Builder(1024)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def run(model, values):
    it = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    for d, v in zip(it.get_input_details(), values):
        it.set_tensor(d["index"], v)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])


def np_type(ttype):
    return np.uint8 if ttype == T.UINT8 else np.int8


def activation_params(rng, ttype, shape):
    """Input scale/zero point and random codes covering the whole range."""
    lo, hi = QRANGE[ttype]
    scale = float(np.float32(rng.uniform(0.01, 0.05)))
    zp = int(rng.integers(lo + 40, hi - 40))
    codes = rng.integers(lo, hi + 1, size=shape).astype(np_type(ttype))
    return scale, zp, codes


def weight_params(rng, ttype, w, per_channel_axis):
    """Quantizes float weights: uint8 asymmetric per tensor, int8 symmetric per channel
    (along `per_channel_axis`) or per tensor (axis None)."""
    if ttype == T.UINT8:
        lo, hi = float(w.min()), float(w.max())
        scale = np.float32((hi - lo) / 255)
        zp = int(np.clip(np.round(-lo / scale), 0, 255))
        q = np.clip(np.round(w / scale) + zp, 0, 255).astype(np.uint8)
        return np.array([scale], np.float32), np.array([zp]), q, 0
    if per_channel_axis is None:
        scale = np.array([np.abs(w).max() / 127], np.float32)
        q = np.clip(np.round(w / scale[0]), -127, 127).astype(np.int8)
        return scale, np.array([0]), q, 0
    moved = np.moveaxis(w, per_channel_axis, 0)
    scale = (np.abs(moved).reshape(moved.shape[0], -1).max(axis=1) / 127).astype(np.float32)
    shape = [1] * w.ndim
    shape[per_channel_axis] = -1
    q = np.clip(np.round(w / scale.reshape(shape)), -127, 127).astype(np.int8)
    return scale, np.zeros(len(scale), np.int64), q, per_channel_axis


def bias_params(rng, s_in, s_w, channels):
    scale = (np.float64(s_in) * s_w.astype(np.float64)).astype(np.float32)
    q = rng.integers(-3000, 3000, size=channels).astype(np.int32)
    return scale, q


def output_params(ttype, real, activation):
    """Scale/zero point spanning the float result (after the fused activation)."""
    lo, hi = QRANGE[ttype]
    rmin, rmax = min(float(real.min()), 0.0), max(float(real.max()), 0.0)
    if activation == "RELU6":
        rmin, rmax = 0.0, min(rmax, 6.0) if rmax > 0 else 6.0
    elif activation == "RELU":
        rmin = 0.0
    elif activation == "RELU_N1_TO_1":
        rmin, rmax = -1.0, 1.0
    rmax = max(rmax, rmin + 1e-3)
    scale = float(np.float32((rmax - rmin) / (hi - lo) * 0.9))
    zp = int(np.clip(np.round(lo - rmin / scale), lo, hi))
    return scale, zp


def dequant(q, scale, zp, axis=None):
    q = q.astype(np.float64)
    if axis is None or np.size(scale) == 1:
        return (q - np.atleast_1d(zp)[0]) * np.atleast_1d(scale)[0]
    shape = [1] * q.ndim
    shape[axis] = -1
    return (q - np.reshape(zp, shape)) * np.reshape(scale, shape)


CASES = []


def case(name, model, x, y, notes):
    path = os.path.join(OUT, f"{name}.tflite")
    with open(path, "wb") as f:
        f.write(model)
    CASES.append({"name": name, "model": f"{name}.tflite", "notes": notes,
                  "input": [int(v) for v in x.reshape(-1)], "inputShape": list(x.shape),
                  "output": [int(v) for v in y.reshape(-1)], "outputShape": list(y.shape)})


def axis(size, k, s, d, padding):
    eff = (k - 1) * d + 1
    out = (size + s - 1) // s if padding == "SAME" else (size - eff + s) // s
    return out, max(0, (out - 1) * s + eff - size) // 2


def np_conv(x, w, stride, dilation, padding):
    """Float grouped convolution (NHWC, OHWI), only to pick output ranges."""
    n, h, wd, c = x.shape
    oc, kh, kw, cg = w.shape
    groups, og = c // cg, oc // (c // cg)
    oh, pt = axis(h, kh, stride[0], dilation[0], padding)
    ow, pl = axis(wd, kw, stride[1], dilation[1], padding)
    y = np.zeros((n, oh, ow, oc))
    for oy in range(oh):
        for ox in range(ow):
            for ky in range(kh):
                iy = oy * stride[0] - pt + ky * dilation[0]
                if not 0 <= iy < h:
                    continue
                for kx in range(kw):
                    ix = ox * stride[1] - pl + kx * dilation[1]
                    if not 0 <= ix < wd:
                        continue
                    for g in range(groups):
                        y[:, oy, ox, g * og:(g + 1) * og] += \
                            x[:, iy, ix, g * cg:(g + 1) * cg] @ w[g * og:(g + 1) * og, ky, kx, :].T
    return y


def conv(name, seed, ttype, in_shape, filt_shape, stride=(1, 1), dilation=(1, 1), padding="SAME",
         activation="NONE", per_channel=True, bias=True):
    rng = np.random.default_rng(seed)
    s_in, zp_in, x = activation_params(rng, ttype, in_shape)
    w = rng.normal(0, 0.5, size=filt_shape).astype(np.float32)
    s_w, zp_w, wq, axis = weight_params(rng, ttype, w, 0 if per_channel else None)
    out_c = filt_shape[0]
    s_b, bq = bias_params(rng, s_in, s_w, out_c)
    groups = in_shape[3] // filt_shape[3]
    xr = dequant(x, s_in, zp_in).astype(np.float32)
    wr = dequant(wq, s_w, zp_w, 0).astype(np.float32)
    br = (bq * (s_b if len(s_b) > 1 else s_b[0])).astype(np.float32)
    real = np_conv(xr, wr, stride, dilation, padding) + (br if bias else 0)
    s_out, zp_out = output_params(ttype, real, activation)
    tensors = [Tensor("input", in_shape, ttype, s_in, zp_in),
               Tensor("filter", filt_shape, ttype, s_w, zp_w, axis, wq)]
    inputs = [0, 1]
    if bias:
        tensors.append(Tensor("bias", [out_c], T.INT32, s_b, np.zeros(len(s_b), np.int64), 0, bq))
        inputs.append(2)
    else:
        inputs.append(-1)
    tensors.append(Tensor("output", [1], ttype, s_out, zp_out))
    o = schema.Conv2DOptionsT()
    o.padding, o.strideH, o.strideW = PAD[padding], stride[0], stride[1]
    o.dilationHFactor, o.dilationWFactor = dilation
    o.fusedActivationFunction = ACT[activation]
    model = build(OP.CONV_2D, schema.BuiltinOptions.Conv2DOptions, o, tensors, inputs, [0], [len(tensors) - 1])
    case(name, model, x, run(model, [x]), f"CONV_2D {in_shape} x {filt_shape} stride {stride} dilation {dilation} {padding} {activation}")


def depthwise(name, seed, ttype, in_shape, k, multiplier, stride=(1, 1), dilation=(1, 1), padding="SAME",
              activation="NONE", per_channel=True, bias=True):
    rng = np.random.default_rng(seed)
    s_in, zp_in, x = activation_params(rng, ttype, in_shape)
    out_c = in_shape[3] * multiplier
    filt_shape = [1, k[0], k[1], out_c]
    w = rng.normal(0, 0.5, size=filt_shape).astype(np.float32)
    s_w, zp_w, wq, axis = weight_params(rng, ttype, w, 3 if per_channel else None)
    s_b, bq = bias_params(rng, s_in, s_w, out_c)
    xr = dequant(x, s_in, zp_in).astype(np.float32)
    wr = dequant(wq, s_w, zp_w, 3).astype(np.float32)
    br = (bq * (s_b if len(s_b) > 1 else s_b[0])).astype(np.float32)
    # Depthwise = grouped convolution with one input channel per group.
    w_ohwi = np.transpose(wr, (3, 1, 2, 0))
    real = np_conv(xr, w_ohwi, stride, dilation, padding) + (br if bias else 0)
    s_out, zp_out = output_params(ttype, real, activation)
    tensors = [Tensor("input", in_shape, ttype, s_in, zp_in),
               Tensor("filter", filt_shape, ttype, s_w, zp_w, axis, wq)]
    inputs = [0, 1]
    if bias:
        tensors.append(Tensor("bias", [out_c], T.INT32, s_b, np.zeros(len(s_b), np.int64), 0, bq))
        inputs.append(2)
    tensors.append(Tensor("output", [1], ttype, s_out, zp_out))
    o = schema.DepthwiseConv2DOptionsT()
    o.padding, o.strideH, o.strideW = PAD[padding], stride[0], stride[1]
    o.dilationHFactor, o.dilationWFactor = dilation
    o.depthMultiplier = multiplier
    o.fusedActivationFunction = ACT[activation]
    model = build(OP.DEPTHWISE_CONV_2D, schema.BuiltinOptions.DepthwiseConv2DOptions, o, tensors, inputs, [0],
                  [len(tensors) - 1])
    case(name, model, x, run(model, [x]),
         f"DEPTHWISE_CONV_2D {in_shape} {k} M={multiplier} stride {stride} dilation {dilation} {padding} {activation}")


def fully_connected(name, seed, ttype, in_shape, units, activation="NONE", per_channel=True, bias=True,
                    keep_num_dims=False):
    rng = np.random.default_rng(seed)
    s_in, zp_in, x = activation_params(rng, ttype, in_shape)
    depth = in_shape[-1]
    w = rng.normal(0, 0.3, size=[units, depth]).astype(np.float32)
    s_w, zp_w, wq, axis = weight_params(rng, ttype, w, 0 if per_channel else None)
    s_b, bq = bias_params(rng, s_in, s_w, units)
    xr = dequant(x, s_in, zp_in).reshape(-1, depth)
    wr = dequant(wq, s_w, zp_w, 0)
    br = bq * (s_b if len(s_b) > 1 else s_b[0])
    real = xr @ wr.T + (br if bias else 0)
    s_out, zp_out = output_params(ttype, real, activation)
    tensors = [Tensor("input", in_shape, ttype, s_in, zp_in),
               Tensor("weights", [units, depth], ttype, s_w, zp_w, axis, wq)]
    inputs = [0, 1]
    if bias:
        tensors.append(Tensor("bias", [units], T.INT32, s_b, np.zeros(len(s_b), np.int64), 0, bq))
        inputs.append(2)
    else:
        inputs.append(-1)
    out_shape = list(in_shape[:-1]) + [units] if keep_num_dims else [int(np.prod(in_shape)) // depth, units]
    tensors.append(Tensor("output", out_shape, ttype, s_out, zp_out))
    o = schema.FullyConnectedOptionsT()
    o.fusedActivationFunction = ACT[activation]
    o.keepNumDims = keep_num_dims
    model = build(OP.FULLY_CONNECTED, schema.BuiltinOptions.FullyConnectedOptions, o, tensors, inputs, [0],
                  [len(tensors) - 1])
    case(name, model, x, run(model, [x]), f"FULLY_CONNECTED {in_shape} -> {units} {activation} keep_num_dims {keep_num_dims}")


def transpose_conv(name, seed, ttype, in_shape, filt_shape, out_hw, stride, padding, activation="NONE",
                   per_channel=True, bias=True):
    rng = np.random.default_rng(seed)
    s_in, zp_in, x = activation_params(rng, ttype, in_shape)
    w = rng.normal(0, 0.5, size=filt_shape).astype(np.float32)
    s_w, zp_w, wq, axis = weight_params(rng, ttype, w, 0 if per_channel else None)
    out_c = filt_shape[0]
    s_b, bq = bias_params(rng, s_in, s_w, out_c)
    out_shape = [in_shape[0], out_hw[0], out_hw[1], out_c]
    xr = dequant(x, s_in, zp_in).astype(np.float32)
    wr = dequant(wq, s_w, zp_w, 0).astype(np.float32)
    br = (bq * (s_b if len(s_b) > 1 else s_b[0])).astype(np.float32)
    real = tf.nn.conv2d_transpose(xr, np.transpose(wr, (1, 2, 0, 3)), out_shape, strides=[1, *stride, 1],
                                  padding=padding).numpy() + (br if bias else 0)
    s_out, zp_out = output_params(ttype, real, activation)
    tensors = [Tensor("output_shape", [4], T.INT32, data=np.array(out_shape, np.int32)),
               Tensor("weights", filt_shape, ttype, s_w, zp_w, axis, wq),
               Tensor("input", in_shape, ttype, s_in, zp_in)]
    inputs = [0, 1, 2]
    if bias:
        tensors.append(Tensor("bias", [out_c], T.INT32, s_b, np.zeros(len(s_b), np.int64), 0, bq))
        inputs.append(3)
    tensors.append(Tensor("output", out_shape, ttype, s_out, zp_out))
    o = schema.TransposeConvOptionsT()
    o.padding, o.strideH, o.strideW = PAD[padding], stride[0], stride[1]
    o.fusedActivationFunction = ACT[activation]
    model = build(OP.TRANSPOSE_CONV, schema.BuiltinOptions.TransposeConvOptions, o, tensors, inputs, [2],
                  [len(tensors) - 1])
    case(name, model, x, run(model, [x]),
         f"TRANSPOSE_CONV {in_shape} x {filt_shape} -> {out_shape} stride {stride} {padding} {activation}")


def pool(name, seed, ttype, kind, in_shape, k, stride, padding, activation="NONE"):
    rng = np.random.default_rng(seed)
    s_in, zp_in, x = activation_params(rng, ttype, in_shape)
    tensors = [Tensor("input", in_shape, ttype, s_in, zp_in), Tensor("output", [1], ttype, s_in, zp_in)]
    o = schema.Pool2DOptionsT()
    o.padding, o.strideH, o.strideW = PAD[padding], stride[0], stride[1]
    o.filterHeight, o.filterWidth = k
    o.fusedActivationFunction = ACT[activation]
    code = OP.AVERAGE_POOL_2D if kind == "avg" else OP.MAX_POOL_2D
    model = build(code, schema.BuiltinOptions.Pool2DOptions, o, tensors, [0], [0], [1])
    case(name, model, x, run(model, [x]), f"{kind} pool {in_shape} {k} stride {stride} {padding} {activation}")


def mobilenet_fc(name):
    """FULLY_CONNECTED output (before SOFTMAX) of a quantized fixture on a fixed input."""
    path = os.path.join(ROOT, "Fixtures", "models", f"{name}.tflite")
    it = Interpreter(model_path=path, experimental_op_resolver_type=OpResolverType.BUILTIN_REF,
                     experimental_preserve_all_tensors=True)
    it.allocate_tensors()
    d = it.get_input_details()[0]
    x = np.random.default_rng(77).integers(0, 256, size=d["shape"]).astype(np.uint8)
    if d["dtype"] == np.int8:
        x = (x.astype(np.int16) - 128).astype(np.int8)
    it.set_tensor(d["index"], x)
    it.invoke()
    ops = it._get_ops_details()
    fc = [o for o in ops if o["op_name"] == "FULLY_CONNECTED"][-1]
    out = it.get_tensor(fc["outputs"][0])
    final = it.get_tensor(it.get_output_details()[0]["index"])
    return {"name": name, "input": [int(v) for v in x.reshape(-1)], "fcTensor": int(fc["outputs"][0]),
            "fcOutput": [int(v) for v in out.reshape(-1)], "output": [int(v) for v in final.reshape(-1)]}


def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        os.remove(os.path.join(OUT, f))
    U8, I8 = T.UINT8, T.INT8
    # CONV_2D
    conv("conv_u8_same_relu6", 1, U8, [1, 7, 6, 5], [4, 3, 3, 5], activation="RELU6")
    conv("conv_u8_valid_stride_dilation", 2, U8, [1, 9, 8, 3], [6, 3, 2, 3], stride=(2, 1), dilation=(1, 2),
         padding="VALID", activation="RELU")
    conv("conv_u8_grouped", 3, U8, [1, 6, 5, 6], [4, 3, 3, 3], stride=(2, 2))
    conv("conv_u8_pointwise_batch2", 4, U8, [2, 4, 5, 8], [6, 1, 1, 8])
    conv("conv_i8_same_stride2_relu6", 5, I8, [1, 8, 7, 4], [5, 3, 3, 4], stride=(2, 2), activation="RELU6")
    conv("conv_i8_valid_dilation", 6, I8, [1, 9, 9, 3], [4, 3, 3, 3], dilation=(2, 2), padding="VALID")
    conv("conv_i8_grouped", 7, I8, [1, 5, 6, 9], [6, 3, 3, 3], activation="RELU_N1_TO_1")
    conv("conv_i8_pointwise_per_tensor_batch2", 8, I8, [2, 3, 4, 16], [12, 1, 1, 16], per_channel=False)
    conv("conv_i8_deep", 9, I8, [1, 6, 6, 80], [24, 3, 3, 80], activation="RELU")
    conv("conv_i8_2x2_stride_1x2", 10, I8, [1, 5, 5, 2], [3, 2, 2, 2], stride=(1, 2))
    # DEPTHWISE_CONV_2D
    depthwise("dw_u8_same_relu6", 11, U8, [1, 7, 7, 8], (3, 3), 1, activation="RELU6")
    depthwise("dw_u8_multiplier2_stride2", 12, U8, [1, 8, 7, 3], (3, 3), 2, stride=(2, 2))
    depthwise("dw_u8_dilation_valid", 13, U8, [2, 9, 8, 5], (3, 2), 1, dilation=(2, 2), padding="VALID")
    depthwise("dw_i8_same_relu6", 14, I8, [1, 6, 7, 16], (3, 3), 1, activation="RELU6")
    depthwise("dw_i8_multiplier3_dilation", 15, I8, [1, 9, 9, 2], (3, 3), 3, dilation=(2, 2), activation="RELU")
    depthwise("dw_i8_per_tensor_5x5_stride2", 16, I8, [1, 11, 10, 12], (5, 5), 1, stride=(2, 2), per_channel=False)
    depthwise("dw_i8_nobias", 17, I8, [1, 4, 4, 4], (2, 2), 1, bias=False)
    # Enough outputs to tell the two uint8 rounding variants apart.
    depthwise("dw_u8_large", 18, U8, [1, 16, 16, 12], (3, 3), 1)
    # FULLY_CONNECTED
    fully_connected("fc_u8_relu", 21, U8, [2, 20], 7, activation="RELU")
    fully_connected("fc_u8_nobias", 22, U8, [3, 12], 5, bias=False)
    fully_connected("fc_u8_keep_num_dims", 23, U8, [2, 3, 16], 6, keep_num_dims=True)
    fully_connected("fc_i8_per_channel", 24, I8, [3, 32], 10)
    fully_connected("fc_i8_per_tensor_relu6", 25, I8, [1, 50], 12, per_channel=False, activation="RELU6")
    fully_connected("fc_i8_keep_num_dims_nobias", 26, I8, [2, 2, 24], 9, keep_num_dims=True, bias=False)
    fully_connected("fc_i8_deep", 27, I8, [4, 700], 20)
    # Enough outputs that fixed-point and floating-point requantization would disagree.
    fully_connected("fc_u8_many_rows", 28, U8, [96, 32], 24)
    fully_connected("fc_i8_many_rows", 29, I8, [128, 48], 32, per_channel=False)
    # TRANSPOSE_CONV
    transpose_conv("tconv_i8_same_stride2", 31, I8, [1, 3, 4, 3], [4, 3, 3, 3], (6, 8), (2, 2), "SAME")
    transpose_conv("tconv_i8_valid_nobias", 32, I8, [1, 3, 3, 2], [3, 3, 2, 2], (7, 8), (2, 3), "VALID", bias=False)
    transpose_conv("tconv_i8_per_tensor_relu", 33, I8, [2, 2, 3, 4], [2, 2, 2, 4], (4, 6), (2, 2), "SAME",
                   per_channel=False, activation="RELU")
    transpose_conv("tconv_u8_same_stride2", 34, U8, [1, 3, 3, 3], [2, 3, 3, 3], (5, 6), (2, 2), "SAME")
    # Pools
    pool("avgpool_u8_same_3x3_s2", 41, U8, "avg", [1, 7, 8, 5], (3, 3), (2, 2), "SAME")
    pool("avgpool_u8_valid_relu6", 42, U8, "avg", [2, 6, 6, 3], (2, 3), (2, 1), "VALID", "RELU6")
    pool("avgpool_i8_same_3x3_s1", 43, I8, "avg", [1, 5, 6, 4], (3, 3), (1, 1), "SAME")
    pool("avgpool_i8_valid_relu", 44, I8, "avg", [1, 6, 6, 9], (2, 2), (2, 2), "VALID", "RELU")
    pool("maxpool_u8_same_2x2", 45, U8, "max", [1, 5, 5, 3], (2, 2), (2, 2), "SAME")
    pool("maxpool_i8_3x3_s2_relu6", 46, I8, "max", [1, 7, 7, 10], (3, 3), (2, 2), "SAME", "RELU6")
    mobilenets = [mobilenet_fc("mobilenet_int8"), mobilenet_fc("mobilenet_uint8_legacy")]
    with open(os.path.join(OUT, "goldens.json"), "w") as f:
        json.dump({"cases": CASES, "mobilenets": mobilenets}, f, separators=(",", ":"))
    print(f"{len(CASES)} cases written to {OUT}")


if __name__ == "__main__":
    main()
