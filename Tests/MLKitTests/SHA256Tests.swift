import Foundation
@testable import MLKit
import Testing

/// FIPS 180-4 / NIST CSRC example vectors, chunking, and agreement with `sha256sum`.
@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
        (
            "The quick brown fox jumps over the lazy dog",
            "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"
        ),
    ])
    func standardVectors(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test func millionAs() {
        var hash = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0 ..< 1000 { chunk.withUnsafeBytes { hash.update($0) } }
        #expect(hash.hexDigest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every split of a message across two updates, around the 55/56/64-byte padding edges.
    @Test func chunkingDoesNotChangeTheDigest() {
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 200] {
            let message = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 * 31 + 7) }
            let whole = SHA256.hex(message)
            for split in 0 ... length {
                var hash = SHA256()
                message[..<split].withUnsafeBytes { hash.update($0) }
                message[split...].withUnsafeBytes { hash.update($0) }
                #expect(hash.hexDigest() == whole, "length \(length) split \(split)")
            }
        }
    }

    @Test func agreesWithSha256sumOnAFixtureModel() throws {
        let path = MLKitFixtures.model("face_detection_short_range")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let expected = try #require(String(decoding: output, as: UTF8.self).split(separator: " ").first)
        #expect(SHA256.hex(try Data(contentsOf: URL(fileURLWithPath: path))) == String(expected))
    }
}
