import Microkernels
import SeededRandom
import Testing

#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// TFLite's 8-bit pools over one output pixel and channel, in the plainest form.
private func referencePool(
    _ x: [Int32], _ g: PoolGeometry, _ oy: Int, _ ox: Int, _ c: Int, average: Bool, signed: Bool, lower: Int32,
    upper: Int32
) -> Int32 {
    let ys = PoolGeometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
    let xs = PoolGeometry.window(ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
    var sum: Int32 = 0, top = Int32.min
    for iy in ys {
        for ix in xs {
            let v = x[(iy * g.inW + ix) * g.channels + c]
            sum += v
            top = max(top, v)
        }
    }
    let n = Int32(ys.count * xs.count)
    let v = average ? (signed && sum <= 0 ? (sum - n / 2) / n : (sum + n / 2) / n) : top
    return min(max(v, lower), upper)
}

/// The pooling loops of every level the CPU runs against the reference: odd channel
/// counts, clipped windows, both code types and clamps inside the code range.
@Test func poolLoopsMatchTheReferenceAtEveryLevel() {
    var rng = SplitMix64(seed: 23)
    for trial in 0 ..< 36 {
        let signed = trial % 2 == 0, average = trial % 4 < 2
        let channels = [1, 3, 5, 12, 17, 28, 33, 64, 70][trial % 9]
        let filter = 2 + trial % 3, stride = 1 + trial % 2, pad = trial % 3 == 0 ? 1 : 0
        let inH = 7 + trial % 4, inW = 9 - trial % 3
        let outH = (inH + 2 * pad - filter) / stride + 1, outW = (inW + 2 * pad - filter) / stride + 1
        let g = PoolGeometry(
            inH: inH, inW: inW, channels: channels, outH: outH, outW: outW, filterH: filter, filterW: filter,
            strideH: stride, strideW: stride, padTop: pad, padLeft: pad)
        let range: ClosedRange<Int32> = signed ? -128 ... 127 : 0 ... 255
        let lower = trial % 5 == 0 ? range.lowerBound + 30 : range.lowerBound
        let upper = trial % 7 == 0 ? range.upperBound - 40 : range.upperBound
        let codes = (0 ..< inH * inW * channels).map { _ in Int32.random(in: range, using: &rng) }
        let bytes = codes.map { UInt8(truncatingIfNeeded: $0) }
        var want = [UInt8]()
        for oy in 0 ..< outH {
            for ox in 0 ..< outW {
                for c in 0 ..< channels {
                    want.append(
                        UInt8(
                            truncatingIfNeeded: referencePool(
                                codes, g, oy, ox, c, average: average, signed: signed, lower: lower, upper: upper)))
                }
            }
        }
        typealias Kernel = (UnsafeRawPointer, UnsafeMutableRawPointer, UnsafeMutablePointer<Int32>) -> Void
        var kernels: [(String, Kernel)] = [
            (
                "portable",
                { x, y, sums in
                    if average {
                        averagePoolQ8Portable(
                            x, y, g, rows: 0 ..< outH, signed: signed, lower: lower, upper: upper, sums: sums)
                    } else {
                        maxPoolQ8Portable(x, y, g, rows: 0 ..< outH, signed: signed, lower: lower, upper: upper)
                    }
                }
            )
        ]
        #if arch(x86_64)
        if KernelLevel.host >= .avx2 {
            kernels.append(
                (
                    "avx2",
                    { x, y, sums in
                        if average {
                            averagePoolQ8AVX2(
                                x, y, g, rows: 0 ..< outH, signed: signed, lower: lower, upper: upper, sums: sums)
                        } else {
                            maxPoolQ8AVX2(x, y, g, rows: 0 ..< outH, signed: signed, lower: lower, upper: upper)
                        }
                    }
                ))
        }
        #endif
        for (name, kernel) in kernels {
            var out = [UInt8](repeating: 0, count: want.count)
            var sums = [Int32](repeating: 0, count: channels)
            bytes.withUnsafeBytes { xb in
                out.withUnsafeMutableBytes { yb in
                    sums.withUnsafeMutableBufferPointer { kernel(xb.baseAddress!, yb.baseAddress!, $0.baseAddress!) }
                }
            }
            #expect(out == want, "\(name) trial \(trial): average \(average) signed \(signed) channels \(channels)")
        }
    }
}

/// The 8-bit average pool at its limits: windows up to the 64 pixels of the direct loops
/// (the `Int16` sums' bound), every input the lowest or the highest code or random, and
/// every channel count from 1 to 40 (each partial block of 32 and of 8).
@Test func averagePoolQ8AtTheExtremesMatchesTheReference() {
    var rng = SplitMix64(seed: 29)
    for trial in 0 ..< 40 {
        let signed = trial % 2 == 0, channels = 1 + trial
        let filter = [3, 8, 5, 7][trial % 4], pad = trial % 3
        let inH = 9, inW = 10
        let outH = (inH + 2 * pad - filter) + 1, outW = (inW + 2 * pad - filter) + 1
        let g = PoolGeometry(
            inH: inH, inW: inW, channels: channels, outH: outH, outW: outW, filterH: filter, filterW: filter,
            strideH: 1, strideW: 1, padTop: pad, padLeft: pad)
        let range: ClosedRange<Int32> = signed ? -128 ... 127 : 0 ... 255
        let codes = (0 ..< inH * inW * channels).map { i -> Int32 in
            switch (trial / 2) % 3 {
            case 0: return range.lowerBound
            case 1: return range.upperBound
            default: return i % 5 == 0 ? range.lowerBound : Int32.random(in: range, using: &rng)
            }
        }
        let bytes = codes.map { UInt8(truncatingIfNeeded: $0) }
        var want = [UInt8]()
        for oy in 0 ..< outH {
            for ox in 0 ..< outW {
                for c in 0 ..< channels {
                    want.append(
                        UInt8(
                            truncatingIfNeeded: referencePool(
                                codes, g, oy, ox, c, average: true, signed: signed, lower: range.lowerBound,
                                upper: range.upperBound)))
                }
            }
        }
        var out = [UInt8](repeating: 0, count: want.count)
        var sums = [Int32](repeating: 0, count: channels)
        bytes.withUnsafeBytes { xb in
            out.withUnsafeMutableBytes { yb in
                sums.withUnsafeMutableBufferPointer { s in
                    #if arch(x86_64)
                    if KernelLevel.host >= .avx2 {
                        averagePoolQ8AVX2(
                            xb.baseAddress!, yb.baseAddress!, g, rows: 0 ..< outH, signed: signed,
                            lower: range.lowerBound, upper: range.upperBound, sums: s.baseAddress!)
                        return
                    }
                    #endif
                    averagePoolQ8Portable(
                        xb.baseAddress!, yb.baseAddress!, g, rows: 0 ..< outH, signed: signed,
                        lower: range.lowerBound, upper: range.upperBound, sums: s.baseAddress!)
                }
            }
        }
        #expect(out == want, "trial \(trial): signed \(signed) channels \(channels) filter \(filter)")
    }
}

/// The float pools of every level against the portable loops, bit for bit: channel
/// counts that leave every partial block, clipped windows, a clamp, and NaN and infinite
/// inputs (the max pool skips a NaN, as by the scalar rule `v > m ? v : m`; the average
/// carries it, as the scalar sum does).
@Test(arguments: [false, true])
func floatPoolMatchesThePortableLoopsAtEveryLevel(average: Bool) {
    var rng = SplitMix64(seed: 41)
    for trial in 0 ..< 20 {
        let channels = [1, 3, 4, 6, 8, 11, 28, 32, 37, 64][trial % 10]
        let filter = 2 + trial % 2, stride = 1 + trial % 2, pad = trial % 3 == 0 ? 1 : 0
        let inH = 6 + trial % 3, inW = 7 + trial % 2
        let outH = (inH + 2 * pad - filter) / stride + 1, outW = (inW + 2 * pad - filter) / stride + 1
        let g = PoolGeometry(
            inH: inH, inW: inW, channels: channels, outH: outH, outW: outW, filterH: filter, filterW: filter,
            strideH: stride, strideW: stride, padTop: pad, padLeft: pad)
        let x: [Float] = (0 ..< inH * inW * channels).map { i in
            switch i % 53 {
            case 7: return .nan
            case 19: return -.infinity
            case 31: return .infinity
            default:
                return average
                    ? Float.random(in: -16 ... 16, using: &rng)
                    : Float(Int.random(in: -1000 ... 1000, using: &rng)) / 64
            }
        }
        let upper: Float = trial % 4 == 1 ? 6 : .infinity
        let lower: Float = trial % 4 == 1 ? 0 : -.greatestFiniteMagnitude
        var want = [Float](repeating: 0, count: outH * outW * channels)
        x.withUnsafeBufferPointer { xb in
            want.withUnsafeMutableBufferPointer { yb in
                poolF32Portable(
                    average: average, xb.baseAddress!, yb.baseAddress!, g, rows: 0 ..< outH, lower: lower,
                    upper: upper)
            }
        }
        #if arch(x86_64)
        if KernelLevel.host >= .avx2 {
            var got = [Float](repeating: 1, count: want.count)
            x.withUnsafeBufferPointer { xb in
                got.withUnsafeMutableBufferPointer { yb in
                    poolF32AVX2(
                        average: average, xb.baseAddress!, yb.baseAddress!, g, rows: 0 ..< outH, lower: lower,
                        upper: upper)
                }
            }
            #expect(got.map(\.bitPattern) == want.map(\.bitPattern), "trial \(trial): channels \(channels)")
        }
        #endif
        if !average { #expect(!want.contains { $0.isNaN }, "trial \(trial): a NaN input reached the output") }
    }
}

/// One int8 bilinear row of every level against TFLite's Int64 form, with the border
/// weights that half-pixel centers make (below 0 and up to 1.5 in units of 2^10).
@Test func bilinearRowS8MatchesTheInt64ReferenceAtEveryLevel() {
    var rng = SplitMix64(seed: 29)
    for trial in 0 ..< 16 {
        let depth = [1, 3, 16, 31, 33, 64, 100, 128][trial % 8], inWidth = 6, width = 11
        let top = (0 ..< inWidth * depth).map { _ in Int8.random(in: -128 ... 127, using: &rng) }
        let bottom = (0 ..< inWidth * depth).map { _ in Int8.random(in: -128 ... 127, using: &rng) }
        let lower = (0 ..< width).map { _ in Int.random(in: 0 ..< inWidth, using: &rng) }
        let upper = lower.map { Swift.min($0 + 1, inWidth - 1) }
        let weights = (0 ..< width).map { _ in Int64.random(in: -512 ... 1535, using: &rng) }
        let ty = Int32.random(in: -512 ... 1535, using: &rng)
        var want = [Int8]()
        for ox in 0 ..< width {
            let tx = weights[ox], ux = 1024 - tx, t = Int64(ty), u = 1024 - t
            for c in 0 ..< depth {
                let l = lower[ox] * depth + c, r = upper[ox] * depth + c
                let sum =
                    Int64(top[l]) * u * ux + Int64(bottom[l]) * t * ux + Int64(top[r]) * u * tx + Int64(bottom[r]) * t
                    * tx
                want.append(Int8(truncatingIfNeeded: (sum + (sum > 0 ? 1 << 19 : -(1 << 19))) / (1 << 20)))
            }
        }
        typealias Row = (
            UnsafePointer<Int8>, UnsafePointer<Int8>, UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Int64>,
            UnsafeMutablePointer<Int8>
        ) -> Void
        var rows: [(String, Row)] = [
            (
                "portable",
                {
                    bilinearRowS8Portable(
                        $0, $1, ty: ty, lower: $2, upper: $3, weights: $4, width: width, depth: depth, $5)
                }
            )
        ]
        #if arch(x86_64)
        if KernelLevel.host >= .avx2 {
            rows.append(
                (
                    "avx2",
                    {
                        bilinearRowS8AVX2(
                            $0, $1, ty: ty, lower: $2, upper: $3, weights: $4, width: width, depth: depth, $5)
                    }
                ))
        }
        #endif
        for (name, row) in rows {
            var out = [Int8](repeating: 0, count: want.count)
            top.withUnsafeBufferPointer { t in
                bottom.withUnsafeBufferPointer { b in
                    lower.withUnsafeBufferPointer { lo in
                        upper.withUnsafeBufferPointer { up in
                            weights.withUnsafeBufferPointer { w in
                                out.withUnsafeMutableBufferPointer {
                                    row(
                                        t.baseAddress!, b.baseAddress!, lo.baseAddress!, up.baseAddress!,
                                        w.baseAddress!, $0.baseAddress!)
                                }
                            }
                        }
                    }
                }
            }
            #expect(out == want, "\(name) trial \(trial): depth \(depth)")
        }
    }
}
