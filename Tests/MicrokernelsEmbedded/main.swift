import CPUFeatures
import Microkernels

// The aarch64 kernel checks (Tests/MicrokernelsTests/ARM) as an Embedded Swift program,
// for an aarch64 CPU model emulated by qemu-user: scripts/test-arm-kernels.sh builds it
// and runs it once per model. Environment:
//   EXPECT_KERNEL_LEVEL   the level this CPU model must be detected as (checked first)
//   ARM_KERNEL_PROBE      "dotprod" or "i8mm": only run one of that level's kernels,
//                         whatever the CPU reports (a CPU without it must stop on SIGILL)
// Exits 0 when every check that the detected level allows passed.

@_silgen_name("exit")
func exit(_ status: Int32) -> Never

@main
struct ARMKernelCheckRunner {
    static func environment(_ name: String) -> String? { tflite_environment(name).map { String(cString: $0) } }

    static func main() {
        let host = KernelLevel.host
        if let probe = environment("ARM_KERNEL_PROBE") {
            guard let check = ARMKernelChecks.all.first(where: { $0.level.description == probe }) else {
                print("no check at level \(probe)")
                exit(2)
            }
            var t = KernelCheck()
            check.run(&t)
            print("probe \(probe): ran \(check.name), \(t.failures) failures")
            exit(t.failures == 0 ? 0 : 1)
        }
        var failed = 0
        print("detected kernel level: \(host.description)")
        if let expected = environment("EXPECT_KERNEL_LEVEL"), expected != host.description {
            print("FAIL detection: this CPU model should be \(expected)")
            failed += 1
        }
        var ran = 0, skipped = 0, expectations = 0
        for check in ARMKernelChecks.all {
            guard check.level <= host else {
                skipped += 1
                continue
            }
            var t = KernelCheck()
            check.run(&t)
            ran += 1
            expectations += t.expectations
            if t.failures == 0 && t.expectations > 0 {
                print("pass  \(check.name) (\(t.expectations) expectations)")
            } else {
                failed += 1
                print("FAIL  \(check.name): \(t.failures) of \(t.expectations) expectations failed")
                for message in t.messages { print("        \(message)") }
            }
        }
        print("\(ran) checks ran (\(expectations) expectations), \(skipped) need a higher level, \(failed) failed")
        exit(failed == 0 && ran > 0 ? 0 : 1)
    }
}
