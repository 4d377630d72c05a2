#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

/// CAST's float32 → int32 for one element: truncation toward zero, NaN → 0, values at or
/// above `2^31` → `Int32.max`, below `-2^31` → `Int32.min` (C++ leaves the last three
/// undefined; this is the runtime's choice for every float → integer CAST).
@inlinable @inline(__always)
public func saturatingInt32(_ x: Float) -> Int32 {
    if x != x { return 0 }
    if x >= 2_147_483_648 { return .max }
    if x < -2_147_483_648 { return .min }
    return Int32(x)
}

/// ``saturatingInt32(_:)`` over `x[0 ..< count]` into `y`, for the baseline: on x86-64 four
/// lanes a step with SSE2's truncating conversion (`cvttps2dq`), which gives `0x80000000`
/// (`Int32.min`) for NaN and every `|x| ≥ 2^31`. That is already right below `-2^31`. The
/// lanes at or above `2^31` are those whose bits, read as a signed integer, exceed
/// `0x4EFFFFFF` (positive floats order like their bits; so do positive NaNs, cleared
/// next): adding that comparison's all-ones mask (-1) turns `0x80000000` into
/// `0x7FFFFFFF`. NaN lanes (magnitude bits above `0x7F800000`) are then cleared to 0.
/// Bit for bit ``saturatingInt32(_:)``; on other architectures that function per element.
@inline(never)
public func castF32ToI32Portable(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Int32>, count: Int) {
    var i = 0
    #if arch(x86_64)
    let belowLimit = _mm_set1_epi32(0x4EFF_FFFF), infinity = _mm_set1_epi32(0x7F80_0000)
    let magnitude = _mm_set1_epi32(0x7FFF_FFFF)
    let out = UnsafeMutableRawPointer(y)
    while i + 4 <= count {
        let v = _mm_loadu_ps(x + i)
        let bits = _mm_castps_si128(v)
        let high = _mm_cmpgt_epi32(bits, belowLimit)
        let nan = _mm_cmpgt_epi32(_mm_and_si128(bits, magnitude), infinity)
        let r = _mm_andnot_si128(nan, _mm_add_epi32(_mm_cvttps_epi32(v), high))
        (out + 4 * i).storeBytes(of: r, as: __m128i.self)
        i += 4
    }
    #endif
    while i < count {
        y[i] = saturatingInt32(x[i])
        i += 1
    }
}
