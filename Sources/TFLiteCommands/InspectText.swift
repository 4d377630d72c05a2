import Foundation
import TFLiteModel

/// The human-readable `inspect` report for `model`: header facts, inputs and outputs,
/// signatures, every subgraph's operators in execution order, the op histogram, memory
/// totals, metadata entries and what the TFLite metadata says (name, description, version,
/// each input's declared normalization; not part of `--json`).
public func inspectText(_ model: Model) -> String {
    let summary = ModelSummary(model)
    var lines: [String] = []
    let main = summary.main
    lines.append(
        "schema version \(summary.version), \(plural(summary.subgraphs.count, "subgraph")), "
            + "\(plural(main?.tensorCount ?? 0, "tensor")), \(plural(main?.operators.count ?? 0, "operator")) in subgraph 0"
    )
    if let description = summary.description { lines.append("description: \(description)") }
    if let version = summary.minRuntimeVersion { lines.append("min_runtime_version: \(version)") }

    if let main {
        lines += ["", "Inputs:"] + tensorTable(main.inputs)
        lines += ["", "Outputs:"] + tensorTable(main.outputs)
    }
    if !summary.signatures.isEmpty {
        lines += ["", "Signatures:"]
        for s in summary.signatures {
            lines.append("  \(s.key) (subgraph \(s.subgraphIndex))")
            lines.append("    inputs:  " + s.inputs.map { "\($0.name) → \($0.tensorIndex)" }.joined(separator: ", "))
            lines.append("    outputs: " + s.outputs.map { "\($0.name) → \($0.tensorIndex)" }.joined(separator: ", "))
        }
    }
    for (i, subgraph) in summary.subgraphs.enumerated() {
        let name = subgraph.name.isEmpty ? "" : " '\(subgraph.name)'"
        lines += ["", "Operators of subgraph \(i)\(name), in execution order:"] + operatorTable(subgraph.operators)
    }
    if !summary.variables.isEmpty {
        lines += ["", "Variables (kept between invokes):"]
        lines += columns(
            summary.variables.map { v in
                let place =
                    v.tensor.map { "tensor \($0) of subgraph \(v.subgraph)" } ?? "VAR_HANDLE in subgraph \(v.subgraph)"
                let shape = v.shape.map { "\(v.type?.name ?? "") \(shapeText($0))" } ?? "resource"
                return [v.name, shape, place]
            })
    }
    if let main, !main.histogram.isEmpty {
        lines += ["", "Op histogram (subgraph 0):"] + table(main.histogram.map { ($0.name, String($0.count)) })
    }
    if let main {
        var rows = [
            ("constant weights", "\(byteCount(main.constantBytes)) in \(plural(main.constantBuffers, "buffer"))"),
            ("activations", "\(byteCount(main.activationBytes)) (static shapes, before memory planning)"),
        ]
        if main.stringTensors > 0 {
            rows.append(
                ("string tensors", "\(main.stringTensors), sized by their strings at run time, outside the arena"))
        }
        lines += ["", "Memory (subgraph 0):"] + table(rows)
    }
    if !summary.metadata.isEmpty {
        lines += ["", "Metadata:"] + table(summary.metadata.map { ($0.name, byteCount($0.size)) })
    }
    lines += tfliteMetadataLines(model)
    return lines.joined(separator: "\n") + "\n"
}

/// The `TFLITE_METADATA` section: the model's name, description and version and each
/// main-subgraph input's declared normalization. Unreadable metadata is reported in one
/// line — it does not stop the model from loading, so it does not stop the report.
private func tfliteMetadataLines(_ model: Model) -> [String] {
    let metadata: ModelMetadata
    do {
        guard let decoded = try model.tfliteMetadata else { return [] }
        metadata = decoded
    } catch {
        return ["", "TFLite metadata: not readable (\(error))"]
    }
    var rows: [(String, String)] = []
    func oneLine(_ s: String) -> String { s.split(whereSeparator: \.isNewline).joined(separator: " ") }
    if let name = metadata.name { rows.append(("name", oneLine(name))) }
    if let description = metadata.description { rows.append(("description", oneLine(description))) }
    if let version = metadata.version { rows.append(("version", oneLine(version))) }
    for (i, input) in (metadata.subgraphs.first?.inputs ?? []).enumerated() {
        guard let n = input.normalization else { continue }
        let name = input.name.map { " '\(oneLine($0))'" } ?? ""
        rows.append(("input \(i)\(name)", "normalization mean \(floatList(n.mean)), std \(floatList(n.std))"))
    }
    return ["", "TFLite metadata:"] + (rows.isEmpty ? ["  (nothing to show)"] : table(rows))
}

/// `[120, 127.5]`: shortest round-trip digits, no trailing `.0`.
private func floatList(_ values: [Float]) -> String {
    "[" + values.map { v in v == v.rounded() && abs(v) < 1e9 ? String(Int(v)) : "\(v)" }.joined(separator: ", ") + "]"
}

/// `[index] name  TYPE  [1, -1, 3]  quantization` rows.
private func tensorTable(_ tensors: [ModelSummary.TensorInfo]) -> [String] {
    if tensors.isEmpty { return ["  (none)"] }
    let rows = tensors.map { t in
        ["[\(t.index)]", t.name, t.type.name, shapeText(t.shape), t.quantization.map(quantizationText) ?? ""]
    }
    return columns(rows)
}

private func operatorTable(_ operators: [ModelSummary.OperatorInfo]) -> [String] {
    if operators.isEmpty { return ["  (none)"] }
    let header = ["#", "op", "version", "activation", "inputs → outputs"]
    let rows = operators.map { op -> [String] in
        var io = "\(shapeText(op.inputs)) → \(shapeText(op.outputs))"
        if let size = op.customOptionsSize {
            io += "  custom options: " + (op.customOptions.map { compact($0) } ?? byteCount(size))
        }
        if !op.calls.isEmpty {
            io += "  calls " + op.calls.map { "\($0.role) → subgraph \($0.subgraph)" }.joined(separator: ", ")
        }
        if let variable = op.variable { io += "  variable '\(variable)'" }
        return [String(op.index), op.name, "v\(op.version)", op.activation?.name ?? "-", io]
    }
    return columns([header] + rows)
}

/// `scale 0.0078125, zero point 128`, or `per-axis(dim 0, 32 scales, 0.0012…0.0089)`.
func quantizationText(_ q: Quantization) -> String {
    guard q.isPerAxis, let low = q.scales.min(), let high = q.scales.max() else {
        let scale = q.scales.first.map { "\($0)" } ?? "?"
        let zero = q.zeroPoints.first.map { "\($0)" } ?? "?"
        return "scale \(scale), zero point \(zero)"
    }
    let zeros = q.zeroPoints.allSatisfy { $0 == 0 } ? "" : ", non-zero zero points"
    return "per-axis(dim \(q.quantizedDimension), \(q.scales.count) scales, \(short(low))…\(short(high))\(zeros))"
}

/// Four significant digits: enough to tell scales apart at a glance.
private func short(_ x: Float) -> String {
    String(format: "%.4g", Double(x))
}

private func shapeText(_ dims: [Int]) -> String {
    "[" + dims.map(String.init).joined(separator: ", ") + "]"
}

/// `1,234,567 bytes (1.2 MiB)`.
func byteCount(_ n: Int) -> String {
    var digits = String(n)
    var grouped = ""
    while digits.count > 3 {
        grouped = "," + digits.suffix(3) + grouped
        digits.removeLast(3)
    }
    let exact = digits + grouped + (n == 1 ? " byte" : " bytes")
    guard n >= 1024 else { return exact }
    let units = ["KiB", "MiB", "GiB", "TiB"]
    var value = Double(n) / 1024
    var unit = 0
    while value >= 1024, unit + 1 < units.count {
        value /= 1024
        unit += 1
    }
    return exact + String(format: " (%.1f %@)", value, units[unit])
}

private func plural(_ n: Int, _ noun: String) -> String {
    "\(n) \(noun)\(n == 1 ? "" : "s")"
}

/// Left-aligned columns separated by two spaces, indented by two; trailing spaces trimmed.
private func columns(_ rows: [[String]]) -> [String] {
    let count = rows.map(\.count).max() ?? 0
    let widths = (0 ..< count).map { c in rows.map { c < $0.count ? $0[c].count : 0 }.max() ?? 0 }
    return rows.map { row in
        var line = " "
        for (c, cell) in row.enumerated() {
            line +=
                " " + (c + 1 < row.count ? cell.padding(toLength: widths[c] + 1, withPad: " ", startingAt: 0) : cell)
        }
        while line.hasSuffix(" ") { line.removeLast() }
        return line
    }
}

/// One-line JSON, for custom options inside the operator table.
private func compact(_ value: JSONValue) -> String {
    value.serialized().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
}
