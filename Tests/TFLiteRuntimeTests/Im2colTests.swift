import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// `gatherPatches` (row walk, short-run copies) must write exactly what the per-pixel
/// `gatherPatch` writes, for every geometry and for tiles that start and end mid-row.
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
                            checkCentered(g, Int8.self, zeroPoint: -7)
                            checkCentered(g, UInt8.self, zeroPoint: 131)
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

    /// The 16-bit centered rows of the exact 8-bit GEMM: the row walk against the per-pixel
    /// `im2colRow`, with the rows' even-depth padding zeroed.
    private func checkCentered<T: Quantized8>(_ g: Conv2DGeometry, _: T.Type, zeroPoint zx: Int32) {
        let inputCount = g.batch * g.inH * g.inW * g.inC
        let x = (0 ..< inputCount).map { T(truncatingIfNeeded: $0 &* 37) }
        let patch = g.kh * g.kw * g.inC, stride = patch + patch % 2
        let pixels = g.outputPixels
        var expected = [Int16](repeating: 0, count: pixels * stride)
        x.withUnsafeBufferPointer { xs in
            expected.withUnsafeMutableBufferPointer { e in
                for p in 0 ..< pixels {
                    im2colRow(
                        g, pixel: p, firstChannel: 0, channels: g.inC, xs.baseAddress!,
                        into: e.baseAddress! + p * stride,
                        center: { centerCodes($0, count: $1, zeroPoint: zx, into: $2) })
                }
            }
        }
        for tile in [1, 5, 13, pixels] {
            var actual = [Int16](repeating: 0x5A5A, count: pixels * stride)
            x.withUnsafeBufferPointer { xs in
                actual.withUnsafeMutableBufferPointer { a in
                    var first = 0
                    while first < pixels {
                        let count = Swift.min(tile, pixels - first)
                        g.gatherCenteredPatches(
                            first: first, count: count, from: xs.baseAddress!, zeroPoint: zx,
                            into: a.baseAddress! + first * stride, rowStride: stride)
                        first += count
                    }
                }
            }
            #expect(actual == expected, "\(T.self) \(g) tile \(tile)")
        }
    }
}
