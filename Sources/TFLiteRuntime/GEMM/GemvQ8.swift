import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#elseif arch(arm64)
import MicrokernelsDotProd
import MicrokernelsNEON
#endif

/// Quantized CONV_2D and FULLY_CONNECTED whose output is a single row of channels (a
/// batch-1 classifier, a convolution down to one pixel), against the 8-bit weights as
/// they are in the model.
///
/// One row makes the product a matrix-vector product: each weight is used once per
/// invoke, so a packed `Float` copy for ``ExactGEMM`` (4 bytes per weight: 4 MB for
/// MobileNet's 1001-class layer) would be read as often as it saves conversions, and
/// would cost its size in memory and its conversion at load. Here the row's centered
/// activations `x - zx` become `Int16` (`|·| ≤ 255`), and
///
///     acc[o] = Σ_i (w[o, i] - zw)·xc[i] = Σ_i w[o, i]·xc[i] - zw·Σ_i xc[i]
///
/// in wrapping `Int32`, which is TFLite's sum modulo 2^32 whatever the order. Each product
/// and each pair of products fits in `Int32` (`2·255·255`), so LLVM forms the sum with
/// `pmaddwd`. Output channels are split over the threads; ``Requantizer`` finishes.
///
/// At ``KernelLevel/avx512`` the row is unsigned bytes instead and the sums come from
/// `vpdpbusd` against the weights as stored (`gemvU8S8AVX512VNNI`): int8 rows are
/// `x + 128` and the kernel subtracts `(128 + zx)·Σ w` (int8 weights have `zw = 0`);
/// uint8 rows are `x`, the kernel sums `(x - zx)·(w - 128)`, and `(128 - zw)·Σ (x - zx)`
/// is added. Taps in the padding hold the code that stands for `zx`, so they add nothing.
/// At ``KernelLevel/dotprod`` and ``KernelLevel/i8mm`` the row is the codes as they are,
/// and `SDOT`/`UDOT` give `Σ (x - zx)·w` against the weights as stored
/// (`gemvQ8DotProd`), to which `-zw·Σ (x - zx)` is added (uint8; int8 weights have
/// `zw = 0`); at ``KernelLevel/neon`` the `Int16` row goes through `gemvS8S16NEON`.
struct GemvQ8: Quantized8Kernel {
    /// How the row of `depth` activations is read from the input tensor.
    enum Row: Sendable {
        /// FULLY_CONNECTED: the input's `depth` codes.
        case dense
        /// CONV_2D with one output pixel: the receptive field, `(ky, kx, channel)` order,
        /// with taps in the padding contributing nothing (centered value 0).
        case patch(Conv2DGeometry)
    }

    let signed: Bool
    let input: Int, bias: Int?, output: Int
    let row: Row
    /// `[units, depth]` codes (OHWI filters are already `[outC, kh·kw·inC]`), read from
    /// the model at each invoke.
    let weights: ConstantBytes
    let units: Int, depth: Int
    let inputZeroPoint: Int32, weightZeroPoint: Int32
    let requantizer: Requantizer
    let scratch: Int
    /// The level's matrix-vector microkernel computes the sums (else the portable loop).
    let vectorized: Bool
    /// The sums come from the level's 8-bit dot product on the row as bytes.
    let byteDot: Bool
    /// Offset of the `Int32` accumulators in the scratch, after the `Int16` row.
    let accOffset: Int
    /// Output channels per parallel block.
    static let block = 64

    /// The kernel, or nil when the operator is not a single row or the weights are not
    /// constant (the callers' other kernels apply).
    static func make(
        _ context: inout PrepareContext, signed: Bool, input: Int, weights: TensorState, bias: Int?, output: Int,
        rows: Int, units: Int, depth: Int, row: Row, params: QuantizedConvParams
    ) throws(KernelError) -> GemvQ8? {
        guard rows == 1, let constant = weights.constant else { return nil }
        guard constant.bytes.count >= (try ConvCheck.product([units, depth], "quantized row")) else {
            throw .invalid("weights hold \(constant.bytes.count) bytes; \(units) x \(depth) needed")
        }
        let rowBytes = try ConvCheck.product([depth, MemoryLayout<Int16>.stride], "quantized row")
        let accOffset = try ConvCheck.cacheLines([rowBytes], "quantized row")
        let accBytes = try ConvCheck.product([units, MemoryLayout<Int32>.stride], "quantized row")
        let (total, overflow) = accOffset.addingReportingOverflow(accBytes)
        guard !overflow else { throw .invalid("quantized row scratch overflows") }
        return GemvQ8(
            signed: signed, input: input, bias: bias, output: output, row: row, weights: constant,
            units: units, depth: depth, inputZeroPoint: params.inputZeroPoint,
            weightZeroPoint: params.weightZeroPoint, requantizer: params.requantizer,
            scratch: context.requestScratch(bytes: total),
            vectorized: context.kernelLevel.hasVectorKernels,
            byteDot: context.kernelLevel.hasByteDot && (!signed || params.weightZeroPoint == 0),
            accOffset: accOffset)
    }

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let b = context.optionalInt32s(bias)
        let memory = UnsafeMutableRawPointer(context.scratch(scratch, as: UInt8.self))
        let xc = memory.assumingMemoryBound(to: Int16.self)
        let acc = (memory + accOffset).assumingMemoryBound(to: Int32.self)
        let zx = inputZeroPoint
        #if arch(x86_64)
        if byteDot {
            // The row as unsigned bytes (int8: `x + 128`, the sign bit flipped), in the
            // `Int16` row's bytes.
            let xb = memory.assumingMemoryBound(to: UInt8.self)
            let signed = T.isSigned, offset = signed ? 128 &+ zx : zx
            fillRow(x, into: xb, zero: UInt8(truncatingIfNeeded: offset)) { src, count, dst in
                for i in 0 ..< count { dst[i] = UInt8(truncatingIfNeeded: src[i]) ^ (signed ? 0x80 : 0) }
            }
            // uint8: `(128 - zw)·Σ (x - zx)`, the part of the sum the kernel's `w - 128` leaves out.
            var centered: Int32 = 0
            if !signed { for i in 0 ..< depth { centered &+= Int32(xb[i]) &- zx } }
            let rest = signed ? 0 : (128 &- weightZeroPoint) &* centered
            guard let base = weights.bytes.baseAddress else { return }
            forEachBlock(context) { o0, n in
                gemvU8S8AVX512VNNI(
                    n: n, k: depth, w: base + o0 * depth, ldw: depth, flip: !signed, x: xb, offset: offset,
                    acc: acc + o0)
                if rest != 0 { for o in o0 ..< o0 + n { acc[o] &+= rest } }
                requantizer.store(acc + o0, count: n, firstChannel: o0, bias: b, into: y + o0)
            }
            return
        }
        #elseif arch(arm64)
        if byteDot {
            // The row's codes as they are (taps in the padding: `zx`), in the `Int16` row's bytes.
            let xb = memory.assumingMemoryBound(to: UInt8.self)
            fillRow(x, into: xb, zero: UInt8(truncatingIfNeeded: zx)) { src, count, dst in
                for i in 0 ..< count { dst[i] = UInt8(truncatingIfNeeded: src[i]) }
            }
            // `-zw·Σ (x - zx)`, the part of the sum the kernel's `Σ (x - zx)·w` leaves out.
            var centered: Int32 = 0
            if weightZeroPoint != 0 {
                for i in 0 ..< depth { centered &+= Int32(truncatingIfNeeded: x8(xb[i], T.self)) &- zx }
            }
            let rest = 0 &- weightZeroPoint &* centered
            guard let base = weights.bytes.baseAddress else { return }
            forEachBlock(context) { o0, n in
                gemvQ8DotProd(
                    n: n, k: depth, w: base + o0 * depth, ldw: depth, signed: T.isSigned, x: xb, zeroPoint: zx,
                    acc: acc + o0)
                if rest != 0 { for o in o0 ..< o0 + n { acc[o] &+= rest } }
                requantizer.store(acc + o0, count: n, firstChannel: o0, bias: b, into: y + o0)
            }
            return
        }
        #endif
        fillRow(x, into: xc, zero: 0) { src, count, dst in
            for i in 0 ..< count { dst[i] = Int16(truncatingIfNeeded: Int32(src[i]) &- zx) }
        }
        var sum: Int32 = 0
        for i in 0 ..< depth { sum = sum &+ Int32(xc[i]) }
        let offset = weightZeroPoint &* sum
        let w = weights.typed(T.self)
        guard let base = w.baseAddress else { return }
        forEachBlock(context) { o0, n in
            #if arch(x86_64) || arch(arm64)
            if vectorized {
                #if arch(x86_64)
                gemvS8S16AVX2(
                    n: n, k: depth, w: base + o0 * depth, ldw: depth, signed: T.isSigned, x: xc, acc: acc + o0)
                #else
                gemvS8S16NEON(
                    n: n, k: depth, w: base + o0 * depth, ldw: depth, signed: T.isSigned, x: xc, acc: acc + o0)
                #endif
                for o in o0 ..< o0 + n { acc[o] = acc[o] &- offset }
                requantizer.store(acc + o0, count: n, firstChannel: o0, bias: b, into: y + o0)
                return
            }
            #endif
            for o in o0 ..< o0 + n {
                acc[o] = Self.dot(base + o * depth, xc, depth) &- offset
            }
            requantizer.store(acc + o0, count: n, firstChannel: o0, bias: b, into: y + o0)
        }
    }

    /// Calls `body(first, count)` for the blocks of output channels, split over the threads.
    @inline(__always)
    private func forEachBlock(_ context: EvalContext, _ body: (Int, Int) -> Void) {
        let blocks = (units + Self.block - 1) / Self.block
        context.parallel.forEachChunk(blocks) { range in
            for blk in range {
                let o0 = blk * Self.block
                body(o0, Swift.min(Self.block, units - o0))
            }
        }
    }

    /// Writes the row of `depth` values: the input's codes (`.dense`) or the single output
    /// pixel's receptive field (`.patch`, batch 1, `outH = outW = 1`), each code converted by
    /// `convert`, taps in the padding `zero`.
    @inline(__always)
    private func fillRow<T: Quantized8, E>(
        _ x: UnsafePointer<T>, into out: UnsafeMutablePointer<E>, zero: E,
        convert: (UnsafePointer<T>, Int, UnsafeMutablePointer<E>) -> Void
    ) {
        switch row {
        case .dense:
            convert(x, depth, out)
        case .patch(let g):
            im2colRow(g, pixel: 0, firstChannel: 0, channels: g.inC, x, into: out, zero: zero, center: convert)
        }
    }

    /// The byte `b` read as a code of type `T`.
    @inline(__always)
    private func x8<T: Quantized8>(_ b: UInt8, _: T.Type) -> Int32 {
        T.isSigned ? Int32(Int8(bitPattern: b)) : Int32(b)
    }

    /// `Σ w[i]·x[i]` in wrapping `Int32`.
    @inline(__always)
    static func dot<T: Quantized8>(_ w: UnsafePointer<T>, _ x: UnsafePointer<Int16>, _ count: Int) -> Int32 {
        var sum: Int32 = 0
        for i in 0 ..< count { sum = sum &+ Int32(truncatingIfNeeded: w[i]) &* Int32(x[i]) }
        return sum
    }
}
