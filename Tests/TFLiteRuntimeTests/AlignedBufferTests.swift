import Testing
@testable import TFLiteRuntime

/// ``AlignedBuffer``'s page-mapped storage (``PageMemory``) for large buffers.
@Suite struct AlignedBufferTests {
    /// Large buffers come from the system's pages: zeroed ones read as zeros, the others
    /// take whatever is written, and copies are exact.
    @Test func pageMappedBuffers() {
        for count in [PageMemory.threshold - 1, PageMemory.threshold, 3 * PageMemory.hugePage + 12_345] {
            let zeroed = AlignedBuffer(zeroedCount: count)
            #expect(zeroed.bytes.allSatisfy { $0 == 0 })
            #expect(Int(bitPattern: zeroed.pointer) % AlignedBuffer.alignment == 0)
            let filled = AlignedBuffer(uninitializedCount: count)
            #expect(Int(bitPattern: filled.pointer) % AlignedBuffer.alignment == 0)
            let values = (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 7) }
            values.withUnsafeBytes { raw in
                if let base = raw.baseAddress { filled.pointer.copyMemory(from: base, byteCount: count) }
            }
            #expect(Array(filled.bytes) == values)
            let copy = values.withUnsafeBytes { AlignedBuffer(copying: $0) }
            #expect(Array(copy.bytes) == values)
        }
    }

    /// ``centeredWeights`` converts every code and finds the largest `|w - zw|`, for
    /// buffers on the heap and page-mapped ones, with the extreme codes present or not.
    @Test func centeredWeightsAreExact() {
        var rng = SplitMix64(seed: 12)
        // 40,000 floats are page-mapped; 600,000 also span a 2 MiB page.
        for (count, unsignedZeros, signedZeros) in [(1, [0, 3, 255], [0, -128, 127]), (37, [0, 128], [0, 127]),
                                                    (40_000, [0, 3, 128, 255], [0, -128, 127]), (600_000, [128], [-128])] {
            for zeroPoint in unsignedZeros {
                let codes = (0 ..< count).map { _ in UInt8.random(in: 20 ... 230, using: &rng) }
                check(codes, zeroPoint: Int32(zeroPoint))
                check(codes + [0, 255], zeroPoint: Int32(zeroPoint))
            }
            for zeroPoint in signedZeros {
                let codes = (0 ..< count).map { _ in Int8.random(in: -100 ... 100, using: &rng) }
                check(codes, zeroPoint: Int32(zeroPoint))
                check(codes + [-128, 127], zeroPoint: Int32(zeroPoint))
            }
        }
    }

    private func check<T: Quantized8>(_ codes: [T], zeroPoint: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = codes.map { Int32($0) - zeroPoint }
        let (buffer, largest) = codes.withUnsafeBufferPointer { centeredWeights($0, zeroPoint: zeroPoint) }
        let floats = Array(UnsafeBufferPointer(start: buffer.typed(Float.self), count: codes.count))
        #expect(floats == expected.map(Float.init), sourceLocation: sourceLocation)
        #expect(largest == Int(expected.map(\.magnitude).max() ?? 0), sourceLocation: sourceLocation)
    }
}
