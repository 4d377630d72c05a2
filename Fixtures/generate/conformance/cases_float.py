"""float32 single-op cases."""
import numpy as np
import tensorflow as tf

from common import Case, In, variant, weights
from converters import build_float, qconst

ACTS = {
    "NONE": lambda x: x,
    "RELU": tf.nn.relu,
    "RELU6": tf.nn.relu6,
    "RELU_N1_TO_1": lambda x: tf.minimum(tf.maximum(x, -1.0), 1.0),
}


def F(op, cid, params, inputs, fn, **kw):
    """A float32 case; its op body is reused by the quantized paths."""
    return Case(op=op, case_id=cid, dtype="float32", params=params, inputs=inputs,
                build=build_float, fn=fn, **kw)


def conv_cases():
    out = []
    # (id, input NHWC, kernel hw, out_c, stride, padding, dilation, act)
    specs = [
        ("k3_s1_same", (1, 7, 7, 3), (3, 3), 4, 1, "SAME", 1, "NONE"),
        ("k3_s2_same_odd", (1, 9, 7, 2), (3, 3), 5, 2, "SAME", 1, "RELU"),
        ("k3_s2_valid", (1, 9, 8, 3), (3, 3), 4, 2, "VALID", 1, "RELU6"),
        ("k2x3_s1_valid_n1to1", (1, 6, 7, 3), (2, 3), 3, 1, "VALID", 1, "RELU_N1_TO_1"),
        ("k3_dil2_same", (1, 9, 9, 2), (3, 3), 3, 1, "SAME", 2, "NONE"),
        ("k3_dil2_valid", (1, 9, 10, 2), (3, 3), 3, 1, "VALID", 2, "RELU"),
        ("k1_s1", (1, 5, 5, 4), (1, 1), 6, 1, "VALID", 1, "NONE"),
        ("k1_s2_same", (1, 5, 5, 4), (1, 1), 3, 2, "SAME", 1, "NONE"),
        ("k3_in1ch", (1, 8, 8, 1), (3, 3), 4, 1, "SAME", 1, "NONE"),
        ("k3_out1ch", (1, 6, 6, 3), (3, 3), 1, 1, "SAME", 1, "NONE"),
        ("k5_s2_same_batch2", (2, 9, 9, 2), (5, 5), 3, 2, "SAME", 1, "RELU6"),
        ("k3x1_s2_same", (1, 7, 5, 3), (3, 1), 4, 2, "SAME", 1, "NONE"),
    ]
    for cid, shape, (kh, kw), oc, s, pad, dil, act in specs:
        def fn(r, x, kh=kh, kw=kw, ic=shape[3], oc=oc, s=s, pad=pad, dil=dil, act=act):
            w = qconst(weights(r, (kh, kw, ic, oc)))
            b = tf.constant(r.uniform(-0.5, 0.5, oc).astype(np.float32))
            y = tf.nn.conv2d(x, w, strides=[1, s, s, 1], padding=pad, dilations=[1, dil, dil, 1])
            return ACTS[act](y + b)
        out.append(F("CONV_2D", cid, dict(input=shape, kernel=[kh, kw], out_channels=oc, stride=s,
                                           padding=pad, dilation=dil, activation=act), [In(shape)], fn))
    return out


def depthwise_cases():
    out = []
    # (id, input, kernel, multiplier, stride, padding, dilation, act)
    specs = [
        ("k3_m1_s1_same", (1, 7, 7, 3), (3, 3), 1, 1, "SAME", 1, "NONE"),
        ("k3_m2_s2_same", (1, 9, 7, 3), (3, 3), 2, 2, "SAME", 1, "RELU"),
        ("k3_m1_s2_valid", (1, 8, 9, 4), (3, 3), 1, 2, "VALID", 1, "RELU6"),
        ("k3_m3_in1ch", (1, 7, 7, 1), (3, 3), 3, 1, "SAME", 1, "RELU_N1_TO_1"),
        ("k3_dil2", (1, 9, 9, 2), (3, 3), 1, 1, "SAME", 2, "NONE"),
        ("k5_m1_batch2", (2, 7, 7, 3), (5, 5), 1, 1, "SAME", 1, "NONE"),
        ("k3x1_s2_same", (1, 7, 5, 2), (3, 1), 1, 2, "SAME", 1, "NONE"),
        ("k2_m4_valid", (1, 5, 6, 2), (2, 2), 4, 1, "VALID", 1, "RELU"),
    ]
    for cid, shape, (kh, kw), m, s, pad, dil, act in specs:
        def fn(r, x, kh=kh, kw=kw, ic=shape[3], m=m, s=s, pad=pad, dil=dil, act=act):
            w = qconst(weights(r, (kh, kw, ic, m), scale=1.5 / np.sqrt(kh * kw)))
            b = tf.constant(r.uniform(-0.5, 0.5, ic * m).astype(np.float32))
            y = tf.nn.depthwise_conv2d(x, w, strides=[1, s, s, 1], padding=pad, dilations=[dil, dil])
            return ACTS[act](y + b)
        out.append(F("DEPTHWISE_CONV_2D", cid, dict(input=shape, kernel=[kh, kw], depth_multiplier=m,
                                                     stride=s, padding=pad, dilation=dil, activation=act),
                     [In(shape)], fn))
    return out


def pool_cases():
    out = []
    specs = [
        ("k2_s2_valid", (1, 8, 8, 3), 2, 2, "VALID", "NONE"),
        ("k3_s2_same_odd", (1, 7, 9, 2), 3, 2, "SAME", "NONE"),
        ("k3_s1_same", (1, 5, 5, 2), 3, 1, "SAME", "RELU"),
        ("k3_s2_valid_relu6", (2, 7, 7, 2), 3, 2, "VALID", "RELU6"),
        ("k2x3_s1_same_n1to1", (1, 6, 5, 3), (2, 3), 1, "SAME", "RELU_N1_TO_1"),
        ("global_5x5", (1, 5, 5, 4), 5, 1, "VALID", "NONE"),
    ]
    for kind, op in (("avg", "AVERAGE_POOL_2D"), ("max", "MAX_POOL_2D")):
        for cid, shape, k, s, pad, act in specs:
            k2 = list(k) if isinstance(k, tuple) else [k, k]

            def fn(r, x, k2=k2, s=s, pad=pad, act=act, kind=kind):
                f = tf.nn.avg_pool2d if kind == "avg" else tf.nn.max_pool2d
                return ACTS[act](f(x, ksize=k2, strides=s, padding=pad))
            lim = 1.2 if act == "RELU_N1_TO_1" else 3.0
            out.append(F(op, cid, dict(input=shape, filter=k2, stride=s, padding=pad, activation=act),
                         [In(shape, -lim, lim)], fn))
    return out


def softmax_cases():
    out = []
    for cid, shape, beta in [("1x10", (1, 10), 1.0), ("2x16_beta0.5", (2, 16), 0.5),
                             ("4d_last_axis", (1, 3, 3, 5), 1.0), ("beta2_1x7", (1, 7), 2.0)]:
        out.append(F("SOFTMAX", cid, dict(input=shape, beta=beta), [In(shape, -4, 4)],
                     lambda r, x: tf.nn.softmax(x), extra={"softmax_beta": beta}))
    for cid, shape in [("1x10", (1, 10)), ("3x6", (3, 6)), ("4d", (1, 2, 2, 5))]:
        out.append(F("LOG_SOFTMAX", cid, dict(input=shape), [In(shape, -4, 4)],
                     lambda r, x: tf.nn.log_softmax(x)))
    return out


def fc_cases():
    out = []
    for cid, b, i, o, act, bias in [("8to4", 1, 8, 4, "NONE", True), ("16to10_relu", 3, 16, 10, "RELU", True),
                                    ("12to5_relu6_nobias", 2, 12, 5, "RELU6", False),
                                    ("6to1_n1to1", 4, 6, 1, "RELU_N1_TO_1", True),
                                    ("1to7", 2, 1, 7, "NONE", True)]:
        def fn(r, x, i=i, o=o, act=act, bias=bias):
            y = tf.matmul(x, qconst(weights(r, (i, o))))
            if bias:
                y = y + tf.constant(r.uniform(-0.5, 0.5, o).astype(np.float32))
            return ACTS[act](y)
        out.append(F("FULLY_CONNECTED", cid, dict(batch=b, in_features=i, out_features=o, activation=act,
                                                  bias=bias), [In((b, i))], fn))
    # keep_num_dims: 3-D input flattened over the last axis only.
    out.append(F("FULLY_CONNECTED", "rank3_keep_dims", dict(input=(2, 3, 6), out_features=4, keep_num_dims=True),
                 [In((2, 3, 6))], lambda r, x: tf.tensordot(x, qconst(weights(r, (6, 4))), axes=1)))
    return out


BINARY = {
    "ADD": tf.add, "SUB": tf.subtract, "MUL": tf.multiply, "DIV": tf.divide,
    "SQUARED_DIFFERENCE": tf.math.squared_difference, "MAXIMUM": tf.maximum, "MINIMUM": tf.minimum,
}


def binary_cases():
    out = []
    shapes = [
        ("same_4d", (1, 4, 4, 3), (1, 4, 4, 3)),
        ("bcast_channel", (1, 4, 5, 3), (3,)),
        ("bcast_4d_5d_mix", (2, 1, 4, 3), (1, 3, 1, 3)),
        ("bcast_scalar_lhs", (1,), (2, 5)),   # lhs range narrowed below
        ("rank2", (3, 7), (3, 7)),
    ]
    for op, f in BINARY.items():
        for cid, a, b in shapes:
            lo_b, hi_b = (0.5, 2.0) if op == "DIV" else (-2.0, 2.0)
            inputs = [In(a, -0.3, 0.3) if a == (1,) else In(a, -2, 2), In(b, lo_b, hi_b)]
            if op == "DIV":
                # keep the divisor away from zero, both signs
                inputs[1] = In(b, 0.5, 2.0)
                fn = (lambda r, x, y, f=f: f(x, y * tf.sign(y - 1.25)))
                fn = (lambda r, x, y, f=f: f(x, y))
            else:
                fn = (lambda r, x, y, f=f: f(x, y))
            out.append(F(op, cid, dict(lhs=a, rhs=b), inputs, fn,
                         input_mode="float" if a == (1,) else "codes"))
        if op in ("ADD", "SUB", "MUL", "DIV"):
            for act in ("RELU", "RELU6", "RELU_N1_TO_1"):
                rhs = In((1, 3, 4, 3), 0.5, 2) if op == "DIV" else In((1, 3, 4, 3), -1.5, 1.5)
                out.append(F(op, f"fused_{act.lower()}", dict(lhs=(1, 3, 4, 3), rhs=(1, 3, 4, 3), activation=act),
                             [In((1, 3, 4, 3), -2, 2), rhs],
                             lambda r, x, y, f=f, act=act: ACTS[act](f(x, y))))
        if op == "DIV":  # x / const is rewritten to x * (1/const); keep the constant on the left
            out.append(F(op, "const_lhs", dict(lhs="constant (6,)", rhs=(2, 6)), [In((2, 6), 0.5, 2)],
                         lambda r, x, f=f: f(qconst(r.uniform(-2.0, 2.0, 6).astype(np.float32)), x)))
        else:
            out.append(F(op, "const_rhs", dict(lhs=(2, 6), rhs="constant (6,)"), [In((2, 6), -2, 2)],
                         lambda r, x, f=f: f(x, qconst(r.uniform(0.5, 2.0, 6).astype(np.float32)))))
    return out


def unary_cases():
    out = []
    sh = (1, 4, 5, 3)
    items = [
        ("RELU", "basic", tf.nn.relu, -3, 3, {}),
        ("RELU6", "basic", tf.nn.relu6, -3, 9, {}),
        ("RELU_N1_TO_1", "basic", ACTS["RELU_N1_TO_1"], -2, 2, {}),
        ("LEAKY_RELU", "alpha0.2", lambda x: tf.nn.leaky_relu(x, 0.2), -3, 3, {"alpha": 0.2}),
        ("LEAKY_RELU", "alpha1.5", lambda x: tf.nn.leaky_relu(x, 1.5), -3, 3, {"alpha": 1.5}),
        ("LOGISTIC", "basic", tf.sigmoid, -8, 8, {}),
        ("TANH", "basic", tf.tanh, -4, 4, {}),
        ("HARD_SWISH", "basic", lambda x: x * tf.nn.relu6(x + 3.0) / 6.0, -5, 5, {}),
        ("EXP", "basic", tf.exp, -4, 4, {}),
        ("SQRT", "basic", tf.sqrt, 0, 9, {}),
        ("RSQRT", "basic", tf.math.rsqrt, 0.05, 9, {}),
    ]
    for op, cid, f, lo, hi, params in items:
        out.append(F(op, cid, dict(input=sh, **params), [In(sh, lo, hi)], lambda r, x, f=f: f(x)))
    out.append(F("RELU", "rank1", dict(input=(17,)), [In((17,), -3, 3)], lambda r, x: tf.nn.relu(x)))
    out.append(F("LOGISTIC", "rank2_wide", dict(input=(3, 40)), [In((3, 40), -20, 20)], lambda r, x: tf.sigmoid(x)))
    out.append(F("TANH", "rank2_wide", dict(input=(3, 40)), [In((3, 40), -10, 10)], lambda r, x: tf.tanh(x)))
    # PRELU: per-channel alpha (broadcast over H, W) and full alpha
    for cid, alpha_shape in [("alpha_per_channel", (1, 1, 3)), ("alpha_full", (4, 5, 3))]:
        def fn(r, x, alpha_shape=alpha_shape):
            a = r.uniform(0.05, 0.6, alpha_shape).astype(np.float32)
            return tf.nn.relu(x) + qconst(-a) * tf.nn.relu(-x)   # the Keras PReLU pattern
        out.append(F("PRELU", cid, dict(input=sh, alpha=alpha_shape), [In(sh, -3, 3)], fn))
    return out


def shape_cases():
    out = []
    out.append(F("RESHAPE", "4d_to_2d", dict(input=(1, 4, 3, 2), shape=(4, 6)), [In((1, 4, 3, 2))],
                 lambda r, x: tf.reshape(x, (4, 6))))
    out.append(F("RESHAPE", "2d_to_4d_inferred", dict(input=(6, 5), shape=(1, -1, 3, 5)), [In((6, 5))],
                 lambda r, x: tf.reshape(x, (1, -1, 3, 5))))
    # With static shapes the converter turns SQUEEZE / EXPAND_DIMS into RESHAPE;
    # a dynamic batch dimension keeps the real op.
    out.append(F("SQUEEZE", "axis1", dict(input=(None, 1, None), axis=[1]), [In((None, 1, None))],
                 lambda r, x: tf.squeeze(x, [1])))
    out.append(F("SQUEEZE", "multi_axis", dict(input=(None, None, 1, 4, 1), axis=[2, 4]), [In((None, None, 1, 4, 1))],
                 lambda r, x: tf.squeeze(x, [2, 4])))
    out.append(F("SQUEEZE", "neg_axis", dict(input=(None, None, 1), axis=[-1]), [In((None, None, 1))],
                 lambda r, x: tf.squeeze(x, [-1])))
    out.append(F("EXPAND_DIMS", "axis1", dict(input=(None, 4), axis=1), [In((None, 4))],
                 lambda r, x: tf.expand_dims(x, 1)))
    out.append(F("EXPAND_DIMS", "neg_axis", dict(input=(None, 3, 4), axis=-1), [In((None, 3, 4))],
                 lambda r, x: tf.expand_dims(x, -1)))
    for cid, shapes, axis in [("axis3_3in", [(1, 3, 3, 2), (1, 3, 3, 1), (1, 3, 3, 4)], 3),
                              ("axis1", [(2, 3), (2, 5)], 1), ("axis0", [(2, 4), (1, 4)], 0),
                              ("neg_axis", [(2, 3, 2), (2, 1, 2)], -2)]:
        out.append(F("CONCATENATION", cid, dict(inputs=shapes, axis=axis), [In(s) for s in shapes],
                     lambda r, *xs, axis=axis: tf.concat(list(xs), axis)))
    for cid, n, shape, axis in [("axis0_3", 3, (2, 4), 0), ("axis1_2", 2, (3, 2), 1), ("neg_axis", 2, (2, 3), -1)]:
        out.append(F("PACK", cid, dict(n=n, input=shape, axis=axis), [In(shape) for _ in range(n)],
                     lambda r, *xs, axis=axis: tf.stack(list(xs), axis)))
    for cid, shape, axis in [("axis0", (3, 4), 0), ("axis1", (2, 3, 2), 1), ("neg_axis", (2, 4), -1)]:
        out.append(F("UNPACK", cid, dict(input=shape, axis=axis), [In(shape)],
                     lambda r, x, axis=axis: tf.unstack(x, axis=axis)))
    for cid, shape, n, axis in [("axis3_2", (1, 2, 2, 6), 2, 3), ("axis0_3", (6, 3), 3, 0), ("neg_axis", (2, 9), 3, -1)]:
        out.append(F("SPLIT", cid, dict(input=shape, num_splits=n, axis=axis), [In(shape)],
                     lambda r, x, n=n, axis=axis: tf.split(x, n, axis)))
    for cid, shape, sizes, axis in [("axis1", (2, 7), [2, 4, 1], 1), ("inferred", (1, 3, 8), [3, -1, 2], -1)]:
        out.append(F("SPLIT_V", cid, dict(input=shape, sizes=sizes, axis=axis), [In(shape)],
                     lambda r, x, sizes=sizes, axis=axis: tf.split(x, sizes, axis)))
    out.append(F("SLICE", "4d", dict(input=(2, 5, 5, 3), begin=[0, 1, 2, 0], size=[2, 3, -1, 2]),
                 [In((2, 5, 5, 3))], lambda r, x: tf.slice(x, [0, 1, 2, 0], [2, 3, -1, 2])))
    out.append(F("SLICE", "2d", dict(input=(6, 7), begin=[2, 1], size=[3, 5]), [In((6, 7))],
                 lambda r, x: tf.slice(x, [2, 1], [3, 5])))
    out.append(F("STRIDED_SLICE", "stride2", dict(input=(1, 8, 8, 3), slice="[:, 1::2, ::3, :]"),
                 [In((1, 8, 8, 3))], lambda r, x: x[:, 1::2, ::3, :]))
    out.append(F("STRIDED_SLICE", "negative_stride", dict(input=(5, 6), slice="[::-1, 4:0:-2]"),
                 [In((5, 6))], lambda r, x: x[::-1, 4:0:-2]))
    out.append(F("STRIDED_SLICE", "shrink_axis", dict(input=(3, 4, 5), slice="[1, :, -3:]"),
                 [In((3, 4, 5))], lambda r, x: x[1, :, -3:]))
    out.append(F("STRIDED_SLICE", "ellipsis", dict(input=(2, 3, 4), slice="[..., 1:3]"),
                 [In((2, 3, 4))], lambda r, x: x[..., 1:3]))

    for cid, shape, perm in [("nhwc_to_nchw", (1, 3, 4, 2), [0, 3, 1, 2]), ("2d", (3, 5), [1, 0]),
                             ("3d", (2, 3, 4), [2, 0, 1]), ("5d", (2, 1, 3, 2, 2), [4, 2, 0, 3, 1])]:
        out.append(F("TRANSPOSE", cid, dict(input=shape, perm=perm), [In(shape)],
                     lambda r, x, perm=perm: tf.transpose(x, perm)))
    for cid, shape, idx, axis, bd in [("axis0", (5, 3), [4, 0, 2, 2], 0, 0), ("axis1", (2, 6, 3), [[5, 1], [0, 3]], 1, 0),
                                      ("neg_axis", (3, 4), [3, 1], -1, 0),
                                      ("batch_dims1", (2, 5, 3), [[4, 0], [1, 1]], 1, 1)]:
        out.append(F("GATHER", cid, dict(input=shape, indices=idx, axis=axis, batch_dims=bd), [In(shape)],
                     lambda r, x, idx=idx, axis=axis, bd=bd: tf.gather(x, tf.constant(idx, tf.int32), axis=axis,
                                                                        batch_dims=bd)))
    out.append(F("GATHER", "indices_input", dict(input=(6, 2), indices="input int32 (3,)", axis=0),
                 [In((6, 2)), In((3,), 0, 5, dtype="int32")], lambda r, x, i: tf.gather(x, i)))
    # A dynamic dimension stops the converter from folding SHAPE to a constant.
    out.append(F("SHAPE", "4d", dict(input=(None, 3, 4, 5)), [In((None, 3, 4, 5))],
                 lambda r, x: tf.shape(x), allow_constant_output=True))
    for cid, shape, pads in [("4d_hw", (1, 3, 4, 2), [[0, 0], [1, 2], [2, 1], [0, 0]]),
                             ("2d", (3, 4), [[1, 0], [0, 3]])]:
        out.append(F("PAD", cid, dict(input=shape, paddings=pads), [In(shape)],
                     lambda r, x, pads=pads: tf.pad(x, pads)))
        out.append(F("PADV2", cid, dict(input=shape, paddings=pads, constant=-0.75), [In(shape)],
                     lambda r, x, pads=pads: tf.pad(x, pads, constant_values=-0.75)))
    for mode in ("REFLECT", "SYMMETRIC"):
        for cid, shape, pads in [("4d_hw", (1, 4, 5, 2), [[0, 0], [2, 1], [1, 2], [0, 0]]),
                                 ("2d", (3, 4), [[2, 2], [0, 3]])]:
            out.append(F("MIRROR_PAD", f"{mode.lower()}_{cid}", dict(input=shape, paddings=pads, mode=mode),
                         [In(shape)], lambda r, x, pads=pads, mode=mode: tf.pad(x, pads, mode=mode)))
    return out


def reduce_cases():
    out = []
    fns = {"MEAN": tf.reduce_mean, "SUM": tf.reduce_sum, "REDUCE_MAX": tf.reduce_max}
    specs = [("hw_keep", (1, 4, 5, 3), [1, 2], True), ("hw", (2, 4, 5, 3), [1, 2], False),
             ("last_axis", (3, 7), [1], False), ("neg_axis_keep", (2, 3, 4), [-1], True),
             ("axis0", (4, 3), [0], False), ("all_axes", (2, 3, 4), [0, 1, 2], False),
             ("axis_1_3", (2, 3, 4, 5), [1, 3], True)]
    for op, f in fns.items():
        for cid, shape, axes, keep in specs:
            out.append(F(op, cid, dict(input=shape, axis=axes, keep_dims=keep), [In(shape, -2, 2)],
                         lambda r, x, f=f, axes=axes, keep=keep: f(x, axes, keepdims=keep)))
    return out


def resize_cases():
    out = []
    for cid, shape, size, ac, hp in [("up2x", (1, 3, 4, 2), (6, 8), False, False),
                                     ("up_align_corners", (1, 3, 4, 2), (7, 9), True, False),
                                     ("up_half_pixel", (1, 3, 4, 2), (5, 7), False, True),
                                     ("down", (2, 8, 7, 1), (3, 4), False, False),
                                     ("down_half_pixel", (1, 8, 7, 3), (3, 5), False, True)]:
        out.append(F("RESIZE_BILINEAR", cid, dict(input=shape, size=size, align_corners=ac, half_pixel_centers=hp),
                     [In(shape)], lambda r, x, size=size, ac=ac, hp=hp: tf.compat.v1.image.resize_bilinear(
                         x, size, align_corners=ac, half_pixel_centers=hp)))
        out.append(F("RESIZE_NEAREST_NEIGHBOR", cid, dict(input=shape, size=size, align_corners=ac,
                                                          half_pixel_centers=hp),
                     [In(shape)], lambda r, x, size=size, ac=ac, hp=hp: tf.compat.v1.image.resize_nearest_neighbor(
                         x, size, align_corners=ac, half_pixel_centers=hp)))
    for cid, shape, bs in [("b2", (1, 2, 3, 8), 2), ("b3_batch2", (2, 2, 2, 9), 3)]:
        out.append(F("DEPTH_TO_SPACE", cid, dict(input=shape, block_size=bs), [In(shape)],
                     lambda r, x, bs=bs: tf.nn.depth_to_space(x, bs)))
    for cid, shape, bs in [("b2", (1, 4, 6, 2), 2), ("b3_batch2", (2, 6, 3, 1), 3)]:
        out.append(F("SPACE_TO_DEPTH", cid, dict(input=shape, block_size=bs), [In(shape)],
                     lambda r, x, bs=bs: tf.nn.space_to_depth(x, bs)))
    return out


def transpose_conv_cases():
    out = []
    for cid, shape, k, oc, s, pad, bias in [("k3_s2_same", (1, 4, 4, 3), 3, 2, 2, "SAME", True),
                                            ("k3_s2_valid", (1, 3, 4, 2), 3, 3, 2, "VALID", False),
                                            ("k2_s2_same", (1, 3, 3, 4), 2, 2, 2, "SAME", True),
                                            ("k3_s1_same", (2, 4, 3, 2), 3, 3, 1, "SAME", False),
                                            ("k4_s3_valid_1ch", (1, 3, 3, 1), 4, 1, 3, "VALID", True)]:
        h, w = shape[1], shape[2]
        if pad == "SAME":
            oh, ow = h * s, w * s
        else:
            oh, ow = (h - 1) * s + k, (w - 1) * s + k

        def fn(r, x, k=k, oc=oc, ic=shape[3], s=s, pad=pad, bias=bias, os_=(shape[0], oh, ow, oc)):
            wgt = qconst(weights(r, (k, k, oc, ic), scale=1.0 / np.sqrt(k * k * ic / (s * s))))
            y = tf.nn.conv2d_transpose(x, wgt, os_, strides=[1, s, s, 1], padding=pad)
            if bias:
                y = y + tf.constant(r.uniform(-0.5, 0.5, oc).astype(np.float32))
            return y
        out.append(F("TRANSPOSE_CONV", cid, dict(input=shape, kernel=[k, k], out_channels=oc, stride=s,
                                                  padding=pad, bias=bias), [In(shape)], fn))
    return out


def batch_matmul_cases():
    out = []
    for cid, a, b, ta, tb in [("2inputs_3d", (2, 3, 4), (2, 4, 5), False, False),
                              ("bcast_batch", (2, 1, 3, 4), (1, 3, 4, 2), False, False),
                              ("adj_y", (2, 3, 4), (2, 5, 4), False, True),
                              ("adj_x", (1, 4, 3), (1, 4, 2), True, False)]:
        out.append(F("BATCH_MATMUL", cid, dict(lhs=a, rhs=b, adj_x=ta, adj_y=tb), [In(a), In(b)],
                     lambda r, x, y, ta=ta, tb=tb: tf.linalg.matmul(x, y, transpose_a=ta, transpose_b=tb)))
    return out


def cast_cases():
    out = []
    out.append(F("CAST", "f32_to_i32", dict(input=(3, 5), to="int32"), [In((3, 5), -20, 20)],
                 lambda r, x: tf.cast(x, tf.int32)))
    out.append(F("CAST", "i32_to_f32", dict(input=(3, 5), to="float32"), [In((3, 5), -1000, 1000, dtype="int32")],
                 lambda r, x: tf.cast(x, tf.float32), op_input_dtype="int32"))
    out.append(F("CAST", "f32_to_u8", dict(input=(4, 4), to="uint8"), [In((4, 4), 0, 255)],
                 lambda r, x: tf.cast(x, tf.uint8)))
    return out


def base_cases():
    """Unprefixed case bodies, shared with the quantized and float16 paths."""
    return (conv_cases() + depthwise_cases() + pool_cases() + softmax_cases() + fc_cases() + binary_cases()
            + unary_cases() + shape_cases() + reduce_cases() + resize_cases() + transpose_conv_cases()
            + batch_matmul_cases() + cast_cases())


def cases():
    return [variant(c, "float32", build_float) for c in base_cases()]
