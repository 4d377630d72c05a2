import TFLiteModel

/// int16 BATCH_MATMUL (16x8 quantization: an int16 LHS, an int16 or int8 RHS, an int16
/// output), as LiteRT's reference kernel computes it. Every zero point must be 0 (LiteRT
/// refuses others at prepare) and every tensor has one scale. Per output:
///
///     acc = Σ_k op(x)[i, k] · op(y)[k, j]                         (Int64)
///     r   = (M + 2^15) >> 16, or 0x7FFF when M ≥ 0x7FFF0000      (M rounded to 16 bits)
///     out = clamp(Int32(truncating: (acc · r + 2^(14 - e)) >> (15 - e)), -32768, 32767)
///
/// where `(M, e)` is the Q31 form of `Double(Float(s_x · s_y)) / Double(s_out)`: TFLite's
/// 64-bit `MultiplyByQuantizedMultiplier`, the shift arithmetic (ties toward +∞). It needs
/// `e ≤ 14` (a shift of at least 1), so larger multipliers are refused.
///
/// Levels with vector kernels sum on the 16-bit integer GEMM (``BatchMatMulS16Gemm``).
/// The portable level reads the LHS rows as stored (or transposed per tile with `adj_x`),
/// the RHS as the rows of `op(y)ᵀ`: as stored for an int16 RHS with `adj_y`, else
/// transposed (and widened) once, at prepare for a constant, else at eval into scratch.
/// Tiles of the output are spread over the threads; every output is one exact sum, so
/// results do not depend on the level, the tiling or the thread count.
enum BatchMatMulS16 {
    /// Most rows and columns of one output tile.
    static let tileRows = 32
    static let tileColumns = 64

    static func make(
        _ context: inout PrepareContext, _ g: BatchMatMulGeometry, x: TensorState, y: TensorState,
        output: TensorState
    ) throws(KernelError) -> any PreparedKernel {
        guard output.type == .int16 else { throw context.unsupportedTypes() }
        let narrowRHS = y.type == .int8
        let (sx, zx) = try QuantizedConvParams.perTensor(x, "LHS", qmin: -32768, qmax: 32767)
        let (sy, zy) = try QuantizedConvParams.perTensor(
            y, "RHS", qmin: narrowRHS ? -128 : -32768, qmax: narrowRHS ? 127 : 32767)
        let (so, zo) = try QuantizedConvParams.perTensor(output, "output", qmin: -32768, qmax: 32767)
        guard zx == 0, zy == 0, zo == 0 else {
            throw .invalid("int16 BATCH_MATMUL needs zero points 0, found LHS \(zx), RHS \(zy) and output \(zo)")
        }
        let real = Double(sx * sy) / Double(so)
        guard real.isFinite else { throw .invalid("requantization multiplier \(real) is not finite") }
        let (mantissa, exponent) = FixedPoint.quantizeMultiplier(real)
        // The 64-bit rescaling shifts right by 15 - e, which must be at least 1.
        guard exponent <= 14 else {
            throw .invalid("requantization multiplier \(real) is too large (at most 2^14 for int16)")
        }
        let rescale = BatchMatMulS16Rescale(mantissa: mantissa, exponent: exponent)
        if context.kernelLevel.hasVectorKernels {
            return try BatchMatMulS16Gemm.make(&context, g, x: x, y: y, output: output, rescale: rescale)
        }

        let rows = Swift.max(1, Swift.min(tileRows, g.m))
        let columns = Swift.max(1, Swift.min(tileColumns, g.n))
        // A tile's rows of op(x), transposed when adj_x is set.
        let rowsBytes = g.adjointX ? try ConvCheck.product([rows, g.k, 2], "BATCH_MATMUL") : 0
        let workerBytes = try ConvCheck.cacheLines([rowsBytes], "BATCH_MATMUL")
        _ = try ConvCheck.product([workerBytes, context.threadCount], "BATCH_MATMUL")
        let work = context.requestThreadScratch(bytesPerThread: workerBytes)

        // The RHS rows: the stored int16 matrices with adj_y, else op(y)ᵀ widened to int16.
        let direct = g.adjointY && !narrowRHS
        let transposedBytes = try ConvCheck.product([g.yMatrices, g.yMatrixSize, 2], "BATCH_MATMUL RHS")
        var packed: PackedBuffer?
        var packSlot = -1
        if !direct, let constant = y.constant {
            let needed = try ConvCheck.product([g.yMatrices, g.yMatrixSize], "BATCH_MATMUL RHS")
            let count = narrowRHS ? constant.typed(Int8.self).count : constant.typed(Int16.self).count
            guard count >= needed else { throw .invalid("the RHS holds \(count) values; \(needed) needed") }
            packed = try context.pack(bytes: transposedBytes) { pointer in
                let out = pointer.assumingMemoryBound(to: Int16.self)
                if narrowRHS, let w = constant.typed(Int8.self).baseAddress {
                    for matrix in 0 ..< g.yMatrices { transposeRHS(g, w, matrix: matrix, into: out) }
                } else if let w = constant.typed(Int16.self).baseAddress {
                    for matrix in 0 ..< g.yMatrices { transposeRHS(g, w, matrix: matrix, into: out) }
                }
                constant.releasePages()
                return 0
            }
        } else if !direct {
            packSlot = context.requestScratch(bytes: transposedBytes)
        }
        return BatchMatMulS16Kernel(
            x: x.index, y: y.index, output: output.index, geometry: g, narrowRHS: narrowRHS, direct: direct,
            rescale: rescale, rows: rows, columns: columns,
            packed: packed, packSlot: packSlot, work: work, workerBytes: workerBytes)
    }

    /// RHS matrix `matrix` as the `n` rows of `op(y)ᵀ` (depth `k` each), widened to int16.
    static func transposeRHS<T: FixedWidthInteger & SignedInteger>(
        _ g: BatchMatMulGeometry, _ y: UnsafePointer<T>, matrix: Int, into out: UnsafeMutablePointer<Int16>
    ) {
        let source = y + matrix * g.yMatrixSize, target = out + matrix * g.yMatrixSize
        for j in 0 ..< g.n {
            for d in 0 ..< g.k {
                target[j * g.k + d] = Int16(truncatingIfNeeded: g.rhs(source, depth: d, column: j))
            }
        }
    }
}

/// The tiles of ``BatchMatMulS16`` at the portable level: each output is an `Int64` dot
/// product of a row of `op(x)` and a row of `op(y)ᵀ`, then the 64-bit rescaling.
struct BatchMatMulS16Kernel: PreparedKernel {
    let x: Int, y: Int, output: Int
    let geometry: BatchMatMulGeometry
    /// The RHS holds int8 codes.
    let narrowRHS: Bool
    /// The RHS rows are the stored matrices (an int16 RHS with `adj_y`).
    let direct: Bool
    let rescale: BatchMatMulS16Rescale
    let rows: Int, columns: Int
    /// The transposed constant RHS, else the scratch slot it is transposed into at eval.
    let packed: PackedBuffer?
    let packSlot: Int
    let work: Int, workerBytes: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let g = geometry
        guard g.broadcast.count > 0 else { return }
        let b: UnsafePointer<Int16>
        if direct {
            b = UnsafePointer(context.pointer(y, as: Int16.self))
        } else if let packed {
            b = UnsafePointer(packed.pointer.assumingMemoryBound(to: Int16.self))
        } else {
            let out = context.scratch(packSlot, as: Int16.self)
            let narrow = narrowRHS
            let ys = context.raw(y)
            context.parallel.forEachChunk(g.yMatrices) { matrices in
                for matrix in matrices {
                    if narrow {
                        BatchMatMulS16.transposeRHS(
                            g, UnsafePointer(ys.assumingMemoryBound(to: Int8.self)), matrix: matrix, into: out)
                    } else {
                        BatchMatMulS16.transposeRHS(
                            g, UnsafePointer(ys.assumingMemoryBound(to: Int16.self)), matrix: matrix, into: out)
                    }
                }
            }
            b = UnsafePointer(out)
        }
        let xs = UnsafePointer(context.pointer(x, as: Int16.self))
        let z = context.pointer(output, as: Int16.self)
        let (m, n, k) = (g.m, g.n, g.k)
        let (rows, columns, rescale) = (rows, columns, rescale)
        let rowTiles = (m + rows - 1) / rows, columnTiles = (n + columns - 1) / columns
        let tilesPerMatrix = rowTiles * columnTiles
        context.parallel.forEachChunkOnThread(g.broadcast.count * tilesPerMatrix) { thread, range in
            let scratch = context.threadScratch(work, thread: thread, bytes: workerBytes)
            let transposed = scratch.assumingMemoryBound(to: Int16.self)
            var loaded = -1
            for t in range {
                let matrix = t / tilesPerMatrix, rest = t % tilesPerMatrix
                let rt = rest / columnTiles, ct = rest % columnTiles
                let (xi, yi) = g.broadcast.matrices(matrix)
                let r0 = rt * rows, c0 = ct * columns
                let rowCount = Swift.min(rows, m - r0), columnCount = Swift.min(columns, n - c0)
                let lhs = xs + xi * g.xMatrixSize
                let a: UnsafePointer<Int16>
                if g.adjointX {
                    // op(x)[i, d] = x[d, i]: the stored rows are depths.
                    let rowBlock = matrix * rowTiles + rt
                    if rowBlock != loaded {
                        for d in 0 ..< k {
                            let src = lhs + d * g.xColumns + r0
                            for i in 0 ..< rowCount { transposed[i * k + d] = src[i] }
                        }
                        loaded = rowBlock
                    }
                    a = UnsafePointer(transposed)
                } else {
                    a = lhs + r0 * k
                }
                let rhs = b + yi * g.yMatrixSize + c0 * k
                for i in 0 ..< rowCount {
                    let row = a + i * k
                    let out = z + (matrix * m + r0 + i) * n + c0
                    for j in 0 ..< columnCount {
                        out[j] = rescale.apply(Self.dot(row, rhs + j * k, count: k))
                    }
                }
            }
        }
    }

    /// `Σ a[d]·b[d]`, exact, in `Int64`. A product of two int16 codes fits `Int32` but two of
    /// them may not, so each code of `a` is split into its high byte `a >> 8` (signed) and
    /// low byte `a & 255`: `a·b = 256·(a >> 8)·b + (a & 255)·b`, where the two products are
    /// below 2^22 and 2^23 in magnitude. Blocks of 256 depths sum each part exactly in
    /// `Int32` (below 2^30 and 2^31), a reduction LLVM vectorizes with 16-bit multiply-adds;
    /// the blocks' sums are combined in `Int64`.
    @inline(__always)
    static func dot(_ a: UnsafePointer<Int16>, _ b: UnsafePointer<Int16>, count: Int) -> Int64 {
        var total: Int64 = 0
        var start = 0
        while start < count {
            let end = Swift.min(count, start + 256)
            var high: Int32 = 0, low: Int32 = 0
            for d in start ..< end {
                let v = Int32(a[d]), w = Int32(b[d])
                high &+= (v &>> 8) &* w
                low &+= (v & 0xFF) &* w
            }
            total &+= Int64(high) &* 256 &+ Int64(low)
            start = end
        }
        return total
    }
}

/// TFLite's 64-bit `MultiplyByQuantizedMultiplier` for the Q31 multiplier `(M, e)`, `e ≤ 14`,
/// then the int16 clamp: `r = (M + 2^15) >> 16` (`0x7FFF` when `M ≥ 0x7FFF0000`), and
/// `clamp(Int32(truncating: (acc · r + 2^(14 - e)) >> (15 - e)), -32768, 32767)`. Wrapping
/// arithmetic: a hostile file's scales could push `acc · r` past `Int64`, where TFLite's
/// precondition `|acc| < 2^47` does not hold.
struct BatchMatMulS16Rescale: Sendable {
    let reducedMultiplier: Int64
    let shift: Int64
    let rounding: Int64

    init(mantissa: Int32, exponent: Int) {
        reducedMultiplier = mantissa < 0x7FFF_0000 ? (Int64(mantissa) + (1 << 15)) >> 16 : 0x7FFF
        shift = Int64(15 - exponent)
        rounding = 1 << (shift - 1)
    }

    @inline(__always)
    func apply(_ acc: Int64) -> Int16 {
        let scaled = Int32(truncatingIfNeeded: (acc &* reducedMultiplier &+ rounding) &>> shift)
        return Int16(Swift.min(Swift.max(scaled, -32768), 32767))
    }
}
