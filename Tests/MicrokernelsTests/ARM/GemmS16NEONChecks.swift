#if arch(arm64)
import Microkernels
import MicrokernelsNEON
import SeededRandom

/// `gemmS16x4x16NEON` on random centered codes (`|v| ≤ 255`, what the runtime feeds it),
/// rows padded to an even depth plus `extraStride` unused values (garbage the kernel must
/// not read), against the definition; columns past `n` untouched.
private func checkGemmS16(_ t: inout KernelCheck, m: Int, n: Int, k: Int, extraStride: Int, seed: UInt64) {
    var rng = SplitMix64(seed: seed)
    let a = (0 ..< m * k).map { _ in Int16.random(in: -255 ... 255, using: &rng) }
    let b = (0 ..< n * k).map { _ in Int16.random(in: -255 ... 255, using: &rng) }
    let kp = GemmS16Layout.paddedDepth(k)
    let lda = kp + extraStride
    var rows = [Int16](repeating: 77, count: m * lda)
    for i in 0 ..< m {
        for d in 0 ..< kp { rows[i * lda + d] = d < k ? a[i * k + d] : 0 }
    }
    var packed = [Int16](repeating: -1, count: GemmS16Layout.packedCount(n: n, k: k) ?? 0)
    packed.withUnsafeMutableBufferPointer { p in
        GemmS16Layout.pack(n: n, k: k, group: 1, into: p.baseAddress!) { j, d in b[j * k + d] }
    }
    let ldc = n + 3
    var c = [Int32](repeating: 0x5A5A, count: m * ldc)
    rows.withUnsafeBufferPointer { ra in
        packed.withUnsafeBufferPointer { pb in
            c.withUnsafeMutableBufferPointer { cb in
                gemmS16x4x16NEON(
                    m: m, n: n, kp: kp, a: ra.baseAddress!, lda: lda, packedB: pb.baseAddress!, c: cb.baseAddress!,
                    ldc: ldc)
            }
        }
    }
    expectIntegerGemm(&t, c, ldc: ldc, expected: referenceGemmInt(m: m, n: n, k: k, a: a, b: b), m: m, n: n, k: k)
}

/// `c` (`m` rows `ldc` apart) holds `expected` (`m × n`) in its first `n` columns and the
/// untouched marker `0x5A5A` past them.
func expectIntegerGemm(_ t: inout KernelCheck, _ c: [Int32], ldc: Int, expected: [Int32], m: Int, n: Int, k: Int) {
    for i in 0 ..< m {
        for j in 0 ..< ldc {
            if j < n {
                t.expect(c[i * ldc + j] == expected[i * n + j], "m \(m) n \(n) k \(k): C[\(i), \(j)]")
            } else {
                t.expect(c[i * ldc + j] == 0x5A5A, "m \(m) n \(n) k \(k): wrote past column \(n - 1)")
            }
        }
    }
}

/// One depth per column group: each depth's 16 columns side by side.
func checkGemmS16PackingSingleDepths(_ t: inout KernelCheck) {
    let n = 17, k = 3
    var packed = [Int16](repeating: -1, count: GemmS16Layout.packedCount(n: n, k: k) ?? 0)
    packed.withUnsafeMutableBufferPointer { p in
        GemmS16Layout.pack(n: n, k: k, group: 1, into: p.baseAddress!) { j, d in Int16(100 * j + d) }
    }
    t.expect(packed.count == 2 * 16 * 4, "packed count \(packed.count)")
    t.expect(packed[0] == 0 && packed[1] == 100 && packed[15] == 1500, "depth 0 of columns 0, 1, 15")
    t.expect(packed[16] == 1 && packed[32] == 2 && packed[48] == 0, "column 0: depths 1, 2, padding")
    t.expect(packed[64] == 1600 && packed[65] == 0 && packed[80] == 1601, "panel 1: column 16, padding column 17")
}

func checkGemmS16NEON(_ t: inout KernelCheck) {
    for (index, s) in KernelCases.gemmS16.enumerated() {
        for extra in [0, 6] {
            checkGemmS16(&t, m: s.m, n: s.n, k: s.k, extraStride: extra, seed: UInt64(index * 10 + extra))
        }
    }
}

/// Extreme codes over a long depth: 2^16 · 255² overflows `Int32` and must wrap.
func checkGemmS16NEONWraps(_ t: inout KernelCheck) {
    let m = 2, n = 16, k = 1 << 16
    let kp = GemmS16Layout.paddedDepth(k)
    let rows = [Int16](repeating: -255, count: m * kp)
    var packed = [Int16](repeating: 0, count: GemmS16Layout.packedCount(n: n, k: k) ?? 0)
    packed.withUnsafeMutableBufferPointer { p in
        GemmS16Layout.pack(n: n, k: k, group: 1, into: p.baseAddress!) { _, _ in -255 }
    }
    var c = [Int32](repeating: 0, count: m * n)
    rows.withUnsafeBufferPointer { ra in
        packed.withUnsafeBufferPointer { pb in
            c.withUnsafeMutableBufferPointer { cb in
                gemmS16x4x16NEON(
                    m: m, n: n, kp: kp, a: ra.baseAddress!, lda: kp, packedB: pb.baseAddress!, c: cb.baseAddress!,
                    ldc: n)
            }
        }
    }
    var expected: Int32 = 0
    for _ in 0 ..< k { expected = expected &+ 65025 }
    t.expect(c.allSatisfy { $0 == expected }, "wrapped sum")
}

/// `gemvS8S16NEON` against the definition, both code types, extremes often.
func checkGemvS8S16NEON(_ t: inout KernelCheck) {
    var rng = SplitMix64(seed: 5)
    for (n, k) in KernelCases.gemvS8S16 {
        for signed in [false, true] {
            let ldw = k + 5
            let w = (0 ..< n * ldw).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            let x = (0 ..< k).map { _ in rng.next() % 3 == 0 ? Int16(-255) : Int16.random(in: -255 ... 255, using: &rng)
            }
            var acc = [Int32](repeating: 0x5A5A, count: n + 1)
            w.withUnsafeBytes { wp in
                x.withUnsafeBufferPointer { xp in
                    acc.withUnsafeMutableBufferPointer { ap in
                        gemvS8S16NEON(
                            n: n, k: k, w: wp.baseAddress!, ldw: ldw, signed: signed, x: xp.baseAddress!,
                            acc: ap.baseAddress!)
                    }
                }
            }
            for o in 0 ..< n {
                var s: Int32 = 0
                for d in 0 ..< k {
                    let code = signed ? Int32(Int8(bitPattern: w[o * ldw + d])) : Int32(w[o * ldw + d])
                    s = s &+ code &* Int32(x[d])
                }
                t.expect(acc[o] == s, "n \(n) k \(k) signed \(signed) row \(o)")
            }
            t.expect(acc[n] == 0x5A5A, "n \(n) k \(k): wrote past the last row")
        }
    }
}

/// `centerCodesS16NEON`: `x - zx` for every code of both types, around the 16-code steps.
func checkCenterCodesNEON(_ t: inout KernelCheck) {
    let codes = (0 ..< 256).map { UInt8($0) } + [7, 200, 13]
    for signed in [false, true] {
        for zeroPoint: Int32 in signed ? [-128, -3, 0, 127] : [0, 37, 255] {
            for count in [codes.count, 15, 16, 17, 1] {
                var out = [Int16](repeating: 99, count: count + 2)
                codes.withUnsafeBytes { x in
                    out.withUnsafeMutableBufferPointer { o in
                        centerCodesS16NEON(
                            x.baseAddress!, count: count, signed: signed, zeroPoint: zeroPoint, into: o.baseAddress!)
                    }
                }
                for i in 0 ..< count {
                    let code = signed ? Int32(Int8(bitPattern: codes[i])) : Int32(codes[i])
                    t.expect(
                        Int32(out[i]) == code - zeroPoint, "signed \(signed) zp \(zeroPoint) count \(count) [\(i)]")
                }
                t.expect(out[count] == 99, "count \(count): wrote past the end")
            }
        }
    }
}
#endif
