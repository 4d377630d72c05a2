import TFLiteModel

/// Integer SVDF (``SVDF``): int8 input and output, int8 feature weights, int16 time
/// weights and state, int32 bias, as LiteRT's reference kernel computes it
/// (spec/recurrent-ops.md, "Integer SVDF"):
///
/// 1. `acc[f] = Σ_i w[f, i]·(x[i] - z_x)` in `Int32` (``Int8RowProduct``), rescaled by
///    `M₁ = s_x·s_wf / s_state` (TFLite's `MultiplyByQuantizedMultiplier`) and clamped
///    to int16: the newest state value of filter `f`;
/// 2. `t[f] = Σ_m state[f, m]·w_time[f, m]` in wrapping `Int32`;
/// 3. `o[u] = Σ_r t[u·rank + r] + bias[u]` (wrapping), rescaled by
///    `M₂ = s_state·s_wt / s_out`, plus `z_out`, clamped to `[-128, 127]`.
///
/// The multipliers are formed as LiteRT forms them: the products and quotient of the
/// `Float` scales in single precision, then widened to `Double`. LiteRT requires the
/// fused activation to be RELU but clamps only to the int8 range (its converter places
/// the output's zero point at -128 for a RELU layer); that is reproduced. The weights'
/// and state's zero points must be 0 (LiteRT's arithmetic ignores them).
struct SVDFS8Kernel: PreparedKernel {
    let g: SVDF.Geometry
    let input: Int, time: Int, bias: Int?, state: Int, output: Int
    let feature: Int
    let inputZeroPoint: Int32
    let featureScale: Requantizer.FixedChannel
    let outputRequantizer: Requantizer
    let product: Int8RowProduct
    let scratch: Int
    let layout: Layout
    let minimumTasks: Int, minimumWindows: Int
    /// The memory step runs `svdfMemoryS16AVX2`.
    let avx2: Bool
    static let block = 64
    /// Units requantized per call of ``outputRequantizer``.
    static let chunk = 64

    /// Offsets in the scratch: the prepared input rows, the feature products, the windows'
    /// newest values and the time products (`[batch, filters]` each), and the
    /// `[batch, units]` sums.
    struct Layout: Sendable {
        let rows: Int, rowBytes: Int, products: Int, newest: Int, times: Int, sums: Int
    }

    init(_ context: inout PrepareContext, _ t: SVDF.Tensors, _ g: SVDF.Geometry, activation: FusedActivation)
        throws(KernelError)
    {
        try t.expect(context, time: .int16, bias: .int32, state: .int16, output: .int8)
        guard activation == .relu else {
            throw .invalid("integer SVDF supports the RELU activation only, found \(activation.name)")
        }
        feature = t.feature.index
        self.g = g
        (input, time, bias, state, output) = (t.input.index, t.time.index, t.bias?.index, t.state.index, t.output.index)
        let i8 = (Int32(Int8.min), Int32(Int8.max)), i16 = (Int32(Int16.min), Int32(Int16.max))
        let (sx, zx) = try QuantizedConvParams.perTensor(t.input, "input", qmin: i8.0, qmax: i8.1)
        let (sw, zw) = try QuantizedConvParams.perTensor(t.feature, "feature weights", qmin: i8.0, qmax: i8.1)
        let (st, zs) = try QuantizedConvParams.perTensor(t.state, "state", qmin: i16.0, qmax: i16.1)
        let (swt, zwt) = try QuantizedConvParams.perTensor(t.time, "time weights", qmin: i16.0, qmax: i16.1)
        let (so, zo) = try QuantizedConvParams.perTensor(t.output, "output", qmin: i8.0, qmax: i8.1)
        guard zw == 0, zs == 0, zwt == 0 else {
            throw .invalid(
                "the feature weights, time weights and state must have zero point 0, found \(zw), \(zwt), \(zs)")
        }
        inputZeroPoint = zx
        // Single-precision products and quotient, as LiteRT writes them, then widened.
        let first = FixedPoint.quantizeMultiplier(Double(sx * sw / st))
        let second = FixedPoint.quantizeMultiplier(Double(st * swt / so))
        for m in [first, second] where m.exponent > 30 {
            throw .invalid("an SVDF rescaling multiplier of 2^\(m.exponent) is too large")
        }
        featureScale = Requantizer.FixedChannel(mantissa: first.mantissa, exponent: first.exponent)
        // One multiplier for every unit: a requantizer of one chunk's channels, applied
        // chunk by chunk (nothing at prepare is sized by the units).
        outputRequantizer = Requantizer(
            mode: .fixedPoint(
                mantissas: [Int32](repeating: second.mantissa, count: Self.chunk),
                exponents: [Int](repeating: second.exponent, count: Self.chunk)),
            outputZeroPoint: zo, lower: i8.0, upper: i8.1, level: context.kernelLevel)
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
            rows: try take(try ConvCheck.product([g.batch, rowBytes], what)), rowBytes: rowBytes,
            products: try take(try ConvCheck.product([g.batch, g.filters, 4], what)),
            newest: try take(try ConvCheck.product([g.batch, g.filters, 2], what)),
            times: try take(try ConvCheck.product([g.batch, g.filters, 4], what)),
            sums: try take(try ConvCheck.product([g.batch, g.units, 4], what)))
        scratch = context.requestScratch(bytes: offset)
        minimumTasks = Parallel.minimumChunk(cost: try ConvCheck.product([Self.block, g.inputSize], what))
        minimumWindows = Parallel.minimumChunk(cost: SVDFMemory.block * g.memory)
        avx2 = context.kernelLevel >= .avx2
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let w = UnsafePointer(context.pointer(feature, as: Int8.self))
        let x = UnsafePointer(context.pointer(input, as: Int8.self))
        let wt = UnsafePointer(context.pointer(time, as: Int16.self))
        let st = context.pointer(state, as: Int16.self)
        let y = context.pointer(output, as: Int8.self)
        let base = UnsafeMutableRawPointer(context.scratch(scratch, as: UInt8.self))
        let products = (base + layout.products).assumingMemoryBound(to: Int32.self)
        let newest = (base + layout.newest).assumingMemoryBound(to: Int16.self)
        let times = (base + layout.times).assumingMemoryBound(to: Int32.self)
        let sums = (base + layout.sums).assumingMemoryBound(to: Int32.self)
        let (g, layout, product, featureScale) = (g, layout, product, featureScale)
        var offset: Int32 = 0 // the same for every row: 128 + z_x at avx512, else 0
        for row in 0 ..< g.batch {
            offset = product.prepareRow(
                x + row * g.inputSize, count: g.inputSize, zeroPoint: inputZeroPoint,
                into: base + layout.rows + row * layout.rowBytes)
        }
        let blocks = (g.filters + Self.block - 1) / Self.block
        context.parallel.forEachChunk(g.batch * blocks, minimumChunk: minimumTasks) { range in
            for task in range {
                let row = task / blocks, o0 = (task % blocks) * Self.block
                let n = Swift.min(Self.block, g.filters - o0)
                let acc = products + row * g.filters + o0
                product.run(
                    w: w, k: g.inputSize, row: base + layout.rows + row * layout.rowBytes, offset: offset, first: o0,
                    count: n, acc: acc)
                // The newest value of each window: rescaled and clamped to int16.
                let v = newest + row * g.filters + o0
                for j in 0 ..< n {
                    v[j] = Int16(Swift.min(Swift.max(featureScale.apply(acc[j]), Int64(Int16.min)), Int64(Int16.max)))
                }
            }
        }
        let avx2 = self.avx2
        SVDFMemory.forEachBlock(context, rows: g.batch, filters: g.filters, minimumTasks: minimumWindows) {
            row, f0, n in
            let w = row * g.filters + f0
            SVDFMemory.stepS16(
                avx2: avx2, windows: n, memory: g.memory, state: st + w * g.memory, newest: newest + w,
                time: wt + f0 * g.memory, out: times + w)
        }
        let b = bias.map { UnsafePointer(context.pointer($0, as: Int32.self)) }
        for row in 0 ..< g.batch {
            let t = times + row * g.filters, o = sums + row * g.units
            for u in 0 ..< g.units {
                var sum: Int32 = 0
                for r in 0 ..< g.rank { sum = sum &+ t[u * g.rank + r] }
                o[u] = sum
            }
            var u0 = 0
            while u0 < g.units {
                let n = Swift.min(Self.chunk, g.units - u0)
                outputRequantizer.store(
                    UnsafePointer(o + u0), count: n, firstChannel: 0, bias: b.map { $0 + u0 },
                    into: y + row * g.units + u0)
                u0 += n
            }
        }
    }
}
