#if arch(arm64)
import _Builtin_intrinsics.arm.neon
import Microkernels

/// Exact integer GEMM for aarch64 Advanced SIMD: `C[m×n] = A[m×k] · Bᵀ` in wrapping
/// `Int32`, with the operands in ``GemmS16Layout`` at one depth per group (A: `Int16` rows
/// of even depth `kp`, stride `lda`; B: panels of 16 columns, each depth's 16 values
/// contiguous, `GemmS16Layout.pack(…, group: 1, …)`).
///
/// A block of 4 rows × 16 columns keeps sixteen `Int32` vectors. Eight depths of each row
/// are loaded as one vector of `Int16`; per depth the panel's 16 values are two vectors,
/// and each is multiplied by the row's value for that depth, taken as a lane of the row's
/// vector, and added widened (`SMLAL`/`SMLAL2` by element): 16 instructions for 64
/// multiply-adds per depth, for two loads. Rows are the inner loop so a panel (`kp · 32`
/// bytes) stays in L1 while the rows stream past it. A short last block repeats its last
/// row (computed and dropped); a last panel narrower than 16 columns is stored lane by
/// lane.
///
/// Every product of two centered codes (at most 255² in magnitude) is exact in `Int32`,
/// and every partial sum wraps exactly as TFLite's `int32` accumulator, so the result does
/// not depend on the blocking.
@export(interface) @inline(never)
public func gemmS16x4x16NEON(
    m: Int, n: Int, kp: Int, a: UnsafePointer<Int16>, lda: Int,
    packedB: UnsafePointer<Int16>, c: UnsafeMutablePointer<Int32>, ldc: Int
) {
    guard m > 0, n > 0 else { return }
    let panels = (n + 15) / 16
    for p in 0 ..< panels {
        let panel = UnsafeRawPointer(packedB + p * 16 * kp)
        let j0 = p * 16, width = Swift.min(16, n - j0)
        var i = 0
        while i < m {
            let rows = Swift.min(4, m - i)
            let r0 = UnsafeRawPointer(a + i * lda)
            let r1 = rows > 1 ? r0 + 2 * lda : r0
            let r2 = rows > 2 ? r1 + 2 * lda : r1
            let r3 = rows > 3 ? r2 + 2 * lda : r2
            var c0 = Sums16(), c1 = Sums16(), c2 = Sums16(), c3 = Sums16()
            var pb = panel
            var d = 0
            while d + 8 <= kp {
                let a0 = r0.loadUnaligned(fromByteOffset: 2 * d, as: SIMD8<Int16>.self)
                let a1 = r1.loadUnaligned(fromByteOffset: 2 * d, as: SIMD8<Int16>.self)
                let a2 = r2.loadUnaligned(fromByteOffset: 2 * d, as: SIMD8<Int16>.self)
                let a3 = r3.loadUnaligned(fromByteOffset: 2 * d, as: SIMD8<Int16>.self)
                @inline(__always) func depth(_ l: Int) {
                    let b = Panel16(pb)
                    c0.add(b, SIMD8(repeating: a0[l]))
                    c1.add(b, SIMD8(repeating: a1[l]))
                    c2.add(b, SIMD8(repeating: a2[l]))
                    c3.add(b, SIMD8(repeating: a3[l]))
                    pb += 32
                }
                depth(0)
                depth(1)
                depth(2)
                depth(3)
                depth(4)
                depth(5)
                depth(6)
                depth(7)
                d += 8
            }
            while d < kp {
                let b = Panel16(pb)
                c0.add(b, SIMD8(repeating: r0.loadUnaligned(fromByteOffset: 2 * d, as: Int16.self)))
                c1.add(b, SIMD8(repeating: r1.loadUnaligned(fromByteOffset: 2 * d, as: Int16.self)))
                c2.add(b, SIMD8(repeating: r2.loadUnaligned(fromByteOffset: 2 * d, as: Int16.self)))
                c3.add(b, SIMD8(repeating: r3.loadUnaligned(fromByteOffset: 2 * d, as: Int16.self)))
                pb += 32
                d += 1
            }
            let out = c + i * ldc + j0
            c0.store(out, width: width)
            if rows > 1 { c1.store(out + ldc, width: width) }
            if rows > 2 { c2.store(out + 2 * ldc, width: width) }
            if rows > 3 { c3.store(out + 3 * ldc, width: width) }
            i += rows
        }
    }
}

/// One depth of a panel: 16 columns' `Int16` values in two vectors.
private struct Panel16 {
    let lo: SIMD8<Int16>, hi: SIMD8<Int16>

    @inline(__always)
    init(_ p: UnsafeRawPointer) {
        lo = p.loadUnaligned(as: SIMD8<Int16>.self)
        hi = p.loadUnaligned(fromByteOffset: 16, as: SIMD8<Int16>.self)
    }
}

/// One row's 16 column sums in four `Int32` vectors.
private struct Sums16 {
    var s0 = SIMD4<Int32>(), s1 = SIMD4<Int32>(), s2 = SIMD4<Int32>(), s3 = SIMD4<Int32>()

    @inline(__always) init() {}

    /// `self += b · x` widened, with `x` a row's value repeated (a lane of its vector, so
    /// LLVM selects `SMLAL`/`SMLAL2` by element).
    @inline(__always)
    mutating func add(_ b: Panel16, _ x: SIMD8<Int16>) {
        s0 = vmlal_s16(s0, b.lo.lowHalf, x.lowHalf)
        s1 = vmlal_high_s16(s1, b.lo, x)
        s2 = vmlal_s16(s2, b.hi.lowHalf, x.lowHalf)
        s3 = vmlal_high_s16(s3, b.hi, x)
    }

    /// Stores the first `width` sums.
    @inline(__always)
    func store(_ out: UnsafeMutablePointer<Int32>, width: Int) {
        let o = UnsafeMutableRawPointer(out)
        if width == 16 {
            o.storeBytes(of: s0, as: SIMD4<Int32>.self)
            o.storeBytes(of: s1, toByteOffset: 16, as: SIMD4<Int32>.self)
            o.storeBytes(of: s2, toByteOffset: 32, as: SIMD4<Int32>.self)
            o.storeBytes(of: s3, toByteOffset: 48, as: SIMD4<Int32>.self)
            return
        }
        for j in 0 ..< width {
            let v = j < 4 ? s0[j] : j < 8 ? s1[j - 4] : j < 12 ? s2[j - 8] : s3[j - 12]
            out[j] = v
        }
    }
}
#endif
