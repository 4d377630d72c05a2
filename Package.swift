// swift-tools-version: 6.2
//
// swift-tflite: a pure-Swift runtime for TensorFlow Lite models.
//
// Layers, each importing only those below it:
//   TFLiteFormat (FlatBuffers/FlexBuffers + schema views)
//   → TFLiteModel (validated, immutable graph)
//   → Microkernels and its per-level targets (per-ISA inner loops, chosen at run time)
//   → TFLiteRuntime (planner, executor, kernels)
//   → TensorFlowLite, MLKit (API modules)
//   → TFLiteCommands → tflite (CLI)
//
// The library products depend on no Swift package; the only external
// dependencies are the system libraries OpenBLAS (CBLAS) and libpng. Two packages serve
// the repository itself: swift-docc-plugin, used by no target, only provides
// `swift package generate-documentation`; swift-argument-parser is used by the CLI alone,
// and the CLI is no declared product: SwiftPM resolves, for a package used as a
// dependency, the packages its declared products need (all of them, not just those the
// consumer uses), so a declared `tflite` product would make every consumer fetch
// argument-parser. In this repository (the root package) SwiftPM makes the executable
// target a product of its own, so `swift run tflite` and `swift build --product tflite`
// work here.
//
// Kernels per instruction-set level: `Microkernels` is compiled for the architecture's
// baseline and runs everywhere. The other level targets hold one level's inner loops each,
// compiled for that level's instructions and only called after the CPU says it has them
// (`KernelLevel`): `MicrokernelsAVX2` (AVX2 + FMA, x86-64-v3) and `MicrokernelsAVX512`
// (AVX-512 + VNNI on top) on x86-64; `MicrokernelsNEON` (Advanced SIMD, the aarch64
// baseline), `MicrokernelsDotProd` (+ SDOT/UDOT) and `MicrokernelsI8MM` (+ SMMLA/UMMLA) on
// aarch64. Every target is declared for every build, whatever machine evaluates the
// manifest (it need not be the target: a Swift SDK, an iOS build on an Intel Mac); a
// level's sources are empty on the other architecture, and its code-generation flags reach
// only compiles for its own (`flags(for:_:)`). The flags are per-target unsafe flags,
// which SwiftPM accepts in versioned dependencies from tools version 6.2 on.
import Foundation
import PackageDescription

/// Clang code-generation flags that apply only to compiles for `architectures`.
/// `-Xarch_<arch> <flag>` passes the flag when the target has that architecture and drops
/// it otherwise (`-Qunused-arguments` keeps the dropped ones quiet), so no `-mavx2` reaches
/// an aarch64 compile, where it is an error, and no `-march=armv8-a+dotprod` an x86-64
/// one. Clang calls 64-bit ARM `aarch64` in Linux and Android triples and `arm64` in
/// Apple ones, so ARM flags name both.
func flags(for architectures: [String], _ clangFlags: [String]) -> [String] {
    architectures.flatMap { arch in clangFlags.flatMap { ["-Xcc", "-Xarch_\(arch)", "-Xcc", $0] } }
}
let x86_64 = ["x86_64"], arm64 = ["aarch64", "arm64"]
/// Every level target: whole-module code generation kept to the level's own module
/// (`-disable-cmo`: callers in baseline modules must not inline, and so recompile for the
/// baseline, a level's bodies).
let levelFlags = ["-Xcc", "-Qunused-arguments", "-Xfrontend", "-disable-cmo"]
let x86_64_v3 = ["-mavx2", "-mfma", "-mf16c", "-mbmi2"]

/// The engine (format reader, model, microkernels at every level, runtime) is compiled
/// optimized in debug builds too, here and in every package that depends on this one, so
/// `swift run`, `swift test` and an app's Debug configuration run models at release speed
/// rather than 100-170 times slower (BENCHMARKS.md, "What a consumer pays"); the API modules and
/// everything above them stay unoptimized and debuggable. This is a setting of its own
/// (debug only), so the level targets' code-generation flags stay what release builds get.
/// `-O` alone is not enough: a debug build compiles each file on its own, which leaves the
/// generic helpers kernels call in other files unspecialized (float models ran 1.4x
/// slower); `-wmo` optimizes each module as a whole, as release builds do. With it,
/// `-disable-batch-mode` keeps the driver from warning that it ignores SwiftPM's
/// `-enable-batch-mode`, and `-num-threads` (as many as SwiftPM's release builds use) makes
/// it write one object file per source file, the outputs SwiftPM's debug build expects.
/// The driver still notes, once per engine module compiled, that whole-module compiles are
/// not incremental. SwiftPM's `-enable-testing` stays, so tests can still
/// `@testable import` these modules.
///
/// `TFLITE_ENGINE_ONONE=1` in the environment of `swift build` leaves the engine
/// unoptimized in debug builds too (to step through a kernel in a debugger, or for
/// incremental rebuilds of a module being edited).
let engineInDebug: [SwiftSetting] =
    Context.environment["TFLITE_ENGINE_ONONE"] == "1"
    ? []
    : [
        .unsafeFlags(
            [
                "-O", "-wmo", "-disable-batch-mode",
                "-num-threads", "\(max(1, ProcessInfo.processInfo.activeProcessorCount))",
            ], .when(configuration: .debug))
    ]

let isaTargetNames = [
    "MicrokernelsAVX2", "MicrokernelsAVX512", "MicrokernelsNEON", "MicrokernelsDotProd", "MicrokernelsI8MM",
]
let isaTargets: [Target] = [
    .target(
        name: "MicrokernelsAVX2",
        dependencies: ["Microkernels"],
        path: "Sources/Microkernels/AVX2",
        swiftSettings: [.unsafeFlags(levelFlags + flags(for: x86_64, x86_64_v3))] + engineInDebug
    ),
    .target(
        name: "MicrokernelsAVX512",
        dependencies: ["Microkernels"],
        path: "Sources/Microkernels/AVX512",
        swiftSettings: [
            // x86-64-v3 plus AVX-512 F/BW/DQ/VL and VNNI (what `KernelLevel.avx512` checks).
            .unsafeFlags(
                levelFlags
                    + flags(
                        for: x86_64,
                        x86_64_v3 + ["-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl", "-mavx512vnni"]))
        ] + engineInDebug
    ),
    // Advanced SIMD is part of every aarch64 target: no flag beyond the level's.
    .target(
        name: "MicrokernelsNEON",
        dependencies: ["Microkernels"],
        path: "Sources/Microkernels/NEON",
        swiftSettings: [.unsafeFlags(levelFlags)] + engineInDebug
    ),
    .target(
        name: "MicrokernelsDotProd",
        dependencies: ["Microkernels", "MicrokernelsNEON"],
        path: "Sources/Microkernels/DotProd",
        swiftSettings: [.unsafeFlags(levelFlags + flags(for: arm64, ["-march=armv8-a+dotprod"]))] + engineInDebug
    ),
    .target(
        name: "MicrokernelsI8MM",
        dependencies: ["Microkernels", "MicrokernelsNEON"],
        path: "Sources/Microkernels/I8MM",
        swiftSettings: [.unsafeFlags(levelFlags + flags(for: arm64, ["-march=armv8-a+dotprod+i8mm"]))] + engineInDebug
    ),
]

let package = Package(
    name: "swift-tflite",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "TensorFlowLite", targets: ["TensorFlowLite"]),
        .library(name: "MLKit", targets: ["MLKit"]),
        // `import Firebase`: the Firebase-era ML API of MLKit under Firebase's module name.
        .library(name: "Firebase", targets: ["Firebase"]),
        .library(name: "TFLiteModel", targets: ["TFLiteModel"]),
        // The engine itself, for Benchmarks/ (kernels driven through in-memory models).
        .library(name: "TFLiteRuntime", targets: ["TFLiteRuntime"]),
        // No `tflite` executable product: it would bring argument-parser to every consumer
        // (see the header); the root package gets one from the executable target.
        // The fuzz entry points, for the separate fuzzing package in `Fuzz/` (which can
        // only depend on products) and the regression replay in ReliabilityTests.
        .library(name: "TFLiteFuzzing", targets: ["TFLiteFuzzing"]),
    ],
    dependencies: [
        // Only for TFLiteCommands (the `tflite` tool): its arguments, help and completions.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Documentation only (DocC catalogs in Sources/TensorFlowLite and Sources/MLKit).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: - System libraries
        .systemLibrary(
            name: "COpenBLAS",
            pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]
        ),

        // The CPUID query and the spin-wait hint (header-only, no library to link).
        .systemLibrary(name: "CPUFeatures"),

        // MARK: - Layers
        .target(name: "TFLiteFormat", swiftSettings: engineInDebug),
        .target(name: "TFLiteModel", dependencies: ["TFLiteFormat"], swiftSettings: engineInDebug),
        // Baseline microkernels and the kernel level (CPU detection, forcing).
        .target(
            name: "Microkernels", dependencies: ["CPUFeatures"], path: "Sources/Microkernels/Portable",
            swiftSettings: engineInDebug),
        .target(
            name: "TFLiteRuntime",
            dependencies: [
                "TFLiteModel",
                "TFLiteFormat",
                "Microkernels",
                "CPUFeatures",
                .target(name: "COpenBLAS", condition: .when(platforms: [.linux, .android, .windows])),
            ] + isaTargetNames.map { .target(name: $0) },
            swiftSettings: engineInDebug
        ),
        .target(
            name: "TensorFlowLite", dependencies: ["TFLiteRuntime", "TFLiteModel", "TFLiteFormat", "Microkernels"]),
        .target(name: "MLKit", dependencies: ["TensorFlowLite", "CPNG"]),
        .target(name: "Firebase", dependencies: ["MLKit"]),
        // Reader/writer of NumPy `.npy` arrays (CLI inputs, outputs and test data); no dependencies.
        .target(name: "NumPy"),
        // Runs the conformance corpus through the public API (tests and `tflite conformance`).
        .target(name: "TFLiteConformance", dependencies: ["TensorFlowLite", "NumPy"]),
        .target(
            name: "TFLiteCommands",
            dependencies: [
                "TensorFlowLite", "MLKit", "TFLiteModel", "TFLiteFormat", "TFLiteRuntime", "Microkernels", "NumPy",
                "TFLiteConformance",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(name: "tflite", dependencies: ["TFLiteCommands"]),
        // Entry points shared by the libFuzzer targets (Fuzz/) and the regression replay.
        .target(
            name: "TFLiteFuzzing", dependencies: ["TensorFlowLite", "MLKit", "TFLiteModel", "TFLiteFormat", "NumPy"]),

        // MARK: - Tests
        // Test-only FlatBuffers/FlexBuffers writers, shared by the format and model tests.
        .target(name: "FlatBufferTestSupport", path: "Tests/Support/FlatBufferTestSupport"),
        .target(name: "SeededRandom", path: "Tests/Support/SeededRandom"),
        // A command-line program that calls MLKit from its main thread and blocks it or runs
        // the main queue; MLKitTests runs it to see the main-queue warning (or none).
        .executableTarget(name: "MainQueueProbe", dependencies: ["MLKit"], path: "Tests/Support/MainQueueProbe"),
        .testTarget(
            name: "TFLiteFormatTests", dependencies: ["SeededRandom", "TFLiteFormat", "FlatBufferTestSupport"]),
        .testTarget(
            name: "TFLiteModelTests",
            dependencies: ["SeededRandom", "TFLiteModel", "TFLiteFormat", "FlatBufferTestSupport"]),
        // Test data lives in Fixtures/ (LiteRT goldens in Fixtures/goldens/), read through
        // #filePath, so `swift test` needs no bundle.
        .testTarget(
            name: "TFLiteRuntimeTests", dependencies: ["SeededRandom", "TFLiteRuntime", "TFLiteModel", "NumPy"]),
        .testTarget(name: "TensorFlowLiteTests", dependencies: ["TensorFlowLite", "TFLiteModel"]),
        // Every level's microkernels against plain reference loops, on the levels this CPU runs.
        .testTarget(
            name: "MicrokernelsTests",
            dependencies: ["SeededRandom", "Microkernels"] + isaTargetNames.map { .target(name: $0) }),
        .testTarget(name: "NumPyTests", dependencies: ["SeededRandom", "NumPy"]),
        .testTarget(name: "ConformanceTests", dependencies: ["TFLiteConformance", "TensorFlowLite"]),
        // PNG, preprocessing, bundles, labelers and detectors; Fixtures/vision/ holds tiny PNGs,
        // TF resize references and a float classifier with TFLite metadata (made by
        // scripts/fixtures/vision/ and scripts/fixtures/metadata_model.py).
        .testTarget(name: "VisionTests", dependencies: ["MLKit", "TensorFlowLite", "TFLiteFormat"]),
        .testTarget(name: "TFLiteCommandsTests", dependencies: ["TFLiteCommands", "TFLiteModel", "NumPy"]),
        .testTarget(
            name: "MLKitTests", dependencies: ["MLKit", "TensorFlowLite", "TFLiteModel", "FlatBufferTestSupport"]),
        // Fuzz regression replay, concurrency, resource limits and API misuse.
        .testTarget(
            name: "ReliabilityTests",
            dependencies: ["TFLiteFuzzing", "TensorFlowLite", "TFLiteRuntime", "TFLiteModel", "FlatBufferTestSupport"]
        ),
    ] + isaTargets,
    swiftLanguageModes: [.v6]
)
