#if arch(x86_64)
import _Builtin_intrinsics.intel

/// ``binaryQ8AVX2(_:_:_:_:_:count:_:)`` over `rows` rows of `columns` outputs, stored one
/// after another: row `r` reads `a` from `a + r·rowA` (then every `strideA`, 1 or 0) and `b`
/// from `b + r·rowB` (likewise), the shapes of a broadcast whose operand repeats per row
/// (a per-channel vector, `rowB = 0`) or per element (one code a row, `strideB = 0`). The
/// constants are set up once for all rows.
///
/// ADD and SUB whose steps are all exact but the last (``BinaryQ8AVX2Parameters``'s
/// `exactTies`) are one `vpmaddwd` of the interleaved codes with `(4096·α, 4096·β)` in
/// sixteen-bit lanes, then the last rounding division by 4096 (half away from zero) in
/// `Int32`, 32 codes a step; a row's last partial block is gathered from its own bytes and
/// its codes stored piecewise, so nothing is read or written past a row. Other parameters
/// go row by row through ``binaryQ8AVX2(_:_:_:_:_:count:_:)``.
@inline(never)
public func binaryQ8RowsAVX2(
    _ a: UnsafeRawPointer, _ strideA: Int, _ rowA: Int, _ b: UnsafeRawPointer, _ strideB: Int, _ rowB: Int,
    _ y: UnsafeMutableRawPointer, rows: Int, columns: Int, _ p: BinaryQ8AVX2Parameters
) {
    guard rows > 0, columns > 0 else { return }
    guard p.ties16 != nil else {
        // The other lanes keep the single-run loop, whose 8-byte widening loads measured
        // faster than a block's constants passed through the rows walk.
        for r in 0 ..< rows {
            binaryQ8AVX2(a + r * rowA, strideA, b + r * rowB, strideB, y + r * columns, count: columns, p)
        }
        return
    }
    let rows = BinaryRows(
        a: a, strideA: strideA, rowA: rowA, b: b, strideB: strideB, rowB: rowB, y: y, rows: rows, columns: columns)
    if p.signed {
        binaryLoop(rows, p, SignedBytes.self)
    } else {
        binaryLoop(rows, p, UnsignedBytes.self)
    }
}

/// The operands and shape of ``binaryQ8RowsAVX2(_:_:_:_:_:_:_:rows:columns:_:)``.
private struct BinaryRows {
    let a: UnsafeRawPointer, strideA: Int, rowA: Int
    let b: UnsafeRawPointer, strideB: Int, rowB: Int
    let y: UnsafeMutableRawPointer, rows: Int, columns: Int
}

/// The first `n < 32` bytes at `p` in a vector (the rest zero), read in 8-byte words and
/// single bytes so that nothing past them is touched.
@inline(__always)
private func loadPartial(_ p: UnsafeRawPointer, _ n: Int) -> __m256i {
    var v = _mm256_setzero_si256()
    withUnsafeMutableBytes(of: &v) { buffer in
        guard let q = buffer.baseAddress else { return }
        var j = 0
        while j + 8 <= n {
            q.storeBytes(of: p.loadUnaligned(fromByteOffset: j, as: UInt64.self), toByteOffset: j, as: UInt64.self)
            j += 8
        }
        while j < n {
            q.storeBytes(of: p.load(fromByteOffset: j, as: UInt8.self), toByteOffset: j, as: UInt8.self)
            j += 1
        }
    }
    return v
}

/// Stores the first `n < 32` bytes of `v` at `p`, 16, 8, 4, 2 and 1 at a time.
@inline(__always)
private func storePartial(_ v: __m256i, _ p: UnsafeMutableRawPointer, _ n: Int) {
    var x = _mm256_castsi256_si128(v), o = 0
    if n >= 16 {
        p.storeBytes(of: x, as: __m128i.self)
        x = upper128(v)
        o = 16
    }
    if n - o >= 8 {
        (p + o).storeBytes(of: _mm_cvtsi128_si64(x), as: Int64.self)
        x = _mm_unpackhi_epi64(x, x)
        o += 8
    }
    var word = UInt64(bitPattern: _mm_cvtsi128_si64(x))
    if n - o >= 4 {
        (p + o).storeBytes(of: UInt32(truncatingIfNeeded: word), as: UInt32.self)
        word >>= 32
        o += 4
    }
    if n - o >= 2 {
        (p + o).storeBytes(of: UInt16(truncatingIfNeeded: word), as: UInt16.self)
        word >>= 16
        o += 2
    }
    if n - o >= 1 { (p + o).storeBytes(of: UInt8(truncatingIfNeeded: word), as: UInt8.self) }
}

/// The `vpmaddwd` lanes of ADD and SUB with ``BinaryQ8AVX2Parameters``'s `ties16`.
@inline(__always)
private func binaryLoop<Codes: ByteWidening>(_ rows: BinaryRows, _ p: BinaryQ8AVX2Parameters, _: Codes.Type) {
    guard let (pair, offset) = p.ties16 else { return }
    do {
        let weights = _mm256_set1_epi32(pair), bias = _mm256_set1_epi32(offset)
        let nonNegative = _mm256_set1_epi32(2046)
        let zy = _mm256_set1_epi16(Int16(truncatingIfNeeded: p.zeroY))
        let lo = _mm256_set1_epi16(Int16(truncatingIfNeeded: p.lower))
        let hi = _mm256_set1_epi16(Int16(truncatingIfNeeded: p.upper))
        // The byte packs interleave the two 16-lane halves' quadwords: 0, 2, 1, 3 restores them.
        let order = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7)
        @inline(__always) func half(_ a: __m128i, _ b: __m128i) -> __m256i {
            let a16 = Codes.widen16(a), b16 = Codes.widen16(b)
            // v = W + 2047; W ≥ 0 exactly where v > 2046, and there the mask (-1) adds one.
            @inline(__always) func rounded(_ w: __m256i) -> __m256i {
                let v = _mm256_add_epi32(_mm256_madd_epi16(w, weights), bias)
                return _mm256_srai_epi32(_mm256_sub_epi32(v, _mm256_cmpgt_epi32(v, nonNegative)), 12)
            }
            // unpacklo/hi interleave within each 128-bit half; packs puts the halves back in order.
            let r = _mm256_packs_epi32(
                rounded(_mm256_unpacklo_epi16(a16, b16)), rounded(_mm256_unpackhi_epi16(a16, b16)))
            return _mm256_min_epi16(_mm256_max_epi16(_mm256_add_epi16(r, zy), lo), hi)
        }
        rows.forEachBlock { pa, pb in
            let low = half(pa.loadUnaligned(as: __m128i.self), pb.loadUnaligned(as: __m128i.self))
            let high = half((pa + 16).loadUnaligned(as: __m128i.self), (pb + 16).loadUnaligned(as: __m128i.self))
            let bytes = Codes.signed ? _mm256_packs_epi16(low, high) : _mm256_packus_epi16(low, high)
            return _mm256_permutevar8x32_epi32(bytes, order)
        }
        return
    }
}

extension BinaryRows {
    /// Calls `block` with the addresses of every 32 codes of `a` and of `b` (a stride-0
    /// operand's code repeated 32 times in a register's copy) and stores the 32 codes it
    /// returns; a row's last partial block is copied into registers' copies first, so
    /// nothing past the row is read or written.
    @inline(__always)
    func forEachBlock(_ block: (UnsafeRawPointer, UnsafeRawPointer) -> __m256i) {
        for r in 0 ..< rows {
            let pa = a + r * rowA, pb = b + r * rowB, py = y + r * columns
            var splatA = _mm256_set1_epi8(pa.load(as: Int8.self)), splatB = _mm256_set1_epi8(pb.load(as: Int8.self))
            let tail = columns % 32, whole = columns - tail
            var partA = strideA == 0 ? splatA : loadPartial(pa + whole, tail)
            var partB = strideB == 0 ? splatB : loadPartial(pb + whole, tail)
            withUnsafeBytes(of: &splatA) { sa in
                withUnsafeBytes(of: &splatB) { sb in
                    guard let fa = sa.baseAddress, let fb = sb.baseAddress else { return }
                    var i = 0
                    while i < whole {
                        let xa = strideA == 0 ? fa : pa + i, xb = strideB == 0 ? fb : pb + i
                        (py + i).storeBytes(of: block(xa, xb), as: __m256i.self)
                        i += 32
                    }
                }
            }
            guard tail > 0 else { continue }
            withUnsafeBytes(of: &partA) { qa in
                withUnsafeBytes(of: &partB) { qb in
                    guard let xa = qa.baseAddress, let xb = qb.baseAddress else { return }
                    storePartial(block(xa, xb), py + whole, tail)
                }
            }
        }
    }
}
#endif
