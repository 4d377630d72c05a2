import TFLiteFormat

extension ModelDecoder {
    /// Validates one tensor and binds its constant data.
    func tensor(_ raw: RawTensor, index: Int, subgraph: Int, buffers: [ByteView?]) throws(ModelError) -> ModelTensor {
        let place = "subgraph \(subgraph), tensor \(index) ('\(raw.name)')"
        let type = ElementType(rawValue: raw.type)

        guard raw.shape.count <= limits.maxRank else {
            throw .limitExceeded("\(place): rank \(raw.shape.count) exceeds the limit of \(limits.maxRank)")
        }
        var shape: [Int] = []
        shape.reserveCapacity(raw.shape.count)
        var elements = 1
        for (d, dim) in raw.shape.enumerated() {
            guard dim >= 0 else { throw .invalidModel("\(place): dimension \(d) of shape \(raw.shape) is negative") }
            let (product, overflow) = elements.multipliedReportingOverflow(by: Int(dim))
            guard !overflow else { throw .limitExceeded("\(place): the element count of shape \(raw.shape) overflows") }
            elements = product
            shape.append(Int(dim))
        }
        let byteSize = type.byteSize ?? 1
        let (bytesNeeded, overflow) = elements.multipliedReportingOverflow(by: byteSize)
        guard !overflow, bytesNeeded <= limits.maxTensorBytes else {
            throw .limitExceeded(
                "\(place): \(type) shape \(raw.shape) needs more than the limit of \(limits.maxTensorBytes) bytes")
        }

        var signature: [Int]?
        if let raw = raw.shapeSignature {
            guard raw.count <= limits.maxRank else {
                throw .limitExceeded(
                    "\(place): shape_signature rank \(raw.count) exceeds the limit of \(limits.maxRank)")
            }
            guard raw.allSatisfy({ $0 >= -1 }) else {
                throw .invalidModel("\(place): shape_signature \(raw) has a dimension below -1")
            }
            signature = raw.map(Int.init)
        }

        let bufferIndex = Int(raw.buffer)
        guard bufferIndex < buffers.count || (bufferIndex == 0 && buffers.isEmpty) else {
            throw .invalidModel("\(place) refers to buffer \(bufferIndex), but the model has \(buffers.count) buffers")
        }
        var data = bufferIndex == 0 ? nil : buffers[bufferIndex]
        // A constant with no elements has an empty buffer (`tf.zeros([0, 3])` starting a
        // loop that grows it): it is still a constant, with nothing to read.
        if data == nil, bufferIndex != 0, elements == 0, !raw.isVariable, type.byteSize != nil {
            data = ByteView(storage: bytes, offset: 0, count: 0)
        }
        if data != nil && raw.isVariable {
            throw .invalidModel("\(place) is a variable but has constant data in buffer \(bufferIndex)")
        }

        let sparsity = try raw.sparsity.map { (s) throws(ModelError) -> Sparsity in
            try self.sparsity(s, rank: shape.count, place: place)
        }
        if let data, sparsity == nil {
            if type == .string {
                try checkStringBuffer(data, elements: elements, place: place, buffer: bufferIndex)
            } else if let size = type.byteSize, data.count != bytesNeeded {
                throw .invalidModel(
                    "\(place): \(type) shape \(shape) needs \(elements) × \(size) = \(bytesNeeded) bytes, but buffer \(bufferIndex) holds \(data.count)"
                )
            }
        }

        let quantization = try raw.quantization.flatMap { (q) throws(ModelError) -> Quantization? in
            try self.quantization(q, shape: shape, place: place)
        }
        return ModelTensor(
            index: index, name: raw.name, type: type, shape: shape, shapeSignature: signature,
            isVariable: raw.isVariable, quantization: quantization, sparsity: sparsity,
            bufferIndex: bufferIndex, constantData: data)
    }

    /// A STRING tensor's buffer: an i32 count `n`, then `n + 1` i32 offsets into the
    /// buffer (the first just past this header, non-decreasing, the last equal to the
    /// buffer size), then the concatenated string bytes.
    func checkStringBuffer(_ data: ByteView, elements: Int, place: String, buffer: Int) throws(ModelError) {
        let raw = data.bytes
        func int32(at position: Int) -> Int {
            Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: Int32.self)))
        }
        guard raw.count >= 4 else {
            throw .invalidModel(
                "\(place): STRING buffer \(buffer) holds \(raw.count) bytes, fewer than its 4-byte count")
        }
        let count = int32(at: 0)
        guard count == elements else {
            throw .invalidModel(
                "\(place): STRING buffer \(buffer) holds \(count) strings, but the shape has \(elements) elements")
        }
        let (header, overflow) = (count + 2).multipliedReportingOverflow(by: 4)
        guard !overflow, header <= raw.count else {
            throw .invalidModel(
                "\(place): STRING buffer \(buffer) is \(raw.count) bytes, too short for the offsets of \(count) strings"
            )
        }
        var previous = header
        for i in 0 ... count {
            let offset = int32(at: 4 + 4 * i)
            let expected = i == 0 ? offset == header : (offset >= previous && offset <= raw.count)
            guard expected else {
                throw .invalidModel(
                    "\(place): STRING buffer \(buffer) offset \(i) is \(offset); offsets must start at \(header), not decrease, and stay within \(raw.count) bytes"
                )
            }
            previous = offset
        }
        guard previous == raw.count else {
            throw .invalidModel(
                "\(place): STRING buffer \(buffer) last offset is \(previous), but the buffer holds \(raw.count) bytes")
        }
    }

    /// Affine quantization, or nil when there is none (no scales).
    func quantization(_ raw: RawQuantization, shape: [Int], place: String) throws(ModelError) -> Quantization? {
        guard raw.detailsType == 0 else {
            throw .invalidModel("\(place) uses quantization details type \(raw.detailsType), which is not supported")
        }
        guard let scales = raw.scale, !scales.isEmpty else { return nil }
        guard let zeroPoints = raw.zeroPoint, zeroPoints.count == scales.count else {
            throw .invalidModel(
                "\(place) has \(scales.count) quantization scales but \(raw.zeroPoint?.count ?? 0) zero points")
        }
        let dimension = Int(raw.quantizedDimension)
        guard dimension >= 0, dimension < max(shape.count, 1) else {
            throw .invalidModel("\(place): quantized_dimension \(dimension) is outside its rank \(shape.count)")
        }
        if scales.count > 1 {
            guard dimension < shape.count, shape[dimension] == scales.count else {
                let size = dimension < shape.count ? "\(shape[dimension])" : "absent"
                throw .invalidModel(
                    "\(place) has \(scales.count) per-axis scales, but dimension \(dimension) of shape \(shape) is \(size)"
                )
            }
        }
        return Quantization(
            scales: scales, zeroPoints: zeroPoints, quantizedDimension: dimension,
            min: raw.min ?? [], max: raw.max ?? [])
    }

    /// Sparse layout: `rank` tensor dimensions plus `blockMap.count` block dimensions,
    /// each traversed once in `traversalOrder`, each with matching metadata.
    func sparsity(_ raw: RawSparsity, rank: Int, place: String) throws(ModelError) -> Sparsity {
        let levels = rank + raw.blockMap.count
        guard raw.traversalOrder.count == levels, raw.dimensions.count == levels else {
            throw .invalidModel(
                "\(place): sparsity has \(raw.traversalOrder.count) traversal entries and \(raw.dimensions.count) dimension metadata, expected \(levels) (rank \(rank) + \(raw.blockMap.count) block dimensions)"
            )
        }
        guard Set(raw.traversalOrder).count == levels, raw.traversalOrder.allSatisfy({ $0 >= 0 && Int($0) < levels })
        else {
            throw .invalidModel(
                "\(place): sparsity traversal_order \(raw.traversalOrder) is not a permutation of 0..<\(levels)")
        }
        guard raw.blockMap.allSatisfy({ $0 >= 0 && Int($0) < rank }) else {
            throw .invalidModel(
                "\(place): sparsity block_map \(raw.blockMap) refers to a dimension outside rank \(rank)")
        }
        var dimensions: [Sparsity.Dimension] = []
        for (i, d) in raw.dimensions.enumerated() {
            switch d.format {
            case 0:
                guard d.denseSize >= 0 else {
                    throw .invalidModel("\(place): sparse dimension \(i) has negative dense_size \(d.denseSize)")
                }
                dimensions.append(
                    Sparsity.Dimension(format: .dense, denseSize: Int(d.denseSize), arraySegments: [], arrayIndices: [])
                )
            case 1:
                guard let segments = d.segments?.values, let indices = d.indices?.values else {
                    throw .invalidModel(
                        "\(place): sparse dimension \(i) is SPARSE_CSR but lacks known array_segments and array_indices"
                    )
                }
                guard segments.allSatisfy({ $0 >= 0 }), indices.allSatisfy({ $0 >= 0 }) else {
                    throw .invalidModel("\(place): sparse dimension \(i) has a negative segment or index")
                }
                dimensions.append(
                    Sparsity.Dimension(
                        format: .sparseCSR, denseSize: Int(d.denseSize), arraySegments: segments, arrayIndices: indices)
                )
            default:
                throw .invalidModel("\(place): sparse dimension \(i) has unknown format \(d.format)")
            }
        }
        return Sparsity(
            traversalOrder: raw.traversalOrder.map(Int.init), blockMap: raw.blockMap.map(Int.init),
            dimensions: dimensions)
    }
}
