"""MediaPipe face detection (Fixtures/models/, float32 with float16 weights)
on a real photo: scikit-image's astronaut resized to the model input and
scaled to [-1, 1].  Reference: BUILTIN_REF on the unmodified model."""
from __future__ import annotations

import os

import numpy as np

MODELS = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "models"))


def face_check(outputs):
    """The photo has one face: some anchor must score it (logit > 0), most must not."""
    scores = next(o for o in outputs if o.shape[-1] == 1).reshape(-1)
    hits = int((scores > 0).sum())
    if hits == 0 or hits > scores.size // 4:
        return f"{hits} of {scores.size} anchors with positive face logit"
    return None


def face_cases(name):
    from cases_models import ModelCase
    from modelinfo import inspect
    import models_data
    with open(os.path.join(MODELS, f"{name}.tflite"), "rb") as f:
        content = f.read()
    size = inspect(content)["inputs"][0]["shape"][1]
    image = models_data.astronaut(size)
    params = {"model": f"Fixtures/models/{name}.tflite (MediaPipe, unmodified)",
              "input": "skimage.data.astronaut resized to the input, [-1, 1]"}
    yield ModelCase(name, "float32", params, content, [image], "model", validate=face_check)
