#!/usr/bin/env python3
"""Whole-model references from MediaPipe itself, for the models with custom operators.

    python mediapipe_reference.py

Needs the `mediapipe==0.10.14` wheel (CPython 3.11, with `numpy<2`) in its own venv;
run after make_references.py, which writes the inputs. For each model in
Fixtures/mediapipe/models, runs MediaPipe's calculator graph on
Fixtures/mediapipe/<name>/input_u8.npy:

    ImageToTensorCalculator (the 8-bit image at its own size, to floats in [0, 1])
    → InferenceCalculator (CPU, with TfLiteCustomOpResolverCalculator's op resolver:
      MediaPipe's kernels for its custom operators)
    → SplitTensorVectorCalculator (output i) → TensorsToFloatsCalculator

and writes <name>/mediapipe_<i>.npy (flat float32) for every output i, plus
mediapipe.json (versions and the graph). One graph run per output: the split calculator
takes the tensors over, so one run cannot split them twice.
"""
from __future__ import annotations

import json
import pathlib

import numpy as np
import mediapipe as mp
from google.protobuf import text_format
from mediapipe.framework import calculator_pb2
from mediapipe.python import packet_creator, packet_getter

ROOT = pathlib.Path(__file__).resolve().parents[3]
OUT = ROOT / "Fixtures" / "mediapipe"
OUTPUTS = {"selfie_segmentation": 1, "selfie_segmentation_landscape": 1, "face_landmark_with_attention": 7}

GRAPH = '''
input_stream: "image"
output_stream: "floats"
node {{ calculator: "ImageToTensorCalculator" input_stream: "IMAGE:image" output_stream: "TENSORS:tensors"
  options {{ [mediapipe.ImageToTensorCalculatorOptions.ext] {{ output_tensor_width: {width} output_tensor_height: {height}
    keep_aspect_ratio: false output_tensor_float_range {{ min: 0.0 max: 1.0 }} border_mode: BORDER_ZERO }} }} }}
node {{ calculator: "TfLiteCustomOpResolverCalculator" output_side_packet: "OP_RESOLVER:op_resolver" }}
node {{ calculator: "InferenceCalculator" input_stream: "TENSORS:tensors" output_stream: "TENSORS:out"
  input_side_packet: "OP_RESOLVER:op_resolver"
  options {{ [mediapipe.InferenceCalculatorOptions.ext] {{ model_path: "{model}" delegate {{ tflite {{}} }} }} }} }}
node {{ calculator: "SplitTensorVectorCalculator" input_stream: "out" output_stream: "one"
  options {{ [mediapipe.SplitVectorCalculatorOptions.ext] {{ ranges {{ begin: {index} end: {end} }} }} }} }}
node {{ calculator: "TensorsToFloatsCalculator" input_stream: "TENSORS:one" output_stream: "FLOATS:floats" }}
'''


def run(model: pathlib.Path, image: np.ndarray, index: int) -> np.ndarray:
    text = GRAPH.format(width=image.shape[1], height=image.shape[0], model=model, index=index, end=index + 1)
    graph = mp.CalculatorGraph(graph_config=text_format.Parse(text, calculator_pb2.CalculatorGraphConfig()))
    got = []
    graph.observe_output_stream("floats", lambda _, p: got.append(np.array(packet_getter.get_float_list(p), dtype=np.float32)))
    graph.start_run()
    frame = packet_creator.create_image_frame(image_format=mp.ImageFormat.SRGB, data=np.ascontiguousarray(image))
    graph.add_packet_to_input_stream("image", frame.at(0))
    graph.close()
    if len(got) != 1:
        raise SystemExit(f"{model.name}: output {index}: {len(got)} packets")
    return got[0]


def main() -> int:
    for name, count in OUTPUTS.items():
        image = np.load(OUT / name / "input_u8.npy")[0]
        for i in range(count):
            values = run(OUT / "models" / f"{name}.tflite", image, i)
            np.save(OUT / name / f"mediapipe_{i}.npy", values)
            print(name, i, values.shape)
    (OUT / "mediapipe.json").write_text(json.dumps({
        "mediapipe": mp.__version__, "numpy": np.__version__,
        "graph": "ImageToTensorCalculator [0, 1] -> InferenceCalculator (CPU, TfLiteCustomOpResolverCalculator) "
                 "-> SplitTensorVectorCalculator -> TensorsToFloatsCalculator",
        "outputs": OUTPUTS}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
