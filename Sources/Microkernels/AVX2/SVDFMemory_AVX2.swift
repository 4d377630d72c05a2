#if arch(x86_64)
import _Builtin_intrinsics.intel

/// SVDF's memory step over `windows` consecutive windows of `memory` floats (the feature
/// filters of one batch row, oldest value first), for x86-64-v3:
///
///     s[i, m] = s[i, m + 1]  for m < memory - 1,   s[i, memory - 1] = newest[i]
///     out[i]  = Σ_m s[i, m] · time[i, m]
///
/// in one pass over the state: eight values (then four) are loaded one place ahead, stored
/// back one place earlier and multiplied into the sum (FMA) while in registers; the last
/// three at most and the newest value are done one by one. Loads run ahead of stores, so the
/// overlapping copy is safe. `out` may be `newest` (each window reads its newest value
/// before writing its sum). The sum's order is fixed per window (eight lanes, then the
/// tail), so the result does not depend on how callers split the windows.
@inline(never)
public func svdfMemoryF32AVX2(
    windows: Int, memory: Int, state: UnsafeMutablePointer<Float>, newest: UnsafePointer<Float>,
    time: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>
) {
    guard memory > 0 else { return }
    let shifted = memory - 1, wide = shifted & ~7, narrow = shifted & ~3
    var s = state, w = UnsafePointer(time)
    for i in 0 ..< windows {
        defer { (s, w) = (s + memory, w + memory) }
        let v = newest[i]
        var acc = _mm256_setzero_ps()
        var m = 0
        while m < wide {
            let x = UnsafeRawPointer(s + m + 1).loadUnaligned(as: __m256.self)
            UnsafeMutableRawPointer(s + m).storeBytes(of: x, as: __m256.self)
            acc = _mm256_fmadd_ps(x, UnsafeRawPointer(w + m).loadUnaligned(as: __m256.self), acc)
            m += 8
        }
        var quad = acc.lowHalf + acc.highHalf // __m256 is SIMD8<Float>
        if m < narrow { // four more, in the low half
            let x = UnsafeRawPointer(s + m + 1).loadUnaligned(as: __m128.self)
            UnsafeMutableRawPointer(s + m).storeBytes(of: x, as: __m128.self)
            quad = _mm_fmadd_ps(x, UnsafeRawPointer(w + m).loadUnaligned(as: __m128.self), quad)
            m += 4
        }
        var sum = (quad[0] + quad[1]) + (quad[2] + quad[3])
        while m < shifted {
            s[m] = s[m + 1]
            sum += s[m] * w[m]
            m += 1
        }
        s[shifted] = v
        out[i] = sum + v * w[shifted]
    }
}

/// The same step over int16 windows with `Int32` sums, exact: sixteen values a step (then
/// eight and four), multiplied pairwise by `vpmaddwd` (each product and pair sum wraps like TFLite's
/// `int32` accumulator), so the result is the reference sum whatever the order:
///
///     out[i] = Σ_m s[i, m] · time[i, m]        (wrapping Int32, after the shift)
@inline(never)
public func svdfMemoryS16AVX2(
    windows: Int, memory: Int, state: UnsafeMutablePointer<Int16>, newest: UnsafePointer<Int16>,
    time: UnsafePointer<Int16>, out: UnsafeMutablePointer<Int32>
) {
    guard memory > 0 else { return }
    let shifted = memory - 1, wide = shifted & ~15
    var s = state, w = UnsafePointer(time)
    for i in 0 ..< windows {
        defer { (s, w) = (s + memory, w + memory) }
        let v = newest[i]
        var acc = _mm256_setzero_si256()
        var m = 0
        while m < wide {
            let x = UnsafeRawPointer(s + m + 1).loadUnaligned(as: __m256i.self)
            UnsafeMutableRawPointer(s + m).storeBytes(of: x, as: __m256i.self)
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(x, UnsafeRawPointer(w + m).loadUnaligned(as: __m256i.self)))
            m += 16
        }
        let lanes = unsafeBitCast(acc, to: SIMD8<Int32>.self)
        var half = unsafeBitCast(lanes.lowHalf &+ lanes.highHalf, to: __m128i.self)
        if shifted - m >= 8 { // eight more
            let x = UnsafeRawPointer(s + m + 1).loadUnaligned(as: __m128i.self)
            UnsafeMutableRawPointer(s + m).storeBytes(of: x, as: __m128i.self)
            half = _mm_add_epi32(half, _mm_madd_epi16(x, UnsafeRawPointer(w + m).loadUnaligned(as: __m128i.self)))
            m += 8
        }
        if shifted - m >= 4 { // four more, in the low 64 bits
            let x = _mm_loadl_epi64(UnsafeRawPointer(s + m + 1).assumingMemoryBound(to: __m128i.self))
            _mm_storel_epi64(UnsafeMutableRawPointer(s + m).assumingMemoryBound(to: __m128i.self), x)
            let t = _mm_loadl_epi64(UnsafeRawPointer(w + m).assumingMemoryBound(to: __m128i.self))
            half = _mm_add_epi32(half, _mm_madd_epi16(x, t))
            m += 4
        }
        var sum = unsafeBitCast(half, to: SIMD4<Int32>.self).wrappedSum()
        while m < shifted {
            s[m] = s[m + 1]
            sum = sum &+ Int32(s[m]) &* Int32(w[m])
            m += 1
        }
        s[shifted] = v
        out[i] = sum &+ Int32(v) &* Int32(w[shifted])
    }
}
#endif
