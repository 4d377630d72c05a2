#if arch(x86_64)
import _Builtin_intrinsics.intel

/// The 512 bytes ``lookupTableQ8AVX2(_:_:count:_:)`` reads for a 256-entry byte table `T`:
/// for each half `H` of the table (codes 0...127, then 128...255 read as `code - 128`),
/// eight 16-byte rows `D_0 = S_0`, `D_j = S_j ⊕ S_(j-1)`, where `S_j` is the half's
/// `j`-th sixteen entries, each row repeated in both 128-bit lanes.
public func lookupTableQ8AVX2Rows(_ table: [UInt8]) -> [UInt8] {
    var rows = [UInt8](repeating: 0, count: 512)
    guard table.count == 256 else { return rows }
    for half in 0 ..< 2 {
        for j in 0 ..< 8 {
            for l in 0 ..< 16 {
                let s = table[half * 128 + j * 16 + l]
                let previous = j == 0 ? 0 : table[half * 128 + (j - 1) * 16 + l]
                let row = (half * 8 + j) * 32
                rows[row + l] = s ^ previous
                rows[row + 16 + l] = s ^ previous
            }
        }
    }
    return rows
}

/// `y[i] = T[x[i]]` for `count` bytes, 32 a step, with `vpshufb` on the rows of
/// ``lookupTableQ8AVX2Rows(_:)``. `vpshufb` returns row byte `i & 15` for an index byte
/// whose top bit is clear and 0 otherwise. For a code `u < 128` with high nibble `h`, the
/// indices `u - 16j` (saturating, signed) are non-negative exactly for `j ≤ h`, so the XOR
/// of the first half's eight lookups is `D_0 ⊕ … ⊕ D_h = S_h`, entry `u & 15`, and every
/// lookup of the second half (indices `u - 128 - 16j < 0`) is 0; codes from 128 up are the
/// mirror case. Sixteen shuffles, fourteen saturating subtractions and sixteen XORs per 32
/// codes, whatever the table. A last partial block runs in a 32-byte copy.
@inline(never)
public func lookupTableQ8AVX2(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, count: Int, _ rows: UnsafeRawPointer
) {
    // Rows are loaded where used: sixteen of them and the working vectors would not fit
    // the sixteen `ymm` registers, and loads are cheaper than spills.
    @inline(__always) func d(_ j: Int) -> __m256i { (rows + 32 * j).loadUnaligned(as: __m256i.self) }
    let step = _mm256_set1_epi8(16), flip = _mm256_set1_epi8(-128)
    @inline(__always) func block(_ p: UnsafeRawPointer, _ out: UnsafeMutableRawPointer) {
        var low = p.loadUnaligned(as: __m256i.self)
        var high = _mm256_xor_si256(low, flip)
        var r = _mm256_xor_si256(_mm256_shuffle_epi8(d(0), low), _mm256_shuffle_epi8(d(8), high))
        for j in 1 ..< 8 {
            low = _mm256_subs_epi8(low, step)
            high = _mm256_subs_epi8(high, step)
            r = _mm256_xor_si256(r, _mm256_shuffle_epi8(d(j), low))
            r = _mm256_xor_si256(r, _mm256_shuffle_epi8(d(8 + j), high))
        }
        out.storeBytes(of: r, as: __m256i.self)
    }
    var i = 0
    while i + 32 <= count {
        block(x + i, y + i)
        i += 32
    }
    if i < count { partialBlock32(x + i, y + i, count: count - i, block) }
}
#endif
