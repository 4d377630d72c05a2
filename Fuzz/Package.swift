// swift-tools-version: 6.0
//
// libFuzzer targets for swift-tflite. Separate from the root package because a fuzz
// target has no `main` of its own (libFuzzer's runtime provides it) and must not be part
// of `swift build` / `swift test`. Build and run one target with `scripts/fuzz/run.sh`:
//
//     scripts/fuzz/run.sh model-load 600
//
// which runs `swift build -c debug -sanitize=fuzzer,address` here (see run.sh for
// why the flag is spelled twice).
// Each target is one file defining `LLVMFuzzerTestOneInput`; it calls the entry point
// of `TFLiteFuzzing.FuzzEntryPoints` that `Tests/ReliabilityTests` also replays the
// regression corpus (`Tests/FuzzRegressions/<target>/`) through.
import PackageDescription

/// `-parse-as-library`: the file has top-level declarations only, no implicit `main`.
func fuzzTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [.product(name: "TFLiteFuzzing", package: "swift-tflite")],
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
}

let package = Package(
    name: "swift-tflite-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "swift-tflite", path: "..")],
    targets: [
        fuzzTarget("FuzzModelLoad"), // 1. model bytes → Model(data:)
        fuzzTarget("FuzzModelInvoke"), // 2. model bytes → Interpreter → allocate → invoke
        fuzzTarget("FuzzFlexBuffer"), // 3. FlexBuffer bytes → FlexBuffer(...).tree()
        fuzzTarget("FuzzPNG"), // 4. PNG bytes → VisionImage(data:) → preprocessing
        fuzzTarget("FuzzNPY"), // 5. .npy bytes → NPYArray(bytes:)
        fuzzTarget("FuzzBundleFiles"), // 6. manifest / metadata / dict.txt / descriptor parsers
    ],
    swiftLanguageModes: [.v6]
)
