#if arch(arm64)
import Microkernels
import MicrokernelsDotProd
import MicrokernelsI8MM
import SeededRandom

/// The aarch64 8-bit GEMMs: `SDOT`/`UDOT` on ``GemmU8S8Layout`` quads (`dotprod`) and
/// `SMMLA`/`UMMLA` on ``GemmQ8C8Layout`` eights (`i8mm`), both on codes of one signedness.
enum Q8GemmForm {
    case dotprod, i8mm

    func paddedDepth(_ k: Int) -> Int {
        self == .dotprod ? GemmU8S8Layout.paddedDepth(k) : GemmQ8C8Layout.paddedDepth(k)
    }

    /// `b` (`n` rows of `k` codes, as bytes) packed.
    func pack(_ b: [Int8], n: Int, k: Int) -> [Int8] {
        let count = (self == .dotprod ? GemmU8S8Layout.packedCount(n: n, k: k) : GemmQ8C8Layout.packedCount(n: n, k: k))
        var packed = [Int8](repeating: -1, count: count ?? 0)
        packed.withUnsafeMutableBufferPointer { p in
            if self == .dotprod {
                GemmU8S8Layout.pack(n: n, k: k, into: p.baseAddress!) { j, d in b[j * k + d] }
            } else {
                GemmQ8C8Layout.pack(n: n, k: k, into: p.baseAddress!) { j, d in b[j * k + d] }
            }
        }
        return packed
    }

    func gemm(
        m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, lda: Int, packedB: UnsafePointer<Int8>, signed: Bool,
        initial: UnsafePointer<Int32>, c: UnsafeMutablePointer<Int32>, ldc: Int
    ) {
        switch self {
        case .dotprod:
            gemmQ8x4x16c4DotProd(
                m: m, n: n, kp: kp, a: a, lda: lda, packedB: packedB, signed: signed, initial: initial, c: c, ldc: ldc)
        case .i8mm:
            gemmQ8x4x16c8I8MM(
                m: m, n: n, kp: kp, a: a, lda: lda, packedB: packedB, signed: signed, initial: initial, c: c, ldc: ldc)
        }
    }
}

/// A random code as a byte: a third of them at the ends of the type's range.
private func code(_ rng: inout SplitMix64, signed: Bool) -> UInt8 {
    switch rng.next() % 6 {
    case 0: return signed ? 0x80 : 0
    case 1: return signed ? 0x7F : 0xFF
    default: return UInt8.random(in: 0 ... 255, using: &rng)
    }
}

/// The codes' values (`Int8` or `UInt8` as `Int32`).
private func values(_ bytes: [UInt8], signed: Bool) -> [Int32] {
    bytes.map { signed ? Int32(Int8(bitPattern: $0)) : Int32($0) }
}

/// Runs `form`'s GEMM on random codes with rows padded to its depth plus `extraStride`
/// unused bytes (padding and stride garbage on purpose) and compares with the definition.
private func checkGemmQ8(
    _ t: inout KernelCheck, form: Q8GemmForm, m: Int, n: Int, k: Int, extraStride: Int, signed: Bool, seed: UInt64,
    fill: ((inout [UInt8], inout [UInt8]) -> Void)? = nil
) {
    var rng = SplitMix64(seed: seed)
    var a = (0 ..< m * k).map { _ in code(&rng, signed: signed) }
    var b = (0 ..< n * k).map { _ in code(&rng, signed: signed) }
    fill?(&a, &b)
    let initial = (0 ..< n).map { _ in Int32.random(in: .min ... .max, using: &rng) }
    let kp = form.paddedDepth(k), lda = kp + extraStride
    var rows = [UInt8](repeating: 0xA7, count: m * lda)
    for i in 0 ..< m {
        for d in 0 ..< k { rows[i * lda + d] = a[i * k + d] }
    }
    let packed = form.pack(b.map { Int8(bitPattern: $0) }, n: n, k: k)
    let ldc = n + 3
    var c = [Int32](repeating: 0x5A5A, count: m * ldc)
    rows.withUnsafeBufferPointer { ra in
        packed.withUnsafeBufferPointer { pb in
            initial.withUnsafeBufferPointer { ib in
                c.withUnsafeMutableBufferPointer { cb in
                    form.gemm(
                        m: m, n: n, kp: kp, a: ra.baseAddress!, lda: lda, packedB: pb.baseAddress!, signed: signed,
                        initial: ib.baseAddress!, c: cb.baseAddress!, ldc: ldc)
                }
            }
        }
    }
    let expected = referenceGemmInt(
        m: m, n: n, k: k, a: values(a, signed: signed), b: values(b, signed: signed), initial: initial)
    expectIntegerGemm(&t, c, ldc: ldc, expected: expected, m: m, n: n, k: k)
}

func checkGemmQ8(_ t: inout KernelCheck, form: Q8GemmForm) {
    for (index, s) in KernelCases.gemmQ8.enumerated() {
        for extra in [0, 5] {
            for signed in [true, false] {
                checkGemmQ8(
                    &t, form: form, m: s.m, n: s.n, k: s.k, extraStride: extra, signed: signed,
                    seed: UInt64(index * 10 + extra + (signed ? 0 : 5)))
            }
        }
    }
}

/// Extreme codes over 2^17 + 5 depths: the sums pass the ends of `Int32` and must wrap
/// (the instructions do not saturate).
func checkGemmQ8Wraps(_ t: inout KernelCheck, form: Q8GemmForm) {
    let k = (1 << 17) + 5
    for signed in [true, false] {
        checkGemmQ8(&t, form: form, m: 3, n: 20, k: k, extraStride: 0, signed: signed, seed: 9) { a, b in
            a = [UInt8](repeating: signed ? 0x80 : 0xFF, count: a.count)
            for j in 0 ..< 20 {
                for d in 0 ..< k { b[j * k + d] = j % 2 == 0 ? (signed ? 0x80 : 0xFF) : (signed ? 0x7F : 0xFE) }
            }
        }
    }
}

/// The runtime's use of the GEMMs (`Conv2DQ8GemmU8S8` on aarch64): codes as they are,
/// accumulators starting from `-zx·Σ_k (w - zw)`, and for uint8 a column of ones whose sum
/// times `-zw` is added to each row, give TFLite's `Σ (x - zx)·(w - zw)`.
func checkGemmQ8CenteredSums(_ t: inout KernelCheck, form: Q8GemmForm) {
    var rng = SplitMix64(seed: 0xce)
    for (index, s) in KernelCases.gemmQ8.enumerated() {
        for signed in [true, false] {
            let (m, n, k) = (s.m, s.n, s.k)
            let x = (0 ..< m * k).map { _ in code(&rng, signed: signed) }
            let w = (0 ..< n * k).map { _ in code(&rng, signed: signed) }
            let xv = values(x, signed: signed), wv = values(w, signed: signed)
            let zx = signed ? Int32.random(in: -128 ... 127, using: &rng) : Int32.random(in: 0 ... 255, using: &rng)
            let zw = signed ? 0 : Int32.random(in: 0 ... 255, using: &rng)
            let columns = n + (signed ? 0 : 1)
            var b = w.map { Int8(bitPattern: $0) }
            if !signed { b += [Int8](repeating: 1, count: k) }
            let starts = (0 ..< columns).map { j -> Int32 in
                guard j < n else { return 0 }
                var sum: Int32 = 0
                for d in 0 ..< k { sum = sum &+ wv[j * k + d] &- zw }
                return 0 &- zx &* sum
            }
            let kp = form.paddedDepth(k)
            var rows = [UInt8](repeating: 0, count: m * kp)
            for i in 0 ..< m { for d in 0 ..< k { rows[i * kp + d] = x[i * k + d] } }
            let packed = form.pack(b, n: columns, k: k)
            var c = [Int32](repeating: 0, count: m * columns)
            c.withUnsafeMutableBufferPointer { cb in
                form.gemm(
                    m: m, n: columns, kp: kp, a: rows, lda: kp, packedB: packed, signed: signed, initial: starts,
                    c: cb.baseAddress!, ldc: columns)
            }
            for i in 0 ..< m {
                for j in 0 ..< n {
                    var got = c[i * columns + j]
                    if !signed { got = got &+ (0 &- zw) &* c[i * columns + n] }
                    var want: Int32 = 0
                    for d in 0 ..< k { want = want &+ (xv[i * k + d] &- zx) &* (wv[j * k + d] &- zw) }
                    t.expect(got == want, "shape \(index) signed \(signed) zx \(zx) zw \(zw) C[\(i), \(j)]")
                }
            }
        }
    }
}

/// The GEMMs with the requantization in their epilogue give TFLite's codes for the exact
/// sums `initial + bias + A·Bᵀ`, both signednesses, with and without left shifts.
func checkGemmQ8RequantizeQ31(_ t: inout KernelCheck, form: Q8GemmForm) {
    var rng = SplitMix64(seed: 0x5eed)
    for (index, s) in KernelCases.gemmQ8Requantized.enumerated() {
        let (m, n, k) = s
        for c in KernelCases.requantization {
            let signed = index % 2 == 0
            let a = (0 ..< m * k).map { _ in code(&rng, signed: signed) }
            let b = (0 ..< n * k).map { _ in code(&rng, signed: signed) }
            let initial = (0 ..< n).map { _ in
                rng.next() % 4 == 0
                    ? Int32.random(in: .min ... .max, using: &rng) : Int32.random(in: -9999 ... 9999, using: &rng)
            }
            let bias = (0 ..< n).map { _ in Int32.random(in: -5000 ... 5000, using: &rng) }
            let exponents = (0 ..< n).map { _ in Int.random(in: c.exponents, using: &rng) }
            let mantissas = (0 ..< n).map { _ in Int32.random(in: (1 << 30) ... Int32.max, using: &rng) }
            let left = exponents.map { Int32(Swift.max($0, 0)) }, right = exponents.map { Int32(Swift.max(-$0, 0)) }
            let kp = form.paddedDepth(k)
            var rows = [UInt8](repeating: 0x3C, count: m * kp)
            for i in 0 ..< m { for d in 0 ..< k { rows[i * kp + d] = a[i * k + d] } }
            let packed = form.pack(b.map { Int8(bitPattern: $0) }, n: n, k: k)
            let stride = n + 5
            var out = [UInt8](repeating: 0x55, count: m * stride)
            out.withUnsafeMutableBytes { o in
                let shiftsLeft = left.contains { $0 != 0 }
                switch form {
                case .dotprod:
                    gemmQ8x4x16c4RequantizeQ31DotProd(
                        m: m, n: n, kp: kp, a: rows, lda: kp, packedB: packed, signed: signed, initial: initial,
                        bias: bias, mantissa: mantissas, left: left, shiftsLeft: shiftsLeft, right: right,
                        outputZeroPoint: c.zp, lower: c.lower, upper: c.upper, into: o.baseAddress!, outStride: stride)
                case .i8mm:
                    gemmQ8x4x16c8RequantizeQ31I8MM(
                        m: m, n: n, kp: kp, a: rows, lda: kp, packedB: packed, signed: signed, initial: initial,
                        bias: bias, mantissa: mantissas, left: left, shiftsLeft: shiftsLeft, right: right,
                        outputZeroPoint: c.zp, lower: c.lower, upper: c.upper, into: o.baseAddress!, outStride: stride)
                }
            }
            let av = values(a, signed: signed), bv = values(b, signed: signed)
            for i in 0 ..< m {
                for j in 0 ..< n {
                    var sum = initial[j] &+ bias[j]
                    for d in 0 ..< k { sum = sum &+ av[i * k + d] &* bv[j * k + d] }
                    let want = tfliteRequantize(
                        sum, mantissa: mantissas[j], exponent: exponents[j], zp: c.zp, lower: c.lower, upper: c.upper)
                    t.expect(
                        out[i * stride + j] == UInt8(truncatingIfNeeded: want),
                        "shape \(index) zp \(c.zp) row \(i) column \(j) sum \(sum)")
                }
                for j in n ..< stride { t.expect(out[i * stride + j] == 0x55, "shape \(index): wrote past the row") }
            }
        }
    }
}

/// The float32 epilogue rounds `Float(sum)·scale` to nearest even after the clamp.
func checkGemmQ8RequantizeF32(_ t: inout KernelCheck, form: Q8GemmForm) {
    var rng = SplitMix64(seed: 0xf32)
    let (m, n, k) = (11, 37, 19)
    for signed in [true, false] {
        let a = (0 ..< m * k).map { _ in code(&rng, signed: signed) }
        let b = (0 ..< n * k).map { _ in code(&rng, signed: signed) }
        let initial = (0 ..< n).map { _ in Int32.random(in: -99999 ... 99999, using: &rng) }
        let scales = (0 ..< n).map { _ in Float.random(in: 1e-4 ... 1e-2, using: &rng) }
        let kp = form.paddedDepth(k)
        var rows = [UInt8](repeating: 0, count: m * kp)
        for i in 0 ..< m { for d in 0 ..< k { rows[i * kp + d] = a[i * k + d] } }
        let packed = form.pack(b.map { Int8(bitPattern: $0) }, n: n, k: k)
        var out = [UInt8](repeating: 0, count: m * n)
        out.withUnsafeMutableBytes { o in
            switch form {
            case .dotprod:
                gemmQ8x4x16c4RequantizeF32DotProd(
                    m: m, n: n, kp: kp, a: rows, lda: kp, packedB: packed, signed: signed, initial: initial, bias: nil,
                    scale: scales, outputZeroPoint: 20, lower: 0, upper: 255, into: o.baseAddress!, outStride: n)
            case .i8mm:
                gemmQ8x4x16c8RequantizeF32I8MM(
                    m: m, n: n, kp: kp, a: rows, lda: kp, packedB: packed, signed: signed, initial: initial, bias: nil,
                    scale: scales, outputZeroPoint: 20, lower: 0, upper: 255, into: o.baseAddress!, outStride: n)
            }
        }
        let sums = referenceGemmInt(
            m: m, n: n, k: k, a: values(a, signed: signed), b: values(b, signed: signed), initial: initial)
        for i in 0 ..< m {
            for j in 0 ..< n {
                let v = Swift.min(Swift.max(Float(sums[i * n + j]) * scales[j], -20), 235)
                t.expect(
                    Int32(out[i * n + j]) == Int32(v.rounded(.toNearestOrEven)) + 20,
                    "signed \(signed) row \(i) column \(j)")
            }
        }
    }
}

/// The eight-depth panels: each column's eight depths side by side, two columns per 16
/// bytes (an `SMMLA` operand), zeros past `n` and `k`.
func checkGemmQ8C8Packing(_ t: inout KernelCheck) {
    let n = 17, k = 9
    let packed = Q8GemmForm.i8mm.pack((0 ..< n * k).map { Int8(truncatingIfNeeded: $0) }, n: n, k: k)
    t.expect(packed.count == 2 * 16 * 16, "packed count \(packed.count)")
    t.expect(Array(packed[0 ..< 8]) == [0, 1, 2, 3, 4, 5, 6, 7], "column 0, depths 0...7")
    t.expect(Array(packed[8 ..< 16]) == [9, 10, 11, 12, 13, 14, 15, 16], "column 1, depths 0...7")
    t.expect(Array(packed[128 ..< 136]) == [8, 0, 0, 0, 0, 0, 0, 0], "column 0, depth 8 and padding")
    t.expect(packed[256] == Int8(truncatingIfNeeded: 144) && packed[264] == 0, "panel 1: column 16, padding column 17")
}

/// `gemvQ8DotProd`: `Σ (x - zx)·w` for both types, extremes often so that long rows wrap.
func checkGemvQ8DotProd(_ t: inout KernelCheck) {
    var rng = SplitMix64(seed: 11)
    for (index, (n, k)) in KernelCases.gemvQ8.enumerated() {
        let signed = index % 2 == 0
        let ldw = k + 5
        let w = (0 ..< n * ldw).map { _ in code(&rng, signed: signed) }
        let x = (0 ..< k).map { _ in code(&rng, signed: signed) }
        let zx = signed ? Int32.random(in: -128 ... 127, using: &rng) : Int32.random(in: 0 ... 255, using: &rng)
        var acc = [Int32](repeating: 0x5A5A, count: n + 1)
        w.withUnsafeBytes { wp in
            x.withUnsafeBufferPointer { xp in
                acc.withUnsafeMutableBufferPointer { ap in
                    gemvQ8DotProd(
                        n: n, k: k, w: wp.baseAddress!, ldw: ldw, signed: signed, x: xp.baseAddress!, zeroPoint: zx,
                        acc: ap.baseAddress!)
                }
            }
        }
        let xv = values(x, signed: signed), wv = values(w, signed: signed)
        // With a weight zero point, the runtime adds `-zw·Σ (x - zx)` (uint8).
        let zw = signed ? 0 : Int32.random(in: 0 ... 255, using: &rng)
        var centered: Int32 = 0
        for d in 0 ..< k { centered = centered &+ xv[d] &- zx }
        for o in 0 ..< n {
            var s: Int32 = 0, full: Int32 = 0
            for d in 0 ..< k {
                s = s &+ (xv[d] &- zx) &* wv[o * ldw + d]
                full = full &+ (xv[d] &- zx) &* (wv[o * ldw + d] &- zw)
            }
            t.expect(acc[o] == s, "n \(n) k \(k) signed \(signed) row \(o)")
            t.expect(acc[o] &+ (0 &- zw) &* centered == full, "n \(n) k \(k) signed \(signed) row \(o) with zw")
        }
        t.expect(acc[n] == 0x5A5A, "n \(n) k \(k): wrote past the last row")
    }
}
#endif
