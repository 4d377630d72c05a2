#if arch(x86_64)
import _Builtin_intrinsics.intel

/// LOGISTIC for x86-64-v3, eight floats per `ymm`, with TFLite's saturation:
///
///     y = 1                      for x > 16.619047 (where 1 / (1 + e^-x) rounds to 1)
///     y = e^x                    for x < -9
///     y = 1 / (1 + e^-x)         otherwise
///
/// `e^z` is computed once per lane for `z = -|x| ≤ 0`, then `y = 1 / (1 + e^z)` for
/// positive `x` and `e^z / (1 + e^z)` for the rest, which is the same function without an
/// overflowing `e^-x`. The exponential reduces `z = n·ln 2 + t` with `|t| ≤ ln 2 / 2`
/// (`n` rounded by adding 1.5·2^23, ln 2 split into a part exact in float and a
/// correction), evaluates `e^t ≈ 1 + t + c2·t² + … + c5·t⁵` (coefficients fitted here
/// to the relative error of `e^t` on that interval: at most 1.8e-7 in float32) and scales
/// by `2^n` built in the exponent bits. Results are within a few ulp of the libm-based
/// portable kernel, far inside the float conformance tolerance. Below `z = -87.3`
/// (`e^z` under the smallest normal float) the lane is flushed to 0, as XNNPACK does,
/// where libm would return a subnormal.
@inline(never)
public func sigmoidF32AVX2(_ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, count: Int) {
    var i = 0
    while i + 8 <= count {
        let v = UnsafeRawPointer(x + i).loadUnaligned(as: __m256.self)
        UnsafeMutableRawPointer(y + i).storeBytes(of: sigmoidLanes(v), as: __m256.self)
        i += 8
    }
    if i < count {
        let rest = Int32(truncatingIfNeeded: count - i)
        let mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(rest), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7))
        _mm256_maskstore_ps(y + i, mask, sigmoidLanes(_mm256_maskload_ps(x + i, mask)))
    }
}

@inline(__always)
private func sigmoidLanes(_ x: __m256) -> __m256 {
    let signBit = _mm256_castsi256_ps(_mm256_set1_epi32(Int32(bitPattern: 0x8000_0000)))
    // z = -|x|
    let z = _mm256_or_ps(x, signBit)
    // n = round(z / ln 2), read off the low mantissa bits of z·log2(e) + (1.5·2^23 + 127),
    // whose bits shifted into the exponent field are 2^n.
    let bias = _mm256_set1_ps(12_583_039) // 0x1.8000FEp23: 1.5·2^23 + 127
    var n = _mm256_fmadd_ps(z, _mm256_set1_ps(1.442_695_04), bias)
    let scale = _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(n), 23))
    n = _mm256_sub_ps(n, bias)
    // t = z - n·ln 2, ln 2 = 0.693145752 (exact in 16 bits) + 1.42860677e-6
    var t = _mm256_fmadd_ps(n, _mm256_set1_ps(-0.693_145_752), z)
    t = _mm256_fmadd_ps(n, _mm256_set1_ps(-1.428_606_77e-6), t)
    var p = _mm256_fmadd_ps(_mm256_set1_ps(0x1.106368p-7), t, _mm256_set1_ps(0x1.5729d2p-5))
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(0x1.5557acp-3))
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(0x1.fffdfcp-2))
    p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(1))
    // e^z = 2^n · (1 + t·p), zero below the normal range.
    var e = _mm256_fmadd_ps(_mm256_mul_ps(t, scale), p, scale)
    let underflow = laneMask(z .< SIMD8(repeating: -87.336_54))
    e = _mm256_andnot_ps(underflow, e)
    let one = _mm256_set1_ps(1)
    let positive = laneMask(x .> SIMD8(repeating: 0))
    var y = _mm256_div_ps(_mm256_blendv_ps(e, one, positive), _mm256_add_ps(e, one))
    // TFLite's saturation: e^x itself below -9, exactly 1 above 16.619047.
    y = _mm256_blendv_ps(y, e, laneMask(x .< SIMD8(repeating: -9)))
    return _mm256_blendv_ps(y, one, laneMask(x .> SIMD8(repeating: 16.619_047_164_916_992)))
}

/// A comparison's lanes as all-ones or all-zero floats, for `vblendvps` and `vandnps`
/// (`_mm256_cmp_ps` takes an immediate and is not imported).
@inline(__always)
private func laneMask(_ m: SIMDMask<SIMD8<Int32>>) -> __m256 {
    unsafeBitCast(m, to: __m256.self)
}
#endif
