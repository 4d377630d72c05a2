import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Deterministic pseudo-random values for kernel tests (a 64-bit LCG).
struct TestRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }

    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 11
    }

    /// Uniform in `range`.
    mutating func float(_ range: ClosedRange<Float>) -> Float {
        let unit = Float(next() % (1 << 24)) / Float(1 << 24)
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }

    mutating func floats(_ count: Int, _ range: ClosedRange<Float> = -4 ... 4) -> [Float] {
        (0 ..< count).map { _ in float(range) }
    }

    mutating func int32s(_ count: Int, _ range: ClosedRange<Int32>) -> [Int32] {
        let span = UInt64(Int64(range.upperBound) - Int64(range.lowerBound) + 1)
        return (0 ..< count).map { _ in Int32(Int64(range.lowerBound) + Int64(next() % span)) }
    }
}

/// Runs a graph of one operator whose inputs are all graph inputs (shapes and values
/// given) and returns output 0 with its shape.
func runSingleOp<T>(
    _ code: BuiltinOperator, inputs: [(shape: [Int], type: ElementType, values: [T])],
    output type: ElementType, options: BuiltinOptions = .none, threads: Int = 1
) throws -> (shape: [Int], values: [T]) {
    var g = GraphBuilder()
    let ins = inputs.map { g.input($0.shape, $0.type) }
    let y = g.tensor([], type)
    g.op(code, inputs: ins, outputs: [y], options: options)
    g.output(y)
    let engine = try g.engine(threads: threads)
    try engine.allocate()
    for (i, input) in inputs.enumerated() { try engine.setInput(i, input.values) }
    try engine.invoke()
    return (engine.outputShape(0), try engine.output(0, as: T.self))
}

/// Row-major strides of `shape`.
func rowMajorStrides(_ shape: [Int]) -> [Int] {
    var strides = [Int](repeating: 1, count: shape.count)
    var acc = 1
    for d in stride(from: shape.count - 1, through: 0, by: -1) { strides[d] = acc; acc *= shape[d] }
    return strides
}

/// Multi-index of flat position `flat` in `shape`.
func unflatten(_ flat: Int, _ shape: [Int]) -> [Int] {
    var index = [Int](repeating: 0, count: shape.count)
    var rest = flat
    for d in stride(from: shape.count - 1, through: 0, by: -1) where shape[d] > 0 {
        index[d] = rest % shape[d]
        rest /= shape[d]
    }
    return index
}

/// Naive NumPy broadcast of `f` over `a` and `b`, one multi-index at a time.
func naiveBroadcast<T>(_ a: [T], _ aShape: [Int], _ b: [T], _ bShape: [Int], _ f: (T, T) -> T) -> (
    shape: [Int], values: [T]
) {
    let rank = max(aShape.count, bShape.count)
    let pa = [Int](repeating: 1, count: rank - aShape.count) + aShape
    let pb = [Int](repeating: 1, count: rank - bShape.count) + bShape
    let out = (0 ..< rank).map { pa[$0] == 1 ? pb[$0] : pa[$0] }
    let sa = rowMajorStrides(pa), sb = rowMajorStrides(pb)
    let count = out.reduce(1, *)
    var values: [T] = []
    for flat in 0 ..< count {
        let idx = unflatten(flat, out)
        var ia = 0, ib = 0
        for d in 0 ..< rank {
            if pa[d] != 1 { ia += idx[d] * sa[d] }
            if pb[d] != 1 { ib += idx[d] * sb[d] }
        }
        values.append(f(a[ia], b[ib]))
    }
    return (out, values)
}

/// `max|got - want| <= tolerance * max(1, max|want|)`, elementwise over equal counts.
func expectNear(
    _ got: [Float], _ want: [Float], tolerance: Float = 1e-5, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(got.count == want.count, sourceLocation: sourceLocation)
    guard got.count == want.count else { return }
    let scale = max(1, want.map { abs($0) }.max() ?? 0)
    var worst: Float = 0
    for (g, w) in zip(got, want) {
        if g.isNaN || w.isNaN {
            #expect(g.isNaN && w.isNaN, "got \(g), want \(w)", sourceLocation: sourceLocation)
        } else if g != w {
            worst = max(worst, abs(g - w))
        }
    }
    #expect(
        worst <= tolerance * scale, "max error \(worst) exceeds \(tolerance * scale)", sourceLocation: sourceLocation)
}

/// The error description `body` throws, or nil if it does not throw.
func errorDescription(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch let error as RuntimeError {
        return error.description
    } catch {
        return "\(error)"
    }
}
