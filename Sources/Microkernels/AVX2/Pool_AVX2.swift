#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// MAX_POOL_2D on bytes for x86-64-v3: per output pixel, its channels in blocks of 32
/// (`ymm`), then 16 (`xmm`), 8, or one by one, each block's maximum kept in a register over
/// the whole window and stored once (`vpmaxsb`/`vpmaxub`, then the upper clamp). The
/// result is ``PoolLoops/maximum(_:_:_:rows:lower:upper:clampsUpper:)``'s.
@inline(never)
public func maxPoolQ8AVX2(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ g: PoolGeometry, rows: Range<Int>, signed: Bool,
    lower: Int32, upper: Int32
) {
    if signed {
        maxPoolBytes(x, y, g, rows, signed: true, lower: lower, upper: upper)
    } else {
        maxPoolBytes(x, y, g, rows, signed: false, lower: lower, upper: upper)
    }
}

@inline(__always)
private func maxPoolBytes(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ g: PoolGeometry, _ rows: Range<Int>, signed: Bool,
    lower: Int32, upper: Int32
) {
    let lo8 = Int8(truncatingIfNeeded: lower), hi8 = Int8(truncatingIfNeeded: upper)
    let lo32 = _mm256_set1_epi8(lo8), hi32 = _mm256_set1_epi8(hi8)
    let lo16 = _mm_set1_epi8(lo8), hi16 = _mm_set1_epi8(hi8)
    @inline(__always) func max32(_ a: __m256i, _ b: __m256i) -> __m256i {
        signed ? _mm256_max_epi8(a, b) : _mm256_max_epu8(a, b)
    }
    @inline(__always) func min32(_ a: __m256i, _ b: __m256i) -> __m256i {
        signed ? _mm256_min_epi8(a, b) : _mm256_min_epu8(a, b)
    }
    @inline(__always) func max16(_ a: __m128i, _ b: __m128i) -> __m128i {
        signed ? _mm_max_epi8(a, b) : _mm_max_epu8(a, b)
    }
    @inline(__always) func min16(_ a: __m128i, _ b: __m128i) -> __m128i {
        signed ? _mm_min_epi8(a, b) : _mm_min_epu8(a, b)
    }
    let c = g.channels
    for row in rows {
        let b = row / g.outH, oy = row % g.outH
        let ys = PoolGeometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
        let image = x + b * g.inH * g.inW * c
        for ox in 0 ..< g.outW {
            let xs = PoolGeometry.window(ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
            let origin = image + (ys.lowerBound * g.inW + xs.lowerBound) * c
            let rowStride = g.inW * c, height = ys.count, width = xs.count
            let out = y + (row * g.outW + ox) * c
            @inline(__always) func block32(_ k: Int) {
                var m = lo32
                for r in 0 ..< height {
                    var p = origin + r * rowStride + k
                    for _ in 0 ..< width {
                        m = max32(m, p.loadUnaligned(as: __m256i.self))
                        p += c
                    }
                }
                (out + k).storeBytes(of: min32(m, hi32), as: __m256i.self)
            }
            @inline(__always) func block16(_ k: Int, bytes: Int) {
                var m = lo16
                for r in 0 ..< height {
                    var p = origin + r * rowStride + k
                    for _ in 0 ..< width {
                        let v =
                            bytes == 16
                            ? p.loadUnaligned(as: __m128i.self) : _mm_cvtsi64_si128(p.loadUnaligned(as: Int64.self))
                        m = max16(m, v)
                        p += c
                    }
                }
                m = min16(m, hi16)
                if bytes == 16 {
                    (out + k).storeBytes(of: m, as: __m128i.self)
                } else {
                    (out + k).storeBytes(of: _mm_cvtsi128_si64(m), as: Int64.self)
                }
            }
            // A last partial block is recomputed over the channels that end the pixel,
            // overlapping the previous block: the same maxima are stored twice.
            var k = 0
            while k + 32 <= c {
                block32(k)
                k += 32
            }
            if k == c { continue }
            if c >= 32 {
                block32(c - 32)
            } else if c >= 16 {
                block16(0, bytes: 16)
                if c > 16 { block16(c - 16, bytes: 16) }
            } else if c >= 8 {
                block16(0, bytes: 8)
                if c > 8 { block16(c - 8, bytes: 8) }
            } else {
                for k in 0 ..< c {
                    var m = lower
                    for r in 0 ..< height {
                        for q in 0 ..< width {
                            let p = origin + r * rowStride + q * c + k
                            let v = signed ? Int32(p.load(as: Int8.self)) : Int32(p.load(as: UInt8.self))
                            m = Swift.max(m, v)
                        }
                    }
                    (out + k).storeBytes(of: UInt8(truncatingIfNeeded: Swift.min(m, upper)), as: UInt8.self)
                }
            }
        }
    }
}

/// MAX_POOL_2D on floats for x86-64-v3, blocked like ``maxPoolQ8AVX2(_:_:_:rows:signed:lower:upper:)``
/// (32, 8 and 4 floats, then one by one). `vmaxps(v, m)` is `v > m ? v : m`, the scalar
/// loops' rule, so a NaN input is skipped as there.
@inline(__always)
private func maxPoolF32(
    _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ g: PoolGeometry, _ rows: Range<Int>,
    lower: Float, upper: Float, clampsUpper: Bool
) {
    let lo8 = _mm256_set1_ps(lower), hi8 = _mm256_set1_ps(upper)
    let lo4 = _mm_set1_ps(lower), hi4 = _mm_set1_ps(upper)
    let c = g.channels
    for row in rows {
        let b = row / g.outH, oy = row % g.outH
        let ys = PoolGeometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
        let image = x + b * g.inH * g.inW * c
        for ox in 0 ..< g.outW {
            let xs = PoolGeometry.window(ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
            let origin = UnsafeRawPointer(image + (ys.lowerBound * g.inW + xs.lowerBound) * c)
            let rowBytes = g.inW * c * 4, pixelBytes = c * 4, height = ys.count, width = xs.count
            let out = UnsafeMutableRawPointer(y + (row * g.outW + ox) * c)
            var k = 0
            while k + 32 <= c {
                var m0 = lo8, m1 = lo8, m2 = lo8, m3 = lo8
                for r in 0 ..< height {
                    var p = origin + r * rowBytes + 4 * k
                    for _ in 0 ..< width {
                        m0 = _mm256_max_ps(p.loadUnaligned(as: __m256.self), m0)
                        m1 = _mm256_max_ps((p + 32).loadUnaligned(as: __m256.self), m1)
                        m2 = _mm256_max_ps((p + 64).loadUnaligned(as: __m256.self), m2)
                        m3 = _mm256_max_ps((p + 96).loadUnaligned(as: __m256.self), m3)
                        p += pixelBytes
                    }
                }
                if clampsUpper {
                    (m0, m1, m2, m3) = (
                        _mm256_min_ps(m0, hi8), _mm256_min_ps(m1, hi8), _mm256_min_ps(m2, hi8), _mm256_min_ps(m3, hi8)
                    )
                }
                (out + 4 * k).storeBytes(of: m0, as: __m256.self)
                (out + 4 * k + 32).storeBytes(of: m1, as: __m256.self)
                (out + 4 * k + 64).storeBytes(of: m2, as: __m256.self)
                (out + 4 * k + 96).storeBytes(of: m3, as: __m256.self)
                k += 32
            }
            @inline(__always) func block8(_ k: Int) {
                var m = lo8
                for r in 0 ..< height {
                    var p = origin + r * rowBytes + 4 * k
                    for _ in 0 ..< width {
                        m = _mm256_max_ps(p.loadUnaligned(as: __m256.self), m)
                        p += pixelBytes
                    }
                }
                (out + 4 * k).storeBytes(of: clampsUpper ? _mm256_min_ps(m, hi8) : m, as: __m256.self)
            }
            @inline(__always) func block4(_ k: Int) {
                var m = lo4
                for r in 0 ..< height {
                    var p = origin + r * rowBytes + 4 * k
                    for _ in 0 ..< width {
                        m = _mm_max_ps(p.loadUnaligned(as: __m128.self), m)
                        p += pixelBytes
                    }
                }
                (out + 4 * k).storeBytes(of: clampsUpper ? _mm_min_ps(m, hi4) : m, as: __m128.self)
            }
            // Partial blocks overlap the previous one, as in the byte kernel.
            while k + 8 <= c {
                block8(k)
                k += 8
            }
            if k == c { continue }
            if c >= 8 {
                block8(c - 8)
            } else if c >= 4 {
                block4(0)
                if c > 4 { block4(c - 4) }
            } else {
                for k in 0 ..< c {
                    var m = lower
                    for r in 0 ..< height {
                        for q in 0 ..< width {
                            let v = (origin + r * rowBytes + (q * c + k) * 4).load(as: Float.self)
                            m = v > m ? v : m
                        }
                    }
                    (out + 4 * k).storeBytes(of: clampsUpper && m > upper ? upper : m, as: Float.self)
                }
            }
        }
    }
}

/// AVERAGE_POOL_2D on bytes for x86-64-v3, the result of
/// ``PoolLoops/averageQ8(_:_:_:rows:lower:upper:sums:)``: per output pixel, its channels in
/// blocks of 32, each block's window sum kept in two sixteen-lane `Int16` registers (a
/// direct window has at most 64 pixels, so `|sum| ≤ 64·255` fits), then widened to `Int32`
/// for the same rounding division in Float (`vdivps`, then truncation) and clamp. A last
/// partial block is recomputed over the channels that end the pixel (the same codes stored
/// twice); fewer than 32 channels go eight at a time in `Int32` lanes, then one by one.
/// `sums` is unused here (the scalar fallback below 8 channels keeps its sums in a register).
@inline(never)
public func averagePoolQ8AVX2(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ g: PoolGeometry, rows: Range<Int>, signed: Bool,
    lower: Int32, upper: Int32, sums: UnsafeMutablePointer<Int32>
) {
    guard g.filterH * g.filterW <= 64 else {
        // The Int16 sums need at most 64 pixels; the runtime sends larger windows elsewhere.
        if signed {
            PoolLoops.averageQ8(
                x.assumingMemoryBound(to: Int8.self), y.assumingMemoryBound(to: Int8.self), g, rows: rows,
                lower: lower, upper: upper, sums: sums)
        } else {
            PoolLoops.averageQ8(
                x.assumingMemoryBound(to: UInt8.self), y.assumingMemoryBound(to: UInt8.self), g, rows: rows,
                lower: lower, upper: upper, sums: sums)
        }
        return
    }
    if signed {
        averagePoolBytes(x, y, g, rows, signed: true, lower: lower, upper: upper)
    } else {
        averagePoolBytes(x, y, g, rows, signed: false, lower: lower, upper: upper)
    }
}

@inline(__always)
private func averagePoolBytes(
    _ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, _ g: PoolGeometry, _ rows: Range<Int>, signed: Bool,
    lower: Int32, upper: Int32
) {
    let store = CodeStore8(zeroPoint: 0, lower: lower, upper: upper, signed: signed, bounded: false)
    let lo = _mm256_set1_epi32(lower), hi = _mm256_set1_epi32(upper)
    @inline(__always) func widen16(_ v: __m128i) -> __m256i {
        signed ? _mm256_cvtepi8_epi16(v) : _mm256_cvtepu8_epi16(v)
    }
    @inline(__always) func widen32(_ v: __m128i) -> __m256i {
        signed ? _mm256_cvtepi8_epi32(v) : _mm256_cvtepu8_epi32(v)
    }
    let c = g.channels
    for row in rows {
        let b = row / g.outH, oy = row % g.outH
        let ys = PoolGeometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
        let image = x + b * g.inH * g.inW * c
        for ox in 0 ..< g.outW {
            let xs = PoolGeometry.window(ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
            let origin = image + (ys.lowerBound * g.inW + xs.lowerBound) * c
            let rowStride = g.inW * c, height = ys.count, width = xs.count
            let out = y + (row * g.outW + ox) * c
            let n = Int32(height * width)
            let half = _mm256_set1_epi32(n / 2), divisor = _mm256_set1_ps(Float(n))
            let zero = _mm256_setzero_si256()
            // `(s ± n/2) / n` truncated, `-` only for int8 sums ≤ 0: the scalar loop's steps.
            @inline(__always) func quotient(_ s: __m256i) -> __m256i {
                let offset =
                    signed
                    ? _mm256_sub_epi32(
                        half,
                        _mm256_and_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32(1), s), _mm256_add_epi32(half, half)))
                    : half
                let r = _mm256_add_epi32(s, offset)
                return _mm256_cvttps_epi32(_mm256_div_ps(_mm256_cvtepi32_ps(r), divisor))
            }
            @inline(__always) func block32(_ k: Int) {
                var s0 = zero, s1 = zero
                for r in 0 ..< height {
                    var p = origin + r * rowStride + k
                    for _ in 0 ..< width {
                        let v = p.loadUnaligned(as: __m256i.self)
                        s0 = _mm256_add_epi16(s0, widen16(_mm256_castsi256_si128(v)))
                        s1 = _mm256_add_epi16(s1, widen16(upper128(v)))
                        p += c
                    }
                }
                let q0 = quotient(_mm256_cvtepi16_epi32(_mm256_castsi256_si128(s0)))
                let q1 = quotient(_mm256_cvtepi16_epi32(upper128(s0)))
                let q2 = quotient(_mm256_cvtepi16_epi32(_mm256_castsi256_si128(s1)))
                let q3 = quotient(_mm256_cvtepi16_epi32(upper128(s1)))
                (out + k).storeBytes(of: store.codes(q0, q1, q2, q3), as: __m256i.self)
            }
            @inline(__always) func block8(_ k: Int) {
                var s = zero
                for r in 0 ..< height {
                    var p = origin + r * rowStride + k
                    for _ in 0 ..< width {
                        s = _mm256_add_epi32(s, widen32(_mm_cvtsi64_si128(p.loadUnaligned(as: Int64.self))))
                        p += c
                    }
                }
                let q = _mm256_min_epi32(_mm256_max_epi32(quotient(s), lo), hi)
                let words = _mm_packs_epi32(_mm256_castsi256_si128(q), upper128(q))
                let bytes = signed ? _mm_packs_epi16(words, words) : _mm_packus_epi16(words, words)
                (out + k).storeBytes(of: _mm_cvtsi128_si64(bytes), as: Int64.self)
            }
            var k = 0
            while k + 32 <= c {
                block32(k)
                k += 32
            }
            if k == c { continue }
            if c >= 32 {
                block32(c - 32)
            } else if c >= 8 {
                while k + 8 <= c {
                    block8(k)
                    k += 8
                }
                if k < c { block8(c - 8) }
            } else {
                let halfN = n / 2, fn = Float(n)
                for k in 0 ..< c {
                    var s: Int32 = 0
                    for r in 0 ..< height {
                        for q in 0 ..< width {
                            let p = origin + r * rowStride + q * c + k
                            s &+= signed ? Int32(p.load(as: Int8.self)) : Int32(p.load(as: UInt8.self))
                        }
                    }
                    let rounded = signed && s <= 0 ? s &- halfN : s &+ halfN
                    let v = Swift.min(Swift.max(Int32(Float(rounded) / fn), lower), upper)
                    (out + k).storeBytes(of: UInt8(truncatingIfNeeded: v), as: UInt8.self)
                }
            }
        }
    }
}

/// AVERAGE_POOL_2D on floats for x86-64-v3, blocked like the max pool (32 floats in four
/// registers, then 8 with an overlapping last block, then one by one): each lane adds the
/// window's pixels to zero in row-major order and divides by the pixel count (`vdivps`),
/// the steps of ``PoolLoops/averageF32(_:_:_:rows:lower:upper:)``, so the sums are the same
/// bits; the clamp `max(lower, v)` then `min(upper, ·)` passes a NaN through as there.
@inline(__always)
private func averagePoolF32(
    _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ g: PoolGeometry, _ rows: Range<Int>,
    lower: Float, upper: Float
) {
    let lo = _mm256_set1_ps(lower), hi = _mm256_set1_ps(upper)
    let c = g.channels
    for row in rows {
        let b = row / g.outH, oy = row % g.outH
        let ys = PoolGeometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
        let image = x + b * g.inH * g.inW * c
        for ox in 0 ..< g.outW {
            let xs = PoolGeometry.window(ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
            let origin = UnsafeRawPointer(image + (ys.lowerBound * g.inW + xs.lowerBound) * c)
            let rowBytes = g.inW * c * 4, pixelBytes = c * 4, height = ys.count, width = xs.count
            let out = UnsafeMutableRawPointer(y + (row * g.outW + ox) * c)
            let count = Float(height * width), divisor = _mm256_set1_ps(count)
            @inline(__always) func finish(_ s: __m256) -> __m256 {
                _mm256_min_ps(hi, _mm256_max_ps(lo, _mm256_div_ps(s, divisor)))
            }
            var k = 0
            while k + 32 <= c {
                var s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0
                for r in 0 ..< height {
                    var p = origin + r * rowBytes + 4 * k
                    for _ in 0 ..< width {
                        s0 = _mm256_add_ps(s0, p.loadUnaligned(as: __m256.self))
                        s1 = _mm256_add_ps(s1, (p + 32).loadUnaligned(as: __m256.self))
                        s2 = _mm256_add_ps(s2, (p + 64).loadUnaligned(as: __m256.self))
                        s3 = _mm256_add_ps(s3, (p + 96).loadUnaligned(as: __m256.self))
                        p += pixelBytes
                    }
                }
                (out + 4 * k).storeBytes(of: finish(s0), as: __m256.self)
                (out + 4 * k + 32).storeBytes(of: finish(s1), as: __m256.self)
                (out + 4 * k + 64).storeBytes(of: finish(s2), as: __m256.self)
                (out + 4 * k + 96).storeBytes(of: finish(s3), as: __m256.self)
                k += 32
            }
            @inline(__always) func block8(_ k: Int) {
                var s = _mm256_setzero_ps()
                for r in 0 ..< height {
                    var p = origin + r * rowBytes + 4 * k
                    for _ in 0 ..< width {
                        s = _mm256_add_ps(s, p.loadUnaligned(as: __m256.self))
                        p += pixelBytes
                    }
                }
                (out + 4 * k).storeBytes(of: finish(s), as: __m256.self)
            }
            while k + 8 <= c {
                block8(k)
                k += 8
            }
            if k == c { continue }
            if c >= 8 {
                block8(c - 8)
            } else {
                for k in 0 ..< c {
                    var s: Float = 0
                    for r in 0 ..< height {
                        for q in 0 ..< width {
                            s = s + (origin + r * rowBytes + (q * c + k) * 4).load(as: Float.self)
                        }
                    }
                    let v = s / count
                    let low = v < lower ? lower : v
                    (out + 4 * k).storeBytes(of: low > upper ? upper : low, as: Float.self)
                }
            }
        }
    }
}

/// The float pools for x86-64-v3.
@inline(never)
public func poolF32AVX2(
    average: Bool, _ x: UnsafePointer<Float>, _ y: UnsafeMutablePointer<Float>, _ g: PoolGeometry, rows: Range<Int>,
    lower: Float, upper: Float
) {
    if average {
        averagePoolF32(x, y, g, rows, lower: lower, upper: upper)
    } else {
        maxPoolF32(
            x, y, g, rows, lower: lower > -.greatestFiniteMagnitude ? lower : -.greatestFiniteMagnitude,
            upper: upper, clampsUpper: upper < .infinity)
    }
}
#endif
