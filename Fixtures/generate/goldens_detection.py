"""Prints Swift literals of TFLite_Detection_PostProcess goldens from LiteRT.

Builds one-op models (the custom op, options as FlexBuffers from the `flatbuffers`
package) with the TFLite schema's object API, runs them with LiteRT's reference
resolver, and prints inputs, option bytes and outputs for
Tests/TFLiteRuntimeTests/DetectionPostProcessTests.swift.

Scores are continuous random values, so no two candidates tie (TFLite leaves tie
order to std::partial_sort). In fast NMS LiteRT leaves slots it does not write stale;
they are printed as 0, which is what our kernel writes there.

    $(Fixtures/generate/venv.sh) Fixtures/generate/goldens_detection.py
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import flatbuffers
import numpy as np
from flatbuffers import flexbuffers
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from tensorflow.lite.python import schema_py_generated as schema

N = 24          # anchors
CLASSES = 3     # plus a background column


def tensor(name, shape, ttype, quant=None):
    t = schema.TensorT()
    t.name = name.encode()
    t.shape = list(shape)
    t.type = ttype
    t.buffer = 0
    if quant is not None:
        q = schema.QuantizationParametersT()
        q.scale = [quant[0]]
        q.zeroPoint = [quant[1]]
        t.quantization = q
    return t


def build_model(options, m, input_type, quants):
    code = schema.OperatorCodeT()
    code.builtinCode = schema.BuiltinOperator.CUSTOM
    code.deprecatedBuiltinCode = schema.BuiltinOperator.CUSTOM
    code.customCode = b"TFLite_Detection_PostProcess"
    code.version = 1
    op = schema.OperatorT()
    op.opcodeIndex = 0
    op.inputs = [0, 1, 2]
    op.outputs = [3, 4, 5, 6]
    op.customOptions = list(options)
    op.customOptionsFormat = schema.CustomOptionsFormat.FLEXBUFFERS
    g = schema.SubGraphT()
    g.tensors = [
        tensor("boxes", [1, N, 4], input_type, quants[0]),
        tensor("scores", [1, N, CLASSES + 1], input_type, quants[1]),
        tensor("anchors", [N, 4], input_type, quants[2]),
        tensor("out_boxes", [1, m, 4], schema.TensorType.FLOAT32),
        tensor("out_classes", [1, m], schema.TensorType.FLOAT32),
        tensor("out_scores", [1, m], schema.TensorType.FLOAT32),
        tensor("num", [1], schema.TensorType.FLOAT32),
    ]
    g.inputs = [0, 1, 2]
    g.outputs = [3, 4, 5, 6]
    g.operators = [op]
    model = schema.ModelT()
    model.version = 3
    model.operatorCodes = [code]
    model.subgraphs = [g]
    model.buffers = [schema.BufferT()]
    b = flatbuffers.Builder(1024)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def inputs(seed):
    rng = np.random.default_rng(seed)
    # Anchors on a coarse grid with overlapping sizes, so suppression has work to do.
    centers = rng.uniform(0.2, 0.8, size=(N, 2))
    sizes = rng.uniform(0.2, 0.5, size=(N, 2))
    anchors = np.concatenate([centers, sizes], axis=1).astype(np.float32)
    boxes = rng.normal(0, 1.5, size=(1, N, 4)).astype(np.float32)
    scores = rng.uniform(0, 1, size=(1, N, CLASSES + 1)).astype(np.float32)
    return boxes, scores, anchors


def run(model, values):
    it = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    for d, v in zip(it.get_input_details(), values):
        it.set_tensor(d["index"], v)
    it.invoke()
    return [it.get_tensor(d["index"]) for d in it.get_output_details()]


def swift(a, kind="Float"):
    flat = np.asarray(a).reshape(-1)
    if kind == "Float":
        return "[" + ", ".join(repr(float(v)) for v in flat) + "]"
    return "[" + ", ".join(str(int(v)) for v in flat) + "]"


def main():
    configs = [
        ("fast", dict(max_detections=5, max_classes_per_detection=1, use_regular_nms=False)),
        ("fastTwoClasses", dict(max_detections=4, max_classes_per_detection=2, use_regular_nms=False)),
        ("fastMoreClassesThanExist", dict(max_detections=3, max_classes_per_detection=4, use_regular_nms=False)),
        ("regular", dict(max_detections=6, max_classes_per_detection=1, detections_per_class=3, use_regular_nms=True)),
    ]
    boxes, scores, anchors = inputs(20)
    print(f"static let boxEncodings: [Float] = {swift(boxes)}")
    print(f"static let classPredictions: [Float] = {swift(scores)}")
    print(f"static let anchors: [Float] = {swift(anchors)}")
    print("static let cases: [Case] = [")
    for name, extra in configs:
        opts = dict(nms_score_threshold=0.3, nms_iou_threshold=0.45, num_classes=CLASSES,
                    y_scale=10.0, x_scale=10.0, h_scale=5.0, w_scale=5.0, **extra)
        blob = flexbuffers.Dumps(opts)
        mcpd = extra["max_classes_per_detection"]
        m = extra["max_detections"] * mcpd
        out_boxes, out_classes, out_scores, num = run(build_model(blob, m, schema.TensorType.FLOAT32, [None] * 3),
                                                      [boxes, scores, anchors])
        count = int(num[0])
        if not extra["use_regular_nms"]:
            # Zero the slots fast NMS leaves unwritten.
            k = min(mcpd, CLASSES)
            written = np.zeros(m, dtype=bool)
            for i in range(count):
                written[mcpd * i: mcpd * i + k] = True
            out_boxes = np.where(written[None, :, None], out_boxes, 0)
            out_classes = np.where(written[None, :], out_classes, 0)
            out_scores = np.where(written[None, :], out_scores, 0)
        print(f"    Case(name: \"{name}\", options: {swift(np.frombuffer(blob, np.uint8), 'Int')},")
        print(f"         boxes: {swift(out_boxes)},")
        print(f"         classes: {swift(out_classes)},")
        print(f"         scores: {swift(out_scores)},")
        print(f"         count: {count}),")
    print("]")

    # uint8 inputs: quantize the same data; LiteRT dequantizes as (q - zp) * scale.
    quants = [(0.05, 128), (1 / 255, 0), (0.004, 0)]
    qb = np.clip(np.round(boxes / quants[0][0]) + quants[0][1], 0, 255).astype(np.uint8)
    qs = np.clip(np.round(scores / quants[1][0]) + quants[1][1], 0, 255).astype(np.uint8)
    qa = np.clip(np.round(anchors / quants[2][0]) + quants[2][1], 0, 255).astype(np.uint8)
    opts = dict(max_detections=5, max_classes_per_detection=1, nms_score_threshold=0.3, nms_iou_threshold=0.45,
                num_classes=CLASSES, y_scale=10.0, x_scale=10.0, h_scale=5.0, w_scale=5.0, use_regular_nms=True)
    blob = flexbuffers.Dumps(opts)
    out_boxes, out_classes, out_scores, num = run(build_model(blob, 5, schema.TensorType.UINT8, quants), [qb, qs, qa])
    print(f"static let quantizedBoxEncodings: [UInt8] = {swift(qb, 'Int')}")
    print(f"static let quantizedClassPredictions: [UInt8] = {swift(qs, 'Int')}")
    print(f"static let quantizedAnchors: [UInt8] = {swift(qa, 'Int')}")
    print(f"static let quantized = Case(name: \"uint8Regular\", options: {swift(np.frombuffer(blob, np.uint8), 'Int')},")
    print(f"    boxes: {swift(out_boxes)},")
    print(f"    classes: {swift(out_classes)},")
    print(f"    scores: {swift(out_scores)},")
    print(f"    count: {int(num[0])})")


if __name__ == "__main__":
    main()
