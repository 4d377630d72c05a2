import TFLiteModel

/// Hybrid FULLY_CONNECTED for a few input rows (a decoder's one token, a recurrent step):
/// the same numbers as ``FullyConnectedHybridGemm``, computed row by row against the int8
/// weights as stored.
///
/// Each row is quantized as LiteRT does (``HybridInput``: codes `q` and an offset `zq`),
/// then ``Int8RowProduct`` gives the exact sums `acc[o] = Σ_i w[o, i]·(q[i] - zq)` in
/// wrapping `Int32` with the level's matrix-vector microkernel, and
/// `y = act(bias[o] + Float(acc) · (scale · s_w[o]))` finishes. The sums are integers, so
/// they equal the float GEMM's exact ones bit for bit; what changes is the cost: a GEMM
/// call per row packs the whole weight matrix again and reads it as floats (4 bytes a
/// weight), where this reads each int8 weight once.
struct FullyConnectedHybridRows: PreparedKernel {
    /// Rows per invoke up to which this kernel is used: past it the GEMM reuses each
    /// weight across rows.
    static let maxRows = 4
    /// Output units per parallel task.
    static let block = 64

    let input: Int, bias: Int?, output: Int
    let batch: Int, units: Int, depth: Int
    let asymmetric: Bool
    let weights: ConstantBytes
    let weightScales: [Float]
    let product: Int8RowProduct
    let range: FloatActivationRange
    /// One scratch region: the row's codes, then its prepared form, then the sums.
    let scratch: Int, rowOffset: Int, accOffset: Int
    let minimumTasks: Int

    init(
        _ context: inout PrepareContext, input: Int, bias: Int?, output: Int, weights: TensorState,
        weightScales: [Float], batch: Int, units: Int, depth: Int, asymmetric: Bool, range: FloatActivationRange
    ) throws(KernelError) {
        let what = "FULLY_CONNECTED"
        guard let constant = weights.constant else { throw .invalid("\(what): hybrid int8 weights must be constant") }
        guard constant.bytes.count >= (try ConvCheck.product([units, depth], what)) else {
            throw .invalid("\(what): weights hold \(constant.bytes.count) bytes; \(units) x \(depth) needed")
        }
        guard weightScales.count == units else { throw .invalid("\(what): \(weightScales.count) weight scales") }
        (self.input, self.bias, self.output) = (input, bias, output)
        (self.batch, self.units, self.depth, self.asymmetric) = (batch, units, depth, asymmetric)
        (self.weights, self.weightScales, self.range) = (constant, weightScales, range)
        product = Int8RowProduct(level: context.kernelLevel)
        rowOffset = try ConvCheck.cacheLines([Swift.max(depth, 1)], what)
        accOffset = try ConvCheck.cacheLines([rowOffset, try Int8RowProduct.rowBytes(depth: depth, what)], what)
        let total = try ConvCheck.cacheLines([accOffset, try ConvCheck.product([units, 4], what)], what)
        scratch = context.requestScratch(bytes: total)
        minimumTasks = Parallel.minimumChunk(cost: try ConvCheck.product([Self.block, Swift.max(depth, 1)], what))
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        guard let w = weights.bytes.baseAddress?.assumingMemoryBound(to: Int8.self) else { return }
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        let b = context.optionalFloats(bias)
        let base = UnsafeMutableRawPointer(context.scratch(scratch, as: UInt8.self))
        let codes = base.assumingMemoryBound(to: Int8.self)
        let row = base + rowOffset
        let acc = (base + accOffset).assumingMemoryBound(to: Int32.self)
        let (units, depth, product, range) = (units, depth, product, range)
        let blocks = (units + Self.block - 1) / Self.block
        weightScales.withUnsafeBufferPointer { ws in
            guard let unitScales = ws.baseAddress else { return }
            for r in 0 ..< batch {
                let (scale, zero) = HybridInput.quantize(
                    x + r * depth, count: depth, stride: 1, asymmetric: asymmetric, into: codes)
                let offset = product.prepareRow(codes, count: depth, zeroPoint: zero, into: row)
                let out = y + r * units
                context.parallel.forEachChunk(blocks, minimumChunk: minimumTasks) { tasks in
                    for t in tasks {
                        let o0 = t * Self.block, n = Swift.min(Self.block, units - o0)
                        let sums = acc + o0
                        product.run(w: w, k: depth, row: row, offset: offset, first: o0, count: n, acc: sums)
                        FullyConnectedHybrid.finishRow(
                            sums, count: n, scale: scale, unitScales: unitScales + o0, bias: b.map { $0 + o0 },
                            range: range, into: out + o0)
                    }
                }
            }
        }
    }
}
