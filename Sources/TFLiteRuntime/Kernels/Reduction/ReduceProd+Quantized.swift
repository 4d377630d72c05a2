#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteModel

/// Quantized REDUCE_PROD of int8 or int16 (int16 with zero points 0), TFLite's reference
/// `QuantizedReduceProd` bit for bit.
///
/// The real product of `n` elements carries the scale `s_x^n`, far beyond what an `Int32`
/// accumulator holds, so every multiplication is rescaled by the same factor
/// `m = s_x / s_y^(1/n)`, applied `n` times in all (once per multiplication, once at the
/// end), which makes the total `s_x^n / s_y`. Per output, over its reduced elements in
/// row-major order:
///
///     acc = x₀ − z_x
///     acc = R(acc · (xᵢ − z_x))           for i = 1 ..< n   (product in Int64)
///     y   = clamp(R(acc) + z_y)
///
/// `R` is TFLite's 64-bit `MultiplyByQuantizedMultiplier`: the Q31 mantissa `M` of `m`
/// rounded to 16 bits, `r = (M + 2^15) >> 16` (or `0x7FFF` when `M ≥ 0x7FFF0000`), then
/// `R(v) = (v · r + 2^(14 − e)) >> (15 − e)` (arithmetic shift: ties round toward +∞),
/// truncated to `Int32`. The 16-bit mantissa and the per-step rounding make the result
/// depend on the element order, which is why the order is fixed.
///
/// `n` is the input's element count over the output's. An empty input leaves TFLite's
/// output unwritten (whatever its memory held); here every output is the code of the
/// empty product, 1.0, clamped to the type.
struct ReduceProdQuantizedKernel: PreparedKernel {
    /// int16 codes rather than int8.
    let wide: Bool
    let input: Int
    let output: Int
    let walk: ReductionWalk
    let zeroX: Int32
    let zeroY: Int32
    /// The 16-bit mantissa `r` of the per-step multiplier.
    let reducedMultiplier: Int64
    /// `15 − e`, in 1 ... 46, and the rounding term `2^(14 − e)`.
    let totalShift: Int64
    let rounding: Int64
    /// The code every output gets when the input is empty.
    let emptyCode: Int32

    static func prepare(input: TensorState, output: TensorState, walk: ReductionWalk, reducedCount: Int)
        throws(KernelError) -> ReduceProdQuantizedKernel
    {
        let wide = input.type == .int16
        let qx = try QuantizedOperand(input, role: "input")
        let qy = try QuantizedOperand(output, role: "output")
        if wide {
            guard qx.zeroPoint == 0, qy.zeroPoint == 0 else {
                throw .invalid(
                    "int16 REDUCE_PROD needs zero points 0, found input \(qx.zeroPoint) and output \(qy.zeroPoint)")
            }
        }
        let (lowest, highest): (Int32, Int32) = wide ? (-32768, 32767) : (-128, 127)
        let one = (1 / Double(qy.scale)).rounded(.toNearestOrAwayFromZero) + Double(qy.zeroPoint)
        let emptyCode = Int32(Swift.max(Swift.min(one, Double(highest)), Double(lowest)))
        var reducedMultiplier: Int64 = 0
        var totalShift: Int64 = 1
        if reducedCount > 0 {
            let scaling = Double(qx.scale) / pow(Double(qy.scale), 1 / Double(reducedCount))
            let (mantissa, exponent) = FixedPoint.quantizeMultiplier(scaling)
            // A shift of 0 or less is undefined in TFLite's arithmetic; it needs
            // s_x / s_y^(1/n) ≥ 2^14.
            guard exponent <= 14 else {
                throw .invalid(
                    "input scale \(qx.scale) is too large for output scale \(qy.scale) over \(reducedCount) elements")
            }
            reducedMultiplier = mantissa < 0x7FFF_0000 ? (Int64(mantissa) + (1 << 15)) >> 16 : 0x7FFF
            totalShift = Int64(15 - exponent)
        }
        return ReduceProdQuantizedKernel(
            wide: wide, input: input.index, output: output.index, walk: walk, zeroX: qx.zeroPoint,
            zeroY: qy.zeroPoint, reducedMultiplier: reducedMultiplier, totalShift: totalShift,
            rounding: 1 << (totalShift - 1), emptyCode: emptyCode)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        if wide {
            run(context, Int16.self, lowest: -32768, highest: 32767)
        } else {
            run(context, Int8.self, lowest: -128, highest: 127)
        }
    }

    /// `R(v)`; wrapping arithmetic because a hostile file's scales may push `v · r` past
    /// Int64 (TFLite's precondition is `|v| < 2^47`, which int8 and int16 codes keep).
    @inline(__always)
    private func rescale(_ v: Int64) -> Int32 {
        Int32(truncatingIfNeeded: (v &* reducedMultiplier &+ rounding) >> totalShift)
    }

    @inline(__always)
    private func run<T: FixedWidthInteger & SignedInteger>(
        _ context: EvalContext, _: T.Type, lowest: Int32, highest: Int32
    ) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let walk = self.walk
        guard !walk.isEmpty else {
            for o in 0 ..< walk.outputCount { y[o] = T(truncatingIfNeeded: emptyCode) }
            return
        }
        let zeroX = Int64(zeroX)
        let perOutput = walk.reduced.reduce(1) { $0 * $1.size }
        context.parallel.forEachChunk(walk.outputCount, minimumChunk: Swift.max(1, (1 << 12) / perOutput)) { range in
            for o in range {
                var acc: Int32 = 0
                var first = true
                walk.forEachOffset(output: o) { offset in
                    let d = Int64(x[offset]) - zeroX
                    if first {
                        acc = Int32(truncatingIfNeeded: d)
                        first = false
                    } else {
                        acc = rescale(Int64(acc) &* d)
                    }
                }
                let q = rescale(Int64(acc)) &+ zeroY
                y[o] = T(truncatingIfNeeded: Swift.min(Swift.max(q, lowest), highest))
            }
        }
    }
}
