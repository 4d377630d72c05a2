import Microkernels
#if arch(x86_64)
import MicrokernelsAVX512
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
/// A padding tap thus adds `(zx - zx)·(w - zw) = 0`, as TFLite's skipped taps do. int8
/// requantizes in the GEMM's epilogue (``Requantizer/gemmU8S8Requantized``): uint8's row
/// sums are only known once a row's last panel is done, so it stores sums first.
/// Everything is wrapping `Int32` arithmetic, so outputs are bit-identical to the other
/// levels' and to the reference.
struct Conv2DQ8GemmU8S8: Quantized8Kernel {
    let signed: Bool
    let input: Int, bias: Int?, output: Int
    let plan: IntegerConvPlan
    /// Per group, its starting sums (`Int32`, one per GEMM column), then
    /// ``GemmU8S8Layout``'s panels of its filter rows.
    let packed: PackedBuffer
    let startsPerGroup: Int, panelsOffset: Int, packedPerGroup: Int
    /// The code that stands for a tap in the padding (`zx`, moved as the input is).
    let paddingCode: UInt8
    /// uint8: `128 - zw`, the weight of each row's code sum (the GEMM's last column).
    let rowSumScale: Int32
    let requantizer: Requantizer

    /// The kernel when `context.kernelLevel` has `vpdpbusd`, else nil (the caller's other
    /// kernels apply).
    static func make<T: Quantized8>(
        _: T.Type, _ context: inout PrepareContext, geometry g: Conv2DGeometry, groups: Int,
        input: Int, filter constant: ConstantBytes, bias: Int?, output: Int,
        params: QuantizedConvParams
    ) throws(KernelError) -> Conv2DQ8GemmU8S8? {
        // Panels of 16 columns, as at the other levels (below 8 output channels a group's
        // panels would be mostly padding).
        guard context.kernelLevel >= .avx512, g.outC / groups >= 8 else { return nil }
        let signed = T.isSigned, zx = params.inputZeroPoint, zw = params.weightZeroPoint
        guard !signed || zw == 0 else { return nil }
        let plan = try IntegerConvPlan(
            &context, geometry: g, groups: groups, paddedDepth: GemmU8S8Layout.paddedDepth,
            extraColumns: signed ? 0 : 1)
        let patch = plan.patch, groupOutC = plan.groupOutC, columns = plan.sumsStride
        let weights = try plan.filter(constant, as: T.self)
        guard let perGroup = GemmU8S8Layout.packedCount(n: columns, k: patch) else {
            throw .invalid("CONV_2D packed filter size overflows")
        }
        let startBytes = try ConvCheck.cacheLines(
            [try ConvCheck.product([columns, groups, MemoryLayout<Int32>.stride], "CONV_2D packed filter")],
            "CONV_2D packed filter")
        let panelBytes = try ConvCheck.product([perGroup, groups], "CONV_2D packed filter")
        let (bytes, overflow) = startBytes.addingReportingOverflow(panelBytes)
        guard !overflow else { throw .invalid("CONV_2D packed filter size overflows") }
        // int8: rows x + 128, so the sums exceed TFLite's by (128 + zx)·Σ w. uint8: rows x,
        // filter w - 128; the GEMM's part of TFLite's sum lacks -zx·Σ (w - zw).
        let scale = signed ? Int32(128) &+ zx : zx
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
                    GemmU8S8Layout.pack(n: columns, k: patch, into: panels + group * perGroup) { j, d in
                        // uint8: the code's sign bit flipped is `w - 128`; the last column sums the row.
                        guard j < groupOutC else { return 1 }
                        let code = UInt8(truncatingIfNeeded: rows[j * patch + d])
                        return Int8(bitPattern: signed ? code : code ^ 0x80)
                    }
                }
            }
            constant.releasePages()
            return 0
        }
        return Conv2DQ8GemmU8S8(
            signed: signed, input: input, bias: bias, output: output, plan: plan, packed: packed,
            startsPerGroup: columns, panelsOffset: startBytes, packedPerGroup: perGroup,
            paddingCode: UInt8(truncatingIfNeeded: signed ? 128 &+ zx : zx), rowSumScale: 128 &- zw,
            requantizer: params.requantizer)
    }

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let starts = UnsafePointer(packed.pointer.assumingMemoryBound(to: Int32.self))
        let w = UnsafePointer((packed.pointer + panelsOffset).assumingMemoryBound(to: Int8.self))
        let kp = plan.paddedPatch, n = plan.groupOutC, ldc = plan.sumsStride, perGroup = packedPerGroup
        let scale = rowSumScale, addRowSums = !signed
        let biases = context.optionalInt32s(bias), requantizer = requantizer
        let fused = signed && requantizer.level >= .avx512 && requantizer.arithmetic != .double
        let outC = plan.geometry.outC
        // Depths past the patch meet zero weights; any byte will do.
        plan.run(
            context, x: UnsafePointer(context.pointer(input, as: T.self)), y: context.pointer(output, as: T.self),
            bias: biases, requantizer: requantizer, zero: paddingCode, fill: 0,
            convert: Self.offsetCodes,
            shortRun: { source, row, count in
                let bytes = UnsafeRawPointer(source).assumingMemoryBound(to: UInt8.self)
                flipShortRun(from: bytes, to: row, count: count, flip: T.isSigned ? 0x80 : 0)
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

    /// The codes as the GEMM's unsigned bytes: int8 `x + 128` (the sign bit flipped), uint8
    /// as they are. Plain loops, which LLVM vectorizes.
    @inline(__always)
    private static func offsetCodes<T: Quantized8>(
        _ x: UnsafePointer<T>, _ count: Int, _ out: UnsafeMutablePointer<UInt8>
    ) {
        let raw = UnsafeRawPointer(x).assumingMemoryBound(to: UInt8.self)
        if T.isSigned {
            for i in 0 ..< count { out[i] = raw[i] ^ 0x80 }
        } else {
            out.update(from: raw, count: count)
        }
    }
}
