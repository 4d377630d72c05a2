import Microkernels
#if arch(x86_64)
import MicrokernelsAVX2
#elseif arch(arm64)
import MicrokernelsNEON
#endif

/// Quantized CONV_2D with a constant filter on levels that have an integer GEMM
/// (``KernelLevel/avx2`` and ``KernelLevel/neon``; at ``KernelLevel/avx512``,
/// ``KernelLevel/dotprod`` and ``KernelLevel/i8mm`` the byte GEMM of ``Conv2DQ8GemmU8S8``
/// takes every case this kernel takes): the same im2col tiles as ``Conv2DQ8Gemm``, but
/// the rows hold centered codes as `Int16` and the exact sums come from the level's 16-bit
/// integer GEMM (``GemmS16Layout``: depth pairs for `vpmaddwd`, single depths for NEON's
/// `SMLAL` by element) instead of chunked `Float` BLAS calls. Wrapping `Int32` sums
/// are TFLite's accumulator whatever the order, so outputs are bit-identical to the
/// portable kernel's and to the reference.
struct Conv2DQ8GemmS16: Quantized8Kernel {
    let signed: Bool
    let input: Int, bias: Int?, output: Int
    let plan: IntegerConvPlan
    /// Per group, ``GemmS16Layout``'s panels of the centered filter rows `w - zw`.
    let packed: PackedBuffer
    let packedPerGroup: Int
    let inputZeroPoint: Int32
    let requantizer: Requantizer

    /// The kernel when `level` has an integer GEMM, else nil (the caller's portable kernel
    /// applies).
    static func make<T: Quantized8>(
        _: T.Type, _ context: inout PrepareContext, geometry g: Conv2DGeometry, groups: Int,
        input: Int, filter constant: ConstantBytes, bias: Int?, output: Int,
        params: QuantizedConvParams
    ) throws(KernelError) -> Conv2DQ8GemmS16? {
        // Panels of 16 columns: below 8 output channels a group's packed Int16 weights
        // would take more than 4 bytes per 8-bit weight, the most any packing here costs
        // (packed constants are paid for by the file's bytes, not the memory budget).
        guard context.kernelLevel.hasVectorKernels, g.outC / groups >= 8 else { return nil }
        let depths = GemmS16Layout.depthsPerGroup(for: context.kernelLevel)
        let plan = try IntegerConvPlan(&context, geometry: g, groups: groups, paddedDepth: GemmS16Layout.paddedDepth)
        let patch = plan.patch, groupOutC = plan.groupOutC
        let weights = try plan.filter(constant, as: T.self)
        guard let perGroup = GemmS16Layout.packedCount(n: groupOutC, k: patch) else {
            throw .invalid("CONV_2D packed filter size overflows")
        }
        let count = try ConvCheck.product([perGroup, groups], "CONV_2D packed filter")
        let bytes = try ConvCheck.product([count, MemoryLayout<Int16>.stride], "CONV_2D packed filter")
        let zw = params.weightZeroPoint
        let packed = try context.pack(bytes: bytes) { pointer in
            let out = pointer.bindMemory(to: Int16.self, capacity: count)
            if let w = weights.baseAddress {
                for group in 0 ..< groups {
                    // The centered rows `w - zw` of the group's `[groupOutC, patch]` filter.
                    let rows = w + group * groupOutC * patch
                    GemmS16Layout.pack(n: groupOutC, k: patch, group: depths, into: out + group * perGroup) { j, d in
                        Int16(truncatingIfNeeded: Int32(truncatingIfNeeded: rows[j * patch + d]) &- zw)
                    }
                }
            }
            constant.releasePages()
            return 0
        }
        return Conv2DQ8GemmS16(
            signed: T.isSigned, input: input, bias: bias, output: output, plan: plan, packed: packed,
            packedPerGroup: perGroup, inputZeroPoint: params.inputZeroPoint, requantizer: params.requantizer)
    }

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let w = UnsafePointer(packed.pointer.assumingMemoryBound(to: Int16.self))
        let zx = inputZeroPoint, kp = plan.paddedPatch, n = plan.groupOutC, perGroup = packedPerGroup
        plan.run(
            context, x: UnsafePointer(context.pointer(input, as: T.self)), y: context.pointer(output, as: T.self),
            bias: context.optionalInt32s(bias), requantizer: requantizer, zero: Int16(0), fill: 0,
            convert: { Self.center($0, $1, $2, zeroPoint: zx) },
            shortRun: { centerShortRun(from: $0, to: $1, count: $2, zero: Int16(truncatingIfNeeded: zx)) },
            gemm: { rows, group, a, sums, _ in
                Self.gemmS16(m: rows, n: n, kp: kp, a: a, lda: kp, packedB: w + group * perGroup, c: sums, ldc: n)
                return false
            })
    }

    /// `out[i] = x[i] - zx` as `Int16`, with the level's microkernel (also the LHS rows of
    /// ``BatchMatMulS8Gemm``). Static, so that the closure handed to `im2colRow` captures one
    /// integer rather than `self` (a method reference retained and released per call).
    @inline(__always)
    static func center<T: Quantized8>(
        _ x: UnsafePointer<T>, _ count: Int, _ out: UnsafeMutablePointer<Int16>,
        zeroPoint: Int32
    ) {
        #if arch(x86_64)
        if count < 16 {
            // Shorter than one vector: the microkernel would only run its scalar tail.
            centerCodes(x, count: count, zeroPoint: zeroPoint, into: out)
            return
        }
        centerCodesS16AVX2(x, count: count, signed: T.isSigned, zeroPoint: zeroPoint, into: out)
        #elseif arch(arm64)
        if count < 16 {
            centerCodes(x, count: count, zeroPoint: zeroPoint, into: out)
            return
        }
        centerCodesS16NEON(x, count: count, signed: T.isSigned, zeroPoint: zeroPoint, into: out)
        #else
        centerCodes(x, count: count, zeroPoint: zeroPoint, into: out)
        #endif
    }

    /// The level's 16-bit GEMM (only levels with one build this kernel and its
    /// siblings): AVX2's on depth
    /// pairs, NEON's on single depths.
    @inline(__always)
    static func gemmS16(
        m: Int, n: Int, kp: Int, a: UnsafePointer<Int16>, lda: Int, packedB: UnsafePointer<Int16>,
        c: UnsafeMutablePointer<Int32>, ldc: Int
    ) {
        #if arch(x86_64)
        gemmS16x4x16c2(m: m, n: n, kp: kp, a: a, lda: lda, packedB: packedB, c: c, ldc: ldc)
        #elseif arch(arm64)
        gemmS16x4x16NEON(m: m, n: n, kp: kp, a: a, lda: lda, packedB: packedB, c: c, ldc: ldc)
        #endif
    }
}
