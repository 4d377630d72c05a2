import Foundation

/// Which schema operators LiteRT itself has kernels for, as probed by
/// `scripts/fixtures/litert_builtin_kernels.py` (one one-operator model per operator code,
/// loaded with LiteRT's reference and default resolvers) and committed in
/// `Fixtures/conformance/litert-builtin-kernels.json`.
public struct LiteRTKernels: Sendable {
    /// The LiteRT version probed (`ai-edge-litert`).
    public let version: String
    /// Operator names LiteRT resolves with either resolver.
    public let withKernel: Set<String>
    /// Every operator name the probe covered.
    public let probed: Set<String>

    public init(version: String, withKernel: Set<String>, probed: Set<String>) {
        self.version = version
        self.withKernel = withKernel
        self.probed = probed
    }

    /// Reads the probe's JSON; nil when the file does not exist.
    public init?(contentsOf url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        try self.init(json: try Data(contentsOf: url), source: url.lastPathComponent)
    }

    /// Parses the probe's JSON: `litert_version` and `operators`, each an object with
    /// `op` and `litert` (`kernel` or `none`).
    public init(json: Data, source: String = "litert-builtin-kernels.json") throws {
        guard let object = try JSONSerialization.jsonObject(with: json) as? [String: Any],
            let version = object["litert_version"] as? String,
            let operators = object["operators"] as? [[String: Any]]
        else {
            throw ConformanceError.badCase(source, "expected litert_version and an operators list")
        }
        var withKernel: Set<String> = [], probed: Set<String> = []
        for entry in operators {
            guard let op = entry["op"] as? String, let status = entry["litert"] as? String,
                status == "kernel" || status == "none"
            else {
                throw ConformanceError.badCase(source, "an operators entry lacks op or litert (kernel or none)")
            }
            probed.insert(op)
            if status == "kernel" { withKernel.insert(op) }
        }
        self.init(version: version, withKernel: withKernel, probed: probed)
    }
}
