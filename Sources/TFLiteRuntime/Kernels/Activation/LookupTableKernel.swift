import Microkernels
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// `output[i] = table[input[i]]`: an 8-bit function tabulated at prepare (exact by
/// construction: each entry is the reference arithmetic on one code), indexed by the
/// code's bit pattern. Codes are moved as bytes whatever their type: a kernel generic over
/// the code type ran unspecialized and copied each code through value witnesses.
///
/// Evaluated, fastest first:
/// - a requantization (QUANTIZE between 8-bit types, the 8-bit RELUs, LEAKY_RELU) whose
///   table an ``AffineByteMap`` reproduces exactly (searched at prepare): sixteen 16-bit
///   lanes of multiply-high arithmetic at `avx2` and up, a vectorized `Int32` loop below;
/// - any other table at `avx2` and up: `vpshufb` lookups (``lookupTableQ8AVX2``);
/// - else one load per code.
struct LookupTableKernel: PreparedKernel {
    /// What makes a table a candidate for ``AffineByteMap``: its function is
    /// `clamp(MBQM(x − z_x, slope) + z_y, lower, upper)`, with `negativeSlope` for
    /// `x < z_x` when it differs (LEAKY_RELU).
    struct Linear {
        let signed: Bool, zeroX: Int32, lower: Int32, upper: Int32, slope: Double
        var negativeSlope: Double? = nil
    }

    private enum Form {
        case affine(AffineByteMap, vector: Bool)
        case shuffle(AlignedBuffer)
        case scalar
    }

    let input: Int
    let output: Int
    let count: Int
    /// 256 output bit patterns, indexed by `UInt8(truncatingIfNeeded: code)`.
    let table: [UInt8]
    private let form: Form

    init(input: Int, output: Int, count: Int, table: [UInt8], level: KernelLevel = .portable, linear: Linear? = nil) {
        self.input = input
        self.output = output
        self.count = count
        self.table = table
        let vector = level >= .avx2 && level.hasVectorKernels
        let signedOutput = (linear?.lower ?? 0) < 0
        if let linear, table.count == 256, linear.slope > 0, (linear.negativeSlope ?? 1) > 0,
            let map = AffineByteMap.search(
                targets: table.map { signedOutput ? Int32(Int8(bitPattern: $0)) : Int32($0) }, signed: linear.signed,
                zeroX: linear.zeroX, lower: linear.lower, upper: linear.upper, slope: linear.slope,
                negativeSlope: linear.negativeSlope)
        {
            form = .affine(map, vector: vector)
            return
        }
        #if arch(x86_64)
        if vector, table.count == 256 {
            let rows = lookupTableQ8AVX2Rows(table)
            let buffer = AlignedBuffer(uninitializedCount: rows.count)
            rows.withUnsafeBytes {
                buffer.pointer.copyMemory(from: $0.baseAddress.unsafelyUnwrapped, byteCount: rows.count)
            }
            form = .shuffle(buffer)
            return
        }
        #endif
        form = .scalar
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: UInt8.self))
        let y = context.pointer(output, as: UInt8.self)
        switch form {
        case .affine(let map, let vector):
            context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
                let n = range.count, i = range.lowerBound
                #if arch(x86_64)
                if vector { return affineByteMapAVX2(x + i, y + i, count: n, map) }
                #endif
                affineByteMapPortable(x + i, y + i, count: n, map)
            }
        case .shuffle(let rows):
            #if arch(x86_64)
            let r = UnsafeRawPointer(rows.pointer)
            context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
                lookupTableQ8AVX2(x + range.lowerBound, y + range.lowerBound, count: range.count, r)
            }
            #endif
        case .scalar:
            table.withUnsafeBufferPointer { table in
                let t = table.baseAddress.unsafelyUnwrapped
                context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
                    for i in range { y[i] = t[Int(x[i])] }
                }
            }
        }
    }
}
