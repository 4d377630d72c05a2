import TFLiteModel

/// Float SVDF (``SVDF``): the feature products with the level's float matrix-vector
/// microkernel (or BLAS), then the memory step of ``SVDFMemory`` (the window shift, the
/// newest value and the time filter in one pass), the rank sums, bias and activation.
struct SVDFF32Kernel: PreparedKernel {
    let g: SVDF.Geometry
    let input: Int, time: Int, bias: Int?, state: Int, output: Int
    let feature: FloatWeights
    let product: FloatMatrixProduct
    let activation: RecurrentActivation
    /// `[batch, filters]` floats: the feature products, then the time products.
    let scratch: Int
    let minimumTasks: Int, minimumWindows: Int
    /// The memory step runs `svdfMemoryF32AVX2`.
    let avx2: Bool
    static let block = 64

    init(_ context: inout PrepareContext, _ t: SVDF.Tensors, _ g: SVDF.Geometry, activation: RecurrentActivation)
        throws(KernelError)
    {
        try t.expect(context, time: .float32, bias: .float32, state: .float32, output: .float32)
        self.g = g
        (input, time, bias, state, output) = (t.input.index, t.time.index, t.bias?.index, t.state.index, t.output.index)
        product = FloatMatrixProduct(level: context.kernelLevel, rows: g.batch)
        feature = try FloatWeights(context, t.feature, packs: product == .rowByRow, role: "SVDF feature weights")
        self.activation = activation
        try ConvCheck.blasSizes([g.batch, g.filters, g.inputSize], "SVDF")
        scratch = context.requestScratch(bytes: try ConvCheck.product([g.batch, g.filters, 4], "SVDF"))
        let rowsPerTask = product.isRowByRow ? 1 : g.batch
        minimumTasks = Parallel.minimumChunk(
            cost: try ConvCheck.product([rowsPerTask, Self.block, g.inputSize], "SVDF"))
        minimumWindows = Parallel.minimumChunk(cost: SVDFMemory.block * g.memory)
        avx2 = context.kernelLevel >= .avx2
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let w = UnsafePointer(context.pointer(feature.tensor, as: Float.self))
        let wt = UnsafePointer(context.pointer(time, as: Float.self))
        let st = context.pointer(state, as: Float.self)
        let s = context.scratch(scratch, as: Float.self)
        let (g, feature, product) = (g, feature, product)
        let windows = g.batch * g.filters
        s.update(repeating: 0, count: windows)
        let blocks = (g.filters + Self.block - 1) / Self.block
        switch product {
        case .rowByRow, .blasRowByRow:
            context.parallel.forEachChunk(g.batch * blocks, minimumChunk: minimumTasks) { range in
                for task in range {
                    let row = task / blocks, o0 = (task % blocks) * Self.block
                    product.accumulate(
                        feature, w: w, x: x + row * g.inputSize, y: s + row * g.filters, first: o0,
                        count: Swift.min(Self.block, g.filters - o0))
                }
            }
        case .blas:
            context.parallel.forEachChunk(blocks, minimumChunk: minimumTasks) { range in
                for block in range {
                    let o0 = block * Self.block
                    FloatMatrixProduct.accumulateRows(
                        feature, w: w, rows: g.batch, x: x, ldx: g.inputSize, y: s, ldy: g.filters, first: o0,
                        count: Swift.min(Self.block, g.filters - o0))
                }
            }
        }
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
