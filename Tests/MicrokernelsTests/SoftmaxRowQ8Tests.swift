import Microkernels
import SeededRandom
import Testing

/// ``SoftmaxRowQ8``'s one-product output step against the reference's two roundings
/// (`SRDHM` then `RDBPOT`, written out here), and its maximum and sum against plain loops,
/// on odd lengths, both code types and the ends of the operand ranges.
@Suite struct SoftmaxRowQ8Tests {
    /// The reference output on the biased scale: `clamp(RDBPOT(SRDHM(s, e), b), 0, 255)`.
    static func reference(_ e: Int32, scale s: Int32, exponent b: Int) -> UInt8 {
        let ab = Int64(s) * Int64(e)
        let h = Int32(truncatingIfNeeded: (ab + (1 << 30)) / (1 << 31)) // ab ≥ 0
        let mask = Int32(truncatingIfNeeded: (Int64(1) << b) - 1)
        let v = (h >> Int32(b)) + ((h & mask) > (mask >> 1) ? 1 : 0)
        return UInt8(Swift.min(Swift.max(v, 0), 255))
    }

    @Test func outputStepIsTheReferencesTwoRoundings() {
        var rng = SplitMix64(seed: 7)
        let edges: [Int32] = [0, 1, 2, 1 << 19, (1 << 30) - 1, 1 << 30, Int32.max - 1, Int32.max]
        var exps = (0 ..< 256).map { _ in Int32.random(in: 0 ... Int32.max, using: &rng) }
        for (k, v) in edges.enumerated() { exps[k] = v }
        let codes = (0 ..< 256).map { UInt8($0) } // k = 255 − code for the maximum 255
        var y = [UInt8](repeating: 0, count: 256)
        for b in 23 ... 31 {
            for s in edges + (0 ..< 40).map({ _ in Int32.random(in: 0 ... Int32.max, using: &rng) }) {
                for flip in [UInt8(0), 0x80] {
                    let x = codes.map { $0 ^ flip }
                    softmaxRowQ8Output(x, &y, count: 256, flip: flip, max: 255, scale: s, exponent: b, exps: exps)
                    let expected = codes.map { Self.reference(exps[255 - Int($0)], scale: s, exponent: b) ^ flip }
                    #expect(y == expected, "scale \(s), exponent \(b), flip \(flip)")
                }
            }
        }
    }

    @Test(arguments: [1, 2, 3, 7, 31, 64, 65, 257, 1001])
    func maximumAndSumMatchPlainLoops(count: Int) {
        var rng = SplitMix64(seed: UInt64(count))
        let terms = (0 ..< 256).map { _ in Int32.random(in: 0 ... (1 << 19), using: &rng) }
        for flip in [UInt8(0), 0x80] {
            for spread in [255, 3, 0] {
                let base = UInt8.random(in: 0 ... UInt8(255 - spread), using: &rng)
                let x = (0 ..< count).map { _ in (base + UInt8.random(in: 0 ... UInt8(spread), using: &rng)) ^ flip }
                let m = x.map { $0 ^ flip }.max() ?? 0
                let sum = x.reduce(Int32(0)) { $0 &+ terms[Int(m - ($1 ^ flip))] }
                let got = softmaxRowQ8MaxAndSum(x, count: count, flip: flip, terms: terms)
                #expect(got.max == m && got.sum == sum, "count \(count), flip \(flip), spread \(spread)")
            }
        }
    }
}
