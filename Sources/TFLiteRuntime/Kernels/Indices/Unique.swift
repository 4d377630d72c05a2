import TFLiteModel

/// UNIQUE: the distinct values of a 1-D input in order of first appearance (output 0), and
/// for each input element the position of its value in that list (output 1, INT32 or
/// INT64 as `idx_out_type` says).
///
/// Values are compared as numbers: float32 `-0.0` equals `0.0` (the first one seen is the
/// one output), and every NaN counts as one value (TFLite's ordered map gives NaN no
/// defined place). Types: float32, int8, uint8, int16, int32, int64; quantized values are
/// compared and copied as codes.
///
/// Output 0's length depends on the values, so for an input computed at run time it is
/// known only at invoke (``DynamicShapeKernel``); a constant input fixes it at prepare.
/// The work is a hash table in scratch: `capacity` slots (a power of two, at least twice
/// the input length) holding the position of each distinct value's first occurrence.
enum UniqueKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 2)
        let input = try context.input(0)
        let values = try context.output(0)
        let positions = try context.output(1)
        var indexType = ElementType.int32
        if case .unique(let t) = context.op.options { indexType = t }
        guard indexType == .int32 || indexType == .int64 else {
            throw .invalid("idx_out_type is \(indexType); UNIQUE's index output can only be INT32 or INT64")
        }
        let key: UniqueKey
        switch input.type {
        case .float32: key = .float32
        case .int8, .uint8: key = .bits8
        case .int16: key = .bits16
        case .int32: key = .bits32
        case .int64: key = .bits64
        default: throw context.unsupportedTypes()
        }
        guard values.type == input.type, positions.type == indexType else { throw context.unsupportedTypes() }
        guard input.rank == 1 else { throw .invalid("the input has shape \(input.shape); UNIQUE takes a 1-D input") }
        let n = input.shape[0]
        guard n <= Int(Int32.max) else { throw .invalid("the input has \(n) elements, more than INT32 positions") }
        var capacity = 2
        while capacity < 2 * n { capacity <<= 1 }
        try context.setOutputShape(1, [n])
        let kernel = Unique(
            input: input.index, values: values.index, positions: positions.index, count: n, key: key,
            wideIndices: indexType == .int64, capacity: capacity,
            slots: context.requestScratch(bytes: 4 * capacity), firsts: context.requestScratch(bytes: 4 * n))
        if let constant = input.constant {
            guard let bytes = input.byteCount, constant.bytes.count >= bytes, let base = constant.bytes.baseAddress
            else {
                if n == 0 {
                    try context.setOutputShape(0, [0])
                    return kernel
                }
                throw .invalid("the constant input holds fewer bytes than its shape \(input.shape)")
            }
            // Paid for by the constant's bytes in the file.
            var slots = [Int32](repeating: -1, count: capacity), firsts = [Int32](repeating: 0, count: n)
            let distinct = slots.withUnsafeMutableBufferPointer { s in
                firsts.withUnsafeMutableBufferPointer { f in
                    kernel.distinctCount(
                        base, slots: s.baseAddress.unsafelyUnwrapped, firsts: f.baseAddress.unsafelyUnwrapped)
                }
            }
            try context.setOutputShape(0, [distinct])
            return kernel
        }
        if n == 0 {
            try context.setOutputShape(0, [0])
            return kernel
        }
        return UniqueDynamic(unique: kernel)
    }
}

/// How UNIQUE turns an element into a comparable 64-bit key.
enum UniqueKey: Sendable {
    case bits8, bits16, bits32, bits64
    /// float32 bits with `-0.0` made `0.0` and every NaN one pattern.
    case float32
}

/// UNIQUE with its output length known; see ``UniqueKernel``.
struct Unique: PreparedKernel {
    let input: Int
    let values: Int
    let positions: Int
    let count: Int
    let key: UniqueKey
    let wideIndices: Bool
    let capacity: Int
    /// Scratch slots: the hash table (`capacity` Int32) and the first position of each
    /// distinct value (`count` Int32).
    let slots: Int
    let firsts: Int

    @inline(__always)
    func key(_ x: UnsafeRawPointer, _ i: Int) -> UInt64 {
        switch key {
        case .bits8: return UInt64(x.load(fromByteOffset: i, as: UInt8.self))
        case .bits16: return UInt64(x.load(fromByteOffset: 2 * i, as: UInt16.self))
        case .bits32: return UInt64(x.load(fromByteOffset: 4 * i, as: UInt32.self))
        case .bits64: return x.load(fromByteOffset: 8 * i, as: UInt64.self)
        case .float32:
            let v = x.load(fromByteOffset: 4 * i, as: Float.self)
            if v.isNaN { return UInt64(Float.nan.bitPattern) }
            return UInt64((v == 0 ? 0 : v).bitPattern)
        }
    }

    /// Walks the input once: `visit(i, u)` for each element `i` with the ordinal `u` of its
    /// value among the distinct values; returns their number. `slots` must hold
    /// `capacity` entries, `firsts` one per element.
    @inline(__always)
    func walk(
        _ x: UnsafeRawPointer, slots: UnsafeMutablePointer<Int32>, firsts: UnsafeMutablePointer<Int32>,
        _ visit: (Int, Int) -> Void
    ) -> Int {
        slots.update(repeating: -1, count: capacity)
        let mask = capacity - 1
        var distinct = 0
        for i in 0 ..< count {
            let k = key(x, i)
            var slot = Int(truncatingIfNeeded: (k &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            while true {
                let u = Int(slots[slot])
                if u < 0 {
                    slots[slot] = Int32(truncatingIfNeeded: distinct)
                    firsts[distinct] = Int32(truncatingIfNeeded: i)
                    visit(i, distinct)
                    distinct += 1
                    break
                }
                if key(x, Int(firsts[u])) == k {
                    visit(i, u)
                    break
                }
                slot = (slot + 1) & mask
            }
        }
        return distinct
    }

    func distinctCount(
        _ x: UnsafeRawPointer, slots: UnsafeMutablePointer<Int32>, firsts: UnsafeMutablePointer<Int32>
    ) -> Int {
        walk(x, slots: slots, firsts: firsts) { _, _ in }
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafeRawPointer(context.raw(input))
        let firsts = context.scratch(self.firsts, as: Int32.self)
        let p = context.raw(positions)
        let distinct: Int
        if wideIndices {
            let out = p.assumingMemoryBound(to: Int64.self)
            distinct = walk(x, slots: context.scratch(slots, as: Int32.self), firsts: firsts) { i, u in
                out[i] = Int64(u)
            }
        } else {
            let out = p.assumingMemoryBound(to: Int32.self)
            distinct = walk(x, slots: context.scratch(slots, as: Int32.self), firsts: firsts) { i, u in
                out[i] = Int32(truncatingIfNeeded: u)
            }
        }
        let y = context.raw(values)
        let size: Int
        switch key {
        case .bits8: size = 1
        case .bits16: size = 2
        case .bits32, .float32: size = 4
        case .bits64: size = 8
        }
        for u in 0 ..< distinct {
            (y + u * size).copyMemory(from: x + Int(firsts[u]) * size, byteCount: size)
        }
    }
}

/// UNIQUE of an input computed at run time: ``outputShapes(_:)`` counts the distinct
/// values, then `eval` writes them.
struct UniqueDynamic: DynamicShapeKernel {
    let unique: Unique

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        let distinct = unique.distinctCount(
            UnsafeRawPointer(context.raw(unique.input)), slots: context.scratch(unique.slots, as: Int32.self),
            firsts: context.scratch(unique.firsts, as: Int32.self))
        return [[distinct], [unique.count]]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try unique.eval(context)
    }
}
