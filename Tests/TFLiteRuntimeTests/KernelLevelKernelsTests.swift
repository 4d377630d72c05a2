import Testing

@testable import TFLiteRuntime

/// Which microkernels a level brings is its own architecture's: on x86-64 the aarch64
/// levels bring none (their modules are empty here), so a prepare step asked for one
/// keeps the portable kernels.
@Test func levelsBringOnlyTheirArchitecturesKernels() {
    #if arch(x86_64)
    #expect(!KernelLevel.portable.hasVectorKernels && !KernelLevel.portable.hasByteDot)
    #expect(KernelLevel.avx2.hasVectorKernels && !KernelLevel.avx2.hasByteDot)
    #expect(KernelLevel.avx512.hasVectorKernels && KernelLevel.avx512.hasByteDot)
    for level in [KernelLevel.neon, .dotprod, .i8mm] {
        #expect(!level.hasVectorKernels && !level.hasByteDot, "\(level)")
    }
    #elseif arch(arm64)
    #expect(KernelLevel.neon.hasVectorKernels && !KernelLevel.neon.hasByteDot)
    #expect(KernelLevel.dotprod.hasByteDot && KernelLevel.i8mm.hasByteDot)
    #expect(!KernelLevel.avx2.hasVectorKernels && !KernelLevel.avx512.hasByteDot)
    #endif
}
