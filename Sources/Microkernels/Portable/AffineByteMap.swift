/// An 8-bit to 8-bit map that is affine on each side of the input zero point, computed in
/// 16-bit lanes the way vector units multiply (`vpmulhrsw`, `SQRDMULH`), and found at
/// prepare so that it reproduces a given table of 256 codes exactly.
///
/// For a code `x` and `d = x - z_x` (`|d| ≤ 255`), with the piece for `d`'s sign:
///
///     t = d · 2^p                          (p ≤ 7, so |t| < 2^15)
///     u = (t·K + 2^14) >> 15               (the rounding high product, K ∈ 1 ... 32767)
///     v = sat16(u + c + [d < 0]·n)
///     w = sat16((v >> q) + zeroAfter)
///     y = clamp(w, lower, upper)
///
/// which is `floor((d·K·2^p + 2^14 + (c + [d < 0]·n)·2^15) / 2^(15+q))` plus the zero
/// point, as long as nothing saturates. TFLite's requantizations (QUANTIZE between 8-bit
/// types, the 8-bit RELUs, LEAKY_RELU) are `MultiplyByQuantizedMultiplier(d, M, e) + z_y`,
/// whose two roundings make the result `floor(d·m + b)` with one intercept for `d ≥ 0`
/// and one `2^e` lower for `d < 0`; a 15-bit `K` rarely pins `m` down well enough for
/// every one of the 256 codes, but the intercept's freedom does, so ``search(targets:signed:zeroX:lower:upper:slope:negativeSlope:)``
/// tries the nearby `(K, c, n)` and keeps the first whose 256 results all equal the
/// targets (computed with the reference arithmetic). When none does, the caller keeps
/// its exact table.
public struct AffineByteMap: Sendable, Hashable {
    /// The constants of one side of the zero point.
    public struct Piece: Sendable, Hashable {
        public let p: Int16, k: Int16, c: Int16, n: Int16, q: Int16

        @inlinable
        func apply(_ d: Int32, zeroAfter: Int32) -> Int32 {
            let t = d << Int32(p)
            let u = (t * Int32(k) + (1 << 14)) >> 15
            let v = saturate16(u + Int32(c) + (d < 0 ? Int32(n) : 0))
            return saturate16((v >> Int32(q)) + zeroAfter)
        }
    }

    public let signedInput: Bool
    public let zeroX: Int16
    /// `d ≥ 0`, and `d < 0` when one piece covers both (``negative`` nil).
    public let positive: Piece
    public let negative: Piece?
    public let zeroAfter: Int16
    /// Output codes (int8 or uint8 range).
    public let lower: Int16, upper: Int16

    @inlinable
    static func saturate16(_ v: Int32) -> Int32 { Swift.min(Swift.max(v, -32768), 32767) }

    /// The code for input code `x`, as the vector kernels compute it.
    @inlinable
    public func apply(_ x: Int32) -> Int32 {
        let d = x - Int32(zeroX)
        let piece = d < 0 ? (negative ?? positive) : positive
        let w = piece.apply(d, zeroAfter: Int32(zeroAfter))
        return Swift.min(Swift.max(w, Int32(lower)), Int32(upper))
    }

    /// A map whose results equal `targets` (indexed by the code's bit pattern as `UInt8`)
    /// for every input code, or nil. `slope` is the real multiplier of `d ≥ 0` (and of
    /// `d < 0` unless `negativeSlope` is given: then the two sides get separate pieces);
    /// slopes must lie in `2^-14 ... 64`. `targets` are output codes within `lower...upper`.
    public static func search(
        targets: [Int32], signed: Bool, zeroX: Int32, lower: Int32, upper: Int32, slope: Double,
        negativeSlope: Double? = nil
    ) -> AffineByteMap? {
        guard targets.count == 256, (-255 ... 255).contains(zeroX), lower <= upper else { return nil }
        let codes: [Int32] = signed ? Array(-128 ... 127) : Array(0 ... 255)
        let target = { (x: Int32) -> Int32 in targets[Int(UInt8(truncatingIfNeeded: x))] }
        // Codes checked widest |d| first: those reject a wrong slope soonest.
        let byReach = codes.sorted { Swift.abs($0 - zeroX) > Swift.abs($1 - zeroX) }
        let positiveCodes = byReach.filter { $0 >= zeroX }, negativeCodes = byReach.filter { $0 < zeroX }
        // The zero point goes into `c` when it fits beside it, else after the shift.
        // `shifts` pins `(p, q)`; `coarse` accepts a `K` below 2^13 (for the smaller slope of
        // two pieces that share their shifts).
        func find(
            _ m: Double, _ xs: [Int32], zeroAfter: Int32, offsets: [Int32], shifts: (p: Int, q: Int)? = nil,
            coarse: Bool = false
        ) -> Piece? {
            guard m > 0, m.isFinite, !xs.isEmpty else {
                return xs.isEmpty ? Piece(p: Int16(shifts?.p ?? 0), k: 1, c: 0, n: 0, q: Int16(shifts?.q ?? 0)) : nil
            }
            let ps = shifts.map { $0.p ... $0.p } ?? 0 ... 7
            let qs = shifts.map { $0.q ... $0.q } ?? 0 ... 14
            for p in ps {
                for q in qs {
                    let k0 = m * Double(1 << (15 + q - p))
                    guard k0 >= (coarse ? 64 : 8192), k0 < 32768 else { continue }
                    let center = Int32(1 << q) >> 1 // the intercept's 1/2, in units of 2^-q
                    for dk in 0 ... 128 {
                        for k in dk == 0 ? [Int32(k0)] : [Int32(k0) + Int32(dk), Int32(k0) - Int32(dk)] {
                            guard (1 ... 32767).contains(k) else { continue }
                            for dc in -6 ... 6 {
                                for n in offsets {
                                    let piece = Piece(
                                        p: Int16(p), k: Int16(k),
                                        c: Int16(clamping: Int32(center) + Int32(dc)), n: Int16(n), q: Int16(q))
                                    if xs.allSatisfy({ x in
                                        let w = piece.apply(x - zeroX, zeroAfter: zeroAfter)
                                        return Swift.min(Swift.max(w, lower), upper) == target(x)
                                    }) {
                                        return piece
                                    }
                                }
                            }
                        }
                    }
                }
            }
            return nil
        }
        // zeroAfter: the output zero point is the target at d = 0, up to the intercept;
        // it is added after the shift.
        let zy = target(zeroX)
        if let negativeSlope {
            // Pieces with the same shifts run as one chain in the vector kernels: tried
            // first, every `(p, q)` that suits the larger slope, the smaller one's `K`
            // allowed to be coarse (the 256 checks decide).
            let pieces: (Piece, Piece)? = {
                for p in 0 ... 7 {
                    for q in 0 ... 14 {
                        let small = Swift.min(slope, negativeSlope), large = Swift.max(slope, negativeSlope)
                        let k0 = large * Double(1 << (15 + q - p))
                        guard k0 >= 8192, k0 < 32768, small * Double(1 << (15 + q - p)) >= 64 else { continue }
                        guard
                            let pos = find(
                                slope, positiveCodes, zeroAfter: zy, offsets: [0], shifts: (p, q), coarse: slope < large
                            ),
                            let neg = find(
                                negativeSlope, negativeCodes, zeroAfter: zy, offsets: [0], shifts: (p, q),
                                coarse: negativeSlope < large)
                        else { continue }
                        return (pos, neg)
                    }
                }
                guard let pos = find(slope, positiveCodes, zeroAfter: zy, offsets: [0]),
                    let neg = find(negativeSlope, negativeCodes, zeroAfter: zy, offsets: [0])
                else { return nil }
                return (pos, neg)
            }()
            guard let (pos, neg) = pieces else { return nil }
            return AffineByteMap(
                signedInput: signed, zeroX: Int16(zeroX), positive: pos, negative: neg, zeroAfter: Int16(zy),
                lower: Int16(lower), upper: Int16(upper))
        }
        guard let piece = find(slope, byReach, zeroAfter: zy, offsets: [0, -1, 1, -2]) else { return nil }
        return AffineByteMap(
            signedInput: signed, zeroX: Int16(zeroX), positive: piece, negative: nil, zeroAfter: Int16(zy),
            lower: Int16(lower), upper: Int16(upper))
    }

    /// `y[i] = apply(x[i])` one code at a time (the reference for the vector kernels; the
    /// portable level runs ``affineByteMapPortable(_:_:count:_:)``).
    public func map(_ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, count: Int) {
        for i in 0 ..< count {
            let code =
                signedInput
                ? Int32(x.load(fromByteOffset: i, as: Int8.self)) : Int32(x.load(fromByteOffset: i, as: UInt8.self))
            y.storeBytes(of: UInt8(truncatingIfNeeded: apply(code)), toByteOffset: i, as: UInt8.self)
        }
    }
}

/// ``AffineByteMap`` over `count` codes for the baseline: the same arithmetic in `Int32`
/// lanes, written as a plain loop that LLVM vectorizes (`pmaddwd`-free: the products fit
/// 32 bits).
@inline(never)
public func affineByteMapPortable(_ x: UnsafeRawPointer, _ y: UnsafeMutableRawPointer, count: Int, _ map: AffineByteMap)
{
    let zx = Int32(map.zeroX), za = Int32(map.zeroAfter), lo = Int32(map.lower), hi = Int32(map.upper)
    let pos = map.positive, neg = map.negative ?? map.positive
    @inline(__always) func run(signed: Bool) {
        for i in 0 ..< count {
            let code =
                signed
                ? Int32(x.load(fromByteOffset: i, as: Int8.self)) : Int32(x.load(fromByteOffset: i, as: UInt8.self))
            let d = code &- zx
            let negative = d < 0
            let p = negative ? neg.p : pos.p, k = negative ? neg.k : pos.k, c = negative ? neg.c : pos.c
            let q = negative ? neg.q : pos.q, n: Int16 = negative ? neg.n : 0
            let u = ((d &<< Int32(p)) &* Int32(k) &+ (1 << 14)) &>> 15
            var v = u &+ Int32(c) &+ Int32(n)
            v = v < -32768 ? -32768 : (v > 32767 ? 32767 : v)
            var w = (v &>> Int32(q)) &+ za
            w = w < lo ? lo : (w > hi ? hi : w)
            y.storeBytes(of: UInt8(truncatingIfNeeded: w), toByteOffset: i, as: UInt8.self)
        }
    }
    if map.signedInput { run(signed: true) } else { run(signed: false) }
}
