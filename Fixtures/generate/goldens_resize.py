"""Prints Swift literals of RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR goldens.

Each case is converted to a one-op .tflite model and run by LiteRT's reference
kernels (BUILTIN_REF); the TensorFlow op's own output is checked against it.
Output is pasted into Tests/TFLiteRuntimeTests/ResizeTests.swift.

    $(Fixtures/generate/venv.sh) Fixtures/generate/goldens_resize.py
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np
import tensorflow as tf
from ai_edge_litert.interpreter import Interpreter, OpResolverType

IN_SHAPE = (1, 3, 5, 2)
SIZES = [(5, 8), (2, 3), (7, 4), (1, 1)]
MODES = [(False, False), (True, False), (False, True)]


def input_values():
    n = int(np.prod(IN_SHAPE))
    return ((np.arange(n) * 37 % 23) / 7.0 - 1.5).astype(np.float32).reshape(IN_SHAPE)


def run_litert(fn, x):
    conv = tf.lite.TFLiteConverter.from_concrete_functions([fn.get_concrete_function()], fn)
    model = conv.convert()
    it = Interpreter(model_content=model, experimental_op_resolver_type=OpResolverType.BUILTIN_REF)
    it.allocate_tensors()
    it.set_tensor(it.get_input_details()[0]["index"], x)
    it.invoke()
    return it.get_tensor(it.get_output_details()[0]["index"])


def swift_floats(a):
    return "[" + ", ".join(repr(float(v)) for v in a.reshape(-1)) + "]"


def main():
    x = input_values()
    print(f"static let input: [Float] = {swift_floats(x)}")
    for name, op in [("bilinear", tf.compat.v1.image.resize_bilinear),
                     ("nearest", tf.compat.v1.image.resize_nearest_neighbor)]:
        print(f"static let {name}: [Case] = [")
        for (h, w) in SIZES:
            for (ac, hpc) in MODES:
                @tf.function(input_signature=[tf.TensorSpec(IN_SHAPE, tf.float32)])
                def fn(t, h=h, w=w, ac=ac, hpc=hpc):
                    return op(t, [h, w], align_corners=ac, half_pixel_centers=hpc)
                ref = run_litert(fn, x)
                tf_out = fn(x).numpy()
                assert np.allclose(ref, tf_out, atol=1e-5), (name, h, w, ac, hpc)
                print(f"    Case(size: [{h}, {w}], alignCorners: {str(ac).lower()}, "
                      f"halfPixelCenters: {str(hpc).lower()}, expected: {swift_floats(ref)}),")
        print("]")


if __name__ == "__main__":
    main()
