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

    /// ``centerWeights`` converts every code and ``centeredMagnitude`` finds the largest
    /// `|w - zw|`, with the extreme codes present or not.
    @Test func centeredWeightsAreExact() {
        var rng = SplitMix64(seed: 12)
        for (count, unsignedZeros, signedZeros) in [
            (1, [0, 3, 255], [0, -128, 127]), (37, [0, 128], [0, 127]),
            (40_000, [0, 3, 128, 255], [0, -128, 127]),
        ] {
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

    private func check<T: Quantized8>(_ codes: [T], zeroPoint: Int32, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let expected = codes.map { Int32($0) - zeroPoint }
        var floats = [Float](repeating: .nan, count: codes.count)
        codes.withUnsafeBufferPointer { w in
            floats.withUnsafeMutableBufferPointer { out in
                if let base = out.baseAddress { centerWeights(w, zeroPoint: zeroPoint, into: base) }
            }
        }
        #expect(floats == expected.map(Float.init), sourceLocation: sourceLocation)
        let largest = codes.withUnsafeBufferPointer { centeredMagnitude($0, zeroPoint: zeroPoint) }
        #expect(largest == Int(expected.map(\.magnitude).max() ?? 0), sourceLocation: sourceLocation)
    }

    /// Packed constants share one region, each 64-byte aligned, filled at `finish` with
    /// what their `fill` wrote; requests after a `finish` go to a new region.
    @Test func packerLaysOutRequests() throws {
        let packer = ConstantPacker()
        let sizes = [5, 64, 1, 200_000, 3 * PageMemory.hugePage + 7, 0, 130]
        var buffers: [PackedBuffer] = []
        for (i, size) in sizes.enumerated() {
            buffers.append(
                try packer.request(bytes: size) { p in
                    p.initializeMemory(as: UInt8.self, repeating: UInt8(i + 1), count: size)
                    return 10 * i
                })
            if i == 3 { packer.finish() }
        }
        packer.finish()
        for (i, (buffer, size)) in zip(buffers, sizes).enumerated() {
            #expect(buffer.count == size)
            #expect(Int(bitPattern: buffer.pointer) % AlignedBuffer.alignment == 0)
            let bytes = UnsafeRawBufferPointer(start: buffer.pointer, count: size)
            #expect(bytes.allSatisfy { $0 == UInt8(i + 1) }, "request \(i)")
            #expect(buffer.derived == 10 * i)
        }
        #expect(throws: KernelError.self) { try packer.request(bytes: Int.max - 10) { _ in 0 } }
    }
}
