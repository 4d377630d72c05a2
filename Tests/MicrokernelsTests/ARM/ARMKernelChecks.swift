#if arch(arm64)
import Microkernels

/// Every aarch64 kernel check, with the lowest level whose CPU can run it.
enum ARMKernelChecks {
    typealias Check = (name: String, level: KernelLevel, run: @Sendable (inout KernelCheck) -> Void)

    static let all: [Check] = [
        ("kernel levels on aarch64", .portable, checkKernelLevelOrderARM),
        ("GemmF32Layout 12-column panels", .portable, checkGemmF32PackingTwelveWide),
        ("GemmS16Layout single depths", .portable, checkGemmS16PackingSingleDepths),
        ("GemmQ8C8Layout eight depths", .portable, checkGemmQ8C8Packing),
        ("gemmF32x8x12NEON matches the definition", .neon, checkGemmF32NEON),
        ("gemmF32x8x12NEON row splits give the same bits", .neon, checkGemmF32NEONRowSplit),
        ("gemvF32NEON matches the definition", .neon, checkGemvF32NEON),
        ("gemvF32x4PackedNEON equals the row-major kernel", .neon, checkGemvF32x4PackedNEON),
        ("gemmS16x4x16NEON matches the definition", .neon, checkGemmS16NEON),
        ("gemmS16x4x16NEON wraps like Int32", .neon, checkGemmS16NEONWraps),
        ("gemvS8S16NEON matches the definition", .neon, checkGemvS8S16NEON),
        ("centerCodesS16NEON", .neon, checkCenterCodesNEON),
        ("requantizeQ31NEON equals TFLite's fixed point", .neon, checkRequantizeQ31NEON),
        ("requantizeQ31NEON rounds ties away from zero", .neon, checkRequantizeQ31NEONTies),
        ("requantizeF32NEON rounds to nearest even", .neon, checkRequantizeF32NEON),
        ("depthwiseConv3x3F32NEON matches the definition", .neon, checkDepthwiseConv3x3F32NEON),
        ("depthwiseConv3x3Q8NEON matches the definition", .neon, checkDepthwiseConv3x3Q8NEON),
        ("gemmQ8x4x16c4DotProd matches the definition", .dotprod, { checkGemmQ8(&$0, form: .dotprod) }),
        ("gemmQ8x4x16c4DotProd wraps like Int32", .dotprod, { checkGemmQ8Wraps(&$0, form: .dotprod) }),
        (
            "gemmQ8x4x16c4DotProd gives TFLite's centered sums", .dotprod,
            { checkGemmQ8CenteredSums(&$0, form: .dotprod) }
        ),
        ("gemmQ8x4x16c4RequantizeQ31DotProd", .dotprod, { checkGemmQ8RequantizeQ31(&$0, form: .dotprod) }),
        ("gemmQ8x4x16c4RequantizeF32DotProd", .dotprod, { checkGemmQ8RequantizeF32(&$0, form: .dotprod) }),
        ("gemvQ8DotProd matches the definition", .dotprod, checkGemvQ8DotProd),
        ("gemmQ8x4x16c8I8MM matches the definition", .i8mm, { checkGemmQ8(&$0, form: .i8mm) }),
        ("gemmQ8x4x16c8I8MM wraps like Int32", .i8mm, { checkGemmQ8Wraps(&$0, form: .i8mm) }),
        ("gemmQ8x4x16c8I8MM gives TFLite's centered sums", .i8mm, { checkGemmQ8CenteredSums(&$0, form: .i8mm) }),
        ("gemmQ8x4x16c8RequantizeQ31I8MM", .i8mm, { checkGemmQ8RequantizeQ31(&$0, form: .i8mm) }),
        ("gemmQ8x4x16c8RequantizeF32I8MM", .i8mm, { checkGemmQ8RequantizeF32(&$0, form: .i8mm) }),
    ]

    /// The names of the checks that need exactly `level`.
    static func names(at level: KernelLevel) -> [String] { all.filter { $0.level == level }.map(\.name) }
}
#endif
