import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#endif

/// A float `[rows, depth]` weight matrix of a recurrent or SVDF step, multiplied by one
/// vector at a time with the level's matrix-vector microkernel, or by a block of vectors
/// through BLAS (``FloatMatrixProduct``).
///
/// Constant weights are packed at prepare for `gemvF32x4PackedAVX2` (`GemvF32Layout`:
/// blocks of four rows read as one stream) when the level has it; computed ones are read
/// as stored.
struct FloatWeights: Sendable {
    let tensor: Int
    let rows: Int, depth: Int
    let packed: PackedBuffer?

    init(_ context: PrepareContext, _ weights: TensorState, packs: Bool, role: String) throws(KernelError) {
        guard weights.rank == 2 else { throw .invalid("\(role) must have rank 2, found shape \(weights.shape)") }
        (tensor, rows, depth) = (weights.index, weights.shape[0], weights.shape[1])
        guard packs, let constant = weights.constant else {
            packed = nil
            return
        }
        let values = constant.typed(Float.self)
        let needed = try ConvCheck.product([rows, depth], role)
        guard values.count >= needed else {
            throw .invalid("\(role) hold \(values.count) values; \(rows) x \(depth) needed")
        }
        guard let count = GemvF32Layout.packedCount(n: rows, k: depth) else {
            throw .invalid("\(role): packed size overflows")
        }
        let (rows, depth) = (self.rows, self.depth)
        packed = try context.pack(bytes: try ConvCheck.product([count, MemoryLayout<Float>.stride], role)) { p in
            guard let w = values.baseAddress else { return 0 }
            GemvF32Layout.pack(weights: w, n: rows, k: depth, into: p.bindMemory(to: Float.self, capacity: count))
            return 0
        }
    }
}

/// How the float products of a step are computed: for at most ``maxRowByRow`` vectors a
/// step, one vector at a time, with the AVX2 matrix-vector microkernel (levels `avx2` and
/// up) or BLAS's `sgemv` (portable); for more, as one single-threaded BLAS GEMM per block
/// of output columns. Every form accumulates into the output.
enum FloatMatrixProduct: Sendable {
    case rowByRow
    case blasRowByRow
    case blas

    /// Vectors per step up to which the products are matrix-vector ones (as
    /// FULLY_CONNECTED does): past it a GEMM reuses each weight across vectors.
    static let maxRowByRow = 4

    init(level: KernelLevel, rows: Int) {
        self = rows > Self.maxRowByRow ? .blas : level >= .avx2 ? .rowByRow : .blasRowByRow
    }

    /// One vector at a time (`rowByRow` or `blasRowByRow`).
    var isRowByRow: Bool { self != .blas }

    /// `y[o] = y[o] + Σ_k w[o, k]·x[k]` for the outputs `o0 ..< o0 + n` of one vector, with
    /// `w` the tensor's data (read when the weights are not packed).
    @inline(__always)
    func accumulate(
        _ weights: FloatWeights, w: UnsafePointer<Float>, x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>,
        first o0: Int, count n: Int
    ) {
        let k = weights.depth
        #if arch(x86_64)
        if self == .rowByRow {
            if let packed = weights.packed {
                gemvF32x4PackedAVX2(
                    n: n, k: k, x: x,
                    packed: UnsafePointer(packed.pointer.assumingMemoryBound(to: Float.self)) + o0 * k,
                    bias: UnsafePointer(y + o0), lower: -.infinity, upper: .infinity, y: y + o0)
            } else {
                gemvF32AVX2(
                    n: n, k: k, x: x, w: w + o0 * k, ldw: k, bias: UnsafePointer(y + o0), lower: -.infinity,
                    upper: .infinity, y: y + o0)
            }
            return
        }
        #endif
        guard n > 0, k > 0 else { return } // an empty sum adds nothing
        sgemv(m: n, n: k, a: w + o0 * k, lda: k, x: x, y: y + o0, beta: 1)
    }

    /// `Y[r, o] += Σ_k X[r, k]·w[o, k]` for `rows` vectors (`X` rows `ldx` apart, `Y` rows
    /// `ldy` apart) and the outputs `o0 ..< o0 + n`, through BLAS (`blas`).
    @inline(__always)
    static func accumulateRows(
        _ weights: FloatWeights, w: UnsafePointer<Float>, rows: Int, x: UnsafePointer<Float>, ldx: Int,
        y: UnsafeMutablePointer<Float>, ldy: Int, first o0: Int, count n: Int
    ) {
        let k = weights.depth
        guard rows > 0, n > 0, k > 0 else { return } // an empty sum adds nothing
        sgemm(
            m: rows, n: n, k: k, a: x, lda: ldx, b: w + o0 * k, ldb: k, transposeB: true, c: y + o0, ldc: ldy,
            beta: 1)
    }
}

/// The exact `Int32` sums of constant int8 weights against one row of int8 codes with a
/// zero point, the integer core of the hybrid and integer recurrent kernels:
///
///     acc[o] = Σ_k w[o, k]·(q[k] - zq)        (wrapping Int32)
///
/// which is LiteRT's `Σ w·q - zq·Σ w` (its row sums) in wrapping arithmetic. The row is
/// first put in the form the level's microkernel reads (``prepareRow``): centered codes
/// as `Int16` for the portable loop (which LLVM turns into `pmaddwd`) and
/// `gemvS8S16AVX2`, bytes `q + 128` and the offset `128 + zq` for `gemvU8S8AVX512VNNI`
/// (GemvQ8 explains both).
struct Int8RowProduct: Sendable {
    enum Form: Sendable { case portable, avx2, avx512 }
    let form: Form

    init(level: KernelLevel) {
        form = level >= .avx512 ? .avx512 : level >= .avx2 ? .avx2 : .portable
    }

    /// Bytes of a prepared row of `depth` codes (two per code covers every form).
    static func rowBytes(depth: Int, _ role: String) throws(KernelError) -> Int {
        try ConvCheck.product([Swift.max(depth, 1), 2], role)
    }

    /// Writes the row form of `count` codes `q` with zero point `zq` into `row`; returns
    /// the offset the product subtracts (`avx512`), else 0.
    @inline(__always)
    func prepareRow(_ q: UnsafePointer<Int8>, count: Int, zeroPoint zq: Int32, into row: UnsafeMutableRawPointer)
        -> Int32
    {
        if form == .avx512 {
            let bytes = row.assumingMemoryBound(to: UInt8.self)
            for i in 0 ..< count { bytes[i] = UInt8(bitPattern: q[i]) ^ 0x80 }
            return 128 &+ zq
        }
        let codes = row.assumingMemoryBound(to: Int16.self)
        for i in 0 ..< count { codes[i] = Int16(truncatingIfNeeded: Int32(q[i]) &- zq) }
        return 0
    }

    /// `acc[j] = Σ_k w[o0 + j, k]·(q[k] - zq)` for `j < n`, rows of `w` `k` apart.
    @inline(__always)
    func run(
        w: UnsafePointer<Int8>, k: Int, row: UnsafeRawPointer, offset: Int32, first o0: Int, count n: Int,
        acc: UnsafeMutablePointer<Int32>
    ) {
        guard n > 0 else { return }
        #if arch(x86_64)
        switch form {
        case .avx512:
            gemvU8S8AVX512VNNI(
                n: n, k: k, w: UnsafeRawPointer(w + o0 * k), ldw: k, flip: false,
                x: row.assumingMemoryBound(to: UInt8.self), offset: offset, acc: acc)
            return
        case .avx2:
            gemvS8S16AVX2(
                n: n, k: k, w: UnsafeRawPointer(w + o0 * k), ldw: k, signed: true,
                x: row.assumingMemoryBound(to: Int16.self), acc: acc)
            return
        case .portable: break
        }
        #endif
        let x = row.assumingMemoryBound(to: Int16.self)
        for j in 0 ..< n { acc[j] = GemvQ8.dot(w + (o0 + j) * k, x, k) }
    }
}

/// Int8 weights read by a hybrid step: the codes (constant, zero points 0) and the single
/// scale LiteRT's recurrent kernels multiply by (they read a tensor's per-tensor scale, so
/// per-channel weights are refused rather than misread).
struct Int8Weights: Sendable {
    let codes: ConstantBytes
    let rows: Int, depth: Int
    let scale: Float

    init(_ weights: TensorState, role: String) throws(KernelError) {
        guard weights.rank == 2 else { throw .invalid("\(role) must have rank 2, found shape \(weights.shape)") }
        if let q = weights.quantization, q.scales.count > 1 {
            throw .invalid("\(role) must be quantized per tensor (one scale), found \(q.scales.count) scales")
        }
        // Type, constness, zero points, a finite positive scale and the data size.
        _ = try HybridWeights(weights, channels: 1, channelAxis: 0, op: role)
        guard let q = weights.quantization, let constant = weights.constant else {
            throw .invalid("\(role) must be constant int8 with one scale")
        }
        (codes, rows, depth, scale) = (constant, weights.shape[0], weights.shape[1], q.scales[0])
    }

    /// The codes, row-major (nil only for weights with no elements).
    var pointer: UnsafePointer<Int8>? {
        codes.bytes.baseAddress.map { UnsafePointer($0.assumingMemoryBound(to: Int8.self)) }
    }
}
