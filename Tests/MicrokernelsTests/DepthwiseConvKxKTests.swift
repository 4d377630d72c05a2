import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX2
#endif

@Test func depthwiseKxKRowInteriorNeedsNoPadding() {
    // 9 inputs, 5 taps, stride 1, pad 2: outputs 2...6 read inputs 0...8 only.
    #expect(DepthwiseKxKRow.interior(output: 9, input: 9, stride: 1, pad: 2, size: 5) == 2 ..< 7)
    // Stride 2, pad 0 (VALID): 11 inputs give 4 outputs, all interior.
    #expect(DepthwiseKxKRow.interior(output: 4, input: 11, stride: 2, pad: 0, size: 5) == 0 ..< 4)
    // Stride 2, pad 1: output 0 reads input -1; output 3 reads 5...9.
    #expect(DepthwiseKxKRow.interior(output: 5, input: 10, stride: 2, pad: 1, size: 5) == 1 ..< 4)
    // A row narrower than the window has none.
    #expect(DepthwiseKxKRow.interior(output: 4, input: 4, stride: 1, pad: 2, size: 5).isEmpty)
    // The 3×3 rows use the same rule.
    #expect(Depthwise3x3Row.interior(output: 8, input: 8, stride: 1, pad: 1) == 1 ..< 7)
}

/// One case of the 5×5 row kernels: a slice of `channels` channels at `offset` within
/// pixels of `pixelStride`, padding `padLeft` and `padRight`, and which of the five input
/// rows are in the padding.
private struct KxKCase: CustomStringConvertible {
    var channels: Int, pixelStride: Int, offset: Int
    var inputWidth: Int, stride: Int, padLeft: Int, padRight: Int
    var padded: [Bool]
    var channelsOutside: Bool

    var outputWidth: Int { (inputWidth + padLeft + padRight - 5) / stride + 1 }
    var shape: DepthwiseKxKRow {
        DepthwiseKxKRow(
            size: 5, channels: channels, pixelStride: pixelStride, inputWidth: inputWidth, outputWidth: outputWidth,
            stride: stride, padLeft: padLeft)
    }
    var description: String {
        "C \(channels)/\(pixelStride)+\(offset) W \(inputWidth) stride \(stride) pad \(padLeft),\(padRight) "
            + "padded rows \(padded) channelsOutside \(channelsOutside)"
    }

    /// Every combination the tests run: channel counts around the 4- and 8-wide blocks and
    /// their tails, widths with no interior, fewer than one tile and several tiles, both
    /// strides, padding at every edge (left, right, rows above and below), a channel slice,
    /// and both loop orders.
    static var all: [KxKCase] {
        var cases: [KxKCase] = []
        let rowPatterns: [[Bool]] = [
            [false, false, false, false, false], [true, true, false, false, false], [false, false, false, false, true],
            [true, false, false, true, true],
        ]
        for (channels, pixelStride, offset) in [
            (1, 1, 0), (3, 3, 0), (8, 8, 0), (13, 13, 0), (16, 24, 8), (21, 21, 0), (31, 31, 0), (33, 40, 0),
        ] {
            for inputWidth in [1, 4, 5, 6, 9, 13, 18] {
                for stride in [1, 2] {
                    for (padLeft, padRight) in [(0, 0), (2, 2), (1, 2), (2, 1)]
                    where inputWidth + padLeft + padRight >= 5 {
                        for padded in rowPatterns {
                            for channelsOutside in [false, true] {
                                cases.append(
                                    KxKCase(
                                        channels: channels, pixelStride: pixelStride, offset: offset,
                                        inputWidth: inputWidth, stride: stride, padLeft: padLeft, padRight: padRight,
                                        padded: padded, channelsOutside: channelsOutside))
                            }
                        }
                    }
                }
            }
        }
        return cases
    }
}

/// Input rows in exactly-sized allocations (so a read past a row's end would touch another
/// allocation), padded rows pointing at the fill row, all at the slice's first channel.
private final class KxKRows<T> {
    let rows: [UnsafeMutableBufferPointer<T>]
    let fill: UnsafeMutableBufferPointer<T>
    let pointers: UnsafeMutableBufferPointer<UnsafePointer<T>>

    init(_ k: KxKCase, values: [[T]], fill value: T) {
        rows = values.map { v in
            let b = UnsafeMutableBufferPointer<T>.allocate(capacity: v.count)
            _ = b.initialize(from: v)
            return b
        }
        fill = .allocate(capacity: k.inputWidth * k.pixelStride)
        fill.initialize(repeating: value)
        pointers = .allocate(capacity: 5)
        for i in 0 ..< 5 {
            pointers[i] = UnsafePointer((k.padded[i] ? fill : rows[i]).baseAddress! + k.offset)
        }
    }

    deinit {
        rows.forEach { $0.deallocate() }
        fill.deallocate()
        pointers.deallocate()
    }

    func value(_ k: KxKCase, row: Int, column ix: Int, channel c: Int) -> T? {
        guard !k.padded[row], ix >= 0, ix < k.inputWidth else { return nil }
        return rows[row][ix * k.pixelStride + k.offset + c]
    }
}

private typealias F32RowKernel = (
    DepthwiseKxKRow, Bool, UnsafePointer<UnsafePointer<Float>>, UnsafePointer<Float>, UnsafePointer<Float>,
    UnsafePointer<Float>?, Float, Float, UnsafeMutablePointer<Float>
) -> Void
private typealias Q8RowKernel = (
    DepthwiseKxKRow, Bool, Bool, UnsafePointer<UnsafePointer<UInt8>>, UnsafePointer<UInt8>, UnsafePointer<Int32>,
    UnsafeMutablePointer<Int32>
) -> Void

private func f32Kernels() -> [(String, F32RowKernel)] {
    var kernels: [(String, F32RowKernel)] = [("portable", depthwiseConv5x5F32Portable)]
    #if arch(x86_64)
    if KernelLevel.host >= .avx2 { kernels.append(("avx2", depthwiseConv5x5F32AVX2)) }
    #endif
    return kernels
}

private func q8Kernels() -> [(String, Q8RowKernel)] {
    var kernels: [(String, Q8RowKernel)] = [("portable", depthwiseConv5x5Q8Portable)]
    #if arch(x86_64)
    if KernelLevel.host >= .avx2 { kernels.append(("avx2", depthwiseConv5x5Q8AVX2)) }
    #endif
    return kernels
}

/// Float rows, with and without bias and clamp, against the definition in Double (taps in
/// the padding skipped); the output outside the slice and past the row must stay untouched.
@Test(arguments: [false, true])
func depthwiseConv5x5F32MatchesDefinition(epilogue: Bool) {
    var rng = SplitMix64(seed: epilogue ? 77 : 78)
    for (level, kernel) in f32Kernels() {
        for k in KxKCase.all {
            let rowLength = k.inputWidth * k.pixelStride
            let values = (0 ..< 5).map { _ in (0 ..< rowLength).map { _ in Float.random(in: -1 ... 1, using: &rng) } }
            let w = (0 ..< 25 * k.pixelStride).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let bias = (0 ..< k.pixelStride).map { _ in Float.random(in: -1 ... 1, using: &rng) }
            let (lower, upper): (Float, Float) = epilogue ? (-1.5, 2) : (-.infinity, .infinity)
            let rows = KxKRows(k, values: values, fill: 0)
            let outCount = k.outputWidth * k.pixelStride
            var out = [Float](repeating: 1234, count: outCount + 9)
            w.withUnsafeBufferPointer { wp in
                bias.withUnsafeBufferPointer { bp in
                    out.withUnsafeMutableBufferPointer { op in
                        kernel(
                            k.shape, k.channelsOutside, UnsafePointer(rows.pointers.baseAddress!),
                            UnsafePointer(rows.fill.baseAddress! + k.offset), wp.baseAddress! + k.offset,
                            epilogue ? bp.baseAddress! + k.offset : nil, lower, upper, op.baseAddress! + k.offset)
                    }
                }
            }
            var worst: Double = 0, untouched = true
            for ox in 0 ..< k.outputWidth {
                for c in 0 ..< k.pixelStride {
                    let got = out[ox * k.pixelStride + c]
                    guard c >= k.offset, c < k.offset + k.channels else {
                        untouched = untouched && got == 1234
                        continue
                    }
                    var sum: Double = 0
                    for ky in 0 ..< 5 {
                        for kx in 0 ..< 5 {
                            guard
                                let x = rows.value(
                                    k, row: ky, column: ox * k.stride - k.padLeft + kx, channel: c - k.offset)
                            else { continue }
                            sum += Double(x) * Double(w[(ky * 5 + kx) * k.pixelStride + c])
                        }
                    }
                    if epilogue { sum = Swift.min(Swift.max(sum + Double(bias[c]), Double(lower)), Double(upper)) }
                    worst = Swift.max(worst, abs(Double(got) - sum))
                }
            }
            #expect(worst <= 2e-5, "\(level) \(k): max difference \(worst)")
            #expect(untouched && out[outCount...].allSatisfy { $0 == 1234 }, "\(level) \(k): wrote outside the slice")
        }
    }
}

/// 8-bit rows with extreme zero points (codes and weights at the ends of their ranges
/// included): the kernel's all-tap sum, padding reading `zx`, minus `zx·Σ w` must equal
/// TFLite's in-image sum of `(x - zx)·(w - zw)` exactly.
@Test(arguments: [
    (true, Int32(-128), Int32(0)), (true, 127, 0), (true, 5, 0), (false, 0, 255), (false, 255, 0),
    (false, 128, 77),
])
func depthwiseConv5x5Q8MatchesReference(signed: Bool, zx: Int32, zw: Int32) {
    var rng = SplitMix64(seed: UInt64(bitPattern: Int64(zx * 1000 + zw)) &+ (signed ? 1 : 2))
    let codes: ClosedRange<Int32> = signed ? -128 ... 127 : 0 ... 255
    func code() -> Int32 {
        // A third of the codes at the range's ends, where the products are largest.
        switch Int.random(in: 0 ..< 6, using: &rng) {
        case 0: return codes.lowerBound
        case 1: return codes.upperBound
        default: return Int32.random(in: codes, using: &rng)
        }
    }
    for (level, kernel) in q8Kernels() {
        for k in KxKCase.all {
            let rowLength = k.inputWidth * k.pixelStride
            let values = (0 ..< 5).map { _ in (0 ..< rowLength).map { _ in UInt8(truncatingIfNeeded: code()) } }
            let w = (0 ..< 25 * k.pixelStride).map { _ in code() &- zw }
            let rows = KxKRows(k, values: values, fill: UInt8(truncatingIfNeeded: zx))
            let outCount = k.outputWidth * k.pixelStride
            var out = [Int32](repeating: 1234, count: outCount + 9)
            w.withUnsafeBufferPointer { wp in
                out.withUnsafeMutableBufferPointer { op in
                    kernel(
                        k.shape, signed, k.channelsOutside, UnsafePointer(rows.pointers.baseAddress!),
                        UnsafePointer(rows.fill.baseAddress! + k.offset), wp.baseAddress! + k.offset,
                        op.baseAddress! + k.offset)
                }
            }
            var mismatches = 0, untouched = true
            for ox in 0 ..< k.outputWidth {
                for c in 0 ..< k.pixelStride {
                    let got = out[ox * k.pixelStride + c]
                    guard c >= k.offset, c < k.offset + k.channels else {
                        untouched = untouched && got == 1234
                        continue
                    }
                    var expected: Int32 = 0, weightSum: Int32 = 0
                    for ky in 0 ..< 5 {
                        for kx in 0 ..< 5 {
                            let wt = w[(ky * 5 + kx) * k.pixelStride + c]
                            weightSum &+= wt
                            guard
                                let b = rows.value(
                                    k, row: ky, column: ox * k.stride - k.padLeft + kx, channel: c - k.offset)
                            else { continue }
                            let x = signed ? Int32(Int8(bitPattern: b)) : Int32(b)
                            expected &+= (x &- zx) &* wt
                        }
                    }
                    if got &- zx &* weightSum != expected { mismatches += 1 }
                }
            }
            #expect(mismatches == 0, "\(level) \(k): \(mismatches) sums differ")
            #expect(untouched && out[outCount...].allSatisfy { $0 == 1234 }, "\(level) \(k): wrote outside the slice")
        }
    }
}
