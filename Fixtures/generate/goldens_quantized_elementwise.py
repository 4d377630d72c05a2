"""Goldens for the 8-bit elementwise, activation, reduction, concat, resize and
quantize kernels, from LiteRT's reference kernels (BUILTIN_REF).

Every case is a small .tflite model holding the operator under test, saved with
its inputs and BUILTIN_REF's outputs under
Tests/TFLiteRuntimeTests/Resources/quantized-elementwise/<case>/:

    model.tflite, input_<i>.npy, expected_<i>.npy

Models come from three sources:
- int8: TF2 full-integer quantization (representative data, int8 inference I/O);
- uint8: tf.compat.v1 graphs with fake-quant ops converted with
  inference_type=tf.uint8 (the legacy quantized-training path);
- edits of those models through the flatbuffer object API, for what the
  converters do not emit (softmax beta, int8 models turned into uint8 twins by
  moving every zero point by 128, a RELU model relabelled RELU6/RELU_N1_TO_1).

Each model is checked to contain the intended operator with the intended types
(the converter may rewrite ops), then run by LiteRT with BUILTIN_REF.

    $(Fixtures/generate/venv.sh) Fixtures/generate/goldens_quantized_elementwise.py
"""
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import flatbuffers
import numpy as np
import tensorflow as tf
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from tensorflow.lite.python import schema_py_generated as schema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tflite_edit import edit, load, save_model, to_uint8  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OUT = os.path.join(ROOT, "Tests", "TFLiteRuntimeTests", "Resources", "quantized-elementwise")
SEED = 20240611

# ---------------------------------------------------------------------------
# Converters


def tf2_int8(fn, specs, io_type=tf.int8, output_type=None):
    """Full-integer int8 model of `fn`; `specs` are (shape, lo, hi) float ranges
    for the representative data."""
    rng = np.random.default_rng(SEED)

    def representative():
        for _ in range(200):
            yield [rng.uniform(lo, hi, shape).astype(np.float32) for shape, lo, hi in specs]

    conv = tf.lite.TFLiteConverter.from_concrete_functions([fn.get_concrete_function()], fn)
    conv.optimizations = [tf.lite.Optimize.DEFAULT]
    conv.representative_dataset = representative
    conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
    conv.inference_input_type = io_type
    conv.inference_output_type = output_type or io_type
    return conv.convert()


def v1_uint8(inputs, body, out_range, float_input=False):
    """Legacy uint8 model: `inputs` are (name, shape, lo, hi) fake-quantized
    placeholders, `body` maps them to one float tensor, fake-quantized to
    `out_range`. With `float_input` the graph input stays float (QUANTIZE op)."""
    g = tf.Graph()
    with g.as_default():
        sess = tf.compat.v1.Session()
        phs, qs = [], []
        for name, shape, lo, hi in inputs:
            p = tf.compat.v1.placeholder(tf.float32, shape, name=name)
            phs.append(p)
            qs.append(tf.quantization.fake_quant_with_min_max_args(p, min=lo, max=hi))
        y = body(*qs)
        out = tf.quantization.fake_quant_with_min_max_args(y, min=out_range[0], max=out_range[1])
        conv = tf.compat.v1.lite.TFLiteConverter.from_session(sess, phs, [out])
        conv.inference_type = tf.uint8
        if float_input:
            conv.inference_input_type = tf.float32
        conv.quantized_input_stats = {n: (-lo * 255 / (hi - lo), 255 / (hi - lo)) for n, _, lo, hi in inputs}
        return conv.convert()


def fq(x, lo, hi):
    return tf.quantization.fake_quant_with_min_max_args(x, min=lo, max=hi)


def sig(*specs):
    return [tf.TensorSpec(s, tf.float32) for s in specs]


# ---------------------------------------------------------------------------
# Flatbuffer edits


def set_softmax_beta(beta):
    def f(m):
        for sg in m.subgraphs:
            for op in sg.operators:
                if m.operatorCodes[op.opcodeIndex].builtinCode == schema.BuiltinOperator.SOFTMAX:
                    op.builtinOptions.beta = beta
    return f


def retype_input(type_, scale_factor, zero_point, output=None):
    """Gives the graph input (which feeds a QUANTIZE) type `type_`, its scale times
    `scale_factor` and `zero_point`; with `output`, the first QUANTIZE's output
    gets that type too (zero point moved by 128 from int8)."""
    def f(m):
        sg = m.subgraphs[0]
        t = sg.tensors[sg.inputs[0]]
        t.type = type_
        t.quantization.scale = [float(np.float32(t.quantization.scale[0] * scale_factor))]
        t.quantization.zeroPoint = [zero_point]
        if output is not None:
            q = next(op for op in sg.operators if op.inputs[0] == sg.inputs[0])
            o = sg.tensors[q.outputs[0]]
            o.type = output
            o.quantization.zeroPoint = [int(o.quantization.zeroPoint[0]) + 128]
            # Keep the graph valid: the consumer of the QUANTIZE output reads it
            # as uint8, so cut the graph after the QUANTIZE.
            sg.operators = [q]
            sg.outputs = [q.outputs[0]]
    return f


def relabel(old, new):
    def f(m):
        for c in m.operatorCodes:
            if c.builtinCode == old:
                c.builtinCode = new
                c.deprecatedBuiltinCode = min(new, 127)
                c.version = 1  # BUILTIN_REF registers RELU_N1_TO_1 at version 1 only
    return f


# ---------------------------------------------------------------------------
# Running and saving

OP_NAMES = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
TYPE_NAMES = {v: k for k, v in vars(schema.TensorType).items() if not k.startswith("_")}


def op_signatures(model):
    """(op name, input types, output types) of every operator."""
    m = load(model)
    sg = m.subgraphs[0]
    result = []
    for op in sg.operators:
        name = OP_NAMES[m.operatorCodes[op.opcodeIndex].builtinCode]
        ins = [TYPE_NAMES[sg.tensors[i].type] for i in op.inputs if i >= 0]
        outs = [TYPE_NAMES[sg.tensors[i].type] for i in op.outputs]
        result.append((name, ins, outs))
    return result


def make_inputs(interp, rng, floats=None):
    values = []
    for k, d in enumerate(interp.get_input_details()):
        shape, dtype = d["shape"], d["dtype"]
        if dtype == np.float32:
            lo, hi = floats[k]
            values.append(rng.uniform(lo, hi, shape).astype(np.float32))
        else:
            info = np.iinfo(dtype)
            values.append(rng.integers(info.min, info.max, shape, endpoint=True).astype(dtype))
    return values


def run(model, inputs, resolver):
    it = Interpreter(model_content=model, experimental_op_resolver_type=resolver)
    it.allocate_tensors()
    for d, v in zip(it.get_input_details(), inputs):
        it.set_tensor(d["index"], v)
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]


CASES = []
# int8 cases whose expected output comes from BUILTIN_REF on the uint8 twin (see emit).
INT8_VIA_UINT8 = {"i8_sum", "i8_sum_keep"}


def case(name, model, op, types, floats=None, inputs=None):
    """Records a case whose model must contain `op` with all tensors of `types`
    (one type name, or an (inputs, outputs) pair of lists)."""
    CASES.append((name, model, op, types, floats, inputs))


def emit(name, model, op, types, floats, inputs):
    sigs = op_signatures(model)
    matches = [s for s in sigs if s[0] == op]
    assert matches, f"{name}: no {op} in {sigs}"
    if isinstance(types, str):
        for _, ins, outs in matches:
            want_ins = [t for t in ins if t != "INT32"]  # shape/axis operands
            assert all(t == types for t in want_ins + outs), f"{name}: {op} has types {ins} -> {outs}"
    elif types is not None:
        assert any([ins, outs] == list(types) for _, ins, outs in matches), f"{name}: {op} types {matches}"
    rng = np.random.default_rng([SEED, *name.encode()])
    it = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    values = inputs if inputs is not None else make_inputs(it, rng, floats)
    ref = run(model, values, OpResolverType.BUILTIN_REF)
    opt = run(model, values, OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    if name in INT8_VIA_UINT8:
        # BUILTIN_REF's int8 SUM reads the int8 codes as uint8 (its reference dispatch
        # passes uint8 pointers), which gives meaningless results. The same arithmetic
        # on the uint8 twin (codes and zero points + 128) is the int8 answer + 128.
        twin = run(edit(model, to_uint8), [(v.view(np.uint8) ^ 0x80) for v in values], OpResolverType.BUILTIN_REF)
        ref = [(t ^ 0x80).view(np.int8) for t in twin]
        assert all(np.max(np.abs(a.astype(int) - b.astype(int))) <= 1 for a, b in zip(ref, opt)), name
    diff = max(int(np.max(np.abs(a.astype(np.int64) - b.astype(np.int64)))) if a.dtype != np.float32 else 0
               for a, b in zip(ref, opt))
    d = os.path.join(OUT, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.tflite"), "wb") as f:
        f.write(model)
    for i, v in enumerate(values):
        np.save(os.path.join(d, f"input_{i}.npy"), v)
    for i, v in enumerate(ref):
        np.save(os.path.join(d, f"expected_{i}.npy"), v)
    print(f"{name:28s} {' '.join(s[0] for s in sigs):50s} ref-vs-optimized max diff {diff}")


# ---------------------------------------------------------------------------
# int8 cases (TF2 full-integer quantization)


def int8_cases():
    def binary(name, op, f, sa, ra, sb, rb, act=None):
        @tf.function(input_signature=sig(sa, sb))
        def fn(a, b):
            y = f(a, b)
            return act(y) if act else y
        m = tf2_int8(fn, [(sa, *ra), (sb, *rb)])
        case(name, m, op, "INT8")
        return m

    binary("i8_add", "ADD", tf.add, [1, 4, 4, 3], (-2, 2), [1, 4, 4, 3], (-1, 3))
    binary("i8_add_bcast_relu", "ADD", tf.add, [2, 3, 4], (-2, 2), [4], (-1, 1), tf.nn.relu)
    binary("i8_sub_bcast_relu6", "SUB", tf.subtract, [2, 3, 4], (-4, 8), [1, 3, 1], (-2, 2), tf.nn.relu6)
    binary("i8_sub", "SUB", tf.subtract, [3, 5], (-1, 1), [3, 5], (-3, 2))
    binary("i8_mul_bcast", "MUL", tf.multiply, [2, 3, 4], (-2, 2), [3, 1], (-3, 1))
    binary("i8_mul_relu", "MUL", tf.multiply, [2, 8], (-2, 2), [2, 8], (-1, 3), tf.nn.relu)
    binary("i8_maximum_bcast", "MAXIMUM", tf.maximum, [2, 3, 4], (-2, 2), [4], (-2, 2))
    binary("i8_minimum_bcast", "MINIMUM", tf.minimum, [2, 3, 4], (-2, 2), [3, 1], (-2, 2))

    def unary(name, op, f, shape, lo, hi, types="INT8"):
        @tf.function(input_signature=sig(shape))
        def fn(x):
            return f(x)
        m = tf2_int8(fn, [(shape, lo, hi)])
        case(name, m, op, types)
        return m

    unary("i8_logistic", "LOGISTIC", tf.math.sigmoid, [256], -8, 8)
    unary("i8_tanh", "TANH", tf.math.tanh, [256], -4, 4)
    unary("i8_hard_swish", "HARD_SWISH", lambda x: x * tf.nn.relu6(x + 3) / 6, [256], -5, 5)
    unary("i8_leaky_relu", "LEAKY_RELU", lambda x: tf.nn.leaky_relu(x, 0.2), [256], -3, 3)
    relu = unary("i8_relu", "RELU", tf.nn.relu, [256], -3, 3)
    unary("i8_relu6", "RELU6", tf.nn.relu6, [256], -4, 9)
    case("i8_relu_n1_to_1", edit(relu, relabel(schema.BuiltinOperator.RELU, schema.BuiltinOperator.RELU_N1_TO_1)),
         "RELU_N1_TO_1", "INT8")
    sm = unary("i8_softmax", "SOFTMAX", tf.nn.softmax, [4, 64], -6, 6)
    case("i8_softmax_beta", edit(sm, set_softmax_beta(0.37)), "SOFTMAX", "INT8")
    unary("i8_softmax_4d", "SOFTMAX", tf.nn.softmax, [1, 2, 3, 10], -3, 5)

    prelu_layer = tf.keras.layers.PReLU(shared_axes=[1, 2], alpha_initializer=tf.keras.initializers.Constant([0.2, -0.5, 1.5]))
    prelu_layer.build([1, 4, 4, 3])
    unary("i8_prelu", "PRELU", prelu_layer, [1, 4, 4, 3], -2, 2)

    unary("i8_mean_last", "MEAN", lambda x: tf.reduce_mean(x, axis=-1), [2, 3, 8], -2, 2)
    unary("i8_mean_hw_keep", "MEAN", lambda x: tf.reduce_mean(x, axis=[1, 2], keepdims=True), [1, 5, 4, 6], -2, 2)
    unary("i8_mean_02", "MEAN", lambda x: tf.reduce_mean(x, axis=[0, 2]), [2, 3, 4, 5], -1, 3)
    unary("i8_sum", "SUM", lambda x: tf.reduce_sum(x, axis=1), [2, 3, 8], -1, 1)
    unary("i8_sum_keep", "SUM", lambda x: tf.reduce_sum(x, axis=[0, 2], keepdims=True), [3, 2, 4], -2, 1)

    for name, size, ac, hpc in [("i8_resize_bilinear", [5, 8], False, False),
                                ("i8_resize_bilinear_hpc", [7, 4], False, True),
                                ("i8_resize_bilinear_ac", [6, 9], True, False)]:
        unary(name, "RESIZE_BILINEAR",
              lambda x, size=size, ac=ac, hpc=hpc: tf.compat.v1.image.resize_bilinear(x, size, align_corners=ac, half_pixel_centers=hpc),
              [1, 3, 5, 2], -2, 2, types=(["INT8", "INT32"], ["INT8"]))

    @tf.function(input_signature=sig([1, 2, 3], [1, 3, 3]))
    def concat(a, b):
        return tf.concat([a, b], axis=1)
    # The converter gives every input the output's quantization (TFLite requires it for int8).
    m = tf2_int8(concat, [([1, 2, 3], -1, 1), ([1, 3, 3], -4, 4)])
    case("i8_concat", m, "CONCATENATION", "INT8")

    @tf.function(input_signature=sig([2, 3, 4]))
    def quantize_io(x):
        return tf.nn.relu(x)
    m = tf2_int8(quantize_io, [([2, 3, 4], -3, 5)], io_type=tf.float32, output_type=tf.int8)
    case("f32_quantize_int8", m, "QUANTIZE", (["FLOAT32"], ["INT8"]), floats=[(-4, 6)])
    m = tf2_int8(quantize_io, [([2, 3, 4], -3, 5)], io_type=tf.uint8)
    case("u8_i8_quantize", m, "QUANTIZE", None)
    # q -> q requantization with a different scale, from the uint8 -> int8 input QUANTIZE.
    case("i8_i8_requantize", edit(m, retype_input(schema.TensorType.INT8, 1.7, -5)), "QUANTIZE", (["INT8"], ["INT8"]))
    case("u8_u8_requantize", edit(m, retype_input(schema.TensorType.UINT8, 0.45, 77, output=schema.TensorType.UINT8)),
         "QUANTIZE", (["UINT8"], ["UINT8"]))

    return {"hard_swish": "i8_hard_swish", "prelu": "i8_prelu", "leaky_relu": "i8_leaky_relu",
            "softmax": "i8_softmax_beta", "sum": "i8_sum"}


def uint8_twins():
    """uint8 copies of int8 models for ops the legacy converter does not emit."""
    by_name = {c[0]: c for c in CASES}
    for src, dst, op in [("i8_hard_swish", "u8_hard_swish", "HARD_SWISH"),
                         ("i8_prelu", "u8_prelu", "PRELU"),
                         ("i8_leaky_relu", "u8_leaky_relu", "LEAKY_RELU"),
                         ("i8_softmax_beta", "u8_softmax_beta", "SOFTMAX"),
                         ("i8_relu_n1_to_1", "u8_relu_n1_to_1", "RELU_N1_TO_1"),
                         ("i8_sum_keep", "u8_sum_keep", "SUM"),
                         ("i8_resize_bilinear_hpc", "u8_resize_bilinear_hpc", "RESIZE_BILINEAR"),
                         ("i8_mean_02", "u8_mean_02", "MEAN")]:
        m = by_name[src][1]
        types = by_name[src][3]
        types = "UINT8" if isinstance(types, str) else ([t.replace("INT8", "UINT8") for t in types[0]], ["UINT8"])
        case(dst, edit(m, to_uint8), op, types)


# ---------------------------------------------------------------------------
# uint8 cases (legacy quantized graphs)


def uint8_cases():
    def binary(name, op, f, a, b, out, act=None):
        def body(x, y):
            r = f(x, y)
            return act(r) if act else r
        case(name, v1_uint8([("a", *a), ("b", *b)], body, out), op, "UINT8")

    binary("u8_add", "ADD", tf.add, ([1, 4, 4, 3], -2.0, 2.0), ([1, 4, 4, 3], -1.0, 3.0), (-3.0, 5.0))
    binary("u8_add_bcast_relu", "ADD", tf.add, ([2, 3, 4], -2.0, 2.0), ([4], -1.0, 1.0), (0.0, 3.0), tf.nn.relu)
    binary("u8_sub_bcast_relu6", "SUB", tf.subtract, ([2, 3, 4], -4.0, 8.0), ([1, 3, 1], -2.0, 2.0), (0.0, 6.0), tf.nn.relu6)
    binary("u8_sub", "SUB", tf.subtract, ([3, 5], -1.0, 1.0), ([3, 5], -3.0, 2.0), (-3.0, 4.0))
    binary("u8_mul_bcast", "MUL", tf.multiply, ([2, 3, 4], -2.0, 2.0), ([3, 1], -3.0, 1.0), (-6.0, 6.0))
    binary("u8_mul_relu_n1", "MUL", tf.multiply, ([2, 8], -2.0, 2.0), ([2, 8], -1.0, 3.0), (-1.0, 1.0),
           lambda r: tf.clip_by_value(r, -1.0, 1.0))
    binary("u8_maximum_bcast", "MAXIMUM", tf.maximum, ([2, 3, 4], -2.0, 2.0), ([4], -2.0, 2.0), (-2.0, 2.0))
    binary("u8_minimum_bcast", "MINIMUM", tf.minimum, ([2, 3, 4], -2.0, 2.0), ([3, 1], -2.0, 2.0), (-2.0, 2.0))

    def unary(name, op, f, shape, lo, hi, out, types="UINT8", float_input=False):
        case(name, v1_uint8([("x", shape, lo, hi)], f, out, float_input=float_input), op, types,
             floats=[(lo * 1.2, hi * 1.2)] if float_input else None)

    unary("u8_logistic", "LOGISTIC", tf.math.sigmoid, [256], -8.0, 8.0, (0.0, 255 / 256))
    unary("u8_tanh", "TANH", tf.math.tanh, [256], -4.0, 4.0, (-1.0, 1.0))
    unary("u8_softmax", "SOFTMAX", tf.nn.softmax, [4, 64], -6.0, 6.0, (0.0, 255 / 256))
    unary("u8_relu", "RELU", tf.nn.relu, [256], -3.0, 3.0, (0.0, 2.5))
    unary("u8_relu6", "RELU6", tf.nn.relu6, [256], -4.0, 9.0, (0.0, 6.0))
    unary("u8_mean_last", "MEAN", lambda x: tf.reduce_mean(x, axis=-1), [2, 3, 8], -2.0, 2.0, (-1.0, 1.5))
    unary("u8_mean_hw_keep", "MEAN", lambda x: tf.reduce_mean(x, axis=[1, 2], keepdims=True), [1, 5, 4, 6], -2.0, 2.0, (-1.0, 1.0))
    unary("u8_sum", "SUM", lambda x: tf.reduce_sum(x, axis=1), [2, 3, 8], -1.0, 1.0, (-4.0, 4.0))
    unary("u8_resize_bilinear", "RESIZE_BILINEAR",
          lambda x: tf.compat.v1.image.resize_bilinear(x, [5, 8]), [1, 3, 5, 2], -2.0, 2.0, (-2.0, 2.0),
          types=(["UINT8", "INT32"], ["UINT8"]))
    unary("u8_resize_bilinear_ac", "RESIZE_BILINEAR",
          lambda x: tf.compat.v1.image.resize_bilinear(x, [6, 9], align_corners=True), [1, 3, 5, 2], -2.0, 2.0, (-2.0, 2.0),
          types=(["UINT8", "INT32"], ["UINT8"]))
    unary("f32_quantize_uint8", "QUANTIZE", tf.nn.relu, [2, 3, 4], -3.0, 5.0, (0.0, 5.0),
          types=(["FLOAT32"], ["UINT8"]), float_input=True)

    def concat(a, b):
        return tf.concat([a, b], axis=1)
    case("u8_concat_scaling",
         v1_uint8([("a", [1, 2, 3], -1.0, 1.0), ("b", [1, 3, 3], -4.0, 4.0)], concat, (-3.0, 3.0)),
         "CONCATENATION", "UINT8")


def main():
    only = set(sys.argv[1:])
    if os.path.isdir(OUT) and not only:
        shutil.rmtree(OUT)
    int8_cases()
    uint8_twins()
    uint8_cases()
    for c in CASES:
        if not only or c[0] in only:
            emit(*c)


if __name__ == "__main__":
    main()
