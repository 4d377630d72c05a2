#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteModel

/// ATAN2: `y = atan2(a, b)`, the angle of the point `(b, a)`, elementwise over two
/// operands of one rank and element count, paired by position (no broadcasting, as in
/// TFLite); the output has the first operand's shape.
///
/// float32 calls `atan2f` and float64 `atan2`; float16 and bfloat16 widen to float32,
/// call `atan2f` and round the result to nearest even, as TFLite's half types do.
enum Atan2 {
    enum Element: Sendable { case float32, float64, float16, bfloat16 }

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let a = try context.input(0)
        let b = try context.input(1)
        let output = try context.output(0)
        guard a.type == b.type, a.type == output.type else { throw context.unsupportedTypes() }
        let element: Element
        switch a.type {
        case .float32: element = .float32
        case .float64: element = .float64
        case .float16: element = .float16
        case .bfloat16: element = .bfloat16
        default: throw context.unsupportedTypes()
        }
        // TFLite checks only the ranks and pairs elements by position; equal counts keep
        // every read in bounds.
        guard a.rank == b.rank, a.elementCount == b.elementCount else {
            throw .invalid("operands must have the same rank and element count, found \(a.shape) and \(b.shape)")
        }
        try context.setOutputShape(0, a.shape)
        return Atan2Kernel(a: a.index, b: b.index, output: output.index, count: a.elementCount, element: element)
    }
}

struct Atan2Kernel: PreparedKernel {
    let a: Int, b: Int, output: Int, count: Int
    let element: Atan2.Element

    func eval(_ context: EvalContext) throws(KernelError) {
        let (pa, pb, py) = (context.raw(a), context.raw(b), context.raw(output))
        let element = self.element
        context.parallel.forEachChunk(count, cost: 32) { range in
            switch element {
            case .float32:
                let (x, z, y) = (
                    pa.assumingMemoryBound(to: Float.self), pb.assumingMemoryBound(to: Float.self),
                    py.assumingMemoryBound(to: Float.self)
                )
                for i in range { y[i] = atan2f(x[i], z[i]) }
            case .float64:
                let (x, z, y) = (
                    pa.assumingMemoryBound(to: Double.self), pb.assumingMemoryBound(to: Double.self),
                    py.assumingMemoryBound(to: Double.self)
                )
                for i in range { y[i] = atan2(x[i], z[i]) }
            case .float16:
                let (x, z, y) = (
                    pa.assumingMemoryBound(to: UInt16.self), pb.assumingMemoryBound(to: UInt16.self),
                    py.assumingMemoryBound(to: UInt16.self)
                )
                for i in range {
                    let r = atan2f(HalfPrecision.float(fromBits: x[i]), HalfPrecision.float(fromBits: z[i]))
                    y[i] = HalfPrecision.bits(from: r)
                }
            case .bfloat16:
                let (x, z, y) = (
                    pa.assumingMemoryBound(to: UInt16.self), pb.assumingMemoryBound(to: UInt16.self),
                    py.assumingMemoryBound(to: UInt16.self)
                )
                for i in range {
                    let r = atan2f(BrainFloat.float(fromBits: x[i]), BrainFloat.float(fromBits: z[i]))
                    y[i] = BrainFloat.bits(from: r)
                }
            }
        }
    }
}

/// bfloat16 ⇄ float32 on bit patterns: a bfloat16 is the upper half of a float32.
enum BrainFloat {
    @inline(__always)
    static func float(fromBits h: UInt16) -> Float { Float(bitPattern: UInt32(h) << 16) }

    /// `x` rounded to the nearest bfloat16 (ties to even); NaN becomes the quiet NaN of
    /// its sign.
    @inline(__always)
    static func bits(from x: Float) -> UInt16 {
        let b = x.bitPattern
        if x.isNaN { return x.sign == .minus ? 0xFFC0 : 0x7FC0 }
        let rounding = 0x7FFF &+ ((b >> 16) & 1)
        return UInt16(truncatingIfNeeded: (b &+ rounding) >> 16)
    }
}
