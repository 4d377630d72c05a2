"""TFLite_Detection_PostProcess (custom op) cases, float32 inputs.

The converter emits the custom op for a tf.function whose
`experimental_implements` names it; the function body is a placeholder
(TF has no equivalent op), the attributes become the op's flexbuffer options.
Anchors are a constant; box encodings and class scores are model inputs.
"""
import zlib

import numpy as np
import tensorflow as tf

from common import Case, In

OP = "TFLite_Detection_PostProcess"


def _signature(p):
    def attr(key, kind, value):
        return f'attr {{ key: "{key}" value {{ {kind}: {value} }} }}'
    parts = [f'name: "{OP}"',
             attr("max_detections", "i", p["max_detections"]),
             attr("max_classes_per_detection", "i", p["max_classes_per_detection"]),
             attr("detections_per_class", "i", p["detections_per_class"]),
             attr("use_regular_nms", "b", str(p["use_regular_nms"]).lower()),
             attr("nms_score_threshold", "f", repr(float(p["nms_score_threshold"]))),
             attr("nms_iou_threshold", "f", repr(float(p["nms_iou_threshold"]))),
             attr("y_scale", "f", repr(float(p["y_scale"]))),
             attr("x_scale", "f", repr(float(p["x_scale"]))),
             attr("h_scale", "f", repr(float(p["h_scale"]))),
             attr("w_scale", "f", repr(float(p["w_scale"]))),
             attr("num_classes", "i", p["num_classes"])]
    return " ".join(parts)


def build_detection(case, rng):
    p = case.params
    anchors = tf.constant(case.extra["anchors"])

    @tf.function(experimental_implements=_signature(p))
    def post(box, cls, anc):  # body is never converted; the custom op replaces it
        z = tf.constant(0.0)
        return z, z, z, z

    module = tf.Module()
    module.f = tf.function(lambda b, c: post(b, c, anchors), autograph=False, input_signature=[
        tf.TensorSpec(case.inputs[0].shape, tf.float32, name="in0"),
        tf.TensorSpec(case.inputs[1].shape, tf.float32, name="in1")])
    conv = tf.lite.TFLiteConverter.from_concrete_functions([module.f.get_concrete_function()], module)
    conv.allow_custom_ops = True
    return conv.convert()


def _all_slots_written(p):
    """Fast NMS leaves slots past num_detections unwritten (stale memory), so
    fast cases must select max_detections anchors to be reproducible."""
    def check(outputs):
        if p["use_regular_nms"]:
            return None
        num = next(o for o in outputs if o.size == 1)
        if int(num.reshape(-1)[0]) != p["max_detections"]:
            return f"fast NMS selected {int(num.reshape(-1)[0])} < max_detections {p['max_detections']}"
        return None
    return check


def _case(cid, n, num_classes, background, regular, max_det, mcpd, dpc, score_thr, iou_thr, tie_levels=None):
    rng = np.random.default_rng(zlib.crc32(cid.encode()))
    # Anchors on a jittered grid in center-size form (ycenter, xcenter, h, w):
    # neighbours overlap so the IoU threshold matters.
    side = int(np.ceil(np.sqrt(n)))
    ys, xs = np.meshgrid(np.linspace(0.15, 0.85, side), np.linspace(0.15, 0.85, side), indexing="ij")
    centers = np.stack([ys.reshape(-1), xs.reshape(-1)], 1)[:n] + rng.uniform(-0.03, 0.03, (n, 2))
    sizes = rng.uniform(0.2, 0.45, (n, 2))
    anchors = np.concatenate([centers, sizes], 1).astype(np.float32)
    boxes = rng.uniform(-1.0, 1.0, (1, n, 4)).astype(np.float32)
    cols = num_classes + (1 if background else 0)
    if tie_levels is not None:
        scores = rng.choice(np.asarray(tie_levels, np.float32), size=(1, n, cols))
    else:
        # 0.05 steps: realistic scores with occasional ties
        scores = np.round(rng.uniform(0.0, 1.0, (1, n, cols)) * 20) / 20
    scores = scores.astype(np.float32)
    p = dict(num_anchors=n, num_classes=num_classes, background_column=background,
             use_regular_nms=regular, max_detections=max_det, max_classes_per_detection=mcpd,
             detections_per_class=dpc, nms_score_threshold=score_thr, nms_iou_threshold=iou_thr,
             y_scale=10.0, x_scale=10.0, h_scale=5.0, w_scale=5.0,
             score_ties=tie_levels is not None)
    return Case(op=OP, case_id=f"f32_{cid}", dtype="float32", params=p,
                inputs=[In((1, n, 4), values=boxes), In((1, n, cols), values=scores)],
                build=build_detection, allow_constant_output=True,
                extra={"anchors": anchors}, validate=_all_slots_written(p))


def cases():
    return [
        _case("fast_mcpd1", 16, 3, False, False, 4, 1, 100, 0.2, 0.5),
        _case("fast_mcpd2_background", 16, 3, True, False, 3, 2, 100, 0.2, 0.5),
        _case("fast_mcpd3_all_classes", 12, 3, True, False, 3, 3, 100, 0.1, 0.6),
        _case("fast_ties", 16, 2, True, False, 4, 1, 100, 0.3, 0.5, tie_levels=[0.4, 0.6, 0.8]),
        _case("regular_mcpd1", 16, 3, False, True, 6, 1, 3, 0.2, 0.5),
        _case("regular_background", 16, 3, True, True, 5, 1, 2, 0.3, 0.45),
        _case("regular_ties", 16, 2, True, True, 6, 1, 4, 0.3, 0.5, tie_levels=[0.4, 0.6, 0.8]),
        _case("regular_few_pass_threshold", 9, 4, False, True, 8, 1, 2, 0.93, 0.5),
    ]
