import TFLiteFormat

/// Decodes and validates a `.tflite` file into a `Model`.
///
/// Stage 1 (`RawModel`) reads every table the model needs through the bounds-checked
/// schema views; stage 2 (`build`) checks that indices, sizes, quantization and data flow
/// are consistent and produces the immutable model. Every failure is a `ModelError` whose
/// message locates the fault.
struct ModelDecoder {
    let bytes: ModelBytes
    let limits: ModelLimits

    func decode() throws(ModelError) -> Model {
        let buffer = bytes.buffer
        guard buffer.count >= FlatBufferReader.minimumSize else {
            throw .malformed(
                "the file is \(buffer.count) bytes; a TFLite model needs at least \(FlatBufferReader.minimumSize)")
        }
        let identifier = Array(buffer[4 ..< 8])
        guard identifier == Schema.fileIdentifier else {
            throw .wrongIdentifier(found: Self.printable(identifier))
        }
        let reader = FlatBufferReader(
            bytes: buffer,
            limits: FlatBufferLimits(maxDepth: limits.maxDepth, maxTables: limits.maxTables))
        let raw: RawModel
        do {
            let root = try Schema.Model(root: reader)
            let version = try root.version
            guard version == Schema.version else { throw ModelError.unsupportedSchemaVersion(version) }
            raw = try RawModel(root)
        } catch let error as FlatBufferError {
            throw ModelError(error)
        } catch let error as ModelError {
            throw error
        } catch {
            throw .malformed("\(error)")
        }
        return try build(raw)
    }

    /// Identifier bytes as text, with non-printable bytes as `\xNN`.
    static func printable(_ bytes: [UInt8]) -> String {
        bytes.map { b in
            (0x20 ..< 0x7F).contains(b) ? String(UnicodeScalar(b)) : "\\x" + (b < 16 ? "0" : "") + String(b, radix: 16)
        }.joined()
    }
}

extension ModelError {
    /// Structural faults are `.malformed`; exceeded verifier limits are `.limitExceeded`.
    init(_ error: FlatBufferError) {
        self = error.isLimit ? .limitExceeded(error.message) : .malformed(error.message)
    }
}
