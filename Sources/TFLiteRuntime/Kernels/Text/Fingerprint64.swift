/// FarmHash's 64-bit fingerprint (`farmhashna::Hash64`, which TFLite calls
/// `Fingerprint64`): the hash LSH_PROJECTION and the Smart Reply operators key on, so it
/// must be reproduced bit for bit. Every word is read little-endian; all arithmetic wraps
/// modulo 2^64. The steps are described in spec/text-ops.md.
package enum Fingerprint64 {
    static let k0: UInt64 = 0xc3a5_c85c_97cb_3127
    static let k1: UInt64 = 0xb492_b66f_be98_f273
    static let k2: UInt64 = 0x9ae1_6a3b_2f90_404f

    package static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let n = bytes.count
        if n <= 16 { return short(bytes) }
        if n <= 32 { return medium(bytes) }
        if n <= 64 { return long(bytes) }
        return stream(bytes)
    }

    package static func hash(_ bytes: [UInt8]) -> UInt64 {
        bytes.withUnsafeBytes { hash($0) }
    }

    @inline(__always) private static func word(_ p: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: p.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    @inline(__always) private static func half(_ p: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
    }

    /// Rotation right by `r` (1...63).
    @inline(__always) private static func rotr(_ v: UInt64, _ r: UInt64) -> UInt64 {
        (v >> r) | (v << (64 &- r))
    }

    @inline(__always) private static func mixShift(_ v: UInt64) -> UInt64 { v ^ (v >> 47) }

    /// Folds two words into one with multiplier `m`.
    @inline(__always) private static func fold(_ u: UInt64, _ v: UInt64, _ m: UInt64) -> UInt64 {
        let a = mixShift((u ^ v) &* m)
        let b = mixShift((v ^ a) &* m)
        return b &* m
    }

    /// 0 to 16 bytes.
    private static func short(_ p: UnsafeRawBufferPointer) -> UInt64 {
        let n = p.count
        let m = k2 &+ UInt64(n) &* 2
        if n >= 8 {
            let a = word(p, 0) &+ k2
            let b = word(p, n - 8)
            let c = rotr(b, 37) &* m &+ a
            let d = (rotr(a, 25) &+ b) &* m
            return fold(c, d, m)
        }
        if n >= 4 {
            return fold(UInt64(n) &+ (half(p, 0) << 3), half(p, n - 4), m)
        }
        guard n > 0 else { return k2 }
        let first = UInt32(p[0]), middle = UInt32(p[n >> 1]), last = UInt32(p[n - 1])
        let y = first &+ (middle << 8)
        let z = UInt32(n) &+ (last << 2)
        return mixShift(UInt64(y) &* k2 ^ UInt64(z) &* k0) &* k2
    }

    /// 17 to 32 bytes.
    private static func medium(_ p: UnsafeRawBufferPointer) -> UInt64 {
        let n = p.count
        let m = k2 &+ UInt64(n) &* 2
        let a = word(p, 0) &* k1
        let b = word(p, 8)
        let c = word(p, n - 8) &* m
        let d = word(p, n - 16) &* k2
        return fold(rotr(a &+ b, 43) &+ rotr(c, 30) &+ d, a &+ rotr(b &+ k2, 18) &+ c, m)
    }

    /// 33 to 64 bytes.
    private static func long(_ p: UnsafeRawBufferPointer) -> UInt64 {
        let n = p.count
        let m = k2 &+ UInt64(n) &* 2
        let a = word(p, 0) &* k2
        let b = word(p, 8)
        let c = word(p, n - 8) &* m
        let d = word(p, n - 16) &* k2
        let y = rotr(a &+ b, 43) &+ rotr(c, 30) &+ d
        let z = fold(y, a &+ rotr(b &+ k2, 18) &+ c, m)
        let e = word(p, 16) &* m
        let f = word(p, 24)
        let g = (y &+ word(p, n - 32)) &* m
        let h = (z &+ word(p, n - 24)) &* m
        return fold(rotr(e &+ f, 43) &+ rotr(g, 30) &+ h, e &+ rotr(f &+ a, 18) &+ g, m)
    }

    /// Mixes the four words at `at` into the pair `(s, t)`.
    @inline(__always) private static func pairMix(
        _ p: UnsafeRawBufferPointer, _ at: Int, _ s: UInt64, _ t: UInt64
    ) -> (UInt64, UInt64) {
        let w = word(p, at), x = word(p, at + 8), y = word(p, at + 16), z = word(p, at + 24)
        var a = s &+ w
        var b = rotr(t &+ a &+ z, 21)
        let c = a
        a = a &+ x &+ y
        b = b &+ rotr(a, 44)
        return (a &+ z, b &+ c)
    }

    /// More than 64 bytes: 64-byte blocks through a 56-byte state, then the last 64 bytes.
    private static func stream(_ p: UnsafeRawBufferPointer) -> UInt64 {
        let n = p.count
        let seed: UInt64 = 81
        var x = seed
        var y = seed &* k1 &+ 113
        var z = mixShift(y &* k2 &+ 113) &* k2
        var v: (UInt64, UInt64) = (0, 0)
        var w: (UInt64, UInt64) = (0, 0)
        x = x &* k2 &+ word(p, 0)
        let blocks = (n - 1) / 64
        for block in 0 ..< blocks {
            let s = block * 64
            x = rotr(x &+ y &+ v.0 &+ word(p, s + 8), 37) &* k1
            y = rotr(y &+ v.1 &+ word(p, s + 48), 42) &* k1
            x ^= w.1
            y = y &+ v.0 &+ word(p, s + 40)
            z = rotr(z &+ w.0, 33) &* k1
            v = pairMix(p, s, v.1 &* k1, x &+ w.0)
            w = pairMix(p, s + 32, z &+ w.1, y &+ word(p, s + 16))
            swap(&z, &x)
        }
        let m = k1 &+ ((z & 0xff) << 1)
        let s = n - 64
        w.0 = w.0 &+ UInt64((n - 1) & 63)
        v.0 = v.0 &+ w.0
        w.0 = w.0 &+ v.0
        x = rotr(x &+ y &+ v.0 &+ word(p, s + 8), 37) &* m
        y = rotr(y &+ v.1 &+ word(p, s + 48), 42) &* m
        x ^= w.1 &* 9
        y = y &+ v.0 &* 9 &+ word(p, s + 40)
        z = rotr(z &+ w.0, 33) &* m
        v = pairMix(p, s, v.1 &* m, x &+ w.0)
        w = pairMix(p, s + 32, z &+ w.1, y &+ word(p, s + 16))
        swap(&z, &x)
        return fold(fold(v.0, w.0, m) &+ mixShift(y) &* k0 &+ z, fold(v.1, w.1, m) &+ x, m)
    }
}
