import Foundation
import NumPy

/// How closely a case's outputs must match the reference.
public enum ToleranceLevel: String, Sendable, Hashable, CaseIterable {
    /// Quantized outputs: zero LSB difference.
    case exact
    /// One float op: `max|got - ref| ≤ 1e-5 · max(1, max|ref|)`.
    case float
    /// A whole float model: `max|got - ref| ≤ 1e-4 · max(1, max|ref|)`.
    case model

    /// The allowed absolute error for float outputs whose largest magnitude is `maxRef`.
    public func floatBound(maxReference: Double) -> Double {
        let relative: Double
        switch self {
        case .exact, .float: relative = 1e-5
        case .model: relative = 1e-4
        }
        return relative * max(1, maxReference)
    }
}

/// One case of the conformance corpus: a folder with `model.tflite`, `input_<i>.npy`,
/// `expected_<i>.npy` (reference kernels), optional `optimized_<i>.npy` (optimized
/// kernels, only where they differ) and `case.json`.
///
/// A case that invokes one interpreter several times (`"invokes": K` in case.json, for
/// state kept between invokes) keeps each invoke's arrays in `step<k>/` instead.
public struct ConformanceCase: Sendable {
    /// One invoke's inputs and the outputs it must give.
    public struct Step: Sendable {
        public let inputs: [NPYArray]
        public let expected: [NPYArray]
        /// The optimized builtin kernels' outputs where they differ from the reference.
        public let optimized: [Int: NPYArray]
    }

    /// Path relative to the corpus root, e.g. `CONV_2D/float32_same_stride2`.
    public let id: String
    public let directory: URL
    public let op: String
    public let dtype: String
    public let tolerance: ToleranceLevel
    /// Which LiteRT resolver produced `expected_<i>.npy`.
    public let reference: String
    /// The invokes of one interpreter, in order (one for most cases).
    public let steps: [Step]
    /// The signature each invoke runs (`"signatures"` in case.json), when the case runs
    /// signatures instead of the main subgraph: their inputs and outputs are in the order
    /// of each signature's subgraph.
    public let signatures: [String]?
    /// Whether output shapes must equal the reference's exactly (`"exact_shapes"` in
    /// case.json), set by cases whose output shapes are known only at invoke. Other cases
    /// accept any shape with the reference's element count.
    public let exactShapes: Bool
    /// LiteRT refuses the model (`"litert_refuses"` in case.json: both resolvers fail to
    /// prepare or run it), so the case passes when the runtime refuses it too. Such a
    /// case has inputs but no expected outputs.
    public let refusedByLiteRT: Bool

    /// The first invoke's inputs.
    public var inputs: [NPYArray] { steps[0].inputs }
    /// The first invoke's reference outputs.
    public var expected: [NPYArray] { steps[0].expected }

    public var modelPath: String { directory.appendingPathComponent("model.tflite").path }

    /// Loads the case in `directory`; `id` names it in reports.
    public init(directory: URL, id: String) throws {
        self.directory = directory
        self.id = id
        let json = try Data(contentsOf: directory.appendingPathComponent("case.json"))
        guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw ConformanceError.badCase(id, "case.json is not an object")
        }
        op = object["op"] as? String ?? "?"
        dtype = object["dtype"] as? String ?? "?"
        reference = object["reference"] as? String ?? "BUILTIN_REF"
        exactShapes = object["exact_shapes"] as? Bool ?? false
        guard let level = (object["tolerance"] as? String).flatMap(ToleranceLevel.init(rawValue:)) else {
            throw ConformanceError.badCase(id, "case.json has no valid tolerance")
        }
        tolerance = level
        let invokes = object["invokes"] as? Int ?? 1
        guard invokes >= 1 else { throw ConformanceError.badCase(id, "case.json has invokes \(invokes)") }
        let folders =
            invokes == 1 ? [directory] : (0 ..< invokes).map { directory.appendingPathComponent("step\($0)") }
        refusedByLiteRT = object["litert_refuses"] != nil
        steps = try folders.map { [refusedByLiteRT] folder in
            try Self.step(in: folder, id: id, refused: refusedByLiteRT)
        }
        signatures = object["signatures"] as? [String]
        if let signatures, signatures.count != invokes {
            throw ConformanceError.badCase(id, "case.json names \(signatures.count) signatures for \(invokes) invokes")
        }
    }

    private static func step(in directory: URL, id: String, refused: Bool) throws -> Step {
        let expected = try numbered("expected", in: directory)
        guard !expected.isEmpty || refused else {
            throw ConformanceError.badCase(id, "no expected_0.npy in \(directory.lastPathComponent)")
        }
        var optimized: [Int: NPYArray] = [:]
        for i in expected.indices {
            let url = directory.appendingPathComponent("optimized_\(i).npy")
            if FileManager.default.fileExists(atPath: url.path) {
                optimized[i] = try NPYArray(contentsOf: url)
            }
        }
        return Step(inputs: try numbered("input", in: directory), expected: expected, optimized: optimized)
    }

    private static func numbered(_ prefix: String, in directory: URL) throws -> [NPYArray] {
        var arrays: [NPYArray] = []
        while true {
            let url = directory.appendingPathComponent("\(prefix)_\(arrays.count).npy")
            guard FileManager.default.fileExists(atPath: url.path) else { return arrays }
            arrays.append(try NPYArray(contentsOf: url))
        }
    }

    /// Every case under `root` (folders containing a `case.json`), sorted by id.
    public static func discover(in root: URL) throws -> [ConformanceCase] {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker where url.lastPathComponent == "case.json" {
            found.append(url.deletingLastPathComponent())
        }
        let rootPath = root.standardizedFileURL.path
        return try found.map { dir in
            var id = dir.standardizedFileURL.path
            if id.hasPrefix(rootPath) { id = String(id.dropFirst(rootPath.count)) }
            while id.hasPrefix("/") { id.removeFirst() }
            return try ConformanceCase(directory: dir, id: id)
        }.sorted { $0.id < $1.id }
    }
}

public enum ConformanceError: Error, CustomStringConvertible {
    case badCase(String, String)
    public var description: String {
        switch self {
        case .badCase(let id, let reason): return "conformance case \(id): \(reason)"
        }
    }
}
