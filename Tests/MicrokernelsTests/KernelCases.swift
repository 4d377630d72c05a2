import Microkernels

// The shapes and reference loops every level's microkernels are held to. This file has no
// test framework and no platform imports: it is also compiled, with the aarch64 checks in
// ARM/, into the Embedded Swift program that runs them under emulation
// (scripts/test-arm-kernels.sh), so the x86-64 and aarch64 kernels meet the same cases.

/// The cases, by kernel family.
enum KernelCases {
    /// Float GEMM `(m, n, k)`: rows around the blocks (4, 6 and 8 rows; 8, 4, 2, 1 at
    /// `avx512`) and the stripes; columns around 8-, 12-, 16- and 32-column blocks, odd
    /// panel counts and narrow last panels.
    static let gemmF32: [(Int, Int, Int)] = [
        (1, 1, 1), (5, 16, 3), (6, 17, 8), (13, 40, 27), (100, 33, 64), (200, 96, 16), (7, 1001, 5),
        (15, 24, 9), (9, 8, 4), (3, 9, 2), (25, 64, 31), (49, 48, 17), (97, 32, 7), (2, 56, 3), (11, 72, 12),
    ]
    /// Float matrix-vector `(n, k)`.
    static let gemvF32: [(Int, Int)] = [(1, 1), (3, 7), (4, 8), (5, 9), (13, 64), (1001, 37), (9, 1280)]
    /// Float matrix-vector on packed rows `(n, k)`.
    static let gemvF32Packed: [(Int, Int)] = gemvF32 + [(64, 15)]
    /// 16-bit integer GEMM `(m, n, k)`.
    static let gemmS16: [(m: Int, n: Int, k: Int)] = [
        (1, 1, 1), (1, 16, 2), (3, 5, 7), (4, 16, 8), (5, 17, 9), (7, 33, 31), (8, 32, 64),
        (13, 40, 27), (64, 96, 144), (9, 1001, 3), (2, 8, 1152),
    ]
    /// 8-bit integer GEMM `(m, n, k)`.
    static let gemmQ8: [(m: Int, n: Int, k: Int)] = [
        (1, 1, 1), (1, 16, 4), (3, 5, 7), (4, 16, 8), (5, 17, 9), (7, 33, 31), (8, 32, 64), (9, 48, 2),
        (13, 40, 27), (64, 96, 144), (9, 1001, 3), (2, 8, 1152), (17, 31, 6), (16, 64, 75),
    ]
    /// 8-bit GEMM with the requantization in its epilogue `(m, n, k)`.
    static let gemmQ8Requantized: [(Int, Int, Int)] = [
        (1, 1, 1), (5, 17, 9), (9, 48, 2), (13, 40, 27), (17, 31, 6), (16, 64, 75), (3, 100, 300),
    ]
    /// Requantization ranges: exponents, output zero point, clamp, and whether the AVX-512
    /// store may saturate instead of clamping.
    static let requantization:
        [(exponents: ClosedRange<Int>, zp: Int32, lower: Int32, upper: Int32, saturating: Bool)] =
            [
                (-14 ... -1, -7, -128, 127, true), (-14 ... -1, 100, -128, 127, true), (-3 ... 4, 3, -128, 127, false),
                (-12 ... -1, -128, -128, -20, false), (-9 ... 0, 0, 0, 255, false),
            ]
    /// 16-bit matrix-vector `(n, k)`.
    static let gemvS8S16: [(Int, Int)] = [(1, 1), (3, 15), (4, 16), (5, 17), (9, 100), (1001, 1024), (2, 1 << 15)]
    /// 8-bit matrix-vector on dot products `(n, k)`.
    static let gemvQ8: [(Int, Int)] = [
        (1, 1), (3, 15), (4, 64), (5, 65), (9, 100), (1001, 1024), (7, 127), (2, 1 << 17),
    ]
    /// 3×3 depthwise rows: channel counts around the 4-, 8- and 16-wide blocks and their
    /// tails, input widths with and without interior pixels, and which of the three input
    /// rows are present (the others in the padding).
    static let depthwiseChannels = [1, 3, 8, 13, 16, 21, 31, 33, 64]
    static let depthwiseWidths = [1, 2, 3, 6, 9]
    static let depthwiseRowsPresent: [[Bool]] = [
        [true, true, true], [false, true, true], [true, true, false], [false, true, false],
    ]
}

/// `clamp(bias + A·Bᵀ)` in Double, the definition the float GEMMs are held to (`w`: `n`
/// rows of `k`).
func referenceGemmF32(
    m: Int, n: Int, k: Int, a: [Float], w: [Float], bias: [Float]?,
    lower: Float, upper: Float
) -> [Float] {
    var c = [Float](repeating: 0, count: m * n)
    for i in 0 ..< m {
        for j in 0 ..< n {
            var s = Double(bias?[j] ?? 0)
            for d in 0 ..< k { s += Double(a[i * k + d]) * Double(w[j * k + d]) }
            c[i * n + j] = Swift.min(Swift.max(Float(s), lower), upper)
        }
    }
    return c
}

/// `C = C0 + A · Bᵀ` by the definition, in wrapping `Int32` (`C0` zero when nil).
func referenceGemmInt<A: FixedWidthInteger, B: FixedWidthInteger>(
    m: Int, n: Int, k: Int, a: [A], b: [B], initial: [Int32]? = nil
) -> [Int32] {
    var c = [Int32](repeating: 0, count: m * n)
    for i in 0 ..< m {
        for j in 0 ..< n {
            var s = initial?[j] ?? 0
            for d in 0 ..< k {
                s = s &+ Int32(truncatingIfNeeded: a[i * k + d]) &* Int32(truncatingIfNeeded: b[j * k + d])
            }
            c[i * n + j] = s
        }
    }
    return c
}

/// TFLite's `MultiplyByQuantizedMultiplier` as the reference kernels write it: a wrapping
/// left shift, `SaturatingRoundingDoublingHighMul` (nudge by sign, truncating division),
/// then `RoundingDivideByPOT`; then the zero point and the clamp.
func tfliteRequantize(_ acc: Int32, mantissa: Int32, exponent: Int, zp: Int32, lower: Int32, upper: Int32) -> Int32 {
    let x = acc &<< Int32(Swift.max(exponent, 0))
    let ab = Int64(x) * Int64(mantissa)
    let nudge: Int64 = ab >= 0 ? 1 << 30 : 1 - (1 << 30)
    let h = Int32(truncatingIfNeeded: (ab + nudge) / (1 << 31))
    let right = Int32(Swift.max(-exponent, 0))
    let mask = Int32(truncatingIfNeeded: (Int64(1) << right) - 1)
    let threshold = (mask >> 1) + (h < 0 ? 1 : 0)
    let r = (h >> right) + ((h & mask) > threshold ? 1 : 0)
    return Int32(truncatingIfNeeded: Swift.min(Swift.max(Int64(r) + Int64(zp), Int64(lower)), Int64(upper)))
}

/// One 3×3 depthwise output row by the definition (taps outside the rows skipped), in
/// Double, then the bias and clamp; with integer data every step is exact.
func referenceDepthwiseRow(
    _ s: Depthwise3x3Row, rows: [[Float]?], w: [Float], start: Float, bias: [Float]?,
    lower: Float, upper: Float
) -> [Float] {
    var out = [Float]()
    for ox in 0 ..< s.outputWidth {
        for c in 0 ..< s.channels {
            var acc = Double(start)
            for ky in 0 ..< 3 {
                guard let r = rows[ky] else { continue }
                for kx in 0 ..< 3 {
                    let ix = ox * s.stride - s.padLeft + kx
                    guard ix >= 0, ix < s.inputWidth else { continue }
                    acc += Double(r[ix * s.channels + c]) * Double(w[(3 * ky + kx) * s.channels + c])
                }
            }
            var v = Float(acc)
            if let bias { v += bias[c] }
            out.append(Swift.min(Swift.max(v, lower), upper))
        }
    }
    return out
}
