#if arch(arm64)
import Microkernels
import MicrokernelsNEON
import SeededRandom

/// Rows in exactly-sized allocations (nil for a row in the padding), so that a read past
/// a row's end touches another allocation.
private struct Rows<T> {
    let buffers: [UnsafeMutableBufferPointer<T>?]

    init(_ rows: [[T]?]) {
        buffers = rows.map { r in
            r.map { v in
                let b = UnsafeMutableBufferPointer<T>.allocate(capacity: v.count)
                _ = b.initialize(from: v)
                return b
            }
        }
    }

    func pointer(_ i: Int) -> UnsafePointer<T>? { buffers[i].flatMap { $0.baseAddress.map { UnsafePointer($0) } } }

    func deallocate() { for b in buffers { b?.deallocate() } }
}

/// Every row shape of the depthwise cases: `body(shape, rowRuns, present, seed)`.
private func forEachDepthwiseRow(_ body: (Depthwise3x3Row, Bool, [Bool], UInt64) -> Void) {
    var seed: UInt64 = 0
    for channels in KernelCases.depthwiseChannels {
        for inputWidth in KernelCases.depthwiseWidths {
            for stride in [1, 2] {
                for padLeft in [0, 1] where inputWidth + 2 * padLeft >= 3 {
                    let outputWidth = Swift.max(0, (inputWidth + 2 * padLeft - 3) / stride + 1)
                    let shape = Depthwise3x3Row(
                        channels: channels, inputWidth: inputWidth, outputWidth: outputWidth, stride: stride,
                        padLeft: padLeft)
                    for rowRuns in [false, true] {
                        for present in KernelCases.depthwiseRowsPresent {
                            seed += 1
                            body(shape, rowRuns, present, seed)
                        }
                    }
                }
            }
        }
    }
}

private func describe(_ s: Depthwise3x3Row, _ rowRuns: Bool, _ present: [Bool]) -> String {
    let rows = present.map { $0 ? "1" : "0" }.joined()
    return "C \(s.channels) W \(s.inputWidth) stride \(s.stride) pad \(s.padLeft) rowRuns \(rowRuns) rows \(rows)"
}

/// `depthwiseConv3x3F32NEON` against the definition: integer data (exact sums from a
/// start value) and float data with a bias and a clamp; nothing written past the row.
func checkDepthwiseConv3x3F32NEON(_ t: inout KernelCheck) {
    for integers in [false, true] {
        forEachDepthwiseRow { s, rowRuns, present, seed in
            var rng = SplitMix64(seed: seed + (integers ? 5000 : 0))
            func values(_ n: Int) -> [Float] {
                (0 ..< n).map { _ in
                    integers
                        ? Float(Int.random(in: -255 ... 255, using: &rng)) : Float.random(in: -1 ... 1, using: &rng)
                }
            }
            let rows: [[Float]?] = present.map { $0 ? values(s.inputWidth * s.channels) : nil }
            let w = values(9 * s.channels)
            let bias: [Float]? = integers ? nil : values(s.channels)
            let start: Float = integers ? 12_582_912 : 0
            let (lower, upper): (Float, Float) = integers ? (-.infinity, .infinity) : (-0.75, 0.5)
            let expected = referenceDepthwiseRow(
                s, rows: rows, w: w, start: start, bias: bias, lower: lower, upper: upper)
            let zeros = [Float](repeating: 0, count: s.channels)
            var out = [Float](repeating: 1234, count: s.outputWidth * s.channels + 9)
            let buffers = Rows(rows)
            defer { buffers.deallocate() }
            w.withUnsafeBufferPointer { wp in
                zeros.withUnsafeBufferPointer { zp in
                    out.withUnsafeMutableBufferPointer { op in
                        (bias ?? []).withUnsafeBufferPointer { bp in
                            depthwiseConv3x3F32NEON(
                                s, rowRuns: rowRuns, buffers.pointer(0), buffers.pointer(1), buffers.pointer(2),
                                zero: zp.baseAddress!, weights: wp.baseAddress!, start: start,
                                bias: bias == nil ? nil : bp.baseAddress, lower: lower, upper: upper,
                                out: op.baseAddress!)
                        }
                    }
                }
            }
            let what = describe(s, rowRuns, present)
            let got = Array(out[0 ..< expected.count])
            if integers {
                t.expect(got == expected, "\(what): exact sums")
            } else {
                let worst = zip(got, expected).map { abs($0 - $1) }.max() ?? 0
                t.expect(worst <= 1e-5, "\(what): max difference above 1e-5")
            }
            t.expect(out[expected.count...].allSatisfy { $0 == 1234 }, "\(what): wrote past the row")
        }
    }
}

/// `depthwiseConv3x3Q8NEON` against the definition on codes of both types, centered
/// weights across `[-255, 255]`, padding taps reading the padding row.
func checkDepthwiseConv3x3Q8NEON(_ t: inout KernelCheck) {
    for signed in [true, false] {
        forEachDepthwiseRow { s, rowRuns, present, seed in
            guard !rowRuns else { return } // the integer row has one interior walk
            var rng = SplitMix64(seed: seed + (signed ? 9000 : 0))
            let C = s.channels
            let rows: [[UInt8]?] = present.map { p in
                p ? (0 ..< s.inputWidth * C).map { _ in UInt8.random(in: 0 ... 255, using: &rng) } : nil
            }
            let padding = (0 ..< C).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            let w = (0 ..< 9 * C).map { _ in Int32.random(in: -255 ... 255, using: &rng) }
            @inline(__always) func code(_ b: UInt8) -> Int32 { signed ? Int32(Int8(bitPattern: b)) : Int32(b) }
            var expected = [Int32]()
            for ox in 0 ..< s.outputWidth {
                for c in 0 ..< C {
                    var acc: Int32 = 0
                    for ky in 0 ..< 3 {
                        for kx in 0 ..< 3 {
                            let ix = ox * s.stride - s.padLeft + kx
                            let byte: UInt8
                            if let r = rows[ky], ix >= 0, ix < s.inputWidth {
                                byte = r[ix * C + c]
                            } else {
                                byte = padding[c]
                            }
                            acc = acc &+ code(byte) &* w[(3 * ky + kx) * C + c]
                        }
                    }
                    expected.append(acc)
                }
            }
            var out = [Int32](repeating: 0x5A5A, count: s.outputWidth * C + 9)
            let buffers = Rows(rows)
            defer { buffers.deallocate() }
            padding.withUnsafeBufferPointer { pp in
                w.withUnsafeBufferPointer { wp in
                    out.withUnsafeMutableBufferPointer { op in
                        depthwiseConv3x3Q8NEON(
                            s, signed: signed, buffers.pointer(0), buffers.pointer(1), buffers.pointer(2),
                            padding: pp.baseAddress!, weights: wp.baseAddress!, out: op.baseAddress!)
                    }
                }
            }
            let what = describe(s, rowRuns, present) + " signed \(signed)"
            t.expect(Array(out[0 ..< expected.count]) == expected, "\(what): exact sums")
            t.expect(out[expected.count...].allSatisfy { $0 == 0x5A5A }, "\(what): wrote past the row")
        }
    }
}
#endif
