import TFLiteModel

/// LSH_PROJECTION: projects the rows of input 1 to bits by locality-sensitive hashing.
///
/// Input 0 holds `H × B` float32 seeds. For seed `s`, the bit is whether
/// `Σ_i w_i · h(s, row_i) > 0`, summed in `Double`, where `row_i` is the `i`-th of the
/// input's `dim0` rows (its bytes: `byteCount / dim0` each, for any element type; for a
/// STRING input, slices of its whole buffer in TFLite's layout, as LiteRT takes them),
/// `h(s, r)` is FarmHash's 64-bit fingerprint of the seed's four bytes followed by the
/// row's bytes, read as a signed integer and converted to `Double`, and `w_i` is input 2's
/// float32 weight (1 without it). DENSE gives the `H · B` bits as int32 0/1; SPARSE packs
/// hash function `k`'s `B` bits (its first seed the most significant) into an int32 and
/// adds `k · 2^B`, wrapping as LiteRT's 32-bit arithmetic does (spec/text-ops.md).
enum LSHProjectionKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2 ... 3, outputs: 1 ... 1)
        guard case .lshProjection(let type) = context.op.options else { throw .invalid("missing LSHProjectionOptions") }
        guard type == 1 || type == 2 else {
            throw .invalid("projection type \(type) is neither SPARSE (1) nor DENSE (2)")
        }
        let hash = try context.input(0)
        let input = try context.input(1)
        let weight = context.optionalInput(2)
        let output = try context.output(0)
        guard hash.type == .float32, output.type == .int32, weight.map({ $0.type == .float32 }) ?? true else {
            throw context.unsupportedTypes()
        }
        guard hash.rank == 2 else { throw .invalid("the hash seeds have shape \(hash.shape); they must be 2-D") }
        let (functions, bits) = (hash.shape[0], hash.shape[1])
        guard bits <= 32 else { throw .invalid("each hash function has \(bits) bits, more than 32") }
        guard input.rank >= 1, input.shape[0] >= 1 else {
            throw .invalid("the input has shape \(input.shape); it needs at least one row")
        }
        if let weight {
            guard weight.rank == 1, weight.shape[0] == input.shape[0] else {
                throw .invalid("the weights have shape \(weight.shape); the input has \(input.shape[0]) rows")
            }
        }
        let (seeds, o1) = functions.multipliedReportingOverflow(by: bits)
        guard !o1 else { throw .invalid("the seed count overflows") }
        try context.setOutputShape(0, [type == 1 ? functions : seeds])
        var rowBytes: Int? = nil
        if input.type != .string {
            guard let bytes = input.byteCount else { throw context.unsupportedTypes() }
            rowBytes = bytes / input.shape[0]
        }
        context.declareWork([seeds, input.shape[0], 1 + (rowBytes ?? 64) / 8])
        return LSHProjection(
            hash: hash.index, input: input.index, weight: weight?.index, output: try context.outputIndex(0),
            functions: functions, bits: bits, rows: input.shape[0], rowBytes: rowBytes, sparse: type == 1)
    }
}

struct LSHProjection: PreparedKernel {
    let hash: Int
    let input: Int
    let weight: Int?
    let output: Int
    let functions: Int
    let bits: Int
    let rows: Int
    /// Bytes per row, or nil for a STRING input (whose size is known at invoke).
    let rowBytes: Int?
    let sparse: Bool

    func eval(_ context: EvalContext) throws(KernelError) {
        let data: UnsafeRawBufferPointer
        let size: Int
        if let rowBytes {
            size = rowBytes
            data = UnsafeRawBufferPointer(start: context.raw(input), count: rowBytes * rows)
        } else {
            data = context.strings(input).bytes
            size = data.count / rows
        }
        let seeds = context.pointer(hash, as: Float.self)
        let weights = weight.map { context.pointer($0, as: Float.self) }
        let out = context.pointer(output, as: Int32.self)
        var key = [UInt8](repeating: 0, count: 4 + size)
        key.withUnsafeMutableBytes { key in
            guard let keyBase = key.baseAddress else { return }
            func bit(_ seed: Float) -> Int32 {
                key.storeBytes(of: seed.bitPattern.littleEndian, as: UInt32.self)
                var score = 0.0
                for i in 0 ..< rows {
                    if size > 0, let base = data.baseAddress {
                        (keyBase + 4).copyMemory(from: base + i * size, byteCount: size)
                    }
                    let value = Double(Int64(bitPattern: Fingerprint64.hash(UnsafeRawBufferPointer(key))))
                    score += weights.map { Double($0[i]) * value } ?? value
                }
                return score > 0 ? 1 : 0
            }
            for k in 0 ..< functions {
                if sparse {
                    var signature: Int32 = 0
                    for j in 0 ..< bits { signature = (signature &<< 1) | bit(seeds[k * bits + j]) }
                    // LiteRT adds k · (1 << B) in 32-bit int; the shift count wraps at 32 on
                    // the machines it runs on.
                    out[k] = signature &+ Int32(truncatingIfNeeded: k) &* (Int32(1) &<< Int32(bits))
                } else {
                    for j in 0 ..< bits { out[k * bits + j] = bit(seeds[k * bits + j]) }
                }
            }
        }
    }
}
