import TFLiteModel

/// The scalar arithmetic of REDUCE_WINDOW for one element type: integers wrap, and the
/// logical reductions give 1 or 0.
protocol WindowScalar: Comparable {
    static func add(_ a: Self, _ b: Self) -> Self
    static func mul(_ a: Self, _ b: Self) -> Self
    static var zeroValue: Self { get }
    static var oneValue: Self { get }
}

extension WindowScalar {
    @inline(__always) static func all(_ a: Self, _ b: Self) -> Self {
        a != zeroValue && b != zeroValue ? oneValue : zeroValue
    }
    @inline(__always) static func any(_ a: Self, _ b: Self) -> Self {
        a != zeroValue || b != zeroValue ? oneValue : zeroValue
    }
    /// TFLite's comparisons: the first operand on ties, the second when either is NaN.
    @inline(__always) static func minimum(_ a: Self, _ b: Self) -> Self { a <= b ? a : b }
    @inline(__always) static func maximum(_ a: Self, _ b: Self) -> Self { a >= b ? a : b }
}

extension Int8: WindowScalar {}
extension Int16: WindowScalar {}
extension Int32: WindowScalar {}
extension Int64: WindowScalar {}
extension UInt8: WindowScalar {}
extension FixedWidthInteger {
    @inline(__always) static func add(_ a: Self, _ b: Self) -> Self { a &+ b }
    @inline(__always) static func mul(_ a: Self, _ b: Self) -> Self { a &* b }
    static var zeroValue: Self { 0 }
    static var oneValue: Self { 1 }
}
extension Float: WindowScalar {
    @inline(__always) static func add(_ a: Float, _ b: Float) -> Float { a + b }
    @inline(__always) static func mul(_ a: Float, _ b: Float) -> Float { a * b }
    static var zeroValue: Float { 0 }
    static var oneValue: Float { 1 }
}
extension Double: WindowScalar {
    @inline(__always) static func add(_ a: Double, _ b: Double) -> Double { a + b }
    @inline(__always) static func mul(_ a: Double, _ b: Double) -> Double { a * b }
    static var zeroValue: Double { 0 }
    static var oneValue: Double { 1 }
}

struct ReduceWindowKernel: PreparedKernel {
    /// STABLEHLO_REDUCE_WINDOW's dilated and padded copy of the input, in scratch.
    struct PaddedInput: Sendable {
        let placement: PaddedPlacement
        let scratch: Int
    }

    let input: Int, initial: Int, output: Int
    let geometry: WindowGeometry
    let function: ReduceWindow.Function
    let element: ReduceWindow.Element
    var padded: PaddedInput? = nil

    func eval(_ context: EvalContext) throws(KernelError) {
        if let padded {
            padded.placement.run(
                context, input: UnsafeRawPointer(context.raw(input)), value: UnsafeRawPointer(context.raw(initial)),
                output: context.scratch(padded.scratch, as: UInt8.self))
        }
        switch element {
        case .bool, .int8: run(context, Int8.self)
        case .int16: run(context, Int16.self)
        case .int32: run(context, Int32.self)
        case .int64: run(context, Int64.self)
        case .uint8: run(context, UInt8.self)
        case .float32: run(context, Float.self)
        case .float64: run(context, Double.self)
        }
    }

    @inline(__always)
    private func run<T: WindowScalar>(_ context: EvalContext, _: T.Type) {
        switch function {
        case .add: fold(context, T.self, T.add)
        case .mul: fold(context, T.self, T.mul)
        case .minimum: fold(context, T.self, T.minimum)
        case .maximum: fold(context, T.self, T.maximum)
        case .all: fold(context, T.self, T.all)
        case .any: fold(context, T.self, T.any)
        }
    }

    @inline(__always)
    private func fold<T: WindowScalar>(_ context: EvalContext, _: T.Type, _ combine: (T, T) -> T) {
        let x = UnsafePointer(
            padded.map { context.scratch($0.scratch, as: T.self) } ?? context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let start = context.pointer(initial, as: T.self).pointee
        let g = geometry
        context.parallel.forEachChunk(g.outputCount, cost: g.windowCount) { range in
            for o in range {
                let origin = x + g.origin(of: o)
                var acc = start
                g.forEachWindowOffset { acc = combine(acc, origin[$0]) }
                y[o] = acc
            }
        }
    }
}
