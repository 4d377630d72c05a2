import TFLiteModel

/// BATCH_MATMUL: `z[..., i, j] = Σ_k op(x)[..., i, k] · op(y)[..., k, j]`, where `op`
/// transposes the last two dimensions when `adj_x` / `adj_y` is set, and the leading
/// (batch) dimensions broadcast NumPy-style (aligned right, each pair equal or 1).
///
/// Both inputs have rank 2...5, as in TFLite. Absent options mean no adjoints.
/// float32, and hybrid float32 LHS with a constant int8 RHS (``BatchMatMulHybrid``).
enum BatchMatMul {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let options: BatchMatMulOptions
        switch context.op.options {
        case let .batchMatMul(o): options = o
        case .none: options = BatchMatMulOptions(adjointX: false, adjointY: false)
        default: throw .invalid("expected BatchMatMulOptions, found \(context.op.options)")
        }
        let x = try context.input(0)
        let y = try context.input(1)
        let output = try context.output(0)
        guard (2...5).contains(x.rank), (2...5).contains(y.rank) else {
            throw .invalid("inputs must have rank 2 to 5, found shapes \(x.shape) and \(y.shape)")
        }
        let (xr, xc) = (x.shape[x.rank - 2], x.shape[x.rank - 1])
        let (yr, yc) = (y.shape[y.rank - 2], y.shape[y.rank - 1])
        let (m, k) = options.adjointX ? (xc, xr) : (xr, xc)
        let (k2, n) = options.adjointY ? (yc, yr) : (yr, yc)
        guard k == k2 else {
            throw .invalid("inner dimensions differ: \(x.shape)\(options.adjointX ? " (adjoint)" : "") and \(y.shape)\(options.adjointY ? " (adjoint)" : "")")
        }
        let batchRank = Swift.max(x.rank, y.rank) - 2
        let xBatch = [Int](repeating: 1, count: batchRank - (x.rank - 2)) + x.shape.dropLast(2)
        let yBatch = [Int](repeating: 1, count: batchRank - (y.rank - 2)) + y.shape.dropLast(2)
        var batch: [Int] = []
        for (a, b) in zip(xBatch, yBatch) {
            guard a == b || a == 1 || b == 1 else {
                throw .invalid("batch dimensions of \(x.shape) and \(y.shape) do not broadcast")
            }
            batch.append(a == 1 ? b : a)
        }
        try context.setOutputShape(0, batch + [m, n])
        context.declareWork(batch + [m, n, k])
        let hybrid = x.type == .float32 && y.type == .int8
        guard hybrid || (x.type == .float32 && y.type == .float32 && output.type == .float32) else { throw context.unsupportedTypes() }
        try ConvCheck.blasSizes([m, n, k, xc, yc], "BATCH_MATMUL")

        // Element offsets of each output matrix's operands (none when the output is empty).
        var xOffsets: [Int] = [], yOffsets: [Int] = []
        let (matrixSize, overflow) = m.multipliedReportingOverflow(by: n)
        if !overflow, matrixSize > 0 {   // then setOutputShape proved batch · m · n fits
            let count = batch.reduce(1, *)
            xOffsets.reserveCapacity(count)
            yOffsets.reserveCapacity(count)
            var index = [Int](repeating: 0, count: batchRank)
            for _ in 0 ..< count {
                var xo = 0, yo = 0
                for d in 0 ..< batchRank {
                    xo = xo * xBatch[d] + (xBatch[d] == 1 ? 0 : index[d])
                    yo = yo * yBatch[d] + (yBatch[d] == 1 ? 0 : index[d])
                }
                xOffsets.append(xo * xr * xc)
                yOffsets.append(yo * yr * yc)
                var d = batchRank - 1
                while d >= 0 {
                    index[d] += 1
                    if index[d] < batch[d] { break }
                    index[d] = 0
                    d -= 1
                }
            }
        }
        if hybrid {
            return try BatchMatMulHybrid.make(&context, options: options, x: x, y: y, output: output, m: m, n: n, k: k,
                                              xOffsets: xOffsets, yOffsets: yOffsets)
        }
        return BatchMatMulF32(x: x.index, y: y.index, output: output.index, m: m, n: n, k: k,
                              adjointX: options.adjointX, adjointY: options.adjointY,
                              lda: xc, ldb: yc, xOffsets: xOffsets, yOffsets: yOffsets)
    }
}
