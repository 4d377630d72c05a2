#if arch(arm64)
import Microkernels

/// The aarch64 kernel levels: names, the order (this architecture's levels above
/// `portable`, the x86-64 ones above them), and what `resolve` makes of requests.
func checkKernelLevelOrderARM(_ t: inout KernelCheck) {
    t.expect(KernelLevel.native == [.portable, .neon, .dotprod, .i8mm], "native levels")
    t.expect(KernelLevel.portable < .neon && KernelLevel.neon < .dotprod && KernelLevel.dotprod < .i8mm, "order")
    t.expect(KernelLevel.i8mm < .avx2 && KernelLevel.avx2 < .avx512, "x86-64 levels rank above aarch64's")
    t.expect(!(KernelLevel.i8mm >= .avx2), "an aarch64 level has no AVX2 kernels")
    for level in KernelLevel.allCases {
        t.expect(KernelLevel(name: level.description) == level, "name \(level.description)")
    }
    t.expect(KernelLevel(name: "DotProd") == .dotprod && KernelLevel(name: "sve") == nil, "names")
    let host = KernelLevel.host
    t.expect(KernelLevel.resolve(nil) == host || KernelLevel.environmentCap != nil, "no request: the host's level")
    t.expect(KernelLevel.resolve(.portable) == .portable, "portable")
    t.expect(KernelLevel.resolve(.neon) == Swift.min(.neon, host), "neon")
    t.expect(KernelLevel.resolve(.i8mm) == host, "i8mm lowered to the host's")
    t.expect(KernelLevel.resolve(.avx2) == host && KernelLevel.resolve(.avx512) == host, "x86-64 requests")
    t.expect(
        KernelLevel.allCases.filter { $0 <= host } == Array(KernelLevel.native.prefix { $0 <= host }),
        "levels at or below the host")
    t.expect(GemmF32Layout.panelWidth(for: .neon) == 12 && GemmF32Layout.panelWidth(for: .avx2) == 16, "float panels")
}
#endif
