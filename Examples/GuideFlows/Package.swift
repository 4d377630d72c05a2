// swift-tools-version: 6.2
//
// App-style programs that use swift-tflite the way Google's guides (TensorFlowLiteSwift,
// Firebase ML custom models, AutoML Vision Edge with ML Kit and with the legacy Firebase
// API) write their Swift code, compiled twice: in Swift 6 language mode (`GuideFlows`)
// and in Swift 5 mode (`GuideFlowsSwift5`, the same files through symbolic links).
// run.sh publishes the demo models to a local model server, runs both, and fails if any
// flow gives a wrong answer or a wrong error.
import PackageDescription

let products: [Target.Dependency] = ["TensorFlowLite", "MLKit", "Firebase"].map {
    .product(name: $0, package: "swift-tflite")
}

let package = Package(
    name: "GuideFlows",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "swift-tflite", path: "../..")],
    targets: [
        .executableTarget(
            name: "GuideFlows",
            dependencies: products,
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "GuideFlowsSwift5",
            dependencies: products,
            swiftSettings: [.swiftLanguageMode(.v5)]
        ),
    ]
)
