import Foundation

/// The reviewed list of cases allowed to fail, each with its reason.
///
/// File format: one case id per line, then `#` and the reason; blank lines and lines
/// starting with `#` are ignored. A listed case that passes is itself a failure (the
/// entry must be removed), so the list can only shrink.
public struct ExpectedFailures: Sendable {
    public private(set) var reasons: [String: String] = [:]

    public init(contentsOf url: URL) throws {
        guard FileManager.default.fileExists(atPath: url.path) else {
            self.init()
            return
        }
        let text = try String(contentsOf: url, encoding: .utf8)
        try self.init(text: text)
    }

    public init(text: String) throws {
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "#", maxSplits: 1)
            let id = parts[0].trimmingCharacters(in: .whitespaces)
            let reason = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
            guard !reason.isEmpty else {
                throw ConformanceError.badCase(id, "expected-failures line \(n + 1) has no reason")
            }
            reasons[id] = reason
        }
    }

    public init() {}

    public func reason(for id: String) -> String? { reasons[id] }
}
