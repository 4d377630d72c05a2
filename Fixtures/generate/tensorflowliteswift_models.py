#!/usr/bin/env python3
"""Rebuilds the models TensorFlowLiteSwift's unit tests load, for our own tests of the same
behaviours (Tests/TensorFlowLiteTests/GoogleParity*.swift).

  add.bin              two ADDs: t = x + x, y = t + x, float32 [1, 8, 8, 3]
  add_quantized.bin    the same graph on uint8 (scale 0.003922, zero point 0); the middle
                       tensor `add` has no type in the file, so the schema reads FLOAT32,
                       while its quantization is uint8's: ADD derives its output type from
                       its inputs at prepare, so the model runs
  multi_add.bin        four inputs a, b, c, d; i = b + c, x = a + i, y = d + i
  mul_quantized.bin    add_quantized.bin with MUL for ADD: TFLite's MUL keeps the file's
                       output type, so the untyped middle tensor stays FLOAT32 and the
                       second MUL is refused at prepare (our negative case)
  multi_signatures.bin a two-signature model made by the converter: "add" (x + 2) and
                       "sub" (x - 2), each on a float32 [1] input named x

The first three describe the graphs of TensorFlow's JSON dumps in
tensorflow/lite/testdata (add.json, add_quantized.json, multi_add.json) through
TensorFlow's schema object API; the fourth is what Google's test expects of a
converter-made multi-signature model. Every model is loaded and invoked in LiteRT with its
reference kernels, and the values our tests assert are checked against it here, so the
tests hard-code LiteRT's answers. Output: Fixtures/tensorflowliteswift/.
"""
from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import pathlib
import sys
import tempfile

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from tflite_edit import save_model, schema  # noqa: E402

OUT = pathlib.Path(__file__).resolve().parent.parent / "tensorflowliteswift"
SHAPE = [1, 8, 8, 3]
SCALE = 0.003922


def tensor(name: str, type_: int | None = None, quantized: bool = False):
    t = schema.TensorT()
    t.name = name
    t.shape = list(SHAPE)
    t.buffer = 0
    if type_ is not None:
        t.type = type_
    if quantized:
        q = schema.QuantizationParametersT()
        q.min, q.max, q.scale, q.zeroPoint = [0.0], [1.0], [SCALE], [0]
        t.quantization = q
    return t


def add(inputs: list[int], output: int):
    op = schema.OperatorT()
    op.opcodeIndex = 0
    op.inputs, op.outputs = inputs, [output]
    op.builtinOptionsType = schema.BuiltinOptions.AddOptions
    op.builtinOptions = schema.AddOptionsT()
    return op


def model(tensors, inputs: list[int], outputs: list[int], ops) -> bytes:
    code = schema.OperatorCodeT()  # builtin code 0 is ADD
    code.builtinCode = schema.BuiltinOperator.ADD
    code.deprecatedBuiltinCode = schema.BuiltinOperator.ADD
    code.version = 1
    sg = schema.SubGraphT()
    sg.tensors, sg.inputs, sg.outputs, sg.operators = tensors, inputs, outputs, ops
    m = schema.ModelT()
    m.version = 3
    m.operatorCodes = [code]
    m.subgraphs = [sg]
    m.buffers = [schema.BufferT()]
    return save_model(m)


def make_add() -> bytes:
    return model([tensor("add"), tensor("input"), tensor("output")], [1], [2], [add([1, 1], 0), add([0, 1], 2)])


def make_add_quantized() -> bytes:
    u8 = schema.TensorType.UINT8
    # Tensor 0 carries uint8 quantization but no type: exactly as the JSON dump has it.
    tensors = [tensor("add", None, True), tensor("input", u8, True), tensor("output", u8, True)]
    return model(tensors, [1], [2], [add([1, 1], 0), add([0, 1], 2)])


def make_mul_quantized() -> bytes:
    from tflite_edit import load

    m = load(make_add_quantized())
    code = m.operatorCodes[0]
    code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.MUL
    for op in m.subgraphs[0].operators:
        op.builtinOptionsType = schema.BuiltinOptions.MulOptions
        op.builtinOptions = schema.MulOptionsT()
    return save_model(m)


def make_multi_add() -> bytes:
    tensors = [tensor(n) for n in "abcdixy"]
    return model(tensors, [0, 1, 2, 3], [5, 6], [add([1, 2], 4), add([0, 4], 5), add([3, 4], 6)])


def make_multi_signatures() -> bytes:
    import tensorflow as tf

    class Module(tf.Module):
        # A variable makes the saved functions stateful, so the converter names the
        # outputs StatefulPartitionedCall:0 as in the model Google's test describes.
        def __init__(self):
            super().__init__()
            self.two = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec([1], tf.float32)])
        def add(self, x):
            return x + self.two

        @tf.function(input_signature=[tf.TensorSpec([1], tf.float32)])
        def sub(self, x):
            return x - self.two

    module = Module()
    with tempfile.TemporaryDirectory() as d:
        tf.saved_model.save(module, d, signatures={"add": module.add, "sub": module.sub})
        return tf.lite.TFLiteConverter.from_saved_model(d, signature_keys=["add", "sub"]).convert()


def interpreter(data: bytes):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    return Interpreter(model_content=data, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)


def check(cond: bool, what: str) -> None:
    if not cond:
        raise SystemExit(f"LiteRT disagrees with the tests: {what}")


def verify(models: dict[str, bytes]) -> None:
    """The facts Tests/TensorFlowLiteTests asserts, as LiteRT's reference kernels give them."""
    for name, dtype, x, want in [("add", np.float32, [1.0, 3.0], [3.0, 9.0]),
                                 ("add_quantized", np.uint8, [1, 3], [3, 9])]:
        it = interpreter(models[name])
        d = it.get_input_details()[0]
        it.resize_tensor_input(d["index"], [2])
        it.allocate_tensors()
        it.set_tensor(d["index"], np.array(x, dtype))
        it.invoke()
        out = it.get_output_details()[0]
        y = it.get_tensor(out["index"])
        check(y.dtype == dtype and y.tolist() == want, f"{name} gives {y}")
        check(d["name"] == "input" and out["name"] == "output", f"{name} tensor names")
        if name == "add_quantized":
            check(tuple(out["quantization"]) == (np.float32(SCALE), 0), f"{name} quantization {out['quantization']}")
            middle = [t for t in it.get_tensor_details() if t["name"] == "add"][0]
            check(middle["dtype"] == np.uint8, f"ADD left the middle tensor {middle['dtype']}")

    try:
        interpreter(models["mul_quantized"]).allocate_tensors()
        check(False, "mul_quantized was accepted")
    except RuntimeError as e:
        check("MUL" in str(e), f"mul_quantized refused for another reason: {e}")

    it = interpreter(models["multi_add"])
    it.allocate_tensors()
    ins = it.get_input_details()
    for k, d in enumerate(ins):
        it.set_tensor(d["index"], np.full(SHAPE, k + 1, np.float32))
    it.invoke()
    ys = [it.get_tensor(d["index"]) for d in it.get_output_details()]
    check(np.all(ys[0] == 6) and np.all(ys[1] == 9), "multi_add: x = a + b + c, y = d + b + c")

    it = interpreter(models["multi_signatures"])
    check(sorted(it.get_signature_list()) == ["add", "sub"], f"signatures {it.get_signature_list()}")
    runner = it.get_signature_runner("add")
    check(list(runner.get_input_details()) == ["x"] and list(runner.get_output_details()) == ["output_0"],
          "add signature's names")
    x = runner.get_input_details()["x"]
    check(x["name"] == "add_x:0" and list(x["shape"]) == [1], f"add's input tensor {x['name']} {x['shape']}")
    check(runner.get_output_details()["output_0"]["name"] == "StatefulPartitionedCall:0",
          f"add's output tensor {runner.get_output_details()['output_0']['name']}")
    # Calling the runner with a [2] input resizes x, as the tests do explicitly.
    check(runner(x=np.array([2.0, 4.0], np.float32))["output_0"].tolist() == [4.0, 6.0], "add(2, 4)")
    sub = it.get_signature_runner("sub")
    check(sub(x=np.array([5.0], np.float32))["output_0"].tolist() == [3.0], "sub(5)")


MODELS = {
    "add": make_add,
    "add_quantized": make_add_quantized,
    "mul_quantized": make_mul_quantized,
    "multi_add": make_multi_add,
    "multi_signatures": make_multi_signatures,
}


def main() -> int:
    made = {name: make() for name, make in MODELS.items()}
    verify(made)
    OUT.mkdir(parents=True, exist_ok=True)
    for name, data in made.items():
        (OUT / f"{name}.bin").write_bytes(data)
        print(f"made {name}.bin ({len(data)} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
