import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// TFLite's `MultiplyByQuantizedMultiplier` and `QuantizeMultiplier`, written out again for
/// the byte kernels' tests (the runtime's are not visible to this module).
enum ReferenceFixedPoint {
    static func quantize(_ m: Double) -> (Int32, Int) {
        guard m > 0 else { return (0, 0) }
        var e = Int(m.exponent) + 1
        var q = Int64(m.significand * 1_073_741_824.0 + 0.5)
        if q == 1 << 31 {
            q >>= 1
            e += 1
        }
        return (Int32(q), e)
    }

    static func mbqm(_ x: Int32, _ mantissa: Int32, _ exponent: Int) -> Int32 {
        let left = max(exponent, 0), right = max(-exponent, 0)
        let s = Int64(x &<< Int32(left))
        let ab = s * Int64(mantissa)
        let nudge: Int64 = ab >= 0 ? 1 << 30 : 1 - (1 << 30)
        let h = Int32(truncatingIfNeeded: (ab + nudge) / (1 << 31))
        let mask = Int32(truncatingIfNeeded: (Int64(1) << right) - 1)
        let threshold = (mask >> 1) + (h < 0 ? 1 : 0)
        return (h >> Int32(right)) + ((h & mask) > threshold ? 1 : 0)
    }
}

func codes(signed: Bool) -> ClosedRange<Int32> { signed ? -128 ... 127 : 0 ... 255 }

/// A requantization table `clamp(MBQM(x - z_x, m) + z_y)` over every code, and the map found for it.
private func requantization(
    signed: Bool, signedOutput: Bool, zx: Int32, zy: Int32, m: Double, negative: Double?, lower: Int32, upper: Int32
) -> (table: [Int32], map: AffineByteMap?) {
    let (mp, ep) = ReferenceFixedPoint.quantize(m)
    let (mn, en) = ReferenceFixedPoint.quantize(negative ?? m)
    var table = [Int32](repeating: 0, count: 256)
    for x in codes(signed: signed) {
        let d = x - zx
        let r = d < 0 ? ReferenceFixedPoint.mbqm(d, mn, en) : ReferenceFixedPoint.mbqm(d, mp, ep)
        table[Int(UInt8(truncatingIfNeeded: x))] = min(max(r + zy, lower), upper)
    }
    let map = AffineByteMap.search(
        targets: table, signed: signed, zeroX: zx, lower: lower, upper: upper, slope: m, negativeSlope: negative)
    return (table, map)
}

@Test func affineByteMapsReproduceRequantizationTables() {
    var rng = SplitMix64(seed: 21)
    var found = 0, tried = 0
    for trial in 0 ..< 300 {
        let signed = trial % 3 != 0, signedOutput = trial % 4 != 1
        let out = codes(signed: signedOutput)
        let zx = Int32.random(in: codes(signed: signed), using: &rng)
        let zy = Int32.random(in: out, using: &rng)
        // Extreme multipliers too: a hundredth, and up to a factor of 40.
        let m = [0.011, 0.5, 1, 1.0001, 39.5].randomElement(using: &rng)! * Double.random(in: 0.5 ... 2, using: &rng)
        let negative: Double? = trial % 5 == 0 ? Double.random(in: 0.01 ... 1, using: &rng) : nil
        let lower = trial % 7 == 0 ? max(zy, out.lowerBound) : out.lowerBound
        let (table, map) = requantization(
            signed: signed, signedOutput: signedOutput, zx: zx, zy: zy, m: m, negative: negative, lower: lower,
            upper: out.upperBound)
        tried += 1
        guard let map else { continue }
        found += 1
        for x in codes(signed: signed) {
            #expect(map.apply(x) == table[Int(UInt8(truncatingIfNeeded: x))], "m \(m) zx \(zx) zy \(zy) x \(x)")
        }
    }
    // The search is allowed to fail (the runtime then keeps the table), but should rarely.
    #expect(found * 10 >= tried * 9, "maps found for \(found) of \(tried) requantizations")
}

/// `kernel` against `map.apply` on every code, at every offset 0...31 and lengths around 32.
private func checkByteKernel(
    _ name: String, signed: Bool, _ expected: (Int32) -> UInt8,
    _ kernel: (UnsafeRawPointer, UnsafeMutableRawPointer, Int) -> Void
) {
    var rng = SplitMix64(seed: 5)
    let all = (0 ..< 600).map { _ in UInt8.random(in: 0 ... 255, using: &rng) } + (0 ... 255).map { UInt8($0) }
    for offset in [0, 1, 3, 7, 16, 31] {
        for count in [all.count, 0, 1, 31, 32, 33, 63, 65] {
            let input = [UInt8](repeating: 0, count: offset) + all
            var out = [UInt8](repeating: 0xAB, count: offset + count + 40)
            input.withUnsafeBytes { xb in
                out.withUnsafeMutableBytes { kernel(xb.baseAddress! + offset, $0.baseAddress! + offset, count) }
            }
            var bad = 0
            for i in 0 ..< count {
                let code = signed ? Int32(Int8(bitPattern: all[i])) : Int32(all[i])
                if out[offset + i] != expected(code) { bad += 1 }
            }
            #expect(bad == 0, "\(name): \(bad) wrong codes (offset \(offset), count \(count))")
            #expect(out[..<offset].allSatisfy { $0 == 0xAB } && out[(offset + count)...].allSatisfy { $0 == 0xAB })
        }
    }
}

/// LEAKY_RELU's two slopes share their shifts where the search can align them (the one-chain
/// kernel) for typical LEAKY_RELU parameters (not for every pair: the search then keeps
/// separate shifts, which the two-chain kernel runs).
@Test func leakyReluMapsShareTheirShifts() {
    for (m, alpha) in [(1.818, 0.2), (1.0, 0.1), (2.5, 0.2), (1.2, 0.3)] {
        let (_, found) = requantization(
            signed: true, signedOutput: true, zx: -1, zy: -105, m: m, negative: m * alpha, lower: -128, upper: 127)
        let map = try? #require(found)
        #expect(map?.negative?.p == map?.positive.p && map?.negative?.q == map?.positive.q, "m \(m) alpha \(alpha)")
    }
}

@Test func affineByteMapKernelsMatchTheScalarMap() {
    var rng = SplitMix64(seed: 8)
    for trial in 0 ..< 60 {
        let signed = trial % 2 == 0, signedOutput = trial % 3 != 0
        let out = codes(signed: signedOutput)
        let zy = Int32.random(in: out, using: &rng)
        // Bounds inside the type's (a fused RELU) take the kernels' clamping path.
        let lower = trial % 5 == 1 ? max(zy, out.lowerBound) : out.lowerBound
        let upper = trial % 7 == 3 ? min(zy + 60, out.upperBound) : out.upperBound
        let negative: Double? =
            trial % 4 == 0 ? 0.1 : trial % 4 == 2 ? Double.random(in: 0.01 ... 0.6, using: &rng) : nil
        let (_, found) = requantization(
            signed: signed, signedOutput: signedOutput, zx: Int32.random(in: codes(signed: signed), using: &rng),
            zy: zy, m: Double.random(in: 0.02 ... 3, using: &rng), negative: negative, lower: lower, upper: upper)
        guard let map = found else { continue }
        let expected = { (x: Int32) in UInt8(truncatingIfNeeded: map.apply(x)) }
        checkByteKernel("portable", signed: signed, expected) { affineByteMapPortable($0, $1, count: $2, map) }
        #if arch(x86_64)
        if KernelLevel.host >= .avx2 {
            checkByteKernel("avx2", signed: signed, expected) { affineByteMapAVX2($0, $1, count: $2, map) }
        }
        #endif
    }
}

#if arch(x86_64)
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2"))
func lookupTableAVX2MatchesTheTable() {
    var rng = SplitMix64(seed: 9)
    for _ in 0 ..< 20 {
        let table = (0 ..< 256).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
        let rows = lookupTableQ8AVX2Rows(table)
        rows.withUnsafeBytes { r in
            checkByteKernel("vpshufb", signed: false, { table[Int($0)] }) {
                lookupTableQ8AVX2($0, $1, count: $2, r.baseAddress!)
            }
        }
    }
}

/// TFLite's 8-bit ADD, SUB, MUL and SQUARED_DIFFERENCE per element, for `binaryQ8AVX2`.
func referenceBinary(
    _ op: BinaryQ8AVX2Parameters.Operation, _ a: Int32, _ b: Int32, za: Int32, zb: Int32, zy: Int32,
    ma: (Int32, Int), mb: (Int32, Int), my: (Int32, Int), lower: Int32, upper: Int32
) -> Int32 {
    let r: Int32
    switch op {
    case .multiply:
        r = ReferenceFixedPoint.mbqm((a - za) * (b - zb), my.0, my.1)
    case .add, .subtract, .squaredDifference:
        let shift: Int32 = op == .squaredDifference ? 7 : 20
        let sa = ReferenceFixedPoint.mbqm((a - za) << shift, ma.0, ma.1)
        let sb = ReferenceFixedPoint.mbqm((b - zb) << shift, mb.0, mb.1)
        let s = op == .add ? sa + sb : sa - sb
        r = ReferenceFixedPoint.mbqm(op == .squaredDifference ? s &* s : s, my.0, my.1)
    }
    return min(max(r + zy, lower), upper)
}

@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2"))
func binaryQ8AVX2MatchesTheReferenceOnEveryCodePair() {
    var rng = SplitMix64(seed: 14)
    let operations: [BinaryQ8AVX2Parameters.Operation] = [.add, .subtract, .multiply, .squaredDifference]
    for trial in 0 ..< 32 {
        let op = operations[trial % 4], signed = trial % 8 < 4
        let range = codes(signed: signed)
        let za = Int32.random(in: range, using: &rng), zb = Int32.random(in: range, using: &rng)
        let zy = Int32.random(in: range, using: &rng)
        let sa = Double.random(in: 0.001 ... 0.1, using: &rng)
        // Equal input scales in every third trial, as residual ADDs often have.
        let sb = trial % 3 == 1 ? sa : Double.random(in: 0.001 ... 0.1, using: &rng)
        let sy = Double.random(in: 0.002 ... 0.2, using: &rng) * (op == .squaredDifference ? 0.05 : 1)
        let twiceMax = 2 * max(sa, sb)
        let ma = ReferenceFixedPoint.quantize(sa / twiceMax), mb = ReferenceFixedPoint.quantize(sb / twiceMax)
        let my: (Int32, Int)
        switch op {
        case .multiply: my = ReferenceFixedPoint.quantize(sa * sb / sy * (trial % 3 == 0 ? 300 : 1))
        case .squaredDifference: my = ReferenceFixedPoint.quantize(twiceMax * twiceMax / (16384 * sy))
        default: my = ReferenceFixedPoint.quantize(twiceMax / (1_048_576 * sy))
        }
        let lower = trial % 5 == 0 ? range.lowerBound + 20 : range.lowerBound, upper = range.upperBound
        guard
            let p = BinaryQ8AVX2Parameters(
                operation: op, signed: signed, zeroA: za, mantissaA: ma.0, exponentA: ma.1, zeroB: zb,
                mantissaB: mb.0, exponentB: mb.1, mantissaY: my.0, exponentY: my.1, zeroY: zy, lower: lower,
                upper: upper)
        else {
            Issue.record("parameters refused: \(op) \(my)")
            continue
        }
        // Every pair of codes, with an odd total so the tail is exercised.
        var a = [UInt8](), b = [UInt8]()
        for x in range {
            for y in range { a.append(UInt8(truncatingIfNeeded: x)); b.append(UInt8(truncatingIfNeeded: y)) }
        }
        a += [a[5], a[77], a[1000]]
        b += [b[5], b[77], b[1000]]
        func want(_ x: UInt8, _ y: UInt8) -> UInt8 {
            let cx = signed ? Int32(Int8(bitPattern: x)) : Int32(x), cy = signed ? Int32(Int8(bitPattern: y)) : Int32(y)
            return UInt8(
                truncatingIfNeeded: referenceBinary(
                    op, cx, cy, za: za, zb: zb, zy: zy, ma: ma, mb: mb, my: my, lower: lower, upper: upper))
        }
        var out = [UInt8](repeating: 0, count: a.count)
        a.withUnsafeBytes { pa in
            b.withUnsafeBytes { pb in
                out.withUnsafeMutableBytes {
                    binaryQ8AVX2(pa.baseAddress!, 1, pb.baseAddress!, 1, $0.baseAddress!, count: a.count, p)
                }
            }
        }
        let wrong = (0 ..< a.count).filter { out[$0] != want(a[$0], b[$0]) }
        #expect(wrong.isEmpty, "\(op) signed \(signed): \(wrong.count) wrong, first at \(wrong.first ?? -1)")
        // Broadcast operands: a single code on either side, odd lengths.
        for count in [1, 31, 33, 100] {
            let code = a[count * 7]
            var broadcast = [UInt8](repeating: 0, count: count), scalarFirst = [UInt8](repeating: 0, count: count)
            [code].withUnsafeBytes { pc in
                a.withUnsafeBytes { pa in
                    broadcast.withUnsafeMutableBytes {
                        binaryQ8AVX2(pa.baseAddress!, 1, pc.baseAddress!, 0, $0.baseAddress!, count: count, p)
                    }
                    scalarFirst.withUnsafeMutableBytes {
                        binaryQ8AVX2(pc.baseAddress!, 0, pa.baseAddress!, 1, $0.baseAddress!, count: count, p)
                    }
                }
            }
            #expect(
                (0 ..< count).allSatisfy { broadcast[$0] == want(a[$0], code) && scalarFirst[$0] == want(code, a[$0]) })
        }
    }
}

/// QUANTIZE from float: the reference divides, rounds half away from zero, adds the zero
/// point and clamps; exact ties and values a rounding away from ties included.
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2"))
func quantizeF32AVX2MatchesTheReference() {
    var rng = SplitMix64(seed: 17)
    for trial in 0 ..< 24 {
        let signed = trial % 2 == 0
        let scale = Float.random(in: 0.001 ... 0.3, using: &rng) * (trial % 5 == 0 ? 1000 : 1)
        let zero = Int32.random(in: codes(signed: signed), using: &rng)
        var x = (0 ..< 3000).map { _ in Float.random(in: -300 ... 300, using: &rng) * scale }
        for k in -600 ... 600 { // ties k/2, and their neighbours
            let t = Float(k) * 0.5 * scale
            x += [t, t.nextUp, t.nextDown]
        }
        x += [
            .nan, .infinity, -.infinity, 0, -0.0, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .leastNonzeroMagnitude * 7,
        ]
        func want(_ v: Float) -> UInt8 {
            let q = v / scale
            var r: Int32
            if q.isNaN {
                r = 0
            } else if q >= 4_194_303 {
                r = 4_194_303
            } else if q <= -4_194_303 {
                r = -4_194_303
            } else {
                r = Int32(q.rounded(.toNearestOrAwayFromZero))
            }
            let range = codes(signed: signed)
            return UInt8(truncatingIfNeeded: min(max(r + zero, range.lowerBound), range.upperBound))
        }
        for offset in [0, 3] {
            let count = x.count - offset
            var out = [UInt8](repeating: 0, count: count)
            x.withUnsafeBufferPointer { xb in
                out.withUnsafeMutableBytes {
                    quantizeF32AVX2(
                        xb.baseAddress! + offset, $0.baseAddress!, count: count, scale: scale, reciprocal: 1 / scale,
                        zeroPoint: zero, signed: signed)
                }
            }
            let wrong = (0 ..< count).filter { out[$0] != want(x[offset + $0]) }
            #expect(
                wrong.isEmpty,
                "scale \(scale) zero \(zero): \(wrong.count) wrong, e.g. \(wrong.prefix(3).map { x[offset + $0] })")
        }
    }
}

/// A camera image normalized as `(p − 127.5)/127.5` and quantized with scale `1/127.5`:
/// every value is a tie of `x/s`, so every step takes the exact path.
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2"))
func quantizeF32AVX2RoundsNormalizedPixelsLikeTheReference() {
    let cases: [(scale: Float, zero: Int32, signed: Bool)] = [
        (1 / 127.5, 0, true), (2.0 / 255, -1, true), (1 / 127.5, 128, false),
    ]
    for (scale, zero, signed) in cases {
        let x: [Float] = (0 ..< 3 * 256 + 5).map { i in (Float(i % 256) - 127.5) / 127.5 }
        var out = [UInt8](repeating: 0, count: x.count)
        x.withUnsafeBufferPointer { xb in
            out.withUnsafeMutableBytes {
                quantizeF32AVX2(
                    xb.baseAddress!, $0.baseAddress!, count: x.count, scale: scale, reciprocal: 1 / scale,
                    zeroPoint: zero, signed: signed)
            }
        }
        let range = codes(signed: signed)
        let want: [UInt8] = x.map { v in
            let q: Int32 = Int32((v / scale).rounded(.toNearestOrAwayFromZero)) + zero
            return UInt8(truncatingIfNeeded: min(max(q, range.lowerBound), range.upperBound))
        }
        #expect(
            out == want, "scale \(scale) zero \(zero): \((0 ..< x.count).filter { out[$0] != want[$0] }.count) wrong")
    }
}

@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2"))
func dequantizeQ8AVX2MatchesTheDoubleReference() {
    for signed in [true, false] {
        for (scale, zero) in [(Float(0.0123), Int32(-7)), (1 / 256, 128), (3.7, 0), (1e-30, 255)] {
            let all = (0 ... 255).map { UInt8($0) } + [1, 2, 3, 200, 201]
            for count in [all.count, 1, 7, 9] {
                var y = [Float](repeating: 0, count: count)
                all.withUnsafeBytes { xb in
                    y.withUnsafeMutableBufferPointer {
                        dequantizeQ8AVX2(
                            xb.baseAddress!, $0.baseAddress!, count: count, scale: scale, zeroPoint: zero,
                            signed: signed)
                    }
                }
                for i in 0 ..< count {
                    let code = signed ? Double(Int8(bitPattern: all[i])) : Double(all[i])
                    #expect(y[i] == Float(Double(scale) * (code - Double(zero))))
                }
            }
        }
    }
}
#endif

#if arch(x86_64)
/// The 8-bit column and row sums of the MEAN/SUM kernels against plain wrapping loops:
/// every count around the block widths, both code types, rows far apart.
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2"))
func sumRowsQ8AVX2MatchesPlainSums() {
    var rng = SplitMix64(seed: 31)
    for signed in [true, false] {
        for (rows, count) in [(1, 1), (3, 7), (49, 1280), (5, 33), (2, 40), (7, 63), (1, 256), (13, 9)] {
            let stride = count + 5
            let x = (0 ..< rows * stride).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            let code = { (b: UInt8) -> Int32 in signed ? Int32(Int8(bitPattern: b)) : Int32(b) }
            let want = (0 ..< count).map { t in (0 ..< rows).reduce(Int32(0)) { $0 &+ code(x[$1 * stride + t]) } }
            var got = [Int32](repeating: 7, count: count)
            x.withUnsafeBytes { xb in
                got.withUnsafeMutableBufferPointer {
                    sumRowsQ8AVX2(
                        xb.baseAddress!, rowStride: stride, rows: rows, count: count, signed: signed,
                        into: $0.baseAddress!)
                }
            }
            #expect(got == want, "rows \(rows) count \(count) signed \(signed)")
            for length in [0, 1, 15, 16, 31, 32, 33, 95, stride] where length <= x.count {
                let rowWant = x.prefix(length).reduce(Int32(0)) { $0 &+ code($1) }
                let rowGot = x.withUnsafeBytes { sumRowQ8AVX2($0.baseAddress!, count: length, signed: signed) }
                #expect(rowGot == rowWant, "row of \(length), signed \(signed)")
            }
        }
    }
}
#endif
