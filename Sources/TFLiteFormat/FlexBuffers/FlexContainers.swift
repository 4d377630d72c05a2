/// A FlexBuffer vector (untyped, typed or fixed-size typed). Its slots and, for untyped
/// vectors, its per-element type bytes were checked to lie inside the buffer and carry
/// valid type codes when it was opened, so element access does not throw.
package struct FlexVector: Sendable {
    let bytes: [UInt8]
    /// Position of element 0.
    let data: Int
    package let count: Int
    /// Byte width of each slot.
    let width: Int
    /// The element type of a typed vector; nil for untyped vectors and map values.
    let elementType: FlexType?
    let depth: Int
    let path: String

    init(bytes: [UInt8], data: Int, count: Int, width: Int, elementType: FlexType?, depth: Int, path: String)
        throws(FlexBufferError)
    {
        self.bytes = bytes
        self.data = data
        self.count = count
        self.width = width
        self.elementType = elementType
        self.depth = depth
        self.path = path
        if elementType == nil {
            // Validate the type bytes now so that element access cannot fail.
            for i in 0 ..< count {
                let packed = bytes[data + count * width + i]
                guard FlexType(rawValue: packed >> 2) != nil else {
                    throw FlexBufferError(
                        .invalidType,
                        "\(path)[\(i)]: type code \(packed >> 2) (packed byte \(packed)) is not a FlexBuffers type")
                }
            }
        }
    }

    /// Element `index`, or nil when out of range.
    package subscript(index: Int) -> FlexValue? {
        guard index >= 0, index < count else { return nil }
        return element(index, path: "\(path)[\(index)]")
    }

    func element(_ index: Int, path: String) -> FlexValue {
        let slot = data + index * width
        if let elementType {
            // Elements of typed vectors point to data of the vector's own width.
            return FlexValue(
                bytes: bytes, slot: slot, parentWidth: width, childWidth: width, type: elementType, depth: depth,
                path: path)
        }
        let packed = bytes[data + count * width + index]
        // Validated in init, so the type code is known.
        let type = FlexType(rawValue: packed >> 2) ?? .null
        return FlexValue(
            bytes: bytes, slot: slot, parentWidth: width, childWidth: 1 << Int(packed & 3), type: type, depth: depth,
            path: path)
    }

    /// All elements, in order.
    package var elements: [FlexValue] {
        (0 ..< count).map { element($0, path: "\(path)[\($0)]") }
    }

    /// Every element converted with `asInt64()`.
    package func asInt64Array() throws(FlexBufferError) -> [Int64] {
        var result: [Int64] = []
        result.reserveCapacity(count)
        for i in 0 ..< count { result.append(try element(i, path: "\(path)[\(i)]").asInt64()) }
        return result
    }

    /// Every element converted with `asDouble()`.
    package func asDoubleArray() throws(FlexBufferError) -> [Double] {
        var result: [Double] = []
        result.reserveCapacity(count)
        for i in 0 ..< count { result.append(try element(i, path: "\(path)[\(i)]").asDouble()) }
        return result
    }
}

/// A FlexBuffer map: keys (sorted by their bytes in well-formed buffers) and values.
package struct FlexMap: Sendable {
    package let keys: [String]
    /// The values, in key order.
    package let values: FlexVector

    package var count: Int { keys.count }

    /// The value for `key`, or nil when the map has no such key.
    package subscript(key: String) -> FlexValue? {
        guard let index = keys.firstIndex(of: key) else { return nil }
        return values.element(index, path: "\(values.path)[\"\(key)\"]")
    }

    /// Key/value pairs in stored order.
    package var entries: [(key: String, value: FlexValue)] {
        keys.indices.map { (keys[$0], values.element($0, path: "\(values.path)[\"\(keys[$0])\"]")) }
    }
}
