import TFLiteModel

/// REDUCE_WINDOW: each output element folds one window of the input with a reduction,
/// starting from an initial value:
/// `y[o] = init ⊕ x[o·stride + w₀·dilation] ⊕ x[o·stride + w₁·dilation] ⊕ …` over the
/// window positions `w` in row-major order. Per dimension, with the dilated window
/// `e = (window - 1)·dilation + 1`, the output has `(in - e) / stride + 1` elements, or
/// none when `in < e`. There is no padding (spec/window-ops.md).
///
/// Inputs: 0 the tensor (rank 1...6), 1 the initial value (a scalar of its type), 2 the
/// window shape, 3 the strides, 4 the window dilations (constant int64 `[rank]`, each ≥ 1).
/// `ReduceWindowOptions.reduce_function` (in `builtin_options_2`) picks ⊕: ADD, MUL,
/// MINIMUM, MAXIMUM, ALL (logical and: 1 when both are nonzero) or ANY (logical or).
/// Types: bool, int8, int16, int32, int64, uint8, float32, float64; integers wrap.
enum ReduceWindow {
    enum Function: Int32, Sendable { case add = 1, mul, minimum, maximum, all, any }
    enum Element: Sendable { case bool, int8, int16, int32, int64, uint8, float32, float64 }

    static let maxRank = 6

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 5, outputs: 1)
        guard case .reduceWindow(let code) = context.op.options2 else {
            throw .invalid("ReduceWindowOptions are missing")
        }
        guard let function = Function(rawValue: code) else {
            throw .invalid("reduce_function \(code) is not a supported reduction")
        }
        let input = try context.input(0)
        let initial = try context.input(1)
        let output = try context.output(0)
        guard input.type == output.type, initial.type == input.type else { throw context.unsupportedTypes() }
        guard let element = Element(input.type) else { throw context.unsupportedTypes() }
        guard (1 ... maxRank).contains(input.rank) else {
            throw .invalid("the input must have rank 1...\(maxRank), found shape \(input.shape)")
        }
        guard initial.elementCount == 1 else {
            throw .invalid("the initial value (input 1) must hold one element, found shape \(initial.shape)")
        }
        var lists: [[Int]] = []
        for (slot, role) in [(2, "window shape"), (3, "window strides"), (4, "window dilations")] {
            let t = try context.input(slot)
            guard t.type == .int64, t.shape == [input.rank], let values = t.constant?.array(Int64.self) else {
                throw .invalid(
                    "the \(role) (input \(slot)) must be a constant int64 vector of \(input.rank) values, found \(t.type) \(t.shape)"
                )
            }
            for v in values where v < 1 || v > Int64(Int32.max) {
                throw .invalid("the \(role) (input \(slot)) value \(v) is out of range (1...\(Int32.max))")
            }
            lists.append(values.map { Int($0) })
        }
        let geometry = try WindowGeometry(input: input.shape, window: lists[0], strides: lists[1], dilations: lists[2])
        try context.setOutputShape(0, geometry.outputShape)
        context.declareWork([geometry.outputCount, geometry.windowCount])
        return ReduceWindowKernel(
            input: input.index, initial: initial.index, output: output.index, geometry: geometry,
            function: function, element: element)
    }
}

/// Output shape and element strides of a window reduction without padding.
struct WindowGeometry: Hashable, Sendable {
    let outputShape: [Int]
    let window: [Int]
    /// Input element strides of one output step and of one window step, per dimension.
    let outputSteps: [Int], windowSteps: [Int]
    let outputCount: Int, windowCount: Int

    init(input: [Int], window: [Int], strides: [Int], dilations: [Int]) throws(KernelError) {
        let rank = input.count
        var out: [Int] = [], inStride = [Int](repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) { inStride[d] = inStride[d + 1] * input[d + 1] }
        var outSteps: [Int] = [], windowSteps: [Int] = []
        for d in 0 ..< rank {
            let (span, o1) = (window[d] - 1).multipliedReportingOverflow(by: dilations[d])
            let (os, o2) = strides[d].multipliedReportingOverflow(by: inStride[d])
            let (ws, o3) = dilations[d].multipliedReportingOverflow(by: inStride[d])
            guard !(o1 || o2 || o3) else { throw .invalid("window of dimension \(d) overflows") }
            out.append(input[d] <= span ? 0 : (input[d] - span - 1) / strides[d] + 1)
            outSteps.append(os)
            windowSteps.append(ws)
        }
        guard let windowCount = Shape.elementCount(window) else { throw .invalid("window \(window) is too large") }
        outputShape = out
        self.window = window
        outputSteps = outSteps
        self.windowSteps = windowSteps
        outputCount = out.reduce(1, *)
        self.windowCount = windowCount
    }

    /// Input offset of the first window element of output element `o` (row-major).
    @inline(__always)
    func origin(of o: Int) -> Int {
        var rest = o, at = 0
        for d in stride(from: outputShape.count - 1, through: 0, by: -1) {
            at += (rest % outputShape[d]) * outputSteps[d]
            rest /= outputShape[d]
        }
        return at
    }

    /// Calls `body` with the input offset (from the origin) of every window element, in
    /// row-major window order.
    @inline(__always)
    func forEachWindowOffset(_ body: (Int) -> Void) {
        let rank = window.count
        let inner = window[rank - 1], innerStep = windowSteps[rank - 1]
        let rows = windowCount / Swift.max(inner, 1)
        for row in 0 ..< rows {
            var rest = row, base = 0
            for d in stride(from: rank - 2, through: 0, by: -1) {
                base += (rest % window[d]) * windowSteps[d]
                rest /= window[d]
            }
            for k in 0 ..< inner { body(base + k * innerStep) }
        }
    }
}
