import Foundation
import Testing
@testable import MLKit

@Suite struct PNGDecodeTests {
    static let names: [String] = {
        var out: [String] = []
        for suffix in ["", "_i"] {
            out += [1, 2, 4, 8, 16].map { "gray\($0)\(suffix)" }
            out += [8, 16].flatMap { ["graya\($0)\(suffix)", "rgb\($0)\(suffix)", "rgba\($0)\(suffix)"] }
            out += [1, 2, 4, 8].map { "palette\($0)\(suffix)" }
        }
        return out
    }()

    @Test("every color type, bit depth and interlace decodes to the expected RGB8", arguments: names)
    func decodes(_ name: String) throws {
        let image = try VisionImage(contentsOfFile: VisionFixtures.resource("\(name).png"))
        #expect(image.width == 9 && image.height == 7)
        #expect(image.rgbPixels() == (try VisionFixtures.bytes("\(name).rgb")))
    }

    @Test func notPNG() {
        #expect(throws: ImageError.notPNG) { try VisionImage(data: Data("hello, this is not an image".utf8)) }
        #expect(throws: ImageError.notPNG) { try VisionImage(data: Data()) }
        #expect(throws: ImageError.notPNG) { try VisionImage(data: Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0, 0, 0, 0, 0])) }
    }

    @Test func missingFile() {
        #expect { try VisionImage(contentsOfFile: "/nonexistent/x.png") } throws: { error in
            if case .unreadableFile(path: "/nonexistent/x.png", _) = error as? ImageError { return true }
            return false
        }
    }

    /// Every proper prefix (every 7th length) of a valid PNG fails with a typed error.
    @Test func truncatedPrefixes() throws {
        for name in ["rgb8", "palette4_i", "gray16"] {
            let bytes = try VisionFixtures.bytes("\(name).png")
            for length in stride(from: 0, to: bytes.count, by: 7) {
                do {
                    _ = try VisionImage(data: Data(bytes.prefix(length)))
                    Issue.record("\(name) prefix \(length) decoded")
                } catch let error as ImageError {
                    switch error {
                    case .truncated, .notPNG: break
                    default: Issue.record("\(name) prefix \(length): \(error)")
                    }
                }
            }
        }
    }

    @Test func zeroAndHugeSizes() {
        let idat = PNGBuilder.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        let iend = PNGBuilder.chunk("IEND", [])
        func png(_ w: UInt32, _ h: UInt32) -> Data {
            Data(PNGBuilder.signature + PNGBuilder.ihdr(width: w, height: h) + idat + iend)
        }
        #expect(throws: ImageError.zeroSize(width: 0, height: 5)) { try VisionImage(data: png(0, 5)) }
        #expect(throws: ImageError.zeroSize(width: 5, height: 0)) { try VisionImage(data: png(5, 0)) }
        #expect(throws: ImageError.tooLarge(width: 16385, height: 1)) { try VisionImage(data: png(16385, 1)) }
        #expect(throws: ImageError.tooLarge(width: 16384, height: 16384)) { try VisionImage(data: png(16384, 16384)) }
        #expect(throws: ImageError.tooLarge(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF)) {
            try VisionImage(data: png(0xFFFF_FFFF, 0xFFFF_FFFF))
        }
    }

    /// A file whose IDAT cannot inflate to the declared size is rejected before any pixel
    /// memory is allocated (it used to cost 256 MB for 8192 x 8192 RGBA, then fail in
    /// libpng); the bound never rejects a file libpng could decode.
    @Test func tooLittleImageDataForTheDeclaredSize() throws {
        let idat = PNGBuilder.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        let iend = PNGBuilder.chunk("IEND", [])
        let huge = PNGBuilder.signature + PNGBuilder.ihdr(width: 8192, height: 8192, depth: 8, color: 6) + idat + iend
        #expect(
            throws: ImageError.malformed(
                "the IDAT chunks hold 8 bytes, too few for the 268435456 bytes of a 8192x8192 image")
        ) {
            try VisionImage(data: Data(huge))
        }
        // A real, highly compressed image near the bound still decodes: 4096 x 512
        // black pixels (zlib level 9 reaches ~1000:1 on zeros).
        let black = try VisionImage(
            width: 4096, height: 512, pixelFormat: .rgb8, pixels: [UInt8](repeating: 0, count: 4096 * 512 * 3))
        let png = try black.pngData()
        #expect(png.count < 4096 * 512 * 3 / 500, "\(png.count) bytes")
        let back = try VisionImage(data: png)
        #expect(back.width == 4096 && back.height == 512 && back.rgbPixels().allSatisfy { $0 == 0 })
    }

    @Test func badCRC() throws {
        var bytes = try VisionFixtures.bytes("rgb8.png")
        bytes[8 + 8 + 13] ^= 0x01 // last CRC byte of IHDR
        #expect(throws: ImageError.badCRC(chunk: "IHDR", offset: 8)) { try VisionImage(data: Data(bytes)) }
        var data = try VisionFixtures.bytes("rgb8.png")
        data[8 + 25 + 8 + 3] ^= 0x40 // a byte inside the IDAT data
        #expect(throws: ImageError.badCRC(chunk: "IDAT", offset: 33)) { try VisionImage(data: Data(data)) }
    }

    @Test func structuralErrors() {
        let idat = PNGBuilder.chunk("IDAT", [0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])
        let iend = PNGBuilder.chunk("IEND", [])
        let sig = PNGBuilder.signature
        func expectMalformed(_ bytes: [UInt8], _ comment: Comment) {
            do { _ = try VisionImage(data: Data(bytes)); Issue.record(comment) } catch let error as ImageError {
                guard case .malformed = error else { Issue.record("\(comment): \(error)"); return }
            } catch { Issue.record("\(comment): \(error)") }
        }
        expectMalformed(sig + idat + iend, "no IHDR first")
        expectMalformed(sig + PNGBuilder.ihdr(width: 2, height: 2) + iend, "no IDAT")
        expectMalformed(sig + PNGBuilder.ihdr(width: 2, height: 2, depth: 3) + idat + iend, "bit depth 3")
        expectMalformed(sig + PNGBuilder.ihdr(width: 2, height: 2, color: 5) + idat + iend, "color type 5")
        expectMalformed(
            sig + PNGBuilder.ihdr(width: 2, height: 2, depth: 8, color: 3) + idat + iend, "palette without PLTE")
        expectMalformed(
            sig + PNGBuilder.ihdr(width: 2, height: 2) + PNGBuilder.chunk("ABCD", []) + idat + iend,
            "unknown critical chunk")
        expectMalformed(
            sig + PNGBuilder.ihdr(width: 2, height: 2) + PNGBuilder.ihdr(width: 2, height: 2) + idat + iend, "two IHDR")
    }

    /// Well-framed chunks with data libpng cannot inflate: libpng's error comes back as a
    /// typed error (through the simplified API), not a crash or a longjmp.
    @Test func corruptCompressedData() {
        let bogus = PNGBuilder.chunk("IDAT", [0x12, 0x34, 0x56, 0x78, 0x9A])
        let bytes = PNGBuilder.signature + PNGBuilder.ihdr(width: 4, height: 4) + bogus + PNGBuilder.chunk("IEND", [])
        #expect { try VisionImage(data: Data(bytes)) } throws: { error in
            if case .decodingFailed = error as? ImageError { return true }
            return false
        }
    }

    @Test func encodeRoundTrip() throws {
        let pixels = (0 ..< 5 * 3 * 3).map { UInt8(($0 * 37) & 0xFF) }
        let image = try VisionImage(width: 5, height: 3, pixelFormat: .rgb8, pixels: pixels)
        let png = try image.pngData()
        let back = try VisionImage(data: png)
        #expect(back.width == 5 && back.height == 3)
        #expect(back.rgbPixels() == pixels)
    }
}
