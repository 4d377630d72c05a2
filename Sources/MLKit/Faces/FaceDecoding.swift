import Foundation

/// MediaPipe BlazeFace (face_detection_short_range) post-processing, in our words.
///
/// **Anchors** (MediaPipe's SSD anchor scheme with `fixed_anchor_size`): for strides
/// `[8, 16, 16, 16]` on a 128x128 input, consecutive layers with the same stride share
/// one feature map of `ceil(128 / stride)` cells per side and contribute 2 anchors per
/// cell each (aspect ratio 1 plus the interpolated scale): stride 8 → 16x16 cells x 2,
/// stride 16 → 8x8 cells x 6; 896 anchors in all, ordered by feature map, then row, then
/// column, then anchor. Every anchor is centered at `((col + 0.5) / cols, (row + 0.5) / rows)`
/// with width and height 1.
///
/// **Boxes**: regressor row `r` of 16 values (`x, y, w, h`, then six keypoints `x, y`)
/// in input pixels: center `= r[0..1] / 128 + anchor center`, size `= r[2..3] / 128`,
/// keypoint `k = r[4+2k ..< 6+2k] / 128 + anchor center` — all normalized to the input.
///
/// **Scores**: `sigmoid(clamp(logit, -80, 80))` (the reference's clip; MediaPipe uses 100); a candidate needs score > threshold
/// (default 0.5) and positive width and height.
///
/// **Suppression** (MediaPipe's weighted NMS): repeatedly take the highest-scoring
/// remaining candidate; every remaining candidate (itself included) whose IoU with it
/// exceeds the threshold (default 0.3) joins its cluster and leaves the pool; the output
/// box and keypoints are the score-weighted mean of the cluster's, with the top score.
enum BlazeFace {
    struct Candidate: Equatable {
        /// `xmin, ymin, xmax, ymax`, normalized to the model input.
        var box: [Float]
        /// Six `(x, y)` keypoints, normalized to the model input.
        var keypoints: [Float]
        var score: Float
    }

    static let inputSize = 128
    static let strides = [8, 16, 16, 16]

    /// Anchor centers `(x, y)`, in the order above.
    static let anchors: [(Float, Float)] = {
        var out: [(Float, Float)] = []
        var layer = 0
        while layer < strides.count {
            var last = layer
            while last + 1 < strides.count, strides[last + 1] == strides[layer] { last += 1 }
            let perCell = 2 * (last - layer + 1)
            let cells = (inputSize + strides[layer] - 1) / strides[layer]
            for row in 0 ..< cells {
                for col in 0 ..< cells {
                    let center = ((Float(col) + 0.5) / Float(cells), (Float(row) + 0.5) / Float(cells))
                    out.append(contentsOf: repeatElement(center, count: perCell))
                }
            }
            layer = last + 1
        }
        return out
    }()

    static func sigmoid(_ x: Float) -> Float {
        let c = min(max(x, -80), 80)
        return 1 / (1 + Foundation.exp(-c))
    }

    /// Decodes `regressors` (896 x 16) and `logits` (896) into candidates above `threshold`.
    static func decode(regressors: [Float], logits: [Float], threshold: Float) -> [Candidate] {
        let s = Float(inputSize)
        var out: [Candidate] = []
        for (i, anchor) in anchors.enumerated() where i < logits.count && 16 * i + 16 <= regressors.count {
            let score = sigmoid(logits[i])
            guard score > threshold else { continue }
            let r = regressors[16 * i ..< 16 * i + 16].map { $0 }
            let cx = r[0] / s + anchor.0, cy = r[1] / s + anchor.1
            let w = r[2] / s, h = r[3] / s
            guard w > 0, h > 0, (cx + cy + w + h).isFinite else { continue }
            var keypoints: [Float] = []
            for k in 0 ..< 6 {
                keypoints.append(r[4 + 2 * k] / s + anchor.0)
                keypoints.append(r[5 + 2 * k] / s + anchor.1)
            }
            out.append(
                Candidate(box: [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], keypoints: keypoints, score: score))
        }
        return out
    }

    /// Intersection over union of two `xmin, ymin, xmax, ymax` boxes (0 when disjoint).
    static func iou(_ a: [Float], _ b: [Float]) -> Float {
        let iw = min(a[2], b[2]) - max(a[0], b[0]), ih = min(a[3], b[3]) - max(a[1], b[1])
        guard iw > 0, ih > 0 else { return 0 }
        let inter = iw * ih
        let union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
        return union > 0 ? inter / union : 0
    }

    /// Weighted non-maximum suppression (ties in score keep the earlier anchor first).
    static func weightedNMS(_ candidates: [Candidate], iouThreshold: Float) -> [Candidate] {
        var pool = candidates.enumerated().sorted {
            $0.element.score != $1.element.score ? $0.element.score > $1.element.score : $0.offset < $1.offset
        }.map(\.element)
        var out: [Candidate] = []
        while let top = pool.first {
            var cluster: [Candidate] = [], rest: [Candidate] = []
            for c in pool { if iou(c.box, top.box) > iouThreshold { cluster.append(c) } else { rest.append(c) } }
            var merged = top
            if !cluster.isEmpty {
                let total = cluster.reduce(Float(0)) { $0 + $1.score }
                merged.box = (0 ..< 4).map { k in cluster.reduce(Float(0)) { $0 + $1.box[k] * $1.score } / total }
                merged.keypoints = (0 ..< 12).map { k in
                    cluster.reduce(Float(0)) { $0 + $1.keypoints[k] * $1.score } / total
                }
            }
            out.append(merged)
            // The top candidate always joins its own cluster (IoU 1), so the pool shrinks.
            if rest.count == pool.count { break }
            pool = rest
        }
        return out
    }
}
