import CPUFeatures

/// The instruction-set level whose microkernels an engine runs.
///
/// Each level's inner loops are compiled in a module of their own with that level's code
/// generation (`Microkernels` for ``portable``; `MicrokernelsAVX2`, `MicrokernelsAVX512` on
/// x86-64; `MicrokernelsNEON`, `MicrokernelsDotProd`, `MicrokernelsI8MM` on aarch64), and
/// an engine picks one level when it is created, from what the CPU and the OS report. A
/// lower level can be forced (``resolve(_:)``): every level computes the same 8-bit
/// outputs, bit for bit, so forcing one changes only the speed (float sums may differ in
/// the last bits, within the conformance tolerances, because wider vectors add in another
/// order).
///
/// Levels are ordered ``portable`` first, then the levels of the architecture this build
/// runs on from the lowest, then the other architecture's, which this build cannot run:
/// on x86-64 `portable < avx2 < avx512 < neon < dotprod < i8mm`, on aarch64
/// `portable < neon < dotprod < i8mm < avx2 < avx512`. So `level >= .avx2` holds only for
/// levels that have the AVX2 kernels, and a level of the other architecture ranks above
/// ``host`` and is lowered to it, like any level the CPU lacks.
public enum KernelLevel: Int, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    /// The architecture's baseline (SSE2 on x86-64, Advanced SIMD on aarch64), with no
    /// level-specific microkernels: runs on every CPU.
    case portable = 0
    /// x86-64-v3: AVX2 and FMA (with F16C and BMI2), 256-bit vectors.
    case avx2 = 1
    /// AVX-512 (F, BW, DQ, VL) with VNNI, on top of ``avx2``: 512-bit vectors and the
    /// integer dot products `vpdpwssd`/`vpdpbusd`.
    case avx512 = 2
    /// aarch64 Advanced SIMD (ARMv8.0): hand-blocked NEON microkernels (FMLA by lane,
    /// SMLAL by lane, SQRDMULH requantization).
    case neon = 3
    /// ``neon`` and the ARMv8.2 dot product (SDOT/UDOT: four 8-bit products per 32-bit
    /// lane), as on Cortex-A55/A76, Neoverse N1 and Apple A13/M1 on.
    case dotprod = 4
    /// ``dotprod`` and the ARMv8.6 8-bit matrix multiply (SMMLA/UMMLA: a 2×8 by 8×2 block
    /// per instruction), as on Neoverse V1/N2, Cortex-A510/A710 and Apple A15/M2 on.
    case i8mm = 5

    /// The name used by options, flags and `TFLITE_KERNEL_LEVEL`.
    public var description: String {
        switch self {
        case .portable: "portable"
        case .avx2: "avx2"
        case .avx512: "avx512"
        case .neon: "neon"
        case .dotprod: "dotprod"
        case .i8mm: "i8mm"
        }
    }

    /// The level called `name` (``description``, any case), or nil.
    public init?(name: String) {
        let lowered = name.lowercased()
        guard let level = Self.allCases.first(where: { $0.description == lowered }) else { return nil }
        self = level
    }

    /// The levels of the architecture this build runs on, lowest first: ``portable`` and
    /// the levels whose microkernels are compiled for it.
    public static var native: [KernelLevel] {
        #if arch(x86_64)
        [.portable, .avx2, .avx512]
        #elseif arch(arm64)
        [.portable, .neon, .dotprod, .i8mm]
        #else
        [.portable]
        #endif
    }

    /// Whether this is one of the aarch64 levels (``neon``, ``dotprod``, ``i8mm``).
    public var isAArch64: Bool {
        switch self {
        case .neon, .dotprod, .i8mm: true
        case .portable, .avx2, .avx512: false
        }
    }

    /// The position in the order of `<`: this build's architecture's levels first.
    private var rank: Int {
        #if arch(arm64)
        switch self {
        case .portable: 0
        case .neon: 1
        case .dotprod: 2
        case .i8mm: 3
        case .avx2: 4
        case .avx512: 5
        }
        #else
        rawValue
        #endif
    }

    public static func < (a: KernelLevel, b: KernelLevel) -> Bool { a.rank < b.rank }

    /// The highest level compiled into this build that this CPU can run.
    public static let host: KernelLevel = {
        #if arch(x86_64)
        guard tflite_cpu_x86_64_v3() != 0 else { return .portable }
        return tflite_cpu_avx512_vnni() != 0 ? .avx512 : .avx2
        #elseif arch(arm64)
        guard tflite_cpu_arm64_neon() != 0 else { return .portable }
        guard tflite_cpu_arm64_dotprod() != 0 else { return .neon }
        return tflite_cpu_arm64_i8mm() != 0 ? .i8mm : .dotprod
        #else
        return .portable
        #endif
    }()

    /// Whether the CPU has AVX-512 with VNNI (the ``avx512`` level's requirement).
    public static let cpuHasAVX512VNNI: Bool = tflite_cpu_avx512_vnni() != 0

    /// The environment variable that caps the level of every engine in the process
    /// (a level's name, e.g. `portable`, `avx2`, `neon`), for tests and benchmarks that
    /// cannot pass an option.
    public static let environmentVariable = "TFLITE_KERNEL_LEVEL"

    /// The cap set by ``environmentVariable``, nil when unset or not a level's name.
    public static var environmentCap: KernelLevel? {
        guard let raw = tflite_environment(environmentVariable) else { return nil }
        return KernelLevel(name: String(cString: raw))
    }

    /// The level an engine runs: the requested one (else the environment's cap, else the
    /// host's), never above ``host``, because the CPU could not execute a higher one. A
    /// level of the other architecture ranks above every level of this one, so it runs
    /// the host's.
    public static func resolve(_ requested: KernelLevel?) -> KernelLevel {
        Swift.min(requested ?? environmentCap ?? host, host)
    }
}
