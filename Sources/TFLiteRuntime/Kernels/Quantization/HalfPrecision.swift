/// IEEE 754 binary16 ⇄ binary32 conversion on bit patterns.
///
/// Written out rather than using `Float16`, which is unavailable on some supported
/// platforms (macOS on x86_64); the results are the same as the hardware conversions.
enum HalfPrecision {
    /// The exact Float value of a half-precision bit pattern (every half is a Float).
    @inline(__always)
    static func float(fromBits h: UInt16) -> Float {
        let sign: UInt32 = UInt32(h & 0x8000) << 16
        let exponent = UInt32(h >> 10) & 0x1F
        let mantissa = UInt32(h & 0x3FF)
        if exponent == 0 {
            // Zero or subnormal: mantissa × 2^-24, exact in Float.
            let magnitude = Float(mantissa) * 0x1p-24
            return sign != 0 ? -magnitude : magnitude
        }
        if exponent == 0x1F {
            // Infinity or NaN (payload kept).
            return Float(bitPattern: sign | 0x7F80_0000 | (mantissa << 13))
        }
        return Float(bitPattern: sign | ((exponent + 112) << 23) | (mantissa << 13))
    }

    /// `x` rounded to the nearest half (ties to even); overflow gives ±infinity, NaN stays NaN.
    @inline(__always)
    static func bits(from x: Float) -> UInt16 {
        let b = x.bitPattern
        let sign = UInt16(truncatingIfNeeded: (b >> 16) & 0x8000)
        let magnitude = b & 0x7FFF_FFFF
        if magnitude >= 0x7F80_0000 {
            // Infinity, or NaN made quiet so that it cannot turn into infinity.
            return magnitude == 0x7F80_0000
                ? sign | 0x7C00
                : sign | 0x7E00 | UInt16(truncatingIfNeeded: (magnitude >> 13) & 0x3FF)
        }
        // 65520 and above round to infinity.
        if magnitude >= 0x477F_F000 { return sign | 0x7C00 }
        if magnitude < 0x3880_0000 {
            // Below the smallest normal half (2^-14): a subnormal (or zero), in units of 2^-24.
            // Scaling by a power of two is exact; rounding to an integer rounds ties to even.
            let units = (Float(bitPattern: magnitude) * 0x1p24).rounded(.toNearestOrEven)
            return sign | UInt16(units)
        }
        let exponent = (magnitude >> 23) - 112
        let mantissa = magnitude & 0x7F_FFFF
        var h = UInt16(truncatingIfNeeded: (exponent << 10) | (mantissa >> 13))
        let rest = mantissa & 0x1FFF
        // A carry out of the mantissa correctly increments the exponent.
        if rest > 0x1000 || (rest == 0x1000 && h & 1 != 0) { h += 1 }
        return sign | h
    }
}
