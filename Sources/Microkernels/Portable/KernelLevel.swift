import CPUFeatures

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The instruction-set level whose microkernels an engine runs, lowest first.
///
/// Each level's inner loops are compiled in a module of their own with that level's code
/// generation (`Microkernels` for ``portable``, `MicrokernelsAVX2` for ``avx2``,
/// `MicrokernelsAVX512` for ``avx512``), and an
/// engine picks one level when it is created, from what the CPU reports. A lower level can
/// be forced (``resolve(_:)``): every level computes the same 8-bit outputs, bit for bit,
/// so forcing one changes only the speed (float sums may differ in the last bits, within
/// the conformance tolerances, because wider vectors add in another order).
public enum KernelLevel: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    /// The architecture's baseline (SSE2 on x86-64, NEON on aarch64): runs on every CPU.
    case portable = 0
    /// x86-64-v3: AVX2 and FMA (with F16C and BMI2), 256-bit vectors.
    case avx2 = 1
    /// AVX-512 (F, BW, DQ, VL) with VNNI, on top of ``avx2``: 512-bit vectors and the
    /// integer dot products `vpdpwssd`/`vpdpbusd`.
    case avx512 = 2

    /// The name used by options, flags and `TFLITE_KERNEL_LEVEL`.
    public var description: String {
        switch self {
        case .portable: "portable"
        case .avx2: "avx2"
        case .avx512: "avx512"
        }
    }

    /// The level called `name` (``description``), or nil.
    public init?(name: String) {
        guard let level = Self.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = level
    }

    public static func < (a: KernelLevel, b: KernelLevel) -> Bool { a.rawValue < b.rawValue }

    /// The highest level compiled into this build that this CPU can run.
    public static let host: KernelLevel = {
        #if arch(x86_64)
        guard tflite_cpu_x86_64_v3() != 0 else { return .portable }
        return tflite_cpu_avx512_vnni() != 0 ? .avx512 : .avx2
        #endif
        return .portable
    }()

    /// Whether the CPU has AVX-512 with VNNI (the ``avx512`` level's requirement).
    public static let cpuHasAVX512VNNI: Bool = tflite_cpu_avx512_vnni() != 0

    /// The environment variable that caps the level of every engine in the process
    /// (`portable`, `avx2` or `avx512`), for tests and benchmarks that cannot pass an option.
    public static let environmentVariable = "TFLITE_KERNEL_LEVEL"

    /// The cap set by ``environmentVariable``, nil when unset or not a level's name.
    public static var environmentCap: KernelLevel? {
        guard let raw = getenv(environmentVariable) else { return nil }
        return KernelLevel(name: String(cString: raw))
    }

    /// The level an engine runs: the requested one (else the environment's cap, else the
    /// host's), never above ``host``, because the CPU could not execute a higher one.
    public static func resolve(_ requested: KernelLevel?) -> KernelLevel {
        Swift.min(requested ?? environmentCap ?? host, host)
    }
}
