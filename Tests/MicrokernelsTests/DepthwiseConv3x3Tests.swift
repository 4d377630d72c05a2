import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#endif

@Test func depthwise3x3RowInteriorNeedsNoPadding() {
    // 8 inputs, stride 1, pad 1: outputs 1...6 read inputs 0...7 only.
    #expect(Depthwise3x3Row.interior(output: 8, input: 8, stride: 1, pad: 1) == 1 ..< 7)
    // Stride 2, pad 0 (VALID): every output; 7 inputs give 3 outputs.
    #expect(Depthwise3x3Row.interior(output: 3, input: 7, stride: 2, pad: 0) == 0 ..< 3)
    // Stride 2, pad 1: output 0 reads input -1.
    #expect(Depthwise3x3Row.interior(output: 4, input: 8, stride: 2, pad: 1) == 1 ..< 4)
    // A row narrower than the window has none.
    #expect(Depthwise3x3Row.interior(output: 2, input: 2, stride: 1, pad: 1).isEmpty)
}

#if arch(x86_64)
/// Runs the row kernel of `level` on random rows (`integers`: centered 8-bit codes and the exact
/// kernel's start value, else floats with a bias and a clamp), each of the three rows
/// present or in the padding, and compares with ``referenceRow``. The output buffer has
/// sentinels after the row, which the kernel must leave alone.
private func checkRow(
    level: KernelLevel, channels: Int, inputWidth: Int, stride: Int, padLeft: Int, rowRuns: Bool, present: [Bool],
    integers: Bool, seed: UInt64
) {
    var rng = SplitMix64(seed: seed)
    let outputWidth = Swift.max(0, (inputWidth + 2 * padLeft - 3) / stride + 1)
    let s = Depthwise3x3Row(
        channels: channels, inputWidth: inputWidth, outputWidth: outputWidth, stride: stride, padLeft: padLeft)
    func values(_ n: Int) -> [Float] {
        (0 ..< n).map { _ in
            integers ? Float(Int.random(in: -255 ... 255, using: &rng)) : Float.random(in: -1 ... 1, using: &rng)
        }
    }
    let rows: [[Float]?] = present.map { $0 ? values(inputWidth * channels) : nil }
    let w = values(9 * channels)
    let bias: [Float]? = integers ? nil : values(channels)
    let start: Float = integers ? 12_582_912 : 0
    let (lower, upper): (Float, Float) = integers ? (-.infinity, .infinity) : (-0.75, 0.5)
    let expected = referenceDepthwiseRow(s, rows: rows, w: w, start: start, bias: bias, lower: lower, upper: upper)
    let zeros = [Float](repeating: 0, count: channels)
    var out = [Float](repeating: 1234, count: outputWidth * channels + 9)
    // Rows in exactly-sized arrays, so a read past a row's end would touch another allocation.
    let buffers = rows.map { r in
        r.map { v -> UnsafeMutableBufferPointer<Float> in
            let b = UnsafeMutableBufferPointer<Float>.allocate(capacity: v.count)
            _ = b.initialize(from: v)
            return b
        }
    }
    defer { buffers.forEach { $0?.deallocate() } }
    func pointer(_ i: Int) -> UnsafePointer<Float>? { buffers[i].flatMap { $0.baseAddress.map { UnsafePointer($0) } } }
    w.withUnsafeBufferPointer { wp in
        zeros.withUnsafeBufferPointer { zp in
            out.withUnsafeMutableBufferPointer { op in
                (bias ?? []).withUnsafeBufferPointer { bp in
                    let kernel = level >= .avx512 ? depthwiseConv3x3F32AVX512 : depthwiseConv3x3F32AVX2
                    kernel(
                        s, rowRuns, pointer(0), pointer(1), pointer(2), zp.baseAddress!, wp.baseAddress!, start,
                        bias == nil ? nil : bp.baseAddress, lower, upper, op.baseAddress!)
                }
            }
        }
    }
    let what =
        "\(level) C \(channels) W \(inputWidth) stride \(stride) pad \(padLeft) rowRuns \(rowRuns) rows \(present)"
    let got = Array(out[0 ..< expected.count])
    if integers {
        #expect(got == expected, "\(what): exact sums")
    } else {
        let worst = zip(got, expected).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= 1e-5, "\(what): max difference \(worst)")
    }
    #expect(out[expected.count...].allSatisfy { $0 == 1234 }, "\(what): wrote past the row")
}

@Test(
    .enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"),
    arguments: [KernelLevel.avx2, .avx512], [false, true])
func depthwiseConv3x3F32MatchesDefinition(level: KernelLevel, integers: Bool) {
    guard level <= KernelLevel.host else { return }
    var seed: UInt64 = integers ? 5000 : 0
    // Channel counts around the 8- and 16-wide blocks and the masked tails; widths with and
    // without interior pixels; SAME-like and VALID padding.
    for channels in KernelCases.depthwiseChannels {
        for inputWidth in KernelCases.depthwiseWidths {
            for stride in [1, 2] {
                for padLeft in [0, 1] where inputWidth + 2 * padLeft >= 3 {
                    for rowRuns in [false, true] {
                        for present in KernelCases.depthwiseRowsPresent {
                            seed += 1
                            checkRow(
                                level: level, channels: channels, inputWidth: inputWidth, stride: stride,
                                padLeft: padLeft,
                                rowRuns: rowRuns, present: present, integers: integers, seed: seed)
                        }
                    }
                }
            }
        }
    }
}
#endif

#if arch(x86_64)
/// The AVX-512 pair layout: per 32 channels and pair of taps, channels 0-7 and 16-23 in the
/// first vector, 8-15 and 24-31 in the second, tap `a` in the low and `b` in the high 16
/// bits, the ninth tap alone, channels past `C` zero.
@Test func depthwise3x3Q8PairLayoutPlacesChannelsAndTaps() {
    let channels = 40
    #expect(Depthwise3x3Q8PairLayout.count(channels: channels) == 2 * 160)
    #expect(Depthwise3x3Q8PairLayout.count(channels: Int.max) == nil)
    // Weight of tap t, channel c: distinct, negative for odd channels (two's-complement halves).
    let w = (0 ..< 9 * channels).map { i -> Int32 in Int32((i % channels) * 10 + i / channels) * (i % 2 == 0 ? 1 : -1) }
    var out = [Int32](repeating: 7, count: 2 * 160)
    w.withUnsafeBufferPointer { wp in
        out.withUnsafeMutableBufferPointer {
            Depthwise3x3Q8PairLayout.pack(wp.baseAddress!, channels: channels, into: $0.baseAddress!)
        }
    }
    func word(block: Int, pair: Int, half: Int, lane: Int) -> (Int16, Int16) {
        let v = UInt32(bitPattern: out[((block * 5 + pair) * 2 + half) * 16 + lane])
        return (Int16(truncatingIfNeeded: v), Int16(truncatingIfNeeded: v >> 16))
    }
    func tap(_ t: Int, _ c: Int) -> Int16 { Int16(w[t * channels + c]) }
    #expect(word(block: 0, pair: 0, half: 0, lane: 0) == (tap(0, 0), tap(1, 0)))
    #expect(word(block: 0, pair: 1, half: 0, lane: 8) == (tap(2, 16), tap(3, 16)))
    #expect(word(block: 0, pair: 3, half: 1, lane: 3) == (tap(6, 11), tap(7, 11)))
    #expect(word(block: 0, pair: 2, half: 1, lane: 15) == (tap(4, 31), tap(5, 31)))
    #expect(word(block: 0, pair: 4, half: 0, lane: 1) == (tap(8, 1), 0))
    #expect(word(block: 1, pair: 0, half: 0, lane: 7) == (tap(0, 39), tap(1, 39)))
    #expect(word(block: 1, pair: 0, half: 1, lane: 0) == (0, 0)) // channel 40
    #expect(word(block: 1, pair: 4, half: 0, lane: 8) == (0, 0)) // channel 48
}
#endif
