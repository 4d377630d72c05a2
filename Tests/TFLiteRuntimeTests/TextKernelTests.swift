import Testing
import TFLiteModel

@testable import TFLiteRuntime

@Suite struct TextKernelTests {
    /// FarmHash Fingerprint64 of `len` bytes, from TensorFlow's `tf.fingerprint(..., 'farmhash64')`,
    /// one value per length class of the hash (0, 1-3, 4-7, 8-16, 17-32, 33-64, more).
    @Test func fingerprintMatchesTensorFlow() {
        let cases: [([UInt8], UInt64)] = [
            ([], 11_160_318_154_034_397_263),
            (Array("a".utf8), 12_917_804_110_809_363_939),
            (Array("abc".utf8), 2_640_714_258_260_161_385),
            (Array("hello".utf8), 13_009_744_463_427_800_296),
            (Array("hello wor".utf8), 568_376_189_322_566_502),
            (Array("abcdefghijklmnopq".utf8), 11_394_395_984_755_135_400),
            (Array(repeating: UInt8(ascii: "x"), count: 33), 12_270_365_409_943_098_935),
            (Array(repeating: UInt8(ascii: "y"), count: 64), 4_471_793_200_125_962_424),
            (Array(repeating: UInt8(ascii: "z"), count: 65), 8_299_915_583_762_718_517),
            (Array(repeating: UInt8(ascii: "q"), count: 200), 17_372_321_070_079_757_425),
        ]
        for (bytes, expected) in cases { #expect(Fingerprint64.hash(bytes) == expected, "\(bytes.count) bytes") }
    }

    @Test func normalizeMatchesTheSmartReplySteps() {
        func n(_ s: String) -> String { String(decoding: TextNormalization.normalize(Array(s.utf8)), as: UTF8.self) }
        #expect(n("hello") == "<S> hello <E>")
        #expect(n("  How ARE you?? ") == "<S> how are you ? <E>")
        #expect(n("I don't know!!!") == "<S> i do not know ! <E>")
        #expect(n("we'll see, they're here") == "<S> we will see, they are here <E>")
        #expect(n("do n't") == "<S> do not <E>")
        #expect(n("what?!") == "<S> what ? ! <E>")
        #expect(n("(quoted) \"text\".") == "<S> quoted text <E>")
        #expect(n(", - ok ;") == "<S> ok <E>")
        #expect(n("i'm here") == "<S> i am here <E>")
        let long = String(repeating: "a", count: 310)
        #expect(n(long) == "<S> " + String(repeating: "a", count: 300))
    }

    @Test func skipGramWordsAndOrder() throws {
        func words(_ s: String) -> [String] {
            let bytes = Array(s.utf8)
            return bytes.withUnsafeBytes { raw in
                SkipGram.words(raw).map { String(decoding: bytes[$0], as: UTF8.self) }
            }
        }
        #expect(words("a b  c") == ["a", "b", "c"])
        #expect(words(" a b") == ["b"]) // LiteRT drops the first word after leading whitespace
        #expect(words("a b ") == ["a", "b"])
    }
}
