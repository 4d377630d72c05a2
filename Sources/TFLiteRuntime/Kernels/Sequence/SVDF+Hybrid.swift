import TFLiteModel

/// Hybrid SVDF (``SVDF``): float input, state and output, int8 feature and time weights
/// (per tensor), as LiteRT computes it:
///
/// - each input row is quantized to int8 (``HybridInput``, symmetric or asymmetric); when
///   the whole input is zeros the feature products stay 0, as LiteRT skips them;
/// - `s[f] = 0 + Float(Σ_i w[f, i]·(q[i] - z))·(scale·s_w)` in single precision
///   (``Int8RowProduct``), the newest value of filter `f`'s window;
/// - the time weights are used as floats, `Float(code)·s_t`, computed once at prepare
///   (LiteRT does it at the first invoke); the rest is the float kernel's.
struct SVDFHybridKernel: PreparedKernel {
    let g: SVDF.Geometry
    let input: Int, bias: Int?, state: Int, output: Int
    let feature: Int8Weights
    /// The time weights dequantized, `[filters, memory]` floats.
    let time: PackedBuffer
    let activation: RecurrentActivation
    let asymmetric: Bool
    let product: Int8RowProduct
    let scratch: Int
    let layout: Layout
    let minimumTasks: Int, minimumWindows: Int
    /// The memory step runs `svdfMemoryF32AVX2`.
    let avx2: Bool
    static let block = 64

    /// Offsets in the scratch: the `[batch, filters]` float products, the int8 codes of one
    /// row, the prepared rows, per-block accumulators and the rows' scales and offsets.
    struct Layout: Sendable {
        let products: Int, codes: Int, rows: Int, rowBytes: Int, acc: Int, scales: Int, offsets: Int
    }

    init(
        _ context: inout PrepareContext, _ t: SVDF.Tensors, _ g: SVDF.Geometry, activation: RecurrentActivation,
        asymmetric: Bool
    ) throws(KernelError) {
        try t.expect(context, time: .int8, bias: .float32, state: .float32, output: .float32)
        self.g = g
        (input, bias, state, output) = (t.input.index, t.bias?.index, t.state.index, t.output.index)
        feature = try Int8Weights(t.feature, role: "SVDF feature weights")
        let timeWeights = try Int8Weights(t.time, role: "SVDF time weights")
        let count = try ConvCheck.product([g.filters, g.memory], "SVDF")
        time = try context.pack(bytes: try ConvCheck.product([count, 4], "SVDF")) { p in
            let out = p.bindMemory(to: Float.self, capacity: count)
            guard let codes = timeWeights.pointer else { return 0 }
            for i in 0 ..< count { out[i] = Float(codes[i]) * timeWeights.scale }
            return 0
        }
        (self.activation, self.asymmetric) = (activation, asymmetric)
        product = Int8RowProduct(level: context.kernelLevel)
        let what = "SVDF"
        let rowBytes = try Int8RowProduct.rowBytes(depth: g.inputSize, what)
        var offset = 0
        func take(_ bytes: Int) throws(KernelError) -> Int {
            let start = offset
            offset = try ConvCheck.cacheLines([offset, bytes], what)
            return start
        }
        layout = Layout(
            products: try take(try ConvCheck.product([g.batch, g.filters, 4], what)),
            codes: try take(Swift.max(g.inputSize, 1)),
            rows: try take(try ConvCheck.product([g.batch, rowBytes], what)), rowBytes: rowBytes,
            acc: try take(try ConvCheck.product([g.batch, g.filters, 4], what)),
            scales: try take(try ConvCheck.product([g.batch, 4], what)),
            offsets: try take(try ConvCheck.product([g.batch, 4], what)))
        scratch = context.requestScratch(bytes: offset)
        minimumTasks = Parallel.minimumChunk(cost: try ConvCheck.product([Self.block, g.inputSize], what))
        minimumWindows = Parallel.minimumChunk(cost: SVDFMemory.block * g.memory)
        avx2 = context.kernelLevel >= .avx2
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let st = context.pointer(state, as: Float.self)
        let base = UnsafeMutableRawPointer(context.scratch(scratch, as: UInt8.self))
        let s = (base + layout.products).assumingMemoryBound(to: Float.self)
        let codes = (base + layout.codes).assumingMemoryBound(to: Int8.self)
        let acc = (base + layout.acc).assumingMemoryBound(to: Int32.self)
        let scales = (base + layout.scales).assumingMemoryBound(to: Float.self)
        let offsets = (base + layout.offsets).assumingMemoryBound(to: Int32.self)
        let (g, layout, product) = (g, layout, product)
        let windows = g.batch * g.filters
        s.update(repeating: 0, count: windows)
        var anyNonzero = false
        for i in 0 ..< g.batch * g.inputSize where x[i] != 0 {
            anyNonzero = true
            break
        }
        if anyNonzero, let w = feature.pointer {
            for row in 0 ..< g.batch {
                let (scale, zero) = HybridInput.quantize(
                    x + row * g.inputSize, count: g.inputSize, stride: 1, asymmetric: asymmetric, into: codes)
                offsets[row] = product.prepareRow(
                    codes, count: g.inputSize, zeroPoint: zero, into: base + layout.rows + row * layout.rowBytes)
                scales[row] = scale * feature.scale
            }
            let blocks = (g.filters + Self.block - 1) / Self.block
            context.parallel.forEachChunk(g.batch * blocks, minimumChunk: minimumTasks) { range in
                for task in range {
                    let row = task / blocks, o0 = (task % blocks) * Self.block
                    let n = Swift.min(Self.block, g.filters - o0)
                    let sums = acc + row * g.filters + o0, y = s + row * g.filters + o0
                    product.run(
                        w: w, k: g.inputSize, row: base + layout.rows + row * layout.rowBytes, offset: offsets[row],
                        first: o0, count: n, acc: sums)
                    let scale = scales[row]
                    for j in 0 ..< n { y[j] += Float(sums[j]) * scale }
                }
            }
        }
        let wt = UnsafePointer(time.pointer.assumingMemoryBound(to: Float.self))
        let avx2 = self.avx2
        SVDFMemory.forEachBlock(context, rows: g.batch, filters: g.filters, minimumTasks: minimumWindows) {
            row, f0, n in
            let w = row * g.filters + f0
            SVDFMemory.stepF32(
                avx2: avx2, windows: n, memory: g.memory, state: st + w * g.memory, newest: s + w,
                time: wt + f0 * g.memory, out: s + w)
        }
        SVDFMemory.reduceF32(
            UnsafePointer(s), rows: g.batch, units: g.units, rank: g.rank, bias: context.optionalFloats(bias),
            activation: activation, into: context.pointer(output, as: Float.self))
    }
}
