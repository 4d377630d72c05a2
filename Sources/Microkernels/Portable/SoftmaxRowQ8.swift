/// The per-row loops of TFLite's 8-bit reference SOFTMAX, on codes as bytes.
///
/// Codes are compared as unsigned bytes after XOR with `flip` (0x80 for int8, 0 for uint8),
/// which keeps their order and their differences, so one loop serves both types (and the
/// maximum vectorizes as an unsigned byte maximum, which SSE2 has). With `m` the row's
/// largest biased code and `k = m − x ∈ 0 … 255` for each code, the tables built at prepare
/// hold the reference's values for every `k`: `terms[k]`, the Q12 summand, and `exps[k]`,
/// the Q0 exponential, both non-negative.
///
/// The reference's output step is `RDBPOT(SRDHM(s, e), b)` with `s = 1/Σ ≥ 0` and
/// `23 ≤ b ≤ 31`. For non-negative operands its two roundings are floors,
/// `⌊(⌊(e·s + 2^30) / 2^31⌋ + 2^(b−1)) / 2^b⌋`, and since `⌊(⌊z⌋ + c)/q⌋ = ⌊(z + c)/q⌋` for an
/// integer `c` and a positive integer `q`, that is one floor,
/// `⌊(e·s + 2^30 + 2^(30+b)) / 2^(31+b)⌋`: one unsigned 64-bit product and shift, with
/// no branch (`e·s < 2^62`, so the sum stays below 2^63).
public enum SoftmaxRowQ8 {
    /// The row's largest biased code and the wrapping sum of `terms[m − x]`.
    @inlinable @inline(__always)
    public static func maxAndSum(
        _ x: UnsafePointer<UInt8>, count: Int, flip: UInt8, terms: UnsafePointer<Int32>
    ) -> (max: UInt8, sum: Int32) {
        var m: UInt8 = 0
        for i in 0 ..< count { m = Swift.max(m, x[i] ^ flip) }
        // Four running sums: the table loads are independent, the additions need not chain.
        var s0: Int32 = 0, s1: Int32 = 0, s2: Int32 = 0, s3: Int32 = 0
        var i = 0
        while i + 4 <= count {
            s0 = s0 &+ terms[Int(m &- (x[i] ^ flip))]
            s1 = s1 &+ terms[Int(m &- (x[i + 1] ^ flip))]
            s2 = s2 &+ terms[Int(m &- (x[i + 2] ^ flip))]
            s3 = s3 &+ terms[Int(m &- (x[i + 3] ^ flip))]
            i += 4
        }
        while i < count {
            s0 = s0 &+ terms[Int(m &- (x[i] ^ flip))]
            i += 1
        }
        return (m, (s0 &+ s1) &+ (s2 &+ s3))
    }

    /// `y = min(⌊(exps[m − x]·scale + 2^30 + 2^(30+exponent)) / 2^(31+exponent)⌋, 255) ⊕ flip`
    /// for each code: the reference's output on the biased scale (its lowest code is 0),
    /// for `scale ≥ 0` and `1 ≤ exponent ≤ 31`.
    @inlinable @inline(__always)
    public static func output(
        _ x: UnsafePointer<UInt8>, _ y: UnsafeMutablePointer<UInt8>, count: Int, flip: UInt8, max m: UInt8,
        scale: Int32, exponent: Int, exps: UnsafePointer<Int32>
    ) {
        let s = UInt64(UInt32(bitPattern: scale))
        let shift = UInt64(31 + exponent)
        let bias = (UInt64(1) << 30) &+ (UInt64(1) &<< UInt64(30 + exponent))
        for i in 0 ..< count {
            let e = UInt64(UInt32(bitPattern: exps[Int(m &- (x[i] ^ flip))]))
            let u = (e &* s &+ bias) &>> shift
            y[i] = UInt8(truncatingIfNeeded: Swift.min(u, 255)) ^ flip
        }
    }
}

/// ``SoftmaxRowQ8/maxAndSum(_:count:flip:terms:)``.
@inline(never)
public func softmaxRowQ8MaxAndSum(
    _ x: UnsafePointer<UInt8>, count: Int, flip: UInt8, terms: UnsafePointer<Int32>
) -> (max: UInt8, sum: Int32) {
    SoftmaxRowQ8.maxAndSum(x, count: count, flip: flip, terms: terms)
}

/// ``SoftmaxRowQ8/output(_:_:count:flip:max:scale:exponent:exps:)``.
@inline(never)
public func softmaxRowQ8Output(
    _ x: UnsafePointer<UInt8>, _ y: UnsafeMutablePointer<UInt8>, count: Int, flip: UInt8, max: UInt8,
    scale: Int32, exponent: Int, exps: UnsafePointer<Int32>
) {
    SoftmaxRowQ8.output(x, y, count: count, flip: flip, max: max, scale: scale, exponent: exponent, exps: exps)
}
