#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteModel

/// NON_MAX_SUPPRESSION_V4 and NON_MAX_SUPPRESSION_V5: greedy single-class suppression of
/// `boxes` (`[n, 4]` float32 corners `y1, x1, y2, x2`, either order) by `scores` (`[n]`),
/// keeping at most `max_output_size` boxes, with TFLite's algorithm (spec/ops-data.md,
/// "NON_MAX_SUPPRESSION_V4 and V5").
///
/// Inputs: boxes, scores, `max_output_size` (INT32 scalar), `iou_threshold`,
/// `score_threshold` (float32 scalars) and, with six inputs, the soft-NMS `sigma`: TFLite
/// tells the two forms apart by the input count, not the operator code. Outputs: the
/// selected indices (INT32 `[max_output_size]`), with six inputs their scores (float32,
/// same shape), then the number selected (INT32 scalar); slots past that number are 0.
/// A `max_output_size` computed at run time makes the output length known only at invoke.
enum NonMaxSuppressionV5Kernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard context.inputCount == 5 || context.inputCount == 6 else {
            throw .invalid("expected 5 inputs (hard NMS) or 6 (soft NMS), found \(context.inputCount)")
        }
        let soft = context.inputCount == 6
        try context.expectCounts(inputs: context.inputCount, outputs: soft ? 3 : 2)
        let boxes = try context.input(0)
        let scores = try context.input(1)
        let limit = try context.input(2)
        let iou = try context.input(3)
        let scoreThreshold = try context.input(4)
        let sigma = soft ? try context.input(5) : nil
        guard boxes.type == .float32, boxes.rank == 2, boxes.shape[1] == 4 else {
            throw .invalid("boxes must be float32 [n, 4], found \(boxes.type) \(boxes.shape)")
        }
        let n = boxes.shape[0]
        guard scores.type == .float32, scores.shape == [n] else {
            throw .invalid("scores must be float32 [\(n)], found \(scores.type) \(scores.shape)")
        }
        guard limit.type == .int32, limit.rank == 0 else {
            throw .invalid("max_output_size must be an INT32 scalar, found \(limit.type) \(limit.shape)")
        }
        for (name, t) in [("iou_threshold", iou), ("score_threshold", scoreThreshold)]
            + (sigma.map { [("sigma", $0)] } ?? [])
        where t.type != .float32 || t.rank != 0 {
            throw .invalid("\(name) must be a float32 scalar, found \(t.type) \(t.shape)")
        }
        // TFLite sets the output types at prepare.
        try context.deriveOutputType(0, .int32)
        if soft { try context.deriveOutputType(1, .float32) }
        try context.deriveOutputType(soft ? 2 : 1, .int32)
        try context.setOutputShape(soft ? 2 : 1, [])
        // A candidate is compared with at most every box selected before it, and re-enters
        // the queue only after a new selection.
        let kernel = NonMaxSuppressionV5(
            boxes: boxes.index, scores: scores.index, limit: limit.index, iouThreshold: iou.index,
            scoreThreshold: scoreThreshold.index, sigma: sigma?.index, selectedIndices: try context.outputIndex(0),
            selectedScores: soft ? try context.outputIndex(1) : nil,
            selectedCount: try context.outputIndex(soft ? 2 : 1), count: n,
            heap: context.requestScratch(bytes: 12 * n))
        guard let constant = limit.constant else {
            context.declareWork([n, n])
            return NonMaxSuppressionV5Dynamic(nms: kernel)
        }
        guard let m = constant.typed(Int32.self).first, m >= 0 else {
            throw .invalid("max_output_size must be 0 or more")
        }
        for k in 0 ..< (soft ? 2 : 1) { try context.setOutputShape(k, [Int(m)]) }
        context.declareWork([n, Swift.min(n, Int(m)) + 1])
        return kernel
    }
}

/// One candidate of the selection queue: a box, its current (possibly decayed) score, and
/// how many selected boxes it has been compared with.
struct NMSCandidate {
    var index: Int32
    var score: Float
    var suppressBegin: Int32
}

struct NonMaxSuppressionV5: PreparedKernel {
    let boxes: Int
    let scores: Int
    let limit: Int
    let iouThreshold: Int
    let scoreThreshold: Int
    let sigma: Int?
    let selectedIndices: Int
    let selectedScores: Int?
    let selectedCount: Int
    let count: Int
    /// Scratch for the candidate queue, 12 bytes per box.
    let heap: Int

    func maxOutputSize(_ context: EvalContext) -> Int {
        Int(context.pointer(limit, as: Int32.self).pointee)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let limit = maxOutputSize(context)
        guard limit >= 0 else { throw .invalid("max_output_size is \(limit); it must be 0 or more") }
        let sigma = self.sigma.map { context.pointer($0, as: Float.self).pointee } ?? 0
        guard sigma >= 0 else { throw .invalid("sigma is \(sigma); soft NMS needs 0 or more") }
        let b = UnsafePointer(context.pointer(boxes, as: Float.self))
        let s = UnsafePointer(context.pointer(scores, as: Float.self))
        let iouThreshold = context.pointer(self.iouThreshold, as: Float.self).pointee
        let scoreThreshold = context.pointer(self.scoreThreshold, as: Float.self).pointee
        let indices = context.pointer(selectedIndices, as: Int32.self)
        let picked = selectedScores.map { context.pointer($0, as: Float.self) }
        var queue = NMSQueue(storage: context.scratch(heap, as: NMSCandidate.self))
        for i in 0 ..< count where s[i] > scoreThreshold {
            queue.push(NMSCandidate(index: Int32(truncatingIfNeeded: i), score: s[i], suppressBegin: 0))
        }
        var selected = 0
        let outputs = Swift.min(queue.count, limit)
        // -0.5 / sigma in double, stored as float, as TFLite computes it.
        let scale = sigma > 0 ? Float(-0.5 / Double(sigma)) : 0
        while selected < outputs, queue.count > 0 {
            var next = queue.pop()
            let original = next.score
            var hardSuppress = false
            var j = selected - 1
            while j >= Int(next.suppressBegin) {
                let iou = Self.intersectionOverUnion(b, Int(next.index), Int(indices[j]))
                if iou >= iouThreshold {
                    hardSuppress = true
                    break
                }
                if sigma > 0 { next.score = next.score * expf(scale * iou * iou) }
                if next.score <= scoreThreshold { break }
                j -= 1
            }
            next.suppressBegin = Int32(truncatingIfNeeded: selected)
            guard !hardSuppress else { continue }
            if next.score == original {
                indices[selected] = next.index
                picked?[selected] = next.score
                selected += 1
            }
            // TFLite puts a candidate back even when it was just selected.
            if next.score > scoreThreshold { queue.push(next) }
        }
        for k in selected ..< limit {
            indices[k] = 0
            picked?[k] = 0
        }
        context.pointer(selectedCount, as: Int32.self).pointee = Int32(truncatingIfNeeded: selected)
    }

    /// IoU of boxes `i` and `j` (corners in either order); 0 when either area is not positive.
    @inline(__always)
    static func intersectionOverUnion(_ boxes: UnsafePointer<Float>, _ i: Int, _ j: Int) -> Float {
        let a = boxes + 4 * i, c = boxes + 4 * j
        let aYMin = Swift.min(a[0], a[2]), aYMax = Swift.max(a[0], a[2])
        let aXMin = Swift.min(a[1], a[3]), aXMax = Swift.max(a[1], a[3])
        let cYMin = Swift.min(c[0], c[2]), cYMax = Swift.max(c[0], c[2])
        let cXMin = Swift.min(c[1], c[3]), cXMax = Swift.max(c[1], c[3])
        let areaA = (aYMax - aYMin) * (aXMax - aXMin)
        let areaC = (cYMax - cYMin) * (cXMax - cXMin)
        if areaA <= 0 || areaC <= 0 { return 0 }
        let top = Swift.max(aYMin, cYMin), bottom = Swift.min(aYMax, cYMax)
        let left = Swift.max(aXMin, cXMin), right = Swift.min(aXMax, cXMax)
        let intersection = Swift.max(bottom - top, 0) * Swift.max(right - left, 0)
        return intersection / (areaA + areaC - intersection)
    }
}

/// NMS whose `max_output_size` is computed at run time: the outputs' length is resolved
/// at invoke.
struct NonMaxSuppressionV5Dynamic: DynamicShapeKernel {
    let nms: NonMaxSuppressionV5

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        let m = nms.maxOutputSize(context)
        guard m >= 0 else { throw .invalid("max_output_size is \(m); it must be 0 or more") }
        return nms.selectedScores == nil ? [[m], []] : [[m], [m], []]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try nms.eval(context)
    }
}

/// A binary max-heap of candidates by score, ordered exactly as the C++ standard
/// library's `priority_queue` (libstdc++'s `push_heap` and `pop_heap`), so that candidates
/// with equal scores leave in the same order as in TFLite.
struct NMSQueue {
    let storage: UnsafeMutablePointer<NMSCandidate>
    private(set) var count = 0

    init(storage: UnsafeMutablePointer<NMSCandidate>) {
        self.storage = storage
    }

    /// Appends `value` and moves it up past every parent with a lower score.
    mutating func push(_ value: NMSCandidate) {
        storage[count] = value
        count += 1
        siftUp(from: count - 1, top: 0, value)
    }

    /// Removes and returns the top. The last element is re-inserted from the hole the top
    /// leaves: the hole first descends to a leaf along the higher-scored child (the right
    /// one unless it scores below the left), then the element rises from there.
    mutating func pop() -> NMSCandidate {
        let top = storage[0]
        let length = count - 1
        if length > 0 {
            let value = storage[length]
            storage[length] = top
            var hole = 0, child = 0
            while child < (length - 1) / 2 {
                child = 2 * (child + 1)
                if storage[child].score < storage[child - 1].score { child -= 1 }
                storage[hole] = storage[child]
                hole = child
            }
            if length & 1 == 0, child == (length - 2) / 2 {
                child = 2 * (child + 1)
                storage[hole] = storage[child - 1]
                hole = child - 1
            }
            siftUp(from: hole, top: 0, value)
        }
        count = length
        return top
    }

    private func siftUp(from start: Int, top: Int, _ value: NMSCandidate) {
        var hole = start
        var parent = (hole - 1) / 2
        while hole > top, storage[parent].score < value.score {
            storage[hole] = storage[parent]
            hole = parent
            parent = (hole - 1) / 2
        }
        storage[hole] = value
    }
}
