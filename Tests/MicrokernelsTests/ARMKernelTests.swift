#if arch(arm64)
import Microkernels
import Testing

/// The aarch64 kernel checks (ARM/) on the machine running the tests, at each level its
/// CPU has. The same checks run under emulation for every level on any machine
/// (scripts/test-arm-kernels.sh).
private func run(_ name: String) throws {
    let check = try #require(ARMKernelChecks.all.first { $0.name == name })
    var t = KernelCheck()
    check.run(&t)
    #expect(t.expectations > 0, "\(name): no expectations ran")
    #expect(t.failures == 0, "\(name): \(t.failures) failures, first: \(t.messages)")
}

@Test(arguments: ARMKernelChecks.names(at: .portable))
func armLayoutsAndLevels(name: String) throws { try run(name) }

@Test(.enabled(if: KernelLevel.host >= .neon, "needs Advanced SIMD"), arguments: ARMKernelChecks.names(at: .neon))
func neonKernels(name: String) throws { try run(name) }

@Test(
    .enabled(if: KernelLevel.host >= .dotprod, "needs the dot product"), arguments: ARMKernelChecks.names(at: .dotprod))
func dotProdKernels(name: String) throws { try run(name) }

@Test(
    .enabled(if: KernelLevel.host >= .i8mm, "needs the 8-bit matrix multiply"),
    arguments: ARMKernelChecks.names(at: .i8mm))
func i8mmKernels(name: String) throws { try run(name) }
#endif
