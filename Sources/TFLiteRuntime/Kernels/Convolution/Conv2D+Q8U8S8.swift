import Microkernels
#if arch(x86_64)
import MicrokernelsAVX512
#elseif arch(arm64)
import MicrokernelsDotProd
import MicrokernelsI8MM
#endif

/// 8-bit CONV_2D with a constant filter on levels with an 8-bit dot product
/// (``KernelLevel/avx512``, `vpdpbusd`): the same im2col tiles as ``Conv2DQ8GemmS16``, but
/// the rows and the filter stay bytes (``GemmU8S8Layout``: unsigned rows, signed filter),
/// so one instruction does 64 multiply-adds instead of 32. Each type is moved into those
/// ranges by a flip of the sign bit (`±128`), and the sums are corrected to TFLite's:
///
/// - int8 (weights symmetric, `zw = 0`, which prepare enforces): rows `x + 128`, filter `w`.
///   `Σ (x + 128)·w = Σ (x - zx)·w + (128 + zx)·Σ_k w`, so the accumulators start from
///   `-(128 + zx)·Σ_k w[j, k]`, computed at prepare. Taps in the padding hold `zx + 128`.
/// - uint8: rows `x`, filter `w - 128`, plus one more filter column of ones that sums
///   each row. `Σ (x - zx)·(w - zw) = Σ x·(w - 128) + (128 - zw)·Σ_k x - zx·Σ_k (w - zw)`:
///   the accumulators start from the last term (prepare), and `(128 - zw)` times the
///   row's sum is added after the GEMM. Taps in the padding hold `zx`.
///
/// The aarch64 levels with a dot product (``KernelLevel/dotprod``: `SDOT`/`UDOT` on
/// ``GemmU8S8Layout``'s quads; ``KernelLevel/i8mm``: `SMMLA`/`UMMLA` on
/// ``GemmQ8C8Layout``'s eights) multiply codes of one signedness, so nothing is flipped:
///
/// - int8: rows `x`, filter `w`; `Σ x·w = Σ (x - zx)·w + zx·Σ_k w`, so the accumulators
///   start from `-zx·Σ_k w[j, k]`. Taps in the padding hold `zx`.
/// - uint8: rows `x`, filter `w`, plus the column of ones.
///   `Σ (x - zx)·(w - zw) = Σ x·w - zw·Σ_k x - zx·Σ_k (w - zw)`: the accumulators start
///   from the last term, as at `avx512`, and `-zw` times the row's sum is added after the
///   GEMM. Taps in the padding hold `zx`.
///
/// A padding tap thus adds `(zx - zx)·(w - zw) = 0`, as TFLite's skipped taps do. int8
/// requantizes in the GEMM's epilogue (``Requantizer/gemmU8S8Requantized``, and
/// `gemmQ8Requantized` on aarch64): uint8's row sums are only known once a row's last
/// panel is done, so it stores sums first. Everything is wrapping `Int32` arithmetic, so
/// outputs are bit-identical to the other levels' and to the reference.
struct Conv2DQ8GemmU8S8: Quantized8Kernel {
    let signed: Bool
    let input: Int, bias: Int?, output: Int
    let plan: IntegerConvPlan
    /// Per group, its starting sums (`Int32`, one per GEMM column), then the panels of its
    /// filter rows (``GemmU8S8Layout``; ``GemmQ8C8Layout`` at `i8mm`).
    let packed: PackedBuffer
    let startsPerGroup: Int, panelsOffset: Int, packedPerGroup: Int
    /// The code that stands for a tap in the padding (`zx`, moved as the input is).
    let paddingCode: UInt8
    /// What is xor-ed into each input code to make the GEMM's rows: `0x80` for int8 at
    /// `avx512` (`x + 128`), else 0.
    let flip: UInt8
    /// uint8: the weight of each row's code sum (the GEMM's last column): `128 - zw` at
    /// `avx512`, `-zw` on aarch64.
    let rowSumScale: Int32
    let requantizer: Requantizer
    /// The engine's level: which GEMM runs.
    let level: KernelLevel

    /// The kernel when `context.kernelLevel` has an 8-bit dot product, else nil (the
    /// caller's other kernels apply).
    static func make<T: Quantized8>(
        _: T.Type, _ context: inout PrepareContext, geometry g: Conv2DGeometry, groups: Int,
        input: Int, filter constant: ConstantBytes, bias: Int?, output: Int,
        params: QuantizedConvParams
    ) throws(KernelError) -> Conv2DQ8GemmU8S8? {
        // Panels of 16 columns, as at the other levels (below 8 output channels a group's
        // panels would be mostly padding).
        let level = context.kernelLevel
        guard level.hasByteDot, g.outC / groups >= 8 else { return nil }
        let signed = T.isSigned, zx = params.inputZeroPoint, zw = params.weightZeroPoint
        guard !signed || zw == 0 else { return nil }
        // x86-64 multiplies unsigned rows by signed weights: each type is flipped into that.
        let unsignedBySigned = !level.isAArch64, matrix = level == .i8mm
        let plan = try IntegerConvPlan(
            &context, geometry: g, groups: groups,
            paddedDepth: matrix ? GemmQ8C8Layout.paddedDepth : GemmU8S8Layout.paddedDepth,
            extraColumns: signed ? 0 : 1)
        let patch = plan.patch, groupOutC = plan.groupOutC, columns = plan.sumsStride
        let weights = try plan.filter(constant, as: T.self)
        guard
            let perGroup = matrix
                ? GemmQ8C8Layout.packedCount(n: columns, k: patch) : GemmU8S8Layout.packedCount(n: columns, k: patch)
        else {
            throw .invalid("CONV_2D packed filter size overflows")
        }
        let startBytes = try ConvCheck.cacheLines(
            [try ConvCheck.product([columns, groups, MemoryLayout<Int32>.stride], "CONV_2D packed filter")],
            "CONV_2D packed filter")
        let panelBytes = try ConvCheck.product([perGroup, groups], "CONV_2D packed filter")
        let (bytes, overflow) = startBytes.addingReportingOverflow(panelBytes)
        guard !overflow else { throw .invalid("CONV_2D packed filter size overflows") }
        // The GEMM's part of TFLite's sum lacks -zx·Σ (w - zw), and int8 rows at avx512 are
        // x + 128, which adds 128·Σ w (zw = 0) more.
        let scale = unsignedBySigned && signed ? Int32(128) &+ zx : zx
        let flipWeights: UInt8 = unsignedBySigned && !signed ? 0x80 : 0
        let packed = try context.pack(bytes: bytes) { pointer in
            let starts = pointer.bindMemory(to: Int32.self, capacity: columns * groups)
            let panels = (pointer + startBytes).bindMemory(to: Int8.self, capacity: panelBytes)
            if let w = weights.baseAddress {
                for group in 0 ..< groups {
                    let rows = w + group * groupOutC * patch
                    for j in 0 ..< columns {
                        var sum: Int32 = 0
                        if j < groupOutC {
                            for d in 0 ..< patch { sum &+= Int32(truncatingIfNeeded: rows[j * patch + d]) &- zw }
                        }
                        starts[group * columns + j] = 0 &- scale &* sum
                    }
                    // uint8 at avx512: the code's sign bit flipped is `w - 128`. The last
                    // column (uint8) is ones: it sums the row.
                    let value: (Int, Int) -> Int8 = { j, d in
                        guard j < groupOutC else { return 1 }
                        return Int8(bitPattern: UInt8(truncatingIfNeeded: rows[j * patch + d]) ^ flipWeights)
                    }
                    if matrix {
                        GemmQ8C8Layout.pack(n: columns, k: patch, into: panels + group * perGroup, value: value)
                    } else {
                        GemmU8S8Layout.pack(n: columns, k: patch, into: panels + group * perGroup, value: value)
                    }
                }
            }
            constant.releasePages()
            return 0
        }
        return Conv2DQ8GemmU8S8(
            signed: signed, input: input, bias: bias, output: output, plan: plan, packed: packed,
            startsPerGroup: columns, panelsOffset: startBytes, packedPerGroup: perGroup,
            paddingCode: UInt8(truncatingIfNeeded: unsignedBySigned && signed ? 128 &+ zx : zx),
            flip: unsignedBySigned && signed ? 0x80 : 0, rowSumScale: (unsignedBySigned ? 128 : 0) &- zw,
            requantizer: params.requantizer, level: level)
    }

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let starts = UnsafePointer(packed.pointer.assumingMemoryBound(to: Int32.self))
        let w = UnsafePointer((packed.pointer + panelsOffset).assumingMemoryBound(to: Int8.self))
        let kp = plan.paddedPatch, n = plan.groupOutC, ldc = plan.sumsStride, perGroup = packedPerGroup
        let scale = rowSumScale, addRowSums = !signed, flip = flip
        let biases = context.optionalInt32s(bias), requantizer = requantizer
        let fused = signed && requantizer.level.hasByteDot && requantizer.arithmetic != .double
        let outC = plan.geometry.outC
        #if arch(arm64)
        let matrix = level == .i8mm
        #endif
        // Depths past the patch meet zero weights; any byte will do.
        plan.run(
            context, x: UnsafePointer(context.pointer(input, as: T.self)), y: context.pointer(output, as: T.self),
            bias: biases, requantizer: requantizer, zero: paddingCode, fill: 0,
            convert: { Self.offsetCodes($0, $1, $2, flip: flip) },
            shortRun: { source, row, count in
                let bytes = UnsafeRawPointer(source).assumingMemoryBound(to: UInt8.self)
                flipShortRun(from: bytes, to: row, count: count, flip: flip)
            },
            gemm: { rows, group, a, sums, out in
                #if arch(x86_64)
                if fused {
                    requantizer.gemmU8S8Requantized(
                        m: rows, n: n, kp: kp, a: a, packedB: w + group * perGroup, initial: starts + group * ldc,
                        firstChannel: group * n, bias: biases, into: out, outStride: outC)
                    return true
                }
                gemmU8S8x8x16c4AVX512VNNI(
                    m: rows, n: ldc, kp: kp, a: a, lda: kp, packedB: w + group * perGroup,
                    initial: starts + group * ldc, c: sums, ldc: ldc)
                #elseif arch(arm64)
                if fused {
                    requantizer.gemmQ8Requantized(
                        m: rows, n: n, kp: kp, a: a, packedB: w + group * perGroup, initial: starts + group * ldc,
                        firstChannel: group * n, bias: biases, into: out, outStride: outC)
                    return true
                }
                if matrix {
                    gemmQ8x4x16c8I8MM(
                        m: rows, n: ldc, kp: kp, a: a, lda: kp, packedB: w + group * perGroup, signed: T.isSigned,
                        initial: starts + group * ldc, c: sums, ldc: ldc)
                } else {
                    gemmQ8x4x16c4DotProd(
                        m: rows, n: ldc, kp: kp, a: a, lda: kp, packedB: w + group * perGroup, signed: T.isSigned,
                        initial: starts + group * ldc, c: sums, ldc: ldc)
                }
                #endif
                guard addRowSums else { return false }
                for r in 0 ..< rows {
                    let row = sums + r * ldc
                    let add = scale &* row[n]
                    for j in 0 ..< n { row[j] &+= add }
                }
                return false
            })
    }

    /// The codes as the GEMM's bytes: xor-ed with `flip` (int8 at `avx512`: `x + 128`, the
    /// sign bit flipped), else as they are. Plain loops, which LLVM vectorizes.
    @inline(__always)
    private static func offsetCodes<T: Quantized8>(
        _ x: UnsafePointer<T>, _ count: Int, _ out: UnsafeMutablePointer<UInt8>, flip: UInt8
    ) {
        let raw = UnsafeRawPointer(x).assumingMemoryBound(to: UInt8.self)
        if flip != 0 {
            for i in 0 ..< count { out[i] = raw[i] ^ flip }
        } else {
            out.update(from: raw, count: count)
        }
    }
}
