#if arch(x86_64)
import _Builtin_intrinsics.intel

/// Column sums of 8-bit codes for x86-64-v3: `acc[t] = Σ_{r < rows} x[r·rowStride + t]`
/// for `t < count`, in wrapping `Int32` (the order of wrapping additions does not change
/// the sum). Thirty-two columns at a time stay in four `ymm` accumulators over every row
/// (`vpmovsxbd`/`vpmovzxbd` from memory, `vpaddd`) and are stored once; then eight, then
/// one by one. The spatial MEAN/SUM of an NHWC map: rows are pixels, columns channels.
@inline(never)
public func sumRowsQ8AVX2(
    _ x: UnsafeRawPointer, rowStride: Int, rows: Int, count: Int, signed: Bool, into acc: UnsafeMutablePointer<Int32>
) {
    if signed {
        sumRowsLoop(x, rowStride, rows, count, signed: true, acc)
    } else {
        sumRowsLoop(x, rowStride, rows, count, signed: false, acc)
    }
}

@inline(__always)
private func widen8(_ p: UnsafeRawPointer, signed: Bool) -> __m256i {
    let bytes = _mm_cvtsi64_si128(p.loadUnaligned(as: Int64.self))
    return signed ? _mm256_cvtepi8_epi32(bytes) : _mm256_cvtepu8_epi32(bytes)
}

@inline(__always)
private func sumRowsLoop(
    _ x: UnsafeRawPointer, _ rowStride: Int, _ rows: Int, _ count: Int, signed: Bool,
    _ acc: UnsafeMutablePointer<Int32>
) {
    var t = 0
    while t + 32 <= count {
        var a0 = _mm256_setzero_si256(), a1 = a0, a2 = a0, a3 = a0
        var p = x + t
        for _ in 0 ..< rows {
            a0 = _mm256_add_epi32(a0, widen8(p, signed: signed))
            a1 = _mm256_add_epi32(a1, widen8(p + 8, signed: signed))
            a2 = _mm256_add_epi32(a2, widen8(p + 16, signed: signed))
            a3 = _mm256_add_epi32(a3, widen8(p + 24, signed: signed))
            p += rowStride
        }
        let out = UnsafeMutableRawPointer(acc + t)
        out.storeBytes(of: a0, as: __m256i.self)
        (out + 32).storeBytes(of: a1, as: __m256i.self)
        (out + 64).storeBytes(of: a2, as: __m256i.self)
        (out + 96).storeBytes(of: a3, as: __m256i.self)
        t += 32
    }
    while t + 8 <= count {
        var a = _mm256_setzero_si256()
        var p = x + t
        for _ in 0 ..< rows {
            a = _mm256_add_epi32(a, widen8(p, signed: signed))
            p += rowStride
        }
        UnsafeMutableRawPointer(acc + t).storeBytes(of: a, as: __m256i.self)
        t += 8
    }
    while t < count {
        var s: Int32 = 0
        var p = x + t
        for _ in 0 ..< rows {
            s = s &+ (signed ? Int32(p.load(as: Int8.self)) : Int32(p.load(as: UInt8.self)))
            p += rowStride
        }
        acc[t] = s
        t += 1
    }
}

/// The sum of `count` consecutive 8-bit codes in wrapping `Int32` (a MEAN/SUM over the
/// last axis), 32 a step: widened to 16 bits, pairs added by `vpmaddwd` with ones, eight
/// `Int32` lanes folded at the end.
@inline(never)
public func sumRowQ8AVX2(_ x: UnsafeRawPointer, count: Int, signed: Bool) -> Int32 {
    signed ? sumRowLoop(x, count, signed: true) : sumRowLoop(x, count, signed: false)
}

@inline(__always)
private func sumRowLoop(_ x: UnsafeRawPointer, _ count: Int, signed: Bool) -> Int32 {
    let ones = _mm256_set1_epi16(1)
    @inline(__always) func pairs(_ p: UnsafeRawPointer) -> __m256i {
        let bytes = p.loadUnaligned(as: __m128i.self)
        let wide = signed ? _mm256_cvtepi8_epi16(bytes) : _mm256_cvtepu8_epi16(bytes)
        return _mm256_madd_epi16(wide, ones)
    }
    var a = _mm256_setzero_si256(), b = a
    var i = 0
    while i + 32 <= count {
        a = _mm256_add_epi32(a, pairs(x + i))
        b = _mm256_add_epi32(b, pairs(x + i + 16))
        i += 32
    }
    let lanes = unsafeBitCast(_mm256_add_epi32(a, b), to: SIMD8<Int32>.self)
    var s = lanes.wrappedSum()
    while i < count {
        s =
            s
            &+ (signed
                ? Int32(x.load(fromByteOffset: i, as: Int8.self)) : Int32(x.load(fromByteOffset: i, as: UInt8.self)))
        i += 1
    }
    return s
}
#endif
