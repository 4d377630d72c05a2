#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// ``castF32ToI32Portable(_:_:count:)`` for x86-64-v3: the same conversion and fix-ups
/// (`vcvttps2dq`, then the two masks from the bits), sixteen lanes a step in two `ymm`.
/// Bit for bit ``saturatingInt32(_:)``.
@inline(never)
public func castF32ToI32AVX2(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Int32>, count: Int) {
    let belowLimit = _mm256_set1_epi32(0x4EFF_FFFF), infinity = _mm256_set1_epi32(0x7F80_0000)
    let magnitude = _mm256_set1_epi32(0x7FFF_FFFF)
    let out = UnsafeMutableRawPointer(y)
    @inline(__always) func convert(_ v: __m256) -> __m256i {
        let bits = _mm256_castps_si256(v)
        let high = _mm256_cmpgt_epi32(bits, belowLimit)
        let nan = _mm256_cmpgt_epi32(_mm256_and_si256(bits, magnitude), infinity)
        return _mm256_andnot_si256(nan, _mm256_add_epi32(_mm256_cvttps_epi32(v), high))
    }
    var i = 0
    while i + 16 <= count {
        let a = convert(_mm256_loadu_ps(x + i))
        let b = convert(_mm256_loadu_ps(x + i + 8))
        (out + 4 * i).storeBytes(of: a, as: __m256i.self)
        (out + 4 * i + 32).storeBytes(of: b, as: __m256i.self)
        i += 16
    }
    while i + 8 <= count {
        (out + 4 * i).storeBytes(of: convert(_mm256_loadu_ps(x + i)), as: __m256i.self)
        i += 8
    }
    while i < count {
        y[i] = saturatingInt32(x[i])
        i += 1
    }
}
#endif
