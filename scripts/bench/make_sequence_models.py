#!/usr/bin/env python3
"""Makes the benchmark models for loops, state and transformers in DIR (random weights,
seeded; ignored by git). Run with the fixture venv:

    scripts/fixtures/.venv/bin/python scripts/bench/make_sequence_models.py Benchmarks/models

  keras3_lstm_float, keras3_gru_float   Keras 3 LSTM(96) / GRU(96) over 50 steps of 40 features,
                                        then Dense(12): WHILE loops over a cell subgraph
  transformer_encoder_float, _hybrid    a Keras encoder of 2 blocks (MultiHeadAttention 4x32,
                                        LayerNorm, Dense 256 GELU) over 64 tokens of width 128,
                                        float32 and dynamic-range int8 weights
  decoder_kv_cache_float, _hybrid       a 4-layer decoder (width 128, 4 heads, 256 positions)
                                        with its key/value cache in variables; timed per
                                        token through its `decode` signature at position 64
                                        (MODEL.bench.json names the signature and inputs)

Existing files are kept; delete one to remake it.
"""
from __future__ import annotations

import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np


def keras_loops(out: pathlib.Path) -> None:
    import keras
    import tensorflow as tf
    for layer in ("LSTM", "GRU"):
        path = out / f"keras3_{layer.lower()}_float.tflite"
        if path.exists():
            continue
        keras.utils.set_random_seed(3)
        inp = keras.Input((50, 40), batch_size=1)
        model = keras.Model(inp, keras.layers.Dense(12)(getattr(keras.layers, layer)(96)(inp)))
        path.write_bytes(tf.lite.TFLiteConverter.from_keras_model(model).convert())


def transformer_encoder(out: pathlib.Path) -> None:
    import keras
    import tensorflow as tf
    keras.utils.set_random_seed(5)
    seq, width = 64, 128
    inp = keras.Input((seq, width), batch_size=1)
    x = inp
    for _ in range(2):
        x = keras.layers.LayerNormalization()(x + keras.layers.MultiHeadAttention(4, width // 4)(x, x))
        x = keras.layers.LayerNormalization()(x + keras.layers.Dense(width)(keras.layers.Dense(256, activation="gelu")(x)))
    model = keras.Model(inp, keras.layers.Dense(8)(keras.layers.GlobalAveragePooling1D()(x)))
    for kind in ("float", "hybrid"):
        path = out / f"transformer_encoder_{kind}.tflite"
        if path.exists():
            continue
        conv = tf.lite.TFLiteConverter.from_keras_model(model)
        if kind == "hybrid":
            conv.optimizations = [tf.lite.Optimize.DEFAULT]
        path.write_bytes(conv.convert())


def decoder(out: pathlib.Path) -> None:
    import tensorflow as tf
    from tensorflow.compiler.tf2xla.python import xla
    vocab, width, heads, layers, context = 512, 128, 4, 4, 256
    size = width // heads
    rng = np.random.default_rng(2)

    def weight(*shape):
        return tf.constant((rng.uniform(-1, 1, shape) / np.sqrt(shape[0])).astype(np.float32))

    class Decoder(tf.Module):
        def __init__(self):
            self.embedding, self.positions = weight(vocab, width), weight(context, width)
            self.blocks = [{n: weight(*s) for n, s in [("q", (width, width)), ("k", (width, width)),
                                                        ("v", (width, width)), ("o", (width, width)),
                                                        ("up", (width, 4 * width)), ("down", (4 * width, width))]}
                           for _ in range(layers)]
            self.unembedding = weight(width, vocab)
            self.keys = [tf.Variable(tf.zeros([context, heads, size])) for _ in range(layers)]
            self.values = [tf.Variable(tf.zeros([context, heads, size])) for _ in range(layers)]

        @tf.function(input_signature=[tf.TensorSpec([1, 1], tf.int32, name="token"),
                                      tf.TensorSpec([], tf.int32, name="position")])
        def decode(self, token, position):
            def norm(v):
                return v / tf.sqrt(tf.reduce_mean(v * v, -1, keepdims=True) + 1e-5)
            x = tf.gather(self.embedding, token[0]) + tf.gather(self.positions, position[None])
            zero = tf.constant(0, tf.int32)
            for block, keys, values in zip(self.blocks, self.keys, self.values):
                h = norm(x)
                q, k, v = (tf.reshape(tf.matmul(h, block[n]), [1, heads, size]) for n in "qkv")
                keys.assign(xla.dynamic_update_slice(keys, k, tf.stack([position, zero, zero])))
                values.assign(xla.dynamic_update_slice(values, v, tf.stack([position, zero, zero])))
                scores = tf.einsum("nhd,thd->hnt", q, keys.read_value()) / np.sqrt(size)
                scores += tf.cast(tf.range(context)[None, None, :] > position, tf.float32) * -1e9
                attended = tf.einsum("hnt,thd->nhd", tf.nn.softmax(scores, -1), values.read_value())
                x = x + tf.matmul(tf.reshape(attended, [1, width]), block["o"])
                x = x + tf.matmul(tf.nn.gelu(tf.matmul(norm(x), block["up"])), block["down"])
            return {"logits": tf.matmul(x, self.unembedding)}

    module = Decoder()
    # Saved with the signature key `decode`, as LLM exports name their per-token step.
    import tempfile
    saved = tempfile.mkdtemp(prefix="decoder_")
    tf.saved_model.save(module, saved, signatures={"decode": module.decode.get_concrete_function()})
    for kind in ("float", "hybrid"):
        path = out / f"decoder_kv_cache_{kind}.tflite"
        if not path.exists():
            conv = tf.lite.TFLiteConverter.from_saved_model(saved, signature_keys=["decode"])
            if kind == "hybrid":
                conv.optimizations = [tf.lite.Optimize.DEFAULT]
            path.write_bytes(conv.convert())
        inputs = [f"{path.stem}.token.npy", f"{path.stem}.position.npy"]
        np.save(out / inputs[0], np.array([[17]], np.int32))
        np.save(out / inputs[1], np.array(64, np.int32))
        (out / f"{path.name}.bench.json").write_text(json.dumps({"signature": "decode", "inputs": inputs}) + "\n")


def main() -> int:
    out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "Benchmarks/models")
    out.mkdir(parents=True, exist_ok=True)
    keras_loops(out)
    transformer_encoder(out)
    decoder(out)
    for path in sorted(out.glob("*.tflite")):
        if path.stem.startswith(("keras3_", "transformer_", "decoder_")):
            print(f"{path.name}: {path.stat().st_size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
