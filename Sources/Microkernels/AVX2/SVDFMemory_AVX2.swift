#if arch(x86_64)
import _Builtin_intrinsics.intel

/// SVDF's memory step over `windows` consecutive windows of `memory` floats (the feature
/// filters of one batch row, oldest value first), for x86-64-v3:
///
///     s[i, m] = s[i, m + 1]  for m < memory - 1,   s[i, memory - 1] = newest[i]
///     out[i]  = Σ_m s[i, m] · time[i, m]
///
/// in one pass over the state: eight values are loaded one place ahead, stored back one
/// place earlier and multiplied into the sum (FMA) while in registers; the tail of the
/// window and the newest value are done one by one. Loads run ahead of stores, so the
/// overlapping copy is safe. `out` may be `newest` (each window reads its newest value
/// before writing its sum). The sum's order is fixed per window (eight lanes, then the
/// tail), so the result does not depend on how callers split the windows.
@inline(never)
public func svdfMemoryF32AVX2(
    windows: Int, memory: Int, state: UnsafeMutablePointer<Float>, newest: UnsafePointer<Float>,
    time: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>
) {
    guard memory > 0 else { return }
    let shifted = memory - 1, vectorized = shifted & ~7
    for i in 0 ..< windows {
        let s = state + i * memory, w = time + i * memory
        let v = newest[i]
        var acc = _mm256_setzero_ps()
        var m = 0
        while m < vectorized {
            let x = UnsafeRawPointer(s + m + 1).loadUnaligned(as: __m256.self)
            UnsafeMutableRawPointer(s + m).storeBytes(of: x, as: __m256.self)
            acc = _mm256_fmadd_ps(x, UnsafeRawPointer(w + m).loadUnaligned(as: __m256.self), acc)
            m += 8
        }
        let quad = acc.lowHalf + acc.highHalf // __m256 is SIMD8<Float>
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

/// The same step over int16 windows with `Int32` sums, exact: sixteen values a step,
/// multiplied pairwise by `vpmaddwd` (each product and pair sum wraps like TFLite's
/// `int32` accumulator), so the result is the reference sum whatever the order:
///
///     out[i] = Σ_m s[i, m] · time[i, m]        (wrapping Int32, after the shift)
@inline(never)
public func svdfMemoryS16AVX2(
    windows: Int, memory: Int, state: UnsafeMutablePointer<Int16>, newest: UnsafePointer<Int16>,
    time: UnsafePointer<Int16>, out: UnsafeMutablePointer<Int32>
) {
    guard memory > 0 else { return }
    let shifted = memory - 1, vectorized = shifted & ~15
    for i in 0 ..< windows {
        let s = state + i * memory, w = time + i * memory
        let v = newest[i]
        var acc = _mm256_setzero_si256()
        var m = 0
        while m < vectorized {
            let x = UnsafeRawPointer(s + m + 1).loadUnaligned(as: __m256i.self)
            UnsafeMutableRawPointer(s + m).storeBytes(of: x, as: __m256i.self)
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(x, UnsafeRawPointer(w + m).loadUnaligned(as: __m256i.self)))
            m += 16
        }
        var sum = unsafeBitCast(acc, to: SIMD8<Int32>.self).wrappedSum()
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
