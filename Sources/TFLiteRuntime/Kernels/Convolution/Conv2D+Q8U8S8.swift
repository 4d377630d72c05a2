import Microkernels
#if arch(x86_64)
import MicrokernelsAVX512
#endif

/// int8 CONV_2D with a constant filter on levels with an 8-bit dot product
/// (``KernelLevel/avx512``, `vpdpbusd`): the same im2col tiles as ``Conv2DQ8GemmS16``, but
/// the rows hold the activations as unsigned bytes `x + 128` and the filter stays `Int8`
/// (``GemmU8S8Layout``), so one instruction does 64 multiply-adds instead of 32.
///
/// int8 weights are symmetric (`zw = 0`, which prepare enforces), so
/// `Σ (x + 128) · w = Σ (x - zx) · w + (128 + zx) · Σ_k w`: the GEMM's accumulators start
/// from `-(128 + zx) · Σ_k w[j, k]`, computed at prepare, and end at TFLite's sum. Taps in
/// the padding hold `zx + 128`, so they add `(zx - zx) · w = 0` as TFLite's skipped taps
/// do. Everything is wrapping `Int32` arithmetic, so outputs are bit-identical to the
/// other levels' and to the reference.
struct Conv2DQ8GemmU8S8: PreparedKernel {
    let input: Int, bias: Int?, output: Int
    let plan: IntegerConvPlan
    /// `outC` starting sums `-(128 + zx) · Σ_k w[j, k]` (`Int32`), then per group
    /// ``GemmU8S8Layout``'s panels of the filter rows.
    let packed: PackedBuffer
    let panelsOffset: Int, packedPerGroup: Int
    /// The code `zx + 128` that stands for a tap in the padding.
    let paddingCode: UInt8
    let requantizer: Requantizer

    /// The kernel for int8 tensors when `context.kernelLevel` has `vpdpbusd`, else nil
    /// (the caller's other kernels apply).
    static func make(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, groups: Int,
        input: Int, filter constant: ConstantBytes, bias: Int?, output: Int,
        params: QuantizedConvParams
    ) throws(KernelError) -> Conv2DQ8GemmU8S8? {
        // Panels of 16 columns, as at the other levels (below 8 output channels a group's
        // panels would be mostly padding).
        guard context.kernelLevel >= .avx512, g.outC / groups >= 8, params.weightZeroPoint == 0 else { return nil }
        let plan = try IntegerConvPlan(&context, geometry: g, groups: groups, paddedDepth: GemmU8S8Layout.paddedDepth)
        let patch = plan.patch, groupOutC = plan.groupOutC
        let weights = try plan.filter(constant, as: Int8.self)
        guard let perGroup = GemmU8S8Layout.packedCount(n: groupOutC, k: patch) else {
            throw .invalid("CONV_2D packed filter size overflows")
        }
        let panelBytes = try ConvCheck.product([perGroup, groups], "CONV_2D packed filter")
        let sumsBytes = try ConvCheck.product([g.outC, MemoryLayout<Int32>.stride], "CONV_2D packed filter")
        let (bytes, overflow) = sumsBytes.addingReportingOverflow(panelBytes)
        guard !overflow else { throw .invalid("CONV_2D packed filter size overflows") }
        let offset = Int32(128) &+ params.inputZeroPoint
        let packed = try context.pack(bytes: bytes) { pointer in
            let starts = pointer.bindMemory(to: Int32.self, capacity: g.outC)
            let panels = (pointer + sumsBytes).bindMemory(to: Int8.self, capacity: panelBytes)
            if let w = weights.baseAddress {
                for j in 0 ..< g.outC {
                    var sum: Int32 = 0
                    for d in 0 ..< patch { sum &+= Int32(w[j * patch + d]) }
                    starts[j] = 0 &- offset &* sum
                }
                for group in 0 ..< groups {
                    let rows = w + group * groupOutC * patch
                    GemmU8S8Layout.pack(n: groupOutC, k: patch, into: panels + group * perGroup) { j, d in
                        rows[j * patch + d]
                    }
                }
            }
            constant.releasePages()
            return 0
        }
        return Conv2DQ8GemmU8S8(
            input: input, bias: bias, output: output, plan: plan, packed: packed, panelsOffset: sumsBytes,
            packedPerGroup: perGroup, paddingCode: UInt8(truncatingIfNeeded: offset),
            requantizer: params.requantizer)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let starts = UnsafePointer(packed.pointer.assumingMemoryBound(to: Int32.self))
        let w = UnsafePointer((packed.pointer + panelsOffset).assumingMemoryBound(to: Int8.self))
        let kp = plan.paddedPatch, n = plan.groupOutC, perGroup = packedPerGroup
        // Depths past the patch meet zero weights; any byte will do.
        plan.run(
            context, x: UnsafePointer(context.pointer(input, as: Int8.self)), y: context.pointer(output, as: Int8.self),
            bias: context.optionalInt32s(bias), requantizer: requantizer, zero: paddingCode, fill: 0,
            convert: Self.offsetCodes,
            gemm: { rows, group, a, sums in
                #if arch(x86_64)
                gemmU8S8x8x16c4AVX512VNNI(
                    m: rows, n: n, kp: kp, a: a, lda: kp, packedB: w + group * perGroup, initial: starts + group * n,
                    c: sums, ldc: n)
                #endif
            })
    }

    /// `out[i] = x[i] + 128` as an unsigned byte (the sign bit flipped); a plain loop,
    /// which LLVM vectorizes.
    @inline(__always)
    private static func offsetCodes(_ x: UnsafePointer<Int8>, _ count: Int, _ out: UnsafeMutablePointer<UInt8>) {
        for i in 0 ..< count { out[i] = UInt8(bitPattern: x[i]) ^ 0x80 }
    }
}
