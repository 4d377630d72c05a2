/// Philox-4×32-10 (Salmon et al., SC 2011), the counter-based generator of TensorFlow's
/// random operators: a 128-bit counter and a 64-bit key; each block is ten rounds of two
/// 32×32→64-bit multiplies mixing the counter with the key, which grows by two fixed
/// constants between rounds. A block yields four 32-bit words.
struct Philox4x32: Sendable {
    var counter: SIMD4<UInt32>
    var key: SIMD2<UInt32>

    static let multipliers: (UInt32, UInt32) = (0xD251_1F53, 0xCD9E_8D57)
    static let keySteps = SIMD2<UInt32>(0x9E37_79B9, 0xBB67_AE85)

    /// TensorFlow's two-seed form: `seed` is the key (low word first), `seed2` the upper
    /// half of the counter (low word first); the lower half of the counter starts at 0.
    init(seed: UInt64, seed2: UInt64) {
        key = SIMD2(UInt32(truncatingIfNeeded: seed), UInt32(truncatingIfNeeded: seed >> 32))
        counter = SIMD4(0, 0, UInt32(truncatingIfNeeded: seed2), UInt32(truncatingIfNeeded: seed2 >> 32))
    }

    init(counter: SIMD4<UInt32>, key: SIMD2<UInt32>) {
        self.counter = counter
        self.key = key
    }

    /// The block of `counter` under `key` (no state change).
    @inline(__always)
    static func block(counter: SIMD4<UInt32>, key: SIMD2<UInt32>) -> SIMD4<UInt32> {
        var c = counter, k = key
        for round in 0 ..< 10 {
            if round > 0 { k &+= keySteps }
            let p0 = UInt64(multipliers.0) * UInt64(c[0])
            let p1 = UInt64(multipliers.1) * UInt64(c[2])
            c = SIMD4(
                UInt32(truncatingIfNeeded: p1 >> 32) ^ c[1] ^ k[0], UInt32(truncatingIfNeeded: p1),
                UInt32(truncatingIfNeeded: p0 >> 32) ^ c[3] ^ k[1], UInt32(truncatingIfNeeded: p0))
        }
        return c
    }

    /// The next block; the 128-bit counter then advances by one.
    @inline(__always)
    mutating func next() -> SIMD4<UInt32> {
        let result = Self.block(counter: counter, key: key)
        skip(1)
        return result
    }

    /// Advances the 128-bit counter by `count` blocks, as TensorFlow does: the low 64 bits
    /// take the count, and a carry out of them reaches the upper words, except when the
    /// count's upper word wraps to 0 while taking the lower carry (TensorFlow drops that
    /// carry, and so do we: the streams must match).
    mutating func skip(_ count: UInt64) {
        let lo = UInt32(truncatingIfNeeded: count)
        var hi = UInt32(truncatingIfNeeded: count >> 32)
        counter[0] &+= lo
        if counter[0] < lo { hi &+= 1 }
        counter[1] &+= hi
        if counter[1] < hi {
            counter[2] &+= 1
            if counter[2] == 0 { counter[3] &+= 1 }
        }
    }
}

/// The conversions of 32-bit random words to floats that TensorFlow's distributions use.
enum RandomBits {
    /// `[0, 1)`: 23 random mantissa bits under the exponent of 1.0, minus 1.
    @inline(__always)
    static func unitFloat(_ x: UInt32) -> Float {
        Float(bitPattern: 0x3F80_0000 | (x & 0x7F_FFFF)) - 1
    }

    /// `[0, 1)` in double precision: 52 mantissa bits, the top 20 from `hi`, all of `lo`.
    @inline(__always)
    static func unitDouble(_ hi: UInt32, _ lo: UInt32) -> Double {
        let mantissa = (UInt64(hi & 0xF_FFFF) << 32) | UInt64(lo)
        return Double(bitPattern: 0x3FF0_0000_0000_0000 | mantissa) - 1
    }
}
