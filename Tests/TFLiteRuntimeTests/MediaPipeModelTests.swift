import Foundation
import NumPy
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// MediaPipe's models with custom operators (Fixtures/mediapipe/, from the `mediapipe`
/// 0.10.14 wheel) against references made without our code
/// (scripts/fixtures/mediapipe/make_references.py).
@Suite struct MediaPipeModelTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/mediapipe")

    static func model(_ name: String) throws -> Model {
        try Model(contentsOfFile: root.appendingPathComponent("models/\(name).tflite").path)
    }

    static func floats(_ path: String) throws -> [Float] {
        let array = try NPYArray(contentsOf: root.appendingPathComponent(path))
        return array.data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    static func references() throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent("references.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The photo input: 8-bit RGB scaled to [0, 1] as the generator did (`u8 / 255`).
    static func photo(_ name: String) throws -> [Float] {
        try NPYArray(contentsOf: root.appendingPathComponent("\(name)/input_u8.npy")).data.map { Float($0) / 255 }
    }

    /// Convolution2DTransposeBias: the whole selfie models against LiteRT BUILTIN_REF on
    /// their TRANSPOSE_CONV twins, within 1e-4 of the output's range or LiteRT XNNPACK's
    /// own distance from BUILTIN_REF, whichever is larger.
    @Test(arguments: ["selfie_segmentation", "selfie_segmentation_landscape"])
    func selfieSegmentationMatchesTransposeConvTwin(_ name: String) throws {
        let meta = try #require(try Self.references()[name] as? [String: Any])
        let range = try #require((meta["output_range"] as? [Double])?.first)
        let xnnpack = try #require((meta["xnnpack_max_abs_diff"] as? [Double])?.first)
        let tolerance = Float(Swift.max(1e-4 * range, xnnpack))
        let want = try Self.floats("\(name)/reference_0.npy")
        let engine = try Engine(model: Self.model(name))
        try engine.allocate()
        try engine.setInput(0, Self.photo(name))
        try engine.invoke()
        let got = try engine.output(0, as: Float.self)
        #expect(got.count == want.count)
        let worst = zip(got, want).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= tolerance, "\(name): max |diff| \(worst) > \(tolerance)")
        // The photo has a person: the mask is informative, not all background.
        let mean = got.reduce(0, +) / Float(max(got.count, 1))
        #expect(mean > 0.2 && mean < 0.9, "mask mean \(mean)")
    }

    /// Each model whole against MediaPipe's own CPU inference (its calculator graph with
    /// MediaPipe's op resolver, scripts/fixtures/mediapipe/mediapipe_reference.py) on the
    /// same 8-bit photo: every output within 1e-4 of its range (of its magnitude for a
    /// single value).
    @Test(arguments: [
        ("face_landmark_with_attention", 7), ("selfie_segmentation", 1), ("selfie_segmentation_landscape", 1),
    ])
    func matchesMediaPipe(_ name: String, outputs: Int) throws {
        let engine = try Engine(model: Self.model(name))
        try engine.allocate()
        try engine.setInput(0, Self.photo(name))
        try engine.invoke()
        #expect(engine.outputs.count == outputs)
        for i in 0 ..< outputs {
            let want = try Self.floats("\(name)/mediapipe_\(i).npy")
            let got = try engine.output(i, as: Float.self)
            #expect(got.count == want.count, "\(name) output \(i)")
            let range = want.count > 1 ? (want.max() ?? 0) - (want.min() ?? 0) : abs(want.first ?? 0)
            let worst = zip(got, want).map { abs($0 - $1) }.max() ?? .infinity
            #expect(worst <= 1e-4 * Swift.max(range, 1e-6), "\(name) output \(i): max |diff| \(worst), range \(range)")
        }
    }

    // MARK: - Transform operators against the NumPy reference

    /// The custom options of the first operator named `name` in the attention model.
    static func options(of name: String) throws -> [UInt8] {
        let model = try Self.model("face_landmark_with_attention")
        let op = try #require(model.subgraphs[0].operators.first { $0.code.customName == name })
        return Array(try #require(op.customOptions).bytes)
    }

    static func run(_ name: String, options: [UInt8], inputs: [([Float], [Int])], output: [Int], version: Int = 2)
        throws -> [Float]
    {
        var g = GraphBuilder()
        let ins = inputs.map { g.input($0.1, .float32) }
        let y = g.tensor(output, .float32)
        let storage = g.customOp(name, inputs: ins, outputs: [y], options: options, version: version)
        g.output(y)
        let engine = try withExtendedLifetime(storage) { try g.engine() }
        try engine.allocate()
        for (i, input) in inputs.enumerated() { try engine.setInput(i, input.0) }
        try engine.invoke()
        return try engine.output(0, as: Float.self)
    }

    static func expectClose(_ got: [Float], _ want: [Float], tolerance: Float, _ what: String) {
        #expect(got.count == want.count, "\(what): \(got.count) values, want \(want.count)")
        let scale = Swift.max((want.max() ?? 0) - (want.min() ?? 0), 1e-30)
        let worst = zip(got, want).map { abs($0 - $1) }.max() ?? 0
        #expect(worst <= tolerance * scale, "\(what): max |diff| \(worst), range \(scale)")
    }

    @Test func landmarksToTransformMatrix() throws {
        let got = try Self.run(
            "Landmarks2TransformMatrix", options: Self.options(of: "Landmarks2TransformMatrix"),
            inputs: [(Self.floats("ops/landmarks.npy"), [1, 468, 3])], output: [1, 4, 4])
        Self.expectClose(got, try Self.floats("ops/matrix.npy"), tolerance: 1e-5, "Landmarks2TransformMatrix")
    }

    @Test func transformTensorBilinear() throws {
        let got = try Self.run(
            "TransformTensorBilinear", options: Self.options(of: "TransformTensorBilinear"),
            inputs: [
                (Self.floats("ops/feature.npy"), [1, 48, 48, 32]),
                (Self.floats("ops/matrix.npy"), [1, 4, 4]),
            ],
            output: [1, 16, 16, 32])
        Self.expectClose(got, try Self.floats("ops/sampled.npy"), tolerance: 1e-5, "TransformTensorBilinear")
    }

    @Test func transformLandmarks() throws {
        let got = try Self.run(
            "TransformLandmarks", options: [],
            inputs: [
                (Self.floats("ops/points.npy"), [1, 80, 2]),
                (Self.floats("ops/matrix.npy"), [1, 4, 4]),
            ],
            output: [1, 80, 2])
        Self.expectClose(got, try Self.floats("ops/moved.npy"), tolerance: 1e-5, "TransformLandmarks")
    }

    // MARK: - Version 1 (options of our own, no wheel model uses it)

    static func flex(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appendingPathComponent("ops/v1_\(name).flex")))
    }

    @Test func landmarksToTransformMatrixVersion1() throws {
        let got = try Self.run(
            "Landmarks2TransformMatrix", options: Self.flex("Landmarks2TransformMatrix"),
            inputs: [(Self.floats("ops/mesh.npy"), [1, 1, 1, 1404])], output: [1, 4, 4], version: 1)
        Self.expectClose(got, try Self.floats("ops/v1_matrix.npy"), tolerance: 1e-5, "Landmarks2TransformMatrix v1")
    }

    @Test func transformTensorVersion1() throws {
        let got = try Self.run(
            "TransformTensor", options: Self.flex("TransformTensor"),
            inputs: [
                (Self.floats("ops/feature.npy"), [1, 48, 48, 32]),
                (Self.floats("ops/v1_matrix.npy"), [1, 4, 4]),
            ],
            output: [1, 16, 16, 32], version: 1)
        Self.expectClose(got, try Self.floats("ops/v1_sampled.npy"), tolerance: 1e-5, "TransformTensor v1")
    }

    @Test func transformLandmarksVersion1() throws {
        let got = try Self.run(
            "TransformLandmarks", options: Self.flex("TransformLandmarks"),
            inputs: [
                (Self.floats("ops/points.npy"), [1, 1, 1, 160]),
                (Self.floats("ops/v1_matrix.npy"), [1, 4, 4]),
            ],
            output: [1, 1, 1, 160], version: 1)
        Self.expectClose(got, try Self.floats("ops/v1_moved.npy"), tolerance: 1e-5, "TransformLandmarks v1")
    }

    @Test func unsupportedVersionsAreRefused() throws {
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:TransformTensorBilinear",
                reason: "version 1 is not supported (versions 2...2 are)")
        ) {
            _ = try Self.run(
                "TransformTensorBilinear", options: Self.options(of: "TransformTensorBilinear"),
                inputs: [
                    ([Float](repeating: 0, count: 48), [1, 4, 4, 3]), ([Float](repeating: 0, count: 16), [1, 4, 4]),
                ],
                output: [1, 16, 16, 3], version: 1)
        }
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:TransformLandmarks",
                reason: "version 3 is not supported (versions 1...2 are)")
        ) {
            _ = try Self.run(
                "TransformLandmarks", options: [],
                inputs: [([0, 0], [1, 1, 2]), ([Float](repeating: 0, count: 16), [1, 4, 4])],
                output: [1, 1, 2], version: 3)
        }
    }
}
