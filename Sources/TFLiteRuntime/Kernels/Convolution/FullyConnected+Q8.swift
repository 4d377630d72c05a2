import TFLiteModel

/// Quantized (uint8 / int8) FULLY_CONNECTED, as LiteRT's reference kernels compute it:
/// `acc[b, o] = Σ_i (w[o, i] - zw)·(x[b, i] - zx) + bias[o]` in `Int32` (wrapping), then
/// `round(Double(acc) · s_in·s_w[o]/s_out)` (ties away from zero), plus the output zero
/// point, clamped (``Requantizer/Mode/double``). Weights are per tensor (uint8, any zero
/// point; int8, zero point 0) or, for int8, per output channel (dimension 0).
enum FullyConnectedQ8 {
    /// Most rows and columns of one output tile.
    static let tileRows = 64
    static let tileColumns = 64
    /// Per-worker budget for a tile's converted input rows.
    static let rowBudgetBytes = 1 << 20

    static func make(
        _ context: inout PrepareContext, input: TensorState, weights: TensorState, bias: TensorState?,
        output: TensorState, activation: FusedActivation,
        batch: Int, units: Int, depth: Int
    ) throws(KernelError) -> any PreparedKernel {
        let params = try QuantizedConvParams.make(
            context, input: input, weights: weights, bias: bias, output: output,
            activation: activation, channels: units, channelAxis: 0, kind: .fullyConnected)
        if input.type == .uint8 {
            return try build(
                UInt8.self, &context, input.index, weights, bias?.index, output.index, params, batch, units, depth)
        }
        return try build(
            Int8.self, &context, input.index, weights, bias?.index, output.index, params, batch, units, depth)
    }

    private static func build<T: Quantized8>(
        _: T.Type, _ context: inout PrepareContext, _ input: Int, _ weights: TensorState,
        _ bias: Int?, _ output: Int, _ params: QuantizedConvParams,
        _ batch: Int, _ units: Int, _ depth: Int
    ) throws(KernelError) -> any PreparedKernel {
        guard let constant = weights.constant else {
            return FullyConnectedQ8Reference(
                signed: T.isSigned, input: input, weights: weights.index, bias: bias, output: output,
                batch: batch, units: units, depth: depth, params: params)
        }
        if let single = try GemvQ8.make(
            &context, signed: T.isSigned, input: input, weights: weights, bias: bias, output: output,
            rows: batch, units: units, depth: depth, row: .dense, params: params)
        {
            return single
        }
        if let integer = try integerGemm(
            T.self, &context, input, constant, bias, output, params, batch, units, depth)
        {
            return integer
        }
        let rowBytes = try ConvCheck.product([depth, MemoryLayout<Float>.stride], "FULLY_CONNECTED")
        let rows = Swift.max(1, Swift.min(tileRows, batch, rowBudgetBytes / rowBytes))
        let columns = Swift.max(1, Swift.min(tileColumns, units))
        try ConvCheck.blasSizes([rows, columns, depth], "FULLY_CONNECTED")
        let inputBytes = try ConvCheck.product([rows, rowBytes], "FULLY_CONNECTED")
        let resultBytes = try ConvCheck.product([rows, columns, 4], "FULLY_CONNECTED")
        let workerBytes = try ConvCheck.cacheLines([inputBytes, resultBytes, resultBytes], "FULLY_CONNECTED")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "FULLY_CONNECTED")
        let scratch = context.requestThreadScratch(bytesPerThread: workerBytes)
        let packed = try context.packCenteredWeights(constant, as: T.self, zeroPoint: params.weightZeroPoint)
        return FullyConnectedQ8Gemm(
            signed: T.isSigned, input: input, bias: bias, output: output, batch: batch, units: units, depth: depth,
            rows: rows, columns: columns, scratch: scratch, workerBytes: workerBytes,
            inputBytes: inputBytes, resultBytes: resultBytes, packed: packed,
            inputZeroPoint: params.inputZeroPoint,
            maxAbsInput: QuantizedConvParams.maxCentered(T.self, zeroPoint: params.inputZeroPoint),
            requantizer: params.requantizer)
    }
}

extension FullyConnectedQ8 {
    /// The level's integer GEMM, when it has one: a fully connected layer over `batch` rows
    /// is a 1x1 convolution over `batch` pixels (the `[units, depth]` weights are its
    /// `[outC, 1, 1, inC]` filter), so it takes the convolution's byte or 16-bit GEMM
    /// kernels, whose wrapping `Int32` sums and requantization are the same numbers as
    /// ``FullyConnectedQ8Gemm``'s.
    fileprivate static func integerGemm<T: Quantized8>(
        _: T.Type, _ context: inout PrepareContext, _ input: Int, _ constant: ConstantBytes, _ bias: Int?,
        _ output: Int, _ params: QuantizedConvParams, _ batch: Int, _ units: Int, _ depth: Int
    ) throws(KernelError) -> (any PreparedKernel)? {
        let g = Conv2DGeometry(
            batch: 1, inH: 1, inW: batch, inC: depth, outH: 1, outW: batch, outC: units, kh: 1, kw: 1,
            strideH: 1, strideW: 1, dilationH: 1, dilationW: 1, padTop: 0, padLeft: 0)
        if let dot = try Conv2DQ8GemmU8S8.make(
            T.self, &context, geometry: g, groups: 1, input: input, filter: constant, bias: bias,
            output: output, params: params)
        {
            return dot
        }
        return try Conv2DQ8GemmS16.make(
            T.self, &context, geometry: g, groups: 1, input: input, filter: constant, bias: bias,
            output: output, params: params)
    }
}

/// Exact GEMM (``ExactGEMM``) against the packed centered weights, in output tiles of
/// `rows × columns` spread over the threads. A worker converts a tile's input rows to
/// centered floats once and reuses them for consecutive column tiles.
struct FullyConnectedQ8Gemm: Quantized8Kernel {
    let signed: Bool
    let input: Int, bias: Int?, output: Int
    let batch: Int, units: Int, depth: Int
    let rows: Int, columns: Int
    let scratch: Int
    let workerBytes: Int, inputBytes: Int, resultBytes: Int
    let packed: PackedBuffer
    /// `zx`: the GEMM rows hold `Float(x - zx)`.
    let inputZeroPoint: Int32
    /// Largest `|x - zx|`; with the weights' (`packed.derived`) it sizes ``ExactGEMM``'s chunks.
    let maxAbsInput: Int
    let requantizer: Requantizer

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let b = context.optionalInt32s(bias)
        let w = UnsafePointer(packed.pointer.assumingMemoryBound(to: Float.self))
        let gemm = ExactGEMM(maxAbsA: maxAbsInput, maxAbsB: packed.derived)
        let rowTiles = (batch + rows - 1) / rows, columnTiles = (units + columns - 1) / columns
        context.parallel.forEachChunkOnThread(rowTiles * columnTiles) { thread, range in
            let base = context.threadScratch(scratch, thread: thread, bytes: workerBytes)
            let a = base.assumingMemoryBound(to: Float.self)
            let temp = (base + inputBytes).assumingMemoryBound(to: Float.self)
            let acc = (base + inputBytes + resultBytes).assumingMemoryBound(to: Int32.self)
            var loaded = -1
            for t in range {
                let rt = t / columnTiles, ct = t % columnTiles
                let r0 = rt * rows, m = Swift.min(rows, batch - r0)
                let c0 = ct * columns, n = Swift.min(columns, units - c0)
                if rt != loaded {
                    let src = x + r0 * depth
                    centerCodes(src, count: m * depth, zeroPoint: inputZeroPoint, into: a)
                    loaded = rt
                }
                gemm.run(
                    m: m, n: n, k: depth, a: a, lda: depth, b: w + c0 * depth, ldb: depth,
                    temp: temp, acc: acc, ldacc: n)
                for i in 0 ..< m {
                    requantizer.store(acc + i * n, count: n, firstChannel: c0, bias: b, into: y + (r0 + i) * units + c0)
                }
            }
        }
    }
}

/// TFLite's reference loops, used when the weights are only known at run time (and as the
/// oracle the GEMM kernel is tested against). Work is split over rows.
struct FullyConnectedQ8Reference: Quantized8Kernel {
    let signed: Bool
    let input: Int, weights: Int, bias: Int?, output: Int
    let batch: Int, units: Int, depth: Int
    let params: QuantizedConvParams

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let w = UnsafePointer(context.pointer(weights, as: T.self))
        let y = context.pointer(output, as: T.self)
        let bias = context.optionalInt32s(self.bias)
        let zx = params.inputZeroPoint, zw = params.weightZeroPoint
        context.parallel.forEachChunk(batch) { rows in
            for r in rows {
                for o in 0 ..< units {
                    var acc: Int32 = 0
                    for i in 0 ..< depth {
                        acc = acc &+ (Int32(w[o * depth + i]) &- zw) &* (Int32(x[r * depth + i]) &- zx)
                    }
                    if let bias { acc = acc &+ bias[o] }
                    y[r * units + o] = T(truncatingIfNeeded: params.requantizer.apply(acc, channel: o))
                }
            }
        }
    }
}
