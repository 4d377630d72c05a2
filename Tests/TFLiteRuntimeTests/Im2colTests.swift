import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// `gatherPatches` and `gatherIntegerPatches` (row walk, short-run copies) must write
/// exactly what the per-pixel `gatherPatch` and `im2colRow` write, for every geometry and
/// for tiles that start and end mid-row.
@Suite struct Im2colTests {
    @Test func tileGatherMatchesPerPixelGather() throws {
        var checked = 0
        for (kh, kw) in [(1, 1), (3, 3), (5, 5), (1, 7), (7, 1), (2, 3)] {
            for inC in [1, 3, 4, 5, 8, 9, 17] {
                for stride in [1, 2, 3] {
                    for dilation in [1, 2] {
                        for padding in [Padding.same, .valid] {
                            guard
                                let g = try? Conv2DGeometry.make(
                                    batch: 2, inH: 9, inW: 11, inC: inC, outC: 4, kh: kh, kw: kw,
                                    strideH: stride, strideW: stride, dilationH: dilation, dilationW: dilation,
                                    padding: padding)
                            else { continue }
                            try check(g)
                            checkIntegerRows(g)
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 400)
    }

    private func check(_ g: Conv2DGeometry) throws {
        let inputCount = g.batch * g.inH * g.inW * g.inC
        let x = (0 ..< inputCount).map { Float($0 % 251) + 0.5 }
        let patch = g.kh * g.kw * g.inC
        let pixels = g.outputPixels
        var expected = [Float](repeating: .nan, count: pixels * patch)
        x.withUnsafeBufferPointer { xs in
            expected.withUnsafeMutableBufferPointer { e in
                for p in 0 ..< pixels {
                    g.gatherPatch(
                        pixel: p, group: 0, groups: 1, groupInC: g.inC, from: xs.baseAddress!,
                        into: e.baseAddress! + p * patch)
                }
            }
        }
        // Tiles of 1, 5 and 13 pixels cross output rows at different places.
        for tile in [1, 5, 13, pixels] {
            var actual = [Float](repeating: .nan, count: pixels * patch)
            x.withUnsafeBufferPointer { xs in
                actual.withUnsafeMutableBufferPointer { a in
                    var first = 0
                    while first < pixels {
                        let count = Swift.min(tile, pixels - first)
                        g.gatherPatches(
                            first: first, count: count, from: xs.baseAddress!, into: a.baseAddress! + first * patch)
                        first += count
                    }
                }
            }
            #expect(actual == expected, "\(g) tile \(tile)")
        }
    }

    /// The integer GEMMs' rows (16-bit centered codes, depth padded to 2; offset bytes,
    /// depth padded to 4): the row walk against the per-pixel `im2colRow`, with the depth
    /// padding filled.
    private func checkIntegerRows(_ g: Conv2DGeometry) {
        let patch = g.kh * g.kw * g.inC
        let codes = (0 ..< g.batch * g.inH * g.inW * g.inC).map { Int8(truncatingIfNeeded: $0 &* 37) }
        let zx: Int32 = -7
        checkRows(
            g, codes, stride: patch + patch % 2, zero: Int16(0), fill: 0,
            convert: { centerCodes($0, count: $1, zeroPoint: zx, into: $2) },
            shortRun: { centerShortRun(from: $0, to: $1, count: $2, zero: Int16(truncatingIfNeeded: zx)) })
        checkRows(
            g, codes, stride: (patch + 3) / 4 * 4, zero: UInt8(truncatingIfNeeded: zx + 128), fill: 0x33,
            convert: { x, n, out in
                for i in 0 ..< n { out[i] = UInt8(bitPattern: x[i]) ^ 0x80 }
            },
            shortRun: { x, out, n in
                let bytes = UnsafeRawPointer(x).assumingMemoryBound(to: UInt8.self)
                flipShortRun(from: bytes, to: out, count: n, flip: 0x80)
            })
    }

    private func checkRows<E: Equatable & BinaryInteger>(
        _ g: Conv2DGeometry, _ x: [Int8], stride: Int, zero: E, fill: E,
        convert: (UnsafePointer<Int8>, Int, UnsafeMutablePointer<E>) -> Void,
        shortRun: (UnsafePointer<Int8>, UnsafeMutablePointer<E>, Int) -> Void
    ) {
        let patch = g.kh * g.kw * g.inC
        let pixels = g.outputPixels
        var expected = [E](repeating: fill, count: pixels * stride)
        x.withUnsafeBufferPointer { xs in
            expected.withUnsafeMutableBufferPointer { e in
                for p in 0 ..< pixels {
                    im2colRow(
                        g, pixel: p, firstChannel: 0, channels: g.inC, xs.baseAddress!,
                        into: e.baseAddress! + p * stride,
                        zero: zero, center: convert)
                }
            }
        }
        for tile in [1, 5, 13, pixels] {
            var actual = [E](repeating: 0x5A, count: pixels * stride)
            x.withUnsafeBufferPointer { xs in
                actual.withUnsafeMutableBufferPointer { a in
                    var first = 0
                    while first < pixels {
                        let count = Swift.min(tile, pixels - first)
                        g.gatherIntegerPatches(
                            first: first, count: count, from: xs.baseAddress!, into: a.baseAddress! + first * stride,
                            rowStride: stride, zero: zero, fill: fill, convert: convert, shortRun: shortRun)
                        first += count
                    }
                }
            }
            #expect(actual == expected, "\(E.self) \(g) tile \(tile) patch \(patch)")
        }
    }
}
