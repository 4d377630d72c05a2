import Testing
import SeededRandom
@testable import NumPy

/// Hostile input: every truncation and many random corruptions of valid files must end
/// in a clean `NPYError` or a consistent array, never a crash.
@Suite struct NPYRobustnessTests {
    @Test func everyPrefixFailsCleanly() {
        for sample in NumPySamples.valid {
            let bytes = NumPySamples.bytes(sample)
            for length in 0 ..< bytes.count {
                #expect(throws: NPYError.self, "prefix \(length) of \(bytes.count)") {
                    try NPYArray(bytes: Array(bytes.prefix(length)))
                }
            }
        }
    }

    @Test func randomMutationsNeverCrash() {
        var rng = SplitMix64(seed: 0x5EED)
        var accepted = 0
        let syntax = Array("(){}[],:'\"-0123456789LTF \n".utf8)
        for sample in NumPySamples.valid {
            let original = NumPySamples.bytes(sample)
            for _ in 0 ..< 400 {
                var bytes = original
                for _ in 0 ..< Int(rng.next() % 4) + 1 {
                    let i = Int(rng.next() % UInt64(bytes.count))
                    switch rng.next() % 4 {
                    case 0: bytes[i] = UInt8(truncatingIfNeeded: rng.next())
                    case 1: bytes[i] = syntax[Int(rng.next() % UInt64(syntax.count))]
                    case 2: bytes.remove(at: i)
                    default: bytes.insert(UInt8(truncatingIfNeeded: rng.next()), at: i)
                    }
                    if bytes.isEmpty { break }
                }
                if let array = try? NPYArray(bytes: bytes) {
                    accepted += 1
                    // Whatever was accepted is internally consistent.
                    let expected = array.shape.reduce(1, *) * array.dtype.itemSize
                    #expect(array.data.count == expected)
                    _ = array.floatValues()
                }
            }
        }
        // Mutations in header padding or data keep a file valid; the check above ran.
        #expect(accepted > 0)
    }
}
