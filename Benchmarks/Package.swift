// swift-tools-version: 6.1
//
// Kernel microbenchmarks for swift-tflite, on the layer shapes of real models
// (MobileNet v1/v2 224, SSD post-processing with 1917 anchors), at 1 and 2 threads.
//
// A package of its own so the library keeps no Swift package dependency. Run from this
// folder:
//
//     swift package --allow-writing-to-package-directory benchmark          # all
//     swift package benchmark --filter 'dw.*' --format markdown              # a subset
//
// Whole-model timings side by side with LiteRT are `scripts/bench/compare.sh` (see BENCHMARKS.md).
import PackageDescription

let package = Package(
    name: "swift-tflite-benchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // Named: a path dependency is otherwise known by its folder name, which differs
        // between clones and worktrees.
        .package(name: "swift-tflite", path: ".."),
        // The malloc interposer is the package's default; named explicitly as the
        // machine's toolchain needs (jemalloc is not used).
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "KernelBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TFLiteRuntime", package: "swift-tflite"),
                .product(name: "TFLiteModel", package: "swift-tflite"),
            ],
            path: "Benchmarks/KernelBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    ],
    swiftLanguageModes: [.v6]
)
