import TFLiteFormat

extension ModelDecoder {
    /// Stage 2: validates the raw tables and assembles the model.
    func build(_ raw: RawModel) throws(ModelError) -> Model {
        guard !raw.subgraphs.isEmpty else { throw .invalidModel("the model has no subgraphs") }
        let buffers = try resolveBuffers(raw.buffers)
        let codes = try operatorCodes(raw.operatorCodes)

        var subgraphs: [Subgraph] = []
        subgraphs.reserveCapacity(raw.subgraphs.count)
        for (s, rawSubgraph) in raw.subgraphs.enumerated() {
            subgraphs.append(try subgraph(rawSubgraph, index: s, codes: codes, buffers: buffers))
        }

        for (i, index) in raw.metadataBuffer.enumerated() {
            guard index >= 0, Int(index) < buffers.count else {
                throw .invalidModel(
                    "metadata_buffer entry \(i) refers to buffer \(index), but the model has \(buffers.count) buffers")
            }
        }
        var metadata: [MetadataEntry] = []
        for (i, entry) in raw.metadata.enumerated() {
            let index = Int(entry.buffer)
            guard index < buffers.count else {
                throw .invalidModel(
                    "metadata \(i) ('\(entry.name)') refers to buffer \(index), but the model has \(buffers.count) buffers"
                )
            }
            metadata.append(MetadataEntry(name: entry.name, bufferIndex: index, data: buffers[index]))
        }

        let signatures = try signatures(raw.signatures, subgraphs: subgraphs)
        return Model(
            bytes: bytes, version: Schema.version, modelDescription: raw.description,
            operatorCodes: codes, subgraphs: subgraphs, signatures: signatures, metadata: metadata)
    }

    /// Maps each buffer to its bytes (nil when empty). Inline `data` wins; otherwise an
    /// `offset` above 1 locates `size` bytes elsewhere in the file.
    func resolveBuffers(_ raw: [RawBuffer]) throws(ModelError) -> [ByteView?] {
        var result: [ByteView?] = []
        result.reserveCapacity(raw.count)
        for (i, buffer) in raw.enumerated() {
            if let range = buffer.dataRange, !range.isEmpty {
                result.append(ByteView(storage: bytes, offset: range.lowerBound, count: range.count))
            } else if buffer.offset > 1 {
                result.append(try externalRange(offset: buffer.offset, size: buffer.size, what: "buffer \(i)"))
            } else {
                result.append(nil)
            }
        }
        if let first = result.first, let sentinel = first {
            throw .invalidModel(
                "buffer 0 must be empty (tensors use it to mean 'no data'), but it holds \(sentinel.count) bytes")
        }
        return result
    }

    /// A view of `size` bytes at file offset `offset`, which must lie inside the file.
    func externalRange(offset: UInt64, size: UInt64, what: String) throws(ModelError) -> ByteView? {
        let (end, overflow) = offset.addingReportingOverflow(size)
        guard !overflow, end <= UInt64(bytes.count),
            let view = ByteView(storage: bytes, offset: Int(offset), count: Int(size))
        else {
            throw .invalidModel(
                "\(what): \(size) bytes at file offset \(offset) run past the end of the \(bytes.count)-byte file")
        }
        return size == 0 ? nil : view
    }

    func operatorCodes(_ raw: [RawOperatorCode]) throws(ModelError) -> [OperatorCode] {
        var result: [OperatorCode] = []
        result.reserveCapacity(raw.count)
        for (i, code) in raw.enumerated() {
            guard code.code >= 0 else {
                throw .invalidModel("operator code \(i) has the negative builtin code \(code.code)")
            }
            let builtin = BuiltinOperator(rawValue: code.code)
            if builtin == .custom && (code.customCode ?? "").isEmpty {
                throw .invalidModel("operator code \(i) is CUSTOM but has no custom_code name")
            }
            result.append(OperatorCode(builtin: builtin, customName: code.customCode, version: Int(code.version)))
        }
        return result
    }

    func signatures(_ raw: [RawSignature], subgraphs: [Subgraph]) throws(ModelError) -> [Signature] {
        var result: [Signature] = []
        for (i, signature) in raw.enumerated() {
            let s = Int(signature.subgraphIndex)
            let place = "signature \(i) ('\(signature.key)')"
            guard s < subgraphs.count else {
                throw .invalidModel("\(place) refers to subgraph \(s), but the model has \(subgraphs.count) subgraphs")
            }
            let tensorCount = subgraphs[s].tensors.count
            func names(_ maps: [RawTensorMap], _ role: String) throws(ModelError) -> [Signature.TensorName] {
                var names: [Signature.TensorName] = []
                for (j, map) in maps.enumerated() {
                    guard Int(map.tensorIndex) < tensorCount else {
                        throw .invalidModel(
                            "\(place) \(role) \(j) ('\(map.name)') refers to tensor \(map.tensorIndex), but subgraph \(s) has \(tensorCount) tensors"
                        )
                    }
                    names.append(Signature.TensorName(name: map.name, tensorIndex: Int(map.tensorIndex)))
                }
                return names
            }
            result.append(
                Signature(
                    key: signature.key, subgraphIndex: s,
                    inputs: try names(signature.inputs, "input"), outputs: try names(signature.outputs, "output")))
        }
        return result
    }
}
