/// Float → integer rounding written with adds, compares and bit patterns only, so loops
/// over it vectorize on baseline x86-64: `rounded(.toNearestOrAwayFromZero)` is a libm
/// call (`roundf`), and SSE2 has no rounding instruction.
enum Rounding {
    /// Inputs are clamped to `±limit` first: `limit + 1.5·2^23` stays in the binade
    /// `[2^23, 2^24)`, whose spacing is exactly 1.
    static let limit: Float = 4_194_303 // 2^22 − 1

    /// `v.rounded(.toNearestOrAwayFromZero)` as an `Int32`, saturated to `±limit`; NaN
    /// gives 0. Exact for every input:
    /// - the clamped `c` is `v` for `|v| ≤ limit` (and `±limit`, `0` otherwise);
    /// - `t = c + 1.5·2^23` is `1.5·2^23 + even(c)`, `even` rounding to nearest with ties
    ///   to even (the float add's rounding, spacing 1 in this binade), so `even(c)` is
    ///   both `t − 1.5·2^23` (exact) and the low bits of `t`'s bit pattern;
    /// - `d = c − even(c)` is exact (`|d| ≤ 0.5`; for `|c| ≥ 0.5`, `even(c)` is within a
    ///   factor 2 of `c`, Sterbenz, and below that `even(c) = 0`);
    /// - `even` and away-from-zero differ only at ties (`|d| = 0.5`) that `even` rounded
    ///   towards zero: `d = 0.5` with `c > 0` (add 1) and `d = −0.5` with `c < 0` (subtract 1).
    @inline(__always)
    static func halfAwayFromZero(_ v: Float) -> Int32 {
        let magic: Float = 12_582_912 // 1.5·2^23
        var c = v > limit ? limit : v
        c = c < -limit ? -limit : c
        c = c.isNaN ? 0 : c
        let t = c + magic
        let d = c - (t - magic)
        let up: Int32 = d == 0.5 && c > 0 ? 1 : 0
        let down: Int32 = d == -0.5 && c < 0 ? 1 : 0
        return (Int32(bitPattern: t.bitPattern) &- Int32(bitPattern: magic.bitPattern)) &+ up &- down
    }
}
