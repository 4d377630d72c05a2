import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#endif

/// Runs `kernel` on random centered codes (`|v| ≤ 255`, the range the runtime feeds it)
/// with A rows padded to an even depth plus `extraStride` unused values, and compares
/// with the definition.
private func checkGemmS16(
    m: Int, n: Int, k: Int, extraStride: Int, seed: UInt64,
    kernel: (Int, Int, Int, UnsafePointer<Int16>, Int, UnsafePointer<Int16>, UnsafeMutablePointer<Int32>, Int) -> Void
) {
    var rng = SplitMix64(seed: seed)
    let a = (0 ..< m * k).map { _ in Int16.random(in: -255 ... 255, using: &rng) }
    let b = (0 ..< n * k).map { _ in Int16.random(in: -255 ... 255, using: &rng) }
    let kp = GemmS16Layout.paddedDepth(k)
    let lda = kp + extraStride
    // Unused stride values are garbage on purpose: the kernel must not read them.
    var rows = [Int16](repeating: 77, count: m * lda)
    for i in 0 ..< m {
        for d in 0 ..< kp { rows[i * lda + d] = d < k ? a[i * k + d] : 0 }
    }
    var packed = [Int16](repeating: -1, count: GemmS16Layout.packedCount(n: n, k: k) ?? 0)
    packed.withUnsafeMutableBufferPointer { p in
        GemmS16Layout.pack(n: n, k: k, into: p.baseAddress!) { j, d in b[j * k + d] }
    }
    let ldc = n + 3
    var c = [Int32](repeating: 0x5A5A, count: m * ldc)
    rows.withUnsafeBufferPointer { ra in
        packed.withUnsafeBufferPointer { pb in
            c.withUnsafeMutableBufferPointer { cb in
                kernel(m, n, kp, ra.baseAddress!, lda, pb.baseAddress!, cb.baseAddress!, ldc)
            }
        }
    }
    let expected = referenceGemmInt(m: m, n: n, k: k, a: a, b: b)
    expectGemmResult(c, ldc: ldc, expected: expected, m: m, n: n, k: k)
}

@Test func gemmS16PackingPlacesColumnPairs() {
    // n = 17, k = 3: two panels of 16 columns, two depth pairs (the last padded).
    let n = 17, k = 3
    var packed = [Int16](repeating: -1, count: GemmS16Layout.packedCount(n: n, k: k) ?? 0)
    #expect(packed.count == 2 * 16 * 4)
    packed.withUnsafeMutableBufferPointer { p in
        GemmS16Layout.pack(n: n, k: k, into: p.baseAddress!) { j, d in Int16(100 * j + d) }
    }
    #expect(packed[0] == 0 && packed[1] == 1) // column 0, depths 0 and 1
    #expect(packed[2] == 100 && packed[3] == 101) // column 1
    #expect(packed[32] == 2 && packed[33] == 0) // column 0, depth 2 and padding
    #expect(packed[64] == 1600 && packed[66] == 0) // panel 1: column 16, then padding column 17
}

#if arch(x86_64)
@Test(.enabled(if: KernelLevel.host >= .avx512, "needs AVX-512 VNNI"))
func gemmS16AVX512VNNIMatchesDefinition() {
    for (index, s) in KernelCases.gemmS16.enumerated() {
        for extra in [0, 6] {
            checkGemmS16(m: s.m, n: s.n, k: s.k, extraStride: extra, seed: UInt64(index * 10 + extra)) {
                MicrokernelsAVX512.gemmS16x8x16c2AVX512VNNI(
                    m: $0, n: $1, kp: $2, a: $3, lda: $4, packedB: $5, c: $6, ldc: $7)
            }
        }
    }
}

@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func gemmS16AVX2MatchesDefinition() {
    for (index, s) in KernelCases.gemmS16.enumerated() {
        for extra in [0, 6] {
            checkGemmS16(m: s.m, n: s.n, k: s.k, extraStride: extra, seed: UInt64(index * 10 + extra)) {
                MicrokernelsAVX2.gemmS16x4x16c2(m: $0, n: $1, kp: $2, a: $3, lda: $4, packedB: $5, c: $6, ldc: $7)
            }
        }
    }
}

@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"), arguments: [KernelLevel.avx2, .avx512])
func gemmS16WrapsLikeInt32(level: KernelLevel) {
    guard level <= KernelLevel.host else { return }
    // Extreme codes over a long depth: 2^16 · 255² overflows Int32, and must wrap.
    let m = 2, n = 16, k = 1 << 16
    let kp = GemmS16Layout.paddedDepth(k)
    let rows = [Int16](repeating: -255, count: m * kp)
    var packed = [Int16](repeating: 0, count: GemmS16Layout.packedCount(n: n, k: k) ?? 0)
    packed.withUnsafeMutableBufferPointer { p in
        GemmS16Layout.pack(n: n, k: k, into: p.baseAddress!) { _, _ in -255 }
    }
    var c = [Int32](repeating: 0, count: m * n)
    rows.withUnsafeBufferPointer { ra in
        packed.withUnsafeBufferPointer { pb in
            c.withUnsafeMutableBufferPointer { cb in
                let gemm =
                    level >= .avx512 ? MicrokernelsAVX512.gemmS16x8x16c2AVX512VNNI : MicrokernelsAVX2.gemmS16x4x16c2
                gemm(m, n, kp, ra.baseAddress!, kp, pb.baseAddress!, cb.baseAddress!, n)
            }
        }
    }
    var expected: Int32 = 0
    for _ in 0 ..< k { expected = expected &+ 65025 }
    #expect(c.allSatisfy { $0 == expected })
}
#endif

@Test func kernelLevelNamesRoundTrip() {
    for level in KernelLevel.allCases { #expect(KernelLevel(name: level.description) == level) }
    #expect(KernelLevel(name: "AVX2") == .avx2)
    #expect(KernelLevel(name: "avx512") == .avx512)
    #expect(KernelLevel(name: "sse9") == nil)
    #expect(KernelLevel.resolve(.portable) == .portable)
    #expect(KernelLevel.resolve(nil) <= KernelLevel.host)
    #expect(KernelLevel.resolve(.avx2) <= KernelLevel.host)
}

#if arch(x86_64)
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func gemvS8S16AVX2MatchesDefinition() {
    var rng = SplitMix64(seed: 5)
    for (n, k) in KernelCases.gemvS8S16 {
        for signed in [false, true] {
            let ldw = k + 5
            let w = (0 ..< n * ldw).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            // Extremes often, so that long rows wrap.
            let x = (0 ..< k).map { _ in rng.next() % 3 == 0 ? Int16(-255) : Int16.random(in: -255 ... 255, using: &rng)
            }
            var acc = [Int32](repeating: 0x5A5A, count: n + 1)
            w.withUnsafeBytes { wp in
                x.withUnsafeBufferPointer { xp in
                    acc.withUnsafeMutableBufferPointer { ap in
                        gemvS8S16AVX2(
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
                #expect(acc[o] == s, "n \(n) k \(k) signed \(signed) row \(o)")
            }
            #expect(acc[n] == 0x5A5A)
        }
    }
}
#endif
