import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX2

@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func centerCodesF32AVX2MatchesDefinition() {
    var rng = SplitMix64(seed: 77)
    for count in [0, 1, 7, 8, 9, 31, 64, 100] {
        let bytes = (0 ..< count).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
        for (flip, offset) in [(UInt8(0), Int32(0)), (0, 255), (0x80, 0), (0x80, 255), (0x80, 128)] {
            var out = [Float](repeating: 99, count: count + 3)
            // One byte more than `count`, so that even `count = 0` has an address.
            (bytes + [0]).withUnsafeBufferPointer { b in
                out.withUnsafeMutableBufferPointer { o in
                    centerCodesF32AVX2(b.baseAddress!, count: count, flip: flip, offset: offset, into: o.baseAddress!)
                }
            }
            let expected = bytes.map { Float(Int32($0 ^ flip) - offset) }
            #expect(Array(out[0 ..< count]) == expected, "count \(count) flip \(flip) offset \(offset)")
            #expect(out[count...].allSatisfy { $0 == 99 }, "count \(count): wrote past the end")
        }
    }
}
#endif
