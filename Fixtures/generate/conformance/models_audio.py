"""A small audio classifier with its front-end inside the model, built the way
TensorFlow exports one: `tf.signal.stft` (framing, Hann window, RFFT) -> magnitude
(COMPLEX_ABS) -> mel filterbank (a matmul with `linear_to_mel_weight_matrix`) -> log
(or a square-root compression) -> two convolutions, global average pooling, a dense
layer and softmax; outputs are the class probabilities and the features. Converted with the standard TFLite converter from a concrete
function whose weights are seeded constants.

Two variants: `audio_logmel` (the usual log-mel front-end, LOG) and `audio_sqrtmel`
(the same with SQRT instead of LOG, so the rest of the graph is checked on its own).
Inputs are seeded synthetic clips: a few tones with random frequencies, amplitudes and
onsets plus noise, 0.25 s at 16 kHz.
"""
from __future__ import annotations

import numpy as np
import tensorflow as tf

SAMPLE_RATE = 16000
SAMPLES = 4000
BATCH = 3
CLASSES = 5
FRAME, STEP, FFT, MELS = 256, 128, 256, 16


def _rng(name, stream):
    import zlib
    return np.random.default_rng([zlib.crc32(name.encode()), stream])


def clips(rng, n):
    t = np.arange(SAMPLES) / SAMPLE_RATE
    out = np.zeros((n, SAMPLES), np.float32)
    for i in range(n):
        for _ in range(rng.integers(1, 4)):
            f = rng.uniform(100, 6000)
            onset = rng.integers(0, SAMPLES // 2)
            env = (np.arange(SAMPLES) >= onset).astype(np.float64)
            out[i] += (rng.uniform(0.1, 0.6) * np.sin(2 * np.pi * f * t + rng.uniform(0, 6.3)) * env).astype(np.float32)
        out[i] += rng.normal(0, 0.01, SAMPLES).astype(np.float32)
    return out


def build(name, compression):
    rng = _rng(name, 0)

    def w(shape, scale):
        return tf.constant(rng.uniform(-scale, scale, size=shape).astype(np.float32))

    mel = tf.signal.linear_to_mel_weight_matrix(MELS, FFT // 2 + 1, SAMPLE_RATE, 80.0, 7600.0)
    k1, b1 = w((3, 3, 1, 8), 0.5), w((8,), 0.1)
    k2, b2 = w((3, 3, 8, 16), 0.2), w((16,), 0.1)
    dense, bias = w((16, CLASSES), 0.5), w((CLASSES,), 0.1)

    def forward(audio):
        spec = tf.abs(tf.signal.stft(audio, frame_length=FRAME, frame_step=STEP, fft_length=FFT))
        m = tf.matmul(spec, mel)
        feats = tf.math.log(m + 1e-6) if compression == "log" else tf.sqrt(m)
        x = feats[..., tf.newaxis]
        x = tf.nn.relu(tf.nn.conv2d(x, k1, 1, "SAME") + b1)
        x = tf.nn.max_pool2d(x, 2, 2, "VALID")
        x = tf.nn.relu(tf.nn.conv2d(x, k2, 1, "SAME") + b2)
        x = tf.reduce_mean(x, axis=[1, 2])
        # The features are a second output, so the front-end is compared directly too.
        return tf.nn.softmax(tf.matmul(x, dense) + bias), feats

    f = tf.function(forward, input_signature=[tf.TensorSpec((BATCH, SAMPLES), tf.float32, name="audio")],
                    autograph=False)
    conv = tf.lite.TFLiteConverter.from_concrete_functions([f.get_concrete_function()])
    return conv.convert()


def audio_cases(name):
    from cases_models import ModelCase
    compression = "log" if name == "audio_logmel" else "sqrt"
    content = build(name, compression)
    test = clips(_rng(name, 1), BATCH)
    params = {"front_end": f"tf.signal.stft(frame {FRAME}, step {STEP}, fft {FFT}, Hann) -> abs -> "
                           f"{MELS}-bin mel matmul -> {compression}",
              "net": "conv3x3(8)+relu, maxpool2, conv3x3(16)+relu, mean, dense(5), softmax",
              "input": [BATCH, SAMPLES], "weights": "seeded uniform constants",
              "inputs": "seeded synthetic clips (1-3 tones with onsets, noise), 16 kHz"}
    yield ModelCase(name, "float32", params, content, [test], "model")
