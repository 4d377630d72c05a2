#!/usr/bin/env python3
"""Writes the small generated seed corpora of the fuzz targets (committed in Fuzz/seeds).

Run with the fixture venv (numpy, flatbuffers and the `tflite` schema package):

    scripts/fixtures/.venv/bin/python scripts/fuzz/make_seeds.py

* seeds/flexbuffer: the custom options of every custom operator in Fixtures/models
  (the TFLite_Detection_PostProcess options of ssd_postprocess.tflite), and a few
  FlexBuffers covering every value type the reader knows.
* seeds/npy: small .npy files of every dtype the reader accepts, C and Fortran order,
  0-d, empty, and format 2.0 / 3.0 headers.

The model targets use Fixtures/models/*.tflite directly, and the seeds that
make_mediapipe_seeds.py and make_text_seeds.py write (make_text_seeds.py also adds string
arrays to seeds/npy).
"""
import io
import pathlib

import numpy as np
from flatbuffers import flexbuffers
import tflite

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SEEDS = ROOT / "Fuzz" / "seeds"


def write(directory: pathlib.Path, name: str, data: bytes) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_bytes(bytes(data))


def custom_options() -> None:
    out = SEEDS / "flexbuffer"
    for path in sorted((ROOT / "Fixtures" / "models").glob("*.tflite")):
        model = tflite.Model.GetRootAsModel(path.read_bytes(), 0)
        for s in range(model.SubgraphsLength()):
            graph = model.Subgraphs(s)
            for o in range(graph.OperatorsLength()):
                op = graph.Operators(o)
                if op.CustomOptionsLength() > 0:
                    data = op.CustomOptionsAsNumpy().tobytes()
                    write(out, f"{path.stem}_sg{s}_op{o}.flex", data)
    samples = {
        "scalars": [None, True, -7, 2**40, 3.5, "text", b"\x00\x01blob"],
        "nested": {"a": [1, 2, 3], "b": {"c": [1.5, 2.5], "d": ["x", "y"]}, "e": [True, False]},
        "typed_vectors": {"ints": [1, 2, 3, 4], "floats": [0.5, 1.5], "keys": ["k1", "k2"]},
        "detection_like": {
            "max_detections": 10, "max_classes_per_detection": 1, "detections_per_class": 100,
            "use_regular_nms": False, "nms_score_threshold": 0.3, "nms_iou_threshold": 0.6,
            "num_classes": 3, "y_scale": 10.0, "x_scale": 10.0, "h_scale": 5.0, "w_scale": 5.0,
        },
    }
    for name, value in samples.items():
        write(out, f"{name}.flex", flexbuffers.Dumps(value))


def npy_files() -> None:
    out = SEEDS / "npy"

    def save(name: str, array: np.ndarray, version=None) -> None:
        buffer = io.BytesIO()
        if version is None:
            np.save(buffer, array)
        else:
            np.lib.format.write_array(buffer, array, version=version)
        write(out, f"{name}.npy", buffer.getvalue())

    rng = np.random.default_rng(7)
    for dtype in ["<f4", "<f8", "<f2", "|i1", "|u1", "<i2", "<u2", "<i4", "<u4", "<i8", "<u8", "|b1", ">f4", ">i4"]:
        save(f"vector_{dtype.strip('<>|')}{'_be' if dtype[0] == '>' else ''}",
             (rng.standard_normal(6) * 10).astype(dtype))
    save("matrix_f32", rng.standard_normal((2, 3)).astype("<f4"))
    save("fortran_f32", np.asfortranarray(rng.standard_normal((2, 3)).astype("<f4")))
    save("scalar_f32", np.array(1.5, dtype="<f4"))
    save("empty_f32", np.zeros((0, 3), dtype="<f4"))
    save("image_u8", rng.integers(0, 255, (1, 4, 4, 3)).astype("|u1"))
    save("v2_header", np.arange(4, dtype="<i4"), version=(2, 0))
    save("v3_header", np.arange(4, dtype="<i4"), version=(3, 0))


if __name__ == "__main__":
    custom_options()
    npy_files()
