/// The exact 8-bit DEPTHWISE_CONV_2D for 3×3 filters, multiplier 1, no dilation, stride 1
/// or 2 (MobileNet's depthwise layers): the integer sums are formed in Float by the float
/// kernel's row walk (``Depthwise3x3Walk``) and requantized like the integer kernel.
///
/// Exactness: centered inputs `x - zx` and weights `w - zw` are integers with magnitude at
/// most 255, so every product is an integer of magnitude at most 65025, held exactly in
/// Float. The sum `S` of at most `kh·kw` products has `|S| ≤ kh·kw·255·255 < 2^22` for
/// `kh·kw ≤ 64`; each pixel's sum starts from `m = 1.5·2^23`, and every partial sum
/// `m + S'` lies in `[2^23, 2^24)`, where consecutive floats are 1 apart, so every addition
/// is exact whatever the order. The float `m + S` has the bit pattern `0x4B40_0000 + S`;
/// adding `bias - 0x4B40_0000` (wrapping) to those bits gives `S + bias`, the `Int32` that
/// TFLite's reference loops form (no partial sum can wrap in `Int32`). Taps in the padding
/// read zeros, which add nothing, as the reference skips them.
///
/// Both 8-bit types run one code path on the raw bytes, which keeps LLVM from merging an
/// int8 and a uint8 specialization: an int8 code `c` is the byte `b` with
/// `b ^ 0x80 = c + 128`, so `x - zx = (b ^ flip) - offset` with `flip = 0x80`,
/// `offset = zx + 128` (int8) or `flip = 0`, `offset = zx` (uint8); the requantizer clamps
/// to the type's range before the store keeps the low byte, the same bits for both types.
///
/// Per worker, scratch holds three centered input rows (input row `iy` in slot `iy % 3`,
/// converted once when first needed: with stride 1 or 2 the window's three rows are in
/// distinct slots), a row of zeros for the padding, the output row's sums and the
/// adjusted bias. Work is split over output rows.
///
/// This is the portable level's kernel; at ``KernelLevel/avx2`` the integer
/// ``DepthwiseConv2D3x3Q8AVX2`` computes the same sums from the bytes in place.
struct DepthwiseConv2D3x3Q8: PreparedKernel {
    let input: Int, bias: Int?, output: Int
    let walk: Depthwise3x3Walk
    /// `w - zw` as Float, `[9, C]`.
    let weights: AlignedBuffer
    let flip: UInt8
    let offset: Int32
    let requantizer: Requantizer
    let scratch: Int
    let layout: Layout

    /// Float offsets of the regions of one worker's scratch, each rounded up to 64 bytes:
    /// the three input-row slots, the sums, the zeros and the adjusted bias. (Spacing the
    /// slots and the sums 1 KiB apart modulo 4 KiB, against 4K aliasing, measured 5-10%
    /// slower.)
    struct Layout: Sendable {
        /// Floats per input-row slot (`inW·inC`, rounded up).
        let rowFloats: Int
        let sums: Int, zeros: Int, bias: Int
        let workerFloats: Int

        init(_ g: Conv2DGeometry) throws(KernelError) {
            func sum(_ a: Int, _ b: Int) throws(KernelError) -> Int {
                let (s, overflow) = a.addingReportingOverflow(b)
                guard !overflow else { throw .invalid("DEPTHWISE_CONV_2D: the scratch size overflows") }
                return s
            }
            func padded(_ n: Int) throws(KernelError) -> Int { try sum(n, 15) / 16 * 16 }
            rowFloats = try padded(try ConvCheck.product([g.inW, g.inC], "DEPTHWISE_CONV_2D"))
            sums = try ConvCheck.product([3, rowFloats], "DEPTHWISE_CONV_2D")
            zeros = try sum(sums, try padded(try ConvCheck.product([g.outW, g.outC], "DEPTHWISE_CONV_2D")))
            bias = try sum(zeros, try padded(g.inC))
            workerFloats = try sum(bias, try padded(g.outC))
        }
    }

    /// The sums' starting value `1.5·2^23` (bits `0x4B40_0000`).
    static let start: Float = 12_582_912

    /// Whether `g` is a geometry ``Depthwise3x3Walk`` takes.
    static func covers(_ g: Conv2DGeometry) -> Bool { Depthwise3x3Walk.covers(g) }

    /// Whether every sum stays below 2^22 in magnitude, as the type's doc comment requires
    /// (always, for 3×3 filters and 8-bit codes: 9·255·255 < 2^22).
    static func sumsAreExact(_ g: Conv2DGeometry, maxAbsInput: Int, maxAbsWeight: Int) -> Bool {
        guard let bound = Shape.elementCount([g.kh, g.kw, maxAbsInput, maxAbsWeight]) else { return false }
        return bound < 1 << 22
    }

    init(
        _ context: inout PrepareContext, signed: Bool, input: Int, bias: Int?, output: Int, geometry g: Conv2DGeometry,
        weights: AlignedBuffer, inputZeroPoint zx: Int32, requantizer: Requantizer
    ) throws(KernelError) {
        self.input = input
        self.bias = bias
        self.output = output
        walk = Depthwise3x3Walk(geometry: g)
        self.weights = weights
        flip = signed ? 0x80 : 0
        offset = signed ? zx + 128 : zx
        self.requantizer = requantizer
        layout = try Layout(g)
        _ = try ConvCheck.product(
            [layout.workerFloats, MemoryLayout<Float>.stride, context.threadCount], "DEPTHWISE_CONV_2D")
        scratch = context.requestThreadScratch(bytesPerThread: layout.workerFloats * MemoryLayout<Float>.stride)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: UInt8.self))
        let y = context.pointer(output, as: UInt8.self)
        let b = context.optionalInt32s(bias)
        let w = UnsafePointer(weights.typed(Float.self))
        let g = walk.geometry
        let layout = layout
        let rowCount = g.inW * g.inC, outCount = g.outW * g.outC
        context.parallel.forEachChunkOnThread(g.batch * g.outH) { thread, rows in
            let base = context.threadScratch(
                scratch, thread: thread, bytes: layout.workerFloats * MemoryLayout<Float>.stride
            ).assumingMemoryBound(to: Float.self)
            let zero = base + layout.zeros, sums = base + layout.sums
            zero.update(repeating: 0, count: g.inC)
            let adjusted = UnsafeMutableRawPointer(base + layout.bias).bindMemory(to: Int32.self, capacity: g.outC)
            let startBits = Int32(bitPattern: Self.start.bitPattern)
            for c in 0 ..< g.outC { adjusted[c] = (b?[c] ?? 0) &- startBits }
            // Input row (batch · inH + iy) held by each slot; -1 when none.
            var held = SIMD4<Int>(repeating: -1)
            for row in rows {
                let n = row / g.outH, oy = row % g.outH
                let iy0 = oy * g.strideH - g.padTop
                var r = (UnsafePointer<Float>?.none, UnsafePointer<Float>?.none, UnsafePointer<Float>?.none)
                for k in 0 ..< 3 {
                    let iy = iy0 + k
                    guard iy >= 0, iy < g.inH else { continue }
                    let slot = iy % 3, key = n * g.inH + iy
                    let centered = base + slot * layout.rowFloats
                    if held[slot] != key {
                        center(x + key * rowCount, count: rowCount, into: centered)
                        held[slot] = key
                    }
                    switch k {
                    case 0: r.0 = UnsafePointer(centered)
                    case 1: r.1 = UnsafePointer(centered)
                    default: r.2 = UnsafePointer(centered)
                    }
                }
                rowSums(oy, r, w: w, zero: UnsafePointer(zero), out: sums)
                sums.withMemoryRebound(to: Int32.self, capacity: outCount) { acc in
                    requantize(acc, bias: adjusted, into: y + row * outCount)
                }
            }
        }
    }

    /// The sums of output row `oy` (as Float, before bias).
    @inline(__always)
    private func rowSums(
        _ oy: Int, _ r: (UnsafePointer<Float>?, UnsafePointer<Float>?, UnsafePointer<Float>?),
        w: UnsafePointer<Float>, zero: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>
    ) {
        walk.row(oy, r, w: w, zero: zero, out: out, start: Self.start)
    }

    /// Requantizes one output row of sums (as bits, see the type's doc comment). Out of
    /// line so that profiles show it apart from the sums (inlined it measured the same).
    @inline(never)
    func requantize(_ acc: UnsafePointer<Int32>, bias: UnsafePointer<Int32>, into out: UnsafeMutablePointer<UInt8>) {
        let g = walk.geometry
        requantizer.storeRows(
            acc, rows: g.outW, count: g.outC, accStride: g.outC, firstChannel: 0, bias: bias,
            into: out, outStride: g.outC)
    }

    /// `out[i] = Float((src[i] ^ flip) - offset)`, exactly (integers below 2^24). A plain
    /// loop, which LLVM vectorizes with its own widening shuffles: Swift's generic SIMD
    /// conversion `SIMD8<UInt32>(truncatingIfNeeded: SIMD8<UInt8>)` was a call per 8 bytes.
    @inline(never)
    func center(_ src: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<Float>) {
        let flip = flip, offset = offset
        for i in 0 ..< count { out[i] = Float(Int32(src[i] ^ flip) &- offset) }
    }
}
