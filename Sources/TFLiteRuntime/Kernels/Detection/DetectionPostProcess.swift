#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import TFLiteModel

/// The custom op `TFLite_Detection_PostProcess` (SSD-style detection heads): decodes
/// anchor-relative box encodings and selects detections by non-maximum suppression.
///
/// Inputs: box encodings `[1, N, ≥4]` (ty, tx, th, tw, then ignored extras), class scores
/// `[1, N, C']` with `C' = num_classes` or `num_classes + 1` (column 0 then is background and
/// skipped), anchors `[N, 4]` (y, x, h, w). float32, or uint8/int8 per-tensor quantized.
/// Outputs, all float32: boxes `[1, M, 4]` (ymin, xmin, ymax, xmax), classes `[1, M]`
/// (0-based, background excluded), scores `[1, M]`, and the number of detections `[1]`,
/// with `M = max_detections · max_classes_per_detection`.
///
/// Decoding (in Double, stored as Float, as TFLite does): `yc = ty / y_scale · h_a + y_a`,
/// `xc = tx / x_scale · w_a + x_a`, `half_h = 0.5 · exp(th / h_scale) · h_a`,
/// `half_w = 0.5 · exp(tw / w_scale) · w_a`; box = `(yc - half_h, xc - half_w, yc + half_h,
/// xc + half_w)` in Float, not clipped. A decoded box with `ymin > ymax` or `xmin > xmax`
/// fails the invoke, as in TFLite.
///
/// Selection (`NonMaxSuppression`): fast NMS by default — per anchor, its top
/// `min(max_classes_per_detection, num_classes)` classes, one NMS over anchors ranked by
/// their best score, `max_detections` anchors, each writing its classes at slots
/// `max_classes_per_detection · i + k`; `num_detections` counts anchors. With
/// `use_regular_nms`, NMS per class (`detections_per_class` each) and the best
/// `max_detections` overall; `num_detections` counts detections.
///
/// Every tie is broken toward the lower anchor (and in regular NMS the lower class), so
/// results are fully determined where TFLite leaves the order to `std::partial_sort`.
/// Output slots past the detections are zero: TFLite zeroes them in regular NMS but
/// leaves stale data in fast NMS; we always write zeros.
enum DetectionPostProcess {
    static let customName = "TFLite_Detection_PostProcess"

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard let raw = context.op.customOptions else { throw .invalid("custom options are missing") }
        guard context.op.customOptionsFormat == 0 else {
            throw .invalid("custom options format \(context.op.customOptionsFormat) is not FlexBuffers")
        }
        let options = try DetectionPostProcessOptions.parse(raw.bytes)
        try options.validate()
        try context.expectCounts(inputs: 3, outputs: 4)
        let boxes = try context.input(0)
        let scores = try context.input(1)
        let anchors = try context.input(2)
        guard boxes.rank == 3, boxes.shape[0] == 1, boxes.shape[2] >= 4 else {
            throw .invalid("box encodings must have shape [1, anchors, ≥4], found \(boxes.shape)")
        }
        let n = boxes.shape[1]
        // Candidate indices are kept as Int32 in scratch.
        guard n <= Int(Int32.max) else { throw .invalid("\(n) anchors are too many") }
        let columns = scores.rank == 3 ? scores.shape[2] : 0
        guard scores.rank == 3, scores.shape[0] == 1, scores.shape[1] == n else {
            throw .invalid("class predictions must have shape [1, \(n), classes], found \(scores.shape)")
        }
        guard columns == options.numClasses || columns == options.numClasses + 1 else {
            throw .invalid(
                "class predictions have \(columns) columns; num_classes \(options.numClasses) needs \(options.numClasses) or \(options.numClasses + 1) (with background)"
            )
        }
        guard anchors.shape == [n, 4] else {
            throw .invalid("anchors must have shape [\(n), 4], found \(anchors.shape)")
        }
        let boxElements = try DetectionElements.of(boxes, name: "box encodings")
        let scoreElements = try DetectionElements.of(scores, name: "class predictions")
        let anchorElements = try DetectionElements.of(anchors, name: "anchors")
        // TFLite makes all four outputs FLOAT32 at prepare, whatever the file says.
        for i in 0 ..< 4 { try context.deriveOutputType(i, .float32) }

        let (m, overflow) = options.maxDetections.multipliedReportingOverflow(by: options.maxClassesPerDetection)
        guard !overflow else { throw .invalid("max_detections × max_classes_per_detection overflows") }
        try context.setOutputShape(0, [1, m, 4])
        try context.setOutputShape(1, [1, m])
        try context.setOutputShape(2, [1, m])
        try context.setOutputShape(3, [1])

        let geometry = DetectionGeometry(
            anchors: n, boxStride: boxes.shape[2], columns: columns,
            labelOffset: columns - options.numClasses, options: options)
        // NMS compares each kept box with the later candidates of up to `limit` picks, after
        // a merge sort; fast NMS first selects each anchor's top classes by linear scans.
        let sortPasses = Int.bitWidth - n.leadingZeroBitCount
        if options.useRegularNMS {
            context.declareWork([options.numClasses, n, Swift.min(options.detectionsPerClass, n) + sortPasses])
            context.declareWork([options.numClasses, geometry.mergedCapacity])
        } else {
            context.declareWork([n, geometry.classesPerAnchor, options.numClasses])
            context.declareWork([n, Swift.min(options.maxDetections, n) + sortPasses])
        }
        let scratch = try DetectionScratch(&context, geometry, scoresNeedDequantizing: scoreElements != .float32)
        return DetectionPostProcessF32(
            boxEncodings: boxes.index, classPredictions: scores.index, anchors: anchors.index,
            outputs: (
                try context.outputIndex(0), try context.outputIndex(1), try context.outputIndex(2),
                try context.outputIndex(3)
            ),
            boxElements: boxElements, scoreElements: scoreElements, anchorElements: anchorElements,
            geometry: geometry, scratch: scratch, outputSlots: m)
    }
}

/// Sizes the selection works with.
struct DetectionGeometry: Sendable {
    /// Anchors (N).
    var anchors: Int
    /// Values per anchor in the box encodings (≥ 4).
    var boxStride: Int
    /// Columns of the class predictions (num_classes, plus 1 with background).
    var columns: Int
    /// 1 when column 0 is background, else 0.
    var labelOffset: Int
    var options: DetectionPostProcessOptions

    /// Classes kept per anchor in fast NMS.
    var classesPerAnchor: Int { Swift.min(options.maxClassesPerDetection, options.numClasses) }
    /// Longest running list in regular NMS: the best `max_detections` so far plus one class's picks.
    var mergedCapacity: Int { options.maxDetections + Swift.min(options.detectionsPerClass, anchors) }
}

/// Scratch slots, requested at prepare with overflow-checked sizes.
struct DetectionScratch: Sendable {
    var decodedBoxes: Int // N × 4 Float
    var dequantizedScores: Int // N × C' Float (quantized class predictions only)
    var candidateScores: Int // N Float
    var kept: Int // N Int32
    var sortTemporary: Int // N Int32
    var active: Int // N UInt8
    var selected: Int // N Int32
    var topClasses: Int // N × K Int32 (fast NMS)
    var classTaken: Int // num_classes UInt8 (fast NMS)
    var mergedAnchor: Int // 2 × mergedCapacity Int32 (regular NMS; second half for merging)
    var mergedClass: Int // 2 × mergedCapacity Int32
    var mergedScore: Int // 2 × mergedCapacity Float

    init(_ context: inout PrepareContext, _ g: DetectionGeometry, scoresNeedDequantizing: Bool) throws(KernelError) {
        func request(_ dims: [Int], _ size: Int) throws(KernelError) -> Int {
            guard let bytes = Shape.byteCount(dims, elementSize: size) else {
                throw .invalid("scratch of \(dims) × \(size) bytes overflows")
            }
            return context.requestScratch(bytes: bytes)
        }
        let n = g.anchors
        let regular = g.options.useRegularNMS
        let (capacity, overflow) = g.options.maxDetections.addingReportingOverflow(
            Swift.min(g.options.detectionsPerClass, n))
        guard !overflow else { throw .invalid("max_detections overflows") }
        decodedBoxes = try request([n, 4], 4)
        dequantizedScores = try request(scoresNeedDequantizing ? [n, g.columns] : [0], 4)
        candidateScores = try request([n], 4)
        kept = try request([n], 4)
        sortTemporary = try request([n], 4)
        active = try request([n], 1)
        selected = try request([n], 4)
        topClasses = try request(regular ? [0] : [n, g.classesPerAnchor], 4)
        classTaken = try request(regular ? [0] : [g.options.numClasses], 1)
        mergedAnchor = try request(regular ? [2, capacity] : [0], 4)
        mergedClass = try request(regular ? [2, capacity] : [0], 4)
        mergedScore = try request(regular ? [2, capacity] : [0], 4)
    }
}

/// The prepared post-process; eval allocates nothing (all buffers are scratch).
struct DetectionPostProcessF32: PreparedKernel {
    let boxEncodings: Int
    let classPredictions: Int
    let anchors: Int
    let outputs: (boxes: Int, classes: Int, scores: Int, count: Int)
    let boxElements: DetectionElements
    let scoreElements: DetectionElements
    let anchorElements: DetectionElements
    let geometry: DetectionGeometry
    let scratch: DetectionScratch
    let outputSlots: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let g = geometry
        let decoded = context.scratch(scratch.decodedBoxes, as: Float.self)
        decode(context, into: decoded)
        // TFLite rejects inverted boxes (NaN passes: comparisons with it are false).
        for i in 0 ..< g.anchors {
            let b = decoded + 4 * i
            if b[0] > b[2] || b[1] > b[3] {
                throw .invalid("decoded box \(i) has ymin > ymax or xmin > xmax")
            }
        }
        let scores: UnsafePointer<Float>
        if scoreElements == .float32 {
            scores = UnsafePointer(context.pointer(classPredictions, as: Float.self))
        } else {
            let dequantized = context.scratch(scratch.dequantizedScores, as: Float.self)
            let raw = UnsafeRawPointer(context.raw(classPredictions))
            for i in 0 ..< g.anchors * g.columns { dequantized[i] = scoreElements.load(raw, i) }
            scores = UnsafePointer(dequantized)
        }
        let out = DetectionOutputs(
            boxes: context.pointer(outputs.boxes, as: Float.self),
            classes: context.pointer(outputs.classes, as: Float.self),
            scores: context.pointer(outputs.scores, as: Float.self),
            count: context.pointer(outputs.count, as: Float.self))
        out.boxes.update(repeating: 0, count: 4 * outputSlots)
        out.classes.update(repeating: 0, count: outputSlots)
        out.scores.update(repeating: 0, count: outputSlots)
        let nms = NonMaxSuppression(
            boxes: UnsafePointer(decoded), count: g.anchors,
            scoreThreshold: g.options.scoreThreshold, iouThreshold: g.options.iouThreshold,
            kept: context.scratch(scratch.kept, as: Int32.self),
            sortTemporary: context.scratch(scratch.sortTemporary, as: Int32.self),
            active: context.scratch(scratch.active, as: UInt8.self),
            selected: context.scratch(scratch.selected, as: Int32.self))
        let candidates = context.scratch(scratch.candidateScores, as: Float.self)
        if g.options.useRegularNMS {
            let merged = MergedDetections(
                anchor: context.scratch(scratch.mergedAnchor, as: Int32.self),
                classIndex: context.scratch(scratch.mergedClass, as: Int32.self),
                score: context.scratch(scratch.mergedScore, as: Float.self),
                capacity: g.mergedCapacity)
            NonMaxSuppression.regular(
                nms, g, scores: scores, candidates: candidates, merged: merged,
                decoded: UnsafePointer(decoded), out: out)
        } else {
            NonMaxSuppression.fast(
                nms, g, scores: scores, candidates: candidates,
                topClasses: context.scratch(scratch.topClasses, as: Int32.self),
                classTaken: context.scratch(scratch.classTaken, as: UInt8.self),
                decoded: UnsafePointer(decoded), out: out, parallel: context.parallel)
        }
    }

    /// Anchor-relative encodings → corner boxes (ymin, xmin, ymax, xmax).
    private func decode(_ context: EvalContext, into decoded: UnsafeMutablePointer<Float>) {
        let o = geometry.options
        let ys = Double(o.yScale), xs = Double(o.xScale), hs = Double(o.hScale), ws = Double(o.wScale)
        let encodings = UnsafeRawPointer(context.raw(boxEncodings))
        let anchorData = UnsafeRawPointer(context.raw(anchors))
        let stride = geometry.boxStride
        for i in 0 ..< geometry.anchors {
            let ty = Double(boxElements.load(encodings, i * stride))
            let tx = Double(boxElements.load(encodings, i * stride + 1))
            let th = Double(boxElements.load(encodings, i * stride + 2))
            let tw = Double(boxElements.load(encodings, i * stride + 3))
            let ay = Double(anchorElements.load(anchorData, 4 * i))
            let ax = Double(anchorElements.load(anchorData, 4 * i + 1))
            let ah = Double(anchorElements.load(anchorData, 4 * i + 2))
            let aw = Double(anchorElements.load(anchorData, 4 * i + 3))
            let yCenter = Float(ty / ys * ah + ay)
            let xCenter = Float(tx / xs * aw + ax)
            let halfHeight = Float(0.5 * exp(th / hs) * ah)
            let halfWidth = Float(0.5 * exp(tw / ws) * aw)
            let b = decoded + 4 * i
            b[0] = yCenter - halfHeight
            b[1] = xCenter - halfWidth
            b[2] = yCenter + halfHeight
            b[3] = xCenter + halfWidth
        }
    }
}

/// The four output buffers.
struct DetectionOutputs {
    let boxes: UnsafeMutablePointer<Float>
    let classes: UnsafeMutablePointer<Float>
    let scores: UnsafeMutablePointer<Float>
    let count: UnsafeMutablePointer<Float>

    @inline(__always)
    func write(slot: Int, box: UnsafePointer<Float>, classIndex: Int32, score: Float) {
        for k in 0 ..< 4 { boxes[4 * slot + k] = box[k] }
        classes[slot] = Float(classIndex)
        scores[slot] = score
    }
}
