import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// Quantized (uint8 / int8) pooling on the codes themselves, as TFLite does: the input and
/// output must share scale and zero point (checked at prepare), so averaging or taking the
/// maximum of codes is the same as doing it on real values.
///
/// Average: the `Int32` sum over the in-image window divided by the pixel count `n`,
/// rounded half up for uint8 (`(sum + n/2) / n`) and half away from zero for int8
/// (`(sum ± n/2) / n` with C's truncating division). Max: the largest code. Then the
/// fused activation's clamp.
enum Pool2DQ8 {
    static func make(
        _ context: inout PrepareContext, kind: Pool2D.Kind, input: TensorState, output: TensorState,
        geometry: Pool2D.Geometry, activation: FusedActivation,
        separable: Bool
    ) throws(KernelError) -> any PreparedKernel {
        guard output.type == input.type else { throw context.unsupportedTypes() }
        let (qmin, qmax): (Int32, Int32) = input.type == .uint8 ? (0, 255) : (-128, 127)
        let (sIn, zIn) = try QuantizedConvParams.perTensor(input, "input", qmin: qmin, qmax: qmax)
        let (sOut, zOut) = try QuantizedConvParams.perTensor(output, "output", qmin: qmin, qmax: qmax)
        guard abs(sIn - sOut) <= 1e-6, zIn == zOut else {
            throw .invalid(
                "input and output must share scale and zero point, found (\(sIn), \(zIn)) and (\(sOut), \(zOut))")
        }
        guard let range = FixedPoint.activationRange(activation, scale: sOut, zeroPoint: zOut, qmin: qmin, qmax: qmax)
        else {
            throw .invalid("fused activation \(activation.name) is not supported")
        }
        guard separable else {
            return Pool2DQ8Kernel(
                signed: input.type == .int8, kind: kind, input: input.index, output: output.index,
                geometry: geometry, lower: range.lower, upper: range.upper,
                sumsSlot: kind == .average
                    ? context.requestThreadScratch(
                        bytesPerThread: try ConvCheck.product([geometry.channels, 4], "AVERAGE_POOL_2D")) : -1,
                vector: context.kernelLevel >= .avx2 && context.kernelLevel.hasVectorKernels)
        }
        func make<R: PoolReduction>(_ reduction: R) throws(KernelError) -> Pool2DSeparable<R> {
            try Pool2DSeparable.make(
                &context, reduction: reduction, input: input.index, output: output.index, geometry: geometry)
        }
        let (lower, upper) = range
        switch (kind, input.type == .int8) {
        case (.max, false): return SeparablePool.maxU8(try make(MaxPoolQ8<UInt8>(lower: lower, upper: upper)))
        case (.max, true): return SeparablePool.maxI8(try make(MaxPoolQ8<Int8>(lower: lower, upper: upper)))
        case (.average, false):
            return SeparablePool.averageU8(try make(AveragePoolQ8<UInt8>(lower: lower, upper: upper)))
        case (.average, true): return SeparablePool.averageI8(try make(AveragePoolQ8<Int8>(lower: lower, upper: upper)))
        }
    }
}

/// The direct loops (``PoolLoops``): per output pixel, one loop over the channels for each
/// pixel of its window, vectorized by each level (`maxPoolQ8AVX2` and kin at `avx2` and
/// up); work is split over output rows. Averages sum into a per-thread row of `Int32`s.
struct Pool2DQ8Kernel: PreparedKernel {
    let signed: Bool
    let kind: Pool2D.Kind
    let input: Int, output: Int
    let geometry: Pool2D.Geometry
    let lower: Int32, upper: Int32
    /// The per-thread sums of an average pool (`channels` `Int32`s), -1 for max.
    let sumsSlot: Int
    let vector: Bool

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafeRawPointer(context.pointer(input, as: UInt8.self))
        let y = UnsafeMutableRawPointer(context.pointer(output, as: UInt8.self))
        let g = geometry.loops
        let (signed, lower, upper, vector, slot) = (self.signed, self.lower, self.upper, self.vector, sumsSlot)
        let bytes = g.channels * 4
        switch kind {
        case .max:
            context.parallel.forEachChunk(geometry.batch * g.outH) { rows in
                #if arch(x86_64)
                if vector { return maxPoolQ8AVX2(x, y, g, rows: rows, signed: signed, lower: lower, upper: upper) }
                #endif
                maxPoolQ8Portable(x, y, g, rows: rows, signed: signed, lower: lower, upper: upper)
            }
        case .average:
            context.parallel.forEachChunkOnThread(geometry.batch * g.outH) { thread, rows in
                let sums = context.threadScratch(slot, thread: thread, bytes: bytes).assumingMemoryBound(to: Int32.self)
                #if arch(x86_64)
                if vector {
                    return averagePoolQ8AVX2(
                        x, y, g, rows: rows, signed: signed, lower: lower, upper: upper, sums: sums)
                }
                #endif
                averagePoolQ8Portable(x, y, g, rows: rows, signed: signed, lower: lower, upper: upper, sums: sums)
            }
        }
    }
}
