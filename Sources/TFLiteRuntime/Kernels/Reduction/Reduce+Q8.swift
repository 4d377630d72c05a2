import Microkernels
import TFLiteModel

#if arch(x86_64)
import MicrokernelsAVX2
#endif

extension Reduce {
    /// uint8/int8 MEAN and SUM, TFLite's reference `QuantizedMeanOrSum`: per output, the
    /// codes are summed in wrapping `Int32` (row-major order), then
    /// `y = MBQM(Σx − z_x·n, M', e') + z_y`, clamped to the type, with
    /// `M, e = QuantizeMultiplier(Double(s_x)/Double(s_y))`. SUM uses `M, e` as is; MEAN
    /// folds `1/n` in: `k = min(⌊log2 n⌋, 32, 31 + e)`, `M' = (M·2^k) / n` (Int64,
    /// truncating), `e' = e − k`. An empty input gives all-zero codes, as in TFLite.
    ///
    /// BUILTIN_REF takes this path for MEAN of every shape (its special 4-D mean over
    /// height and width belongs to the optimized kernel and rounds differently). For
    /// int8 SUM, BUILTIN_REF reads the int8 codes as uint8 (a defect of its reference
    /// dispatch, whose results are meaningless); we compute the int8 sum correctly, which
    /// equals BUILTIN_REF's uint8 result on the same model shifted by 128.
    static func quantized<T: QuantizedByte>(
        _: T.Type, _ kind: Kind, input: TensorState, output: TensorState,
        geometry: ReductionGeometry, level: KernelLevel
    ) throws(KernelError) -> any PreparedKernel {
        let qx = try QuantizedOperand(input, role: "input")
        let qy = try QuantizedOperand(output, role: "output")
        var (mantissa, exponent) = FixedPoint.quantizeMultiplier(Double(qx.scale) / Double(qy.scale))
        let n = Int64(geometry.reducedCount)
        if kind == .mean, n > 0 {
            var k = 63 - UInt64(n).leadingZeroBitCount
            k = Swift.min(k, 32, 31 + exponent)
            // k ≥ 0 whenever the multiplier is nonzero (e ≥ -31); a zero one stays zero.
            k = Swift.max(k, 0)
            mantissa = Int32(truncatingIfNeeded: (Int64(mantissa) << Int64(k)) / n)
            exponent -= k
        }
        guard exponent <= 31 else {
            throw .invalid("input scale \(qx.scale) is too large for output scale \(qy.scale)")
        }
        return ReduceQ8Kernel(
            signed: T.isSigned, input: input.index, output: output.index, geometry: geometry,
            zeroX: qx.zeroPoint, zeroY: qy.zeroPoint, mantissa: mantissa, exponent: exponent,
            lower: T.lowest, upper: T.highest, level: level)
    }
}

/// A quantized MEAN or SUM. Work is split over output elements; each sums its inputs
/// in row-major order on its own, so results do not depend on the thread count.
///
/// At `avx2` the middle and last-axis layouts sum with ``sumRowsQ8AVX2(_:rowStride:rows:count:signed:into:)``
/// and ``sumRowQ8AVX2(_:count:signed:)`` and requantize a block of outputs at once with
/// ``requantizeQ31AVX2(_:rows:count:accStride:bias:mantissa:left:shiftsLeft:right:outputZeroPoint:lower:upper:into:outStride:)``,
/// the same arithmetic as ``finish(_:)``: the zero point's `−z_x·n` is its bias (wrapping,
/// as the sum is). That kernel clamps before adding `z_y` where ``finish(_:)`` adds first,
/// which agree unless the requantized value is within 2^9 of the `Int32` limits; so the
/// vector path is taken only when it cannot be: no left shift and `n·255 < 2^31 − 2^9`.
struct ReduceQ8Kernel: Quantized8Kernel {
    let signed: Bool
    let input: Int
    let output: Int
    let geometry: ReductionGeometry
    let zeroX: Int32
    let zeroY: Int32
    let mantissa: Int32
    let exponent: Int
    let lower: Int32
    let upper: Int32
    /// Per-output constants of the vector requantization (``middleBlock`` copies each), or
    /// nil where the kernel keeps the scalar path.
    private let vector: VectorRequantization?

    struct VectorRequantization {
        let bias: [Int32], mantissa: [Int32], left: [Int32], right: [Int32]
    }

    /// Outputs whose sums the middle layout accumulates together.
    static let middleBlock = 256

    init(
        signed: Bool, input: Int, output: Int, geometry: ReductionGeometry, zeroX: Int32, zeroY: Int32,
        mantissa: Int32, exponent: Int, lower: Int32, upper: Int32, level: KernelLevel
    ) {
        (self.signed, self.input, self.output, self.geometry) = (signed, input, output, geometry)
        (self.zeroX, self.zeroY, self.mantissa, self.exponent) = (zeroX, zeroY, mantissa, exponent)
        (self.lower, self.upper) = (lower, upper)
        let n = geometry.reducedCount
        var vectorForm: VectorRequantization? = nil
        #if arch(x86_64)
        if level >= .avx2, level.hasVectorKernels, (-31 ... 0).contains(exponent),
            n.multipliedReportingOverflow(by: 255).partialValue
                < (1 << 31) - (1 << 9), n < 1 << 23
        {
            let block = Self.middleBlock
            let bias = Int32(truncatingIfNeeded: -Int64(zeroX) * Int64(n))
            vectorForm = VectorRequantization(
                bias: Array(repeating: bias, count: block), mantissa: Array(repeating: mantissa, count: block),
                left: Array(repeating: 0, count: block), right: Array(repeating: Int32(-exponent), count: block))
        }
        #endif
        vector = vectorForm
    }

    @inline(__always)
    func finish<T: QuantizedByte>(_ sum: Int32) -> T {
        let n = Int64(geometry.reducedCount)
        let shifted = Int32(truncatingIfNeeded: Int64(sum) - Int64(zeroX) * n)
        return T.clamping(FixedPoint.multiplyByQuantizedMultiplier(shifted, mantissa, exponent) &+ zeroY)
    }

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        #if arch(x86_64)
        if let vector, runVector(context, UnsafeRawPointer(x), UnsafeMutableRawPointer(y), vector) { return }
        #endif
        let minimumOutputs = Swift.max(1, (1 << 14) / Swift.max(geometry.reducedCount, 1))
        switch geometry.layout {
        case .empty(let count):
            for i in 0 ..< count { y[i] = 0 }
        case .elementwise(let count):
            context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
                for i in range { y[i] = finish(x[i].code) }
            }
        case .inner(let outer, let reduced):
            context.parallel.forEachChunk(outer, minimumChunk: minimumOutputs) { range in
                for o in range {
                    // A row pointer, so the loop has no index arithmetic to check and vectorizes.
                    let row = x + o * reduced
                    var sum: Int32 = 0
                    for r in 0 ..< reduced { sum = sum &+ row[r].code }
                    y[o] = finish(sum)
                }
            }
        case .middle(let outer, let reduced, let inner):
            // Sums of up to `block` neighbouring outputs at once, adding whole contiguous
            // rows (the spatial MEAN of an NHWC map reads each pixel's channels in one
            // vector pass instead of one channel at a time). Wrapping `Int32` addition is
            // associative, so the sums equal the row-major ones bit for bit.
            let block = Self.middleBlock
            context.parallel.forEachChunk(outer * inner, minimumChunk: minimumOutputs) { range in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: block) { buffer in
                    guard let acc = buffer.baseAddress else { return }
                    var i = range.lowerBound
                    while i < range.upperBound {
                        let j = i % inner
                        let m = Swift.min(block, range.upperBound - i, inner - j)
                        let base = (i / inner) * reduced * inner + j
                        acc.update(repeating: 0, count: m)
                        for r in 0 ..< reduced {
                            let row = x + base + r * inner
                            for t in 0 ..< m { acc[t] = acc[t] &+ row[t].code }
                        }
                        for t in 0 ..< m { y[i + t] = finish(acc[t]) }
                        i += m
                    }
                }
            }
        case .general(let kept, let reduced):
            context.parallel.forEachChunk(geometry.outputCount, minimumChunk: minimumOutputs) { range in
                for o in range { y[o] = finish(Self.sumGeneral(x, outputIndex: o, kept: kept, reduced: reduced)) }
            }
        }
    }

    #if arch(x86_64)
    /// The middle and last-axis layouts at `avx2`; false for the others (the caller then
    /// runs the scalar loops).
    private func runVector(
        _ context: EvalContext, _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ v: VectorRequantization
    ) -> Bool {
        let block = Self.middleBlock
        let minimumOutputs = Swift.max(1, (1 << 14) / Swift.max(geometry.reducedCount, 1))
        let (signed, zeroY, lower, upper) = (self.signed, self.zeroY, self.lower, self.upper)
        @inline(__always) func requantize(_ acc: UnsafePointer<Int32>, _ count: Int, _ out: UnsafeMutableRawPointer) {
            v.bias.withUnsafeBufferPointer { bias in
                v.mantissa.withUnsafeBufferPointer { m in
                    v.left.withUnsafeBufferPointer { left in
                        v.right.withUnsafeBufferPointer { right in
                            requantizeQ31AVX2(
                                acc, rows: 1, count: count, accStride: count, bias: bias.baseAddress,
                                mantissa: m.baseAddress.unsafelyUnwrapped, left: left.baseAddress.unsafelyUnwrapped,
                                shiftsLeft: false, right: right.baseAddress.unsafelyUnwrapped, outputZeroPoint: zeroY,
                                lower: lower, upper: upper, into: out, outStride: count)
                        }
                    }
                }
            }
        }
        switch geometry.layout {
        case .middle(let outer, let reduced, let inner):
            context.parallel.forEachChunk(outer * inner, minimumChunk: minimumOutputs) { range in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: block) { buffer in
                    guard let acc = buffer.baseAddress else { return }
                    var i = range.lowerBound
                    while i < range.upperBound {
                        let j = i % inner
                        let m = Swift.min(block, range.upperBound - i, inner - j)
                        let base = (i / inner) * reduced * inner + j
                        sumRowsQ8AVX2(x + base, rowStride: inner, rows: reduced, count: m, signed: signed, into: acc)
                        requantize(acc, m, y + i)
                        i += m
                    }
                }
            }
            return true
        case .inner(let outer, let reduced):
            context.parallel.forEachChunk(outer, minimumChunk: minimumOutputs) { range in
                withUnsafeTemporaryAllocation(of: Int32.self, capacity: block) { buffer in
                    guard let acc = buffer.baseAddress else { return }
                    var o = range.lowerBound
                    while o < range.upperBound {
                        let m = Swift.min(block, range.upperBound - o)
                        for t in 0 ..< m {
                            acc[t] = sumRowQ8AVX2(x + (o + t) * reduced, count: reduced, signed: signed)
                        }
                        requantize(acc, m, y + o)
                        o += m
                    }
                }
            }
            return true
        default:
            return false
        }
    }
    #endif

    /// The sum for output `outputIndex` of the general layout, reduced groups walked in
    /// row-major order with an odometer (at most 8 groups, see ``ReductionGeometry``).
    static func sumGeneral<T: QuantizedByte>(
        _ x: UnsafePointer<T>, outputIndex: Int, kept: [ReductionGeometry.Group],
        reduced: [ReductionGeometry.Group]
    ) -> Int32 {
        var base = 0
        var rest = outputIndex
        for g in kept.reversed() {
            base += (rest % g.size) * g.stride
            rest /= g.size
        }
        var sum: Int32 = 0
        var index = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &index) { raw in
            let idx = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Int.self)
            reduced.withUnsafeBufferPointer { groups in
                let last = groups.count - 1
                let n = groups[last].size, s = groups[last].stride
                var offset = base
                while true {
                    for r in 0 ..< n { sum = sum &+ x[offset + r * s].code }
                    let more = advanceOdometer(idx, axes: last, size: { groups[$0].size }) { d, wrapped in
                        offset += wrapped ? -groups[d].stride * (groups[d].size - 1) : groups[d].stride
                    }
                    if !more { return }
                }
            }
        }
        return sum
    }
}
