import Microkernels
import Testing

#if arch(x86_64)
/// On x86-64 the aarch64 levels rank above every x86-64 level: a test `>= .avx2` stays
/// true only for the levels with AVX2 kernels, and a request for an aarch64 level runs
/// the host's. (ARM/KernelLevelARMChecks.swift checks the mirror image on aarch64.)
@Test func kernelLevelOrderOnX86_64() {
    #expect(KernelLevel.native == [.portable, .avx2, .avx512])
    #expect(KernelLevel.portable < .avx2 && KernelLevel.avx2 < .avx512 && KernelLevel.avx512 < .neon)
    #expect(KernelLevel.neon < .dotprod && KernelLevel.dotprod < .i8mm)
    #expect(KernelLevel.host <= .avx512 && KernelLevel.native.contains(KernelLevel.host))
    for level in [KernelLevel.neon, .dotprod, .i8mm] {
        #expect(KernelLevel.resolve(level) == KernelLevel.host, "\(level)")
        #expect(level.isAArch64 && !(level <= KernelLevel.host), "\(level)")
    }
    #expect(
        KernelLevel.allCases.filter { $0 <= KernelLevel.host } == KernelLevel.native.filter { $0 <= KernelLevel.host })
    #expect(KernelLevel(name: "NEON") == .neon && KernelLevel(name: "i8mm") == .i8mm)
    #expect(GemmF32Layout.panelWidth(for: .avx2) == 16 && GemmF32Layout.panelWidth(for: .neon) == 12)
    #expect(GemmS16Layout.depthsPerGroup(for: .avx2) == 2 && GemmS16Layout.depthsPerGroup(for: .neon) == 1)
}
#endif
