import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX512
#endif

@Test func gemmU8S8PackingPlacesColumnQuads() {
    // n = 17, k = 5: two panels of 16 columns, two depth quads (the last padded).
    let n = 17, k = 5
    var packed = [Int8](repeating: -1, count: GemmU8S8Layout.packedCount(n: n, k: k) ?? 0)
    #expect(packed.count == 2 * 16 * 8)
    packed.withUnsafeMutableBufferPointer { p in
        GemmU8S8Layout.pack(n: n, k: k, into: p.baseAddress!) { j, d in Int8(5 * j + d) }
    }
    #expect(Array(packed[0 ..< 4]) == [0, 1, 2, 3]) // column 0, depths 0...3
    #expect(Array(packed[4 ..< 8]) == [5, 6, 7, 8]) // column 1
    #expect(Array(packed[64 ..< 68]) == [4, 0, 0, 0]) // column 0, depth 4 and padding
    #expect(packed[128] == 80 && packed[132] == 0) // panel 1: column 16, then padding column 17
}

#if arch(x86_64)
/// Runs the kernel on random codes (a third of them at the ends of the ranges) with A rows
/// padded to a multiple of four plus `extraStride` unused bytes, and compares with the
/// definition. `fill` overrides the random codes (for the wrapping test).
private func checkGemmU8S8(
    m: Int, n: Int, k: Int, extraStride: Int, seed: UInt64,
    fill: ((inout [UInt8], inout [Int8]) -> Void)? = nil
) {
    var rng = SplitMix64(seed: seed)
    func code<T: FixedWidthInteger>(_: T.Type) -> T {
        switch rng.next() % 6 {
        case 0: return T.min
        case 1: return T.max
        default: return T.random(in: T.min ... T.max, using: &rng)
        }
    }
    var a = (0 ..< m * k).map { _ in code(UInt8.self) }
    var b = (0 ..< n * k).map { _ in code(Int8.self) }
    fill?(&a, &b)
    let initial = (0 ..< n).map { _ in Int32.random(in: Int32.min ... Int32.max, using: &rng) }
    let kp = GemmU8S8Layout.paddedDepth(k)
    let lda = kp + extraStride
    // Padding depths and unused stride bytes are garbage on purpose: the padding meets zero
    // weights, and the stride must not be read.
    var rows = [UInt8](repeating: 0xA7, count: m * lda)
    for i in 0 ..< m {
        for d in 0 ..< k { rows[i * lda + d] = a[i * k + d] }
    }
    var packed = [Int8](repeating: -1, count: GemmU8S8Layout.packedCount(n: n, k: k) ?? 0)
    packed.withUnsafeMutableBufferPointer { p in
        GemmU8S8Layout.pack(n: n, k: k, into: p.baseAddress!) { j, d in b[j * k + d] }
    }
    let ldc = n + 3
    var c = [Int32](repeating: 0x5A5A, count: m * ldc)
    rows.withUnsafeBufferPointer { ra in
        packed.withUnsafeBufferPointer { pb in
            initial.withUnsafeBufferPointer { ib in
                c.withUnsafeMutableBufferPointer { cb in
                    gemmU8S8x8x16c4AVX512VNNI(
                        m: m, n: n, kp: kp, a: ra.baseAddress!, lda: lda, packedB: pb.baseAddress!,
                        initial: ib.baseAddress!, c: cb.baseAddress!, ldc: ldc)
                }
            }
        }
    }
    let expected = referenceGemmInt(m: m, n: n, k: k, a: a, b: b, initial: initial)
    expectGemmResult(c, ldc: ldc, expected: expected, m: m, n: n, k: k)
}

@Test(.enabled(if: KernelLevel.host >= .avx512, "needs AVX-512 VNNI"))
func gemmU8S8AVX512VNNIMatchesDefinition() {
    for (index, s) in KernelCases.gemmQ8.enumerated() {
        for extra in [0, 5] {
            checkGemmU8S8(m: s.m, n: s.n, k: s.k, extraStride: extra, seed: UInt64(index * 10 + extra))
        }
    }
}

@Test(.enabled(if: KernelLevel.host >= .avx512, "needs AVX-512 VNNI"))
func gemmU8S8WrapsLikeInt32() {
    // 255 · (-128) per product over 2^16 + 3 depths passes Int32.min: the sums must wrap
    // (`vpdpbusd`, not the saturating `vpdpbusds`), and the same with 255 · 127 upward.
    let k = (1 << 16) + 3
    checkGemmU8S8(m: 3, n: 20, k: k, extraStride: 0, seed: 9) { a, b in
        a = [UInt8](repeating: 255, count: a.count)
        for j in 0 ..< 20 {
            for d in 0 ..< k { b[j * k + d] = j % 2 == 0 ? -128 : 127 }
        }
    }
}

#endif

#if arch(x86_64)
@Test(.enabled(if: KernelLevel.host >= .avx512, "needs AVX-512 VNNI"))
func gemvU8S8AVX512VNNIMatchesDefinition() {
    var rng = SplitMix64(seed: 11)
    for (index, (n, k)) in KernelCases.gemvQ8.enumerated() {
        let flip = index % 2 == 1
        let ldw = k + 5
        // Extremes often, so that long rows wrap.
        let w = (0 ..< n * ldw).map { _ in rng.next() % 3 == 0 ? Int8.min : Int8.random(in: -128 ... 127, using: &rng) }
        let x = (0 ..< k).map { _ in rng.next() % 3 == 0 ? UInt8.max : UInt8.random(in: 0 ... 255, using: &rng) }
        let offset = Int32.random(in: 0 ... 255, using: &rng)
        var acc = [Int32](repeating: 0x5A5A, count: n + 1)
        w.withUnsafeBufferPointer { wp in
            x.withUnsafeBufferPointer { xp in
                acc.withUnsafeMutableBufferPointer { ap in
                    gemvU8S8AVX512VNNI(
                        n: n, k: k, w: UnsafeRawPointer(wp.baseAddress!), ldw: ldw, flip: flip, x: xp.baseAddress!,
                        offset: offset, acc: ap.baseAddress!)
                }
            }
        }
        for o in 0 ..< n {
            var s: Int32 = 0
            for d in 0 ..< k {
                // With `flip`, the byte as an unsigned weight less 128.
                let code = w[o * ldw + d]
                let b = flip ? Int32(UInt8(bitPattern: code)) - 128 : Int32(code)
                s = s &+ (Int32(x[d]) &- offset) &* b
            }
            #expect(acc[o] == s, "n \(n) k \(k) flip \(flip) row \(o)")
        }
        #expect(acc[n] == 0x5A5A)
    }
}
#endif
