#if arch(x86_64)
import _Builtin_intrinsics.intel
import Microkernels

/// One output row of a 3×3 depthwise convolution on 8-bit codes for AVX-512, in exact
/// `Int32` arithmetic; the contract of the AVX2 level's `depthwiseConv3x3Q8AVX2`:
///
///     out[ox·C + c] = Σ_{ky, kx} code(r_ky[(ox·stride - padLeft + kx)·C + c]) · w[(3·ky + kx)·C + c]
///
/// where `code(b)` is the byte read as `Int8` (`signed`) or `UInt8`, and `w` holds the
/// centered weights `w - zw` as `Int32`, `[9, C]`, also packed as `pairs`
/// (``Depthwise3x3Q8PairLayout``). Taps outside the input, and whole rows in the padding
/// (`r0`, `r1`, `r2` nil), read `padding`, `C` bytes; the caller turns the all-tap sum into
/// TFLite's in-image sum with its per-channel term. Every product and sum is an integer far
/// inside `Int32` (`9·255·255`), so the order does not matter.
///
/// Interior pixels go 32 channels at a time along the row, two taps per `vpdpwssd`: the
/// bytes of two taps are interleaved (`vpunpcklbw`/`vpunpckhbw`, channels 0-7 and 16-23 in
/// one half, 8-15 and 24-31 in the other) and widened to `Int16` pairs, so each of 16
/// `Int32` lanes adds `x_a·w_a + x_b·w_b`; nine taps are five pairs (the last pairs the
/// ninth tap with a zero weight), against nine widenings, multiplies and adds per 16
/// channels one tap at a time. One `vpermt2q` per 16 channels restores their order.
/// Border pixels go one at a time through nine tap pointers, 16 channels per `zmm` (one
/// `vpmovsxbd`/`vpmovzxbd`, `vpmulld` and `vpaddd` a tap). Channels past the last
/// multiple of 32 (or 16) run the same code under lane masks (masked byte loads read
/// nothing past a tap's `C` bytes), so there is no scalar tail.
@inline(never)
public func depthwiseConv3x3Q8AVX512(
    _ shape: Depthwise3x3Row, signed: Bool,
    _ r0: UnsafePointer<UInt8>?, _ r1: UnsafePointer<UInt8>?, _ r2: UnsafePointer<UInt8>?,
    padding: UnsafePointer<UInt8>, weights: UnsafePointer<Int32>, pairs: UnsafePointer<Int32>,
    out: UnsafeMutablePointer<Int32>
) {
    guard shape.channels > 0, shape.outputWidth > 0 else { return }
    if signed {
        Depthwise3x3Q8WalkAVX512<SignedCodes>(shape: shape, w: weights, pairs: pairs)
            .row(r0, r1, r2, padding: padding, out: out)
    } else {
        Depthwise3x3Q8WalkAVX512<UnsignedCodes>(shape: shape, w: weights, pairs: pairs)
            .row(r0, r1, r2, padding: padding, out: out)
    }
}

/// The weights of ``depthwiseConv3x3Q8AVX512(_:signed:_:_:_:padding:weights:pairs:out:)``'s
/// pair path: per block of 32 channels, per pair of taps `(0, 1), (2, 3), (4, 5), (6, 7),
/// (8, none)`, two vectors of 16 `Int32` words, each word `w_a` in its low and `w_b` in its
/// high 16 bits (`w_b = 0` for the ninth tap alone). The first vector holds channels 0-7
/// and 16-23 of the block, the second 8-15 and 24-31 (the order `vpunpck*bw` leaves the
/// input in); channels past `C` have zero weights.
public enum Depthwise3x3Q8PairLayout {
    /// `Int32` words per block of 32 channels: 5 pairs × 2 vectors × 16.
    public static let wordsPerBlock = 160

    /// Words for `channels` channels, nil on overflow.
    public static func count(channels: Int) -> Int? {
        guard channels >= 0 else { return nil }
        let (words, overflow) = (channels / 32 + (channels % 32 == 0 ? 0 : 1)).multipliedReportingOverflow(
            by: wordsPerBlock)
        return overflow ? nil : words
    }

    /// Packs the centered weights `w` (`[9, C]`, each within `Int16`) into `out`
    /// (``count(channels:)`` words).
    public static func pack(_ w: UnsafePointer<Int32>, channels: Int, into out: UnsafeMutablePointer<Int32>) {
        let blocks = (channels + 31) / 32
        for b in 0 ..< blocks {
            for pair in 0 ..< 5 {
                for half in 0 ..< 2 {
                    for lane in 0 ..< 16 {
                        let c = 32 * b + (lane < 8 ? lane : lane + 8) + 8 * half
                        @inline(__always) func tap(_ t: Int) -> UInt32 {
                            guard t < 9, c < channels else { return 0 }
                            return UInt32(UInt16(truncatingIfNeeded: w[t * channels + c]))
                        }
                        let word = tap(2 * pair) | tap(pair < 4 ? 2 * pair + 1 : 9) << 16
                        out[((b * 5 + pair) * 2 + half) * 16 + lane] = Int32(bitPattern: word)
                    }
                }
            }
        }
    }
}

/// How a walk widens bytes: sixteen (the lanes of `k`) to `Int32` lanes, or 32 interleaved
/// ones to `Int16`.
private protocol CodeWidening {
    static func widen(_ p: UnsafePointer<UInt8>, _ k: __mmask16) -> __m512i
    /// 32 interleaved bytes as `Int16`.
    static func widen16(_ v: __m256i) -> __m512i
}

private enum SignedCodes: CodeWidening {
    @inline(__always) static func widen(_ p: UnsafePointer<UInt8>, _ k: __mmask16) -> __m512i {
        _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, UnsafeRawPointer(p)))
    }
    @inline(__always) static func widen16(_ v: __m256i) -> __m512i { _mm512_cvtepi8_epi16(v) }
}

private enum UnsignedCodes: CodeWidening {
    @inline(__always) static func widen(_ p: UnsafePointer<UInt8>, _ k: __mmask16) -> __m512i {
        _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(k, UnsafeRawPointer(p)))
    }
    @inline(__always) static func widen16(_ v: __m256i) -> __m512i { _mm512_cvtepu8_epi16(v) }
}

/// The loops of ``depthwiseConv3x3Q8AVX512(_:signed:_:_:_:padding:weights:out:)``,
/// specialized for each ``CodeWidening``.
private struct Depthwise3x3Q8WalkAVX512<Codes: CodeWidening> {
    let shape: Depthwise3x3Row
    let w: UnsafePointer<Int32>
    let pairs: UnsafePointer<Int32>

    /// The lanes of the channel block starting at `c`.
    @inline(__always)
    func lanes(_ c: Int) -> __mmask16 {
        __mmask16(truncatingIfNeeded: (1 << Swift.min(16, shape.channels - c)) - 1)
    }

    @inline(__always)
    func weight(_ tap: Int, _ c: Int, _ k: __mmask16) -> __m512i {
        _mm512_maskz_loadu_epi32(k, UnsafeRawPointer(w + tap * shape.channels + c))
    }

    @inline(__always)
    func mac(_ acc: __m512i, _ p: UnsafePointer<UInt8>, _ w: __m512i, _ k: __mmask16) -> __m512i {
        _mm512_add_epi32(acc, _mm512_mullo_epi32(Codes.widen(p, k), w))
    }

    @inline(__always)
    func row(
        _ r0: UnsafePointer<UInt8>?, _ r1: UnsafePointer<UInt8>?, _ r2: UnsafePointer<UInt8>?,
        padding: UnsafePointer<UInt8>, out: UnsafeMutablePointer<Int32>
    ) {
        let s = shape, C = s.channels
        var interior = 0 ..< 0
        if let r0, let r1, let r2, !s.interior.isEmpty {
            interior = s.interior
            let first = (interior.lowerBound * s.stride - s.padLeft) * C
            run(
                r0 + first, r1 + first, r2 + first, step: s.stride * C, pixels: interior.count,
                out: out + interior.lowerBound * C)
        }
        for ox in 0 ..< s.outputWidth where !interior.contains(ox) {
            pixel(
                s.taps(r0, column: ox, fill: padding), s.taps(r1, column: ox, fill: padding),
                s.taps(r2, column: ox, fill: padding), out: out + ox * C)
        }
    }

    /// `pixels` interior pixels whose windows start at `a`, `d`, `e`, `step` bytes apart,
    /// one block of 32 channels at a time along the row.
    @inline(__always)
    func run(
        _ a: UnsafePointer<UInt8>, _ d: UnsafePointer<UInt8>, _ e: UnsafePointer<UInt8>, step: Int, pixels: Int,
        out: UnsafeMutablePointer<Int32>
    ) {
        let C = shape.channels
        var c = 0
        while c < C {
            let n = Swift.min(32, C - c)
            if n == 32 {
                block(c, a, d, e, step: step, pixels: pixels, out: out, channels: 32, whole: true)
            } else {
                block(c, a, d, e, step: step, pixels: pixels, out: out, channels: n, whole: false)
            }
            c += 32
        }
    }

    /// ``run(_:_:_:step:pixels:out:)`` for the `channels` (at most 32; `whole`: all 32) from
    /// `c`, the block's ten pair vectors in registers.
    @inline(__always)
    func block(
        _ c: Int, _ a: UnsafePointer<UInt8>, _ d: UnsafePointer<UInt8>, _ e: UnsafePointer<UInt8>, step: Int,
        pixels: Int, out: UnsafeMutablePointer<Int32>, channels n: Int, whole: Bool
    ) {
        let C = shape.channels
        let bytes = __mmask32(truncatingIfNeeded: (UInt64(1) << UInt64(n)) - 1)
        let first = __mmask16(truncatingIfNeeded: (1 << Swift.min(16, n)) - 1)
        let second = __mmask16(truncatingIfNeeded: (1 << Swift.max(0, n - 16)) - 1)
        let wp = UnsafeRawPointer(pairs + (c / 32) * Depthwise3x3Q8PairLayout.wordsPerBlock)
        @inline(__always) func weights(_ i: Int) -> __m512i { (wp + 64 * i).loadUnaligned(as: __m512i.self) }
        let w0 = weights(0), w1 = weights(1), w2 = weights(2), w3 = weights(3), w4 = weights(4)
        let w5 = weights(5), w6 = weights(6), w7 = weights(7), w8 = weights(8), w9 = weights(9)
        @inline(__always) func load(_ p: UnsafePointer<UInt8>) -> __m256i {
            whole
                ? UnsafeRawPointer(p).loadUnaligned(as: __m256i.self)
                : _mm256_maskz_loadu_epi8(bytes, UnsafeRawPointer(p))
        }
        let lower = _mm512_set_epi64(11, 10, 9, 8, 3, 2, 1, 0), upper = _mm512_set_epi64(15, 14, 13, 12, 7, 6, 5, 4)
        var a = a + c, d = d + c, e = e + c, o = out + c
        var left = pixels
        while left > 0 {
            var lo = _mm512_setzero_si512(), hi = _mm512_setzero_si512()
            @inline(__always) func pair(_ x: __m256i, _ y: __m256i, _ wl: __m512i, _ wh: __m512i) {
                lo = _mm512_dpwssd_epi32(lo, Codes.widen16(_mm256_unpacklo_epi8(x, y)), wl)
                hi = _mm512_dpwssd_epi32(hi, Codes.widen16(_mm256_unpackhi_epi8(x, y)), wh)
            }
            pair(load(a), load(a + C), w0, w1)
            pair(load(a + 2 * C), load(d), w2, w3)
            pair(load(d + C), load(d + 2 * C), w4, w5)
            pair(load(e), load(e + C), w6, w7)
            let last = load(e + 2 * C)
            pair(last, last, w8, w9)
            // Channels 0-7 and 16-23 are in `lo`, 8-15 and 24-31 in `hi`, 128 bits to 4 channels.
            _mm512_mask_storeu_epi32(UnsafeMutableRawPointer(o), first, _mm512_permutex2var_epi64(lo, lower, hi))
            if n > 16 {
                _mm512_mask_storeu_epi32(
                    UnsafeMutableRawPointer(o + 16), second, _mm512_permutex2var_epi64(lo, upper, hi))
            }
            a += step; d += step; e += step; o += C
            left -= 1
        }
    }

    /// One pixel from its nine tap pointers.
    @inline(__always)
    func pixel(
        _ t0: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        _ t1: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        _ t2: (UnsafePointer<UInt8>, UnsafePointer<UInt8>, UnsafePointer<UInt8>), out: UnsafeMutablePointer<Int32>
    ) {
        let C = shape.channels
        var c = 0
        while c < C {
            let k = lanes(c)
            var acc = _mm512_mullo_epi32(Codes.widen(t0.0 + c, k), weight(0, c, k))
            acc = mac(acc, t0.1 + c, weight(1, c, k), k)
            acc = mac(acc, t0.2 + c, weight(2, c, k), k)
            acc = mac(acc, t1.0 + c, weight(3, c, k), k)
            acc = mac(acc, t1.1 + c, weight(4, c, k), k)
            acc = mac(acc, t1.2 + c, weight(5, c, k), k)
            acc = mac(acc, t2.0 + c, weight(6, c, k), k)
            acc = mac(acc, t2.1 + c, weight(7, c, k), k)
            acc = mac(acc, t2.2 + c, weight(8, c, k), k)
            _mm512_mask_storeu_epi32(UnsafeMutableRawPointer(out + c), k, acc)
            c += 16
        }
    }
}
#endif
