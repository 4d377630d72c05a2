import Foundation
import TensorFlowLite

/// Converts between ``ModelInputs``/``ModelOutputs`` values and tensor bytes.
enum ModelTensorCoding {
    /// The bytes of input `index` in the declared `format`.
    ///
    /// `Data` must have exactly the declared byte count; an array must have the declared
    /// number of elements (any nesting), each exactly representable in the declared type.
    static func encode(_ value: ModelInputValue, format: ModelTensorFormat, index: Int) throws -> Data {
        if format.type == .string {
            guard case .strings(let strings, let shape) = value else {
                if case .data(let data) = value { return data } // TFLite's string layout, checked when copied
                throw MachineLearningErrorCode.invalidArgument.error(
                    "Input \(index) has type string; give an array of String or Data.")
            }
            guard strings.count == format.elementCount else {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "Input \(index) should have \(format.elementCount) elements (dimensions \(format.dimensions)), but found \(strings.count) elements (array shape \(shape))."
                )
            }
            guard let data = Tensor.stringData(strings) else {
                throw MachineLearningErrorCode.invalidArgument.error("Input \(index)'s strings pass 2 GiB.")
            }
            return data
        }
        switch value {
        case .strings:
            throw MachineLearningErrorCode.invalidArgument.error(
                "Input \(index) is an array of strings, but its declared type is \(format.type.name).")
        case .data(let data):
            guard data.count == format.byteCount else {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "Input \(index) should have \(format.byteCount) bytes, but found \(data.count) bytes.")
            }
            return data
        case .numbers(let numbers, let shape):
            guard numbers.count == format.elementCount else {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "Input \(index) should have \(format.elementCount) elements (dimensions \(format.dimensions)), but found \(numbers.count) elements (array shape \(shape))."
                )
            }
            switch format.type {
            case .float32: return try packFloats(numbers, index: index, format: format)
            case .int32: return try pack(numbers, index: index, format: format, Int32.init(exactly:))
            case .uInt8: return try pack(numbers, index: index, format: format, UInt8.init(exactly:))
            case .int64: return try pack(numbers, index: index, format: format, Int64.init(exactly:))
            case .unknown, .string:
                throw MachineLearningErrorCode.invalidArgument.error("Input \(index) has type unknown.")
            }
        }
    }

    /// Packs integers: each number must be exactly representable in `T`.
    private static func pack<T: FixedWidthInteger>(
        _ numbers: [ModelNumber], index: Int, format: ModelTensorFormat, _ convert: (Double) -> T?
    ) throws -> Data {
        var out = [T]()
        out.reserveCapacity(numbers.count)
        for (i, number) in numbers.enumerated() {
            let value: T?
            switch number {
            case .signed(let v): value = T(exactly: v)
            case .unsigned(let v): value = T(exactly: v)
            case .real(let v): value = convert(v)
            }
            guard let value else { throw unrepresentable(number, at: i, index: index, format: format) }
            out.append(T(littleEndian: value))
        }
        return out.withUnsafeBytes { Data($0) }
    }

    /// Packs floats, rounding to the nearest `Float32`; a finite number too large for
    /// `Float32` is an error.
    private static func packFloats(_ numbers: [ModelNumber], index: Int, format: ModelTensorFormat) throws -> Data {
        var out = [Float32]()
        out.reserveCapacity(numbers.count)
        for (i, number) in numbers.enumerated() {
            switch number {
            case .signed(let v): out.append(Float32(v))
            case .unsigned(let v): out.append(Float32(v))
            case .real(let v):
                let rounded = Float32(v)
                guard rounded.isFinite || !v.isFinite else {
                    throw unrepresentable(number, at: i, index: index, format: format)
                }
                out.append(rounded)
            }
        }
        return out.withUnsafeBytes { Data($0) }
    }

    private static func unrepresentable(_ number: ModelNumber, at element: Int, index: Int, format: ModelTensorFormat)
        -> NSError
    {
        MachineLearningErrorCode.invalidArgument.error(
            "Input \(index) element \(element) is \(number.text), which \(format.type.name) cannot represent.")
    }

    // MARK: - Outputs

    /// The tensor bytes `data` as nested arrays of `NSNumber` shaped by `dimensions`: a
    /// `[NSNumber]` for one dimension, `[[NSNumber]]` for two, and so on.
    /// `data` must hold exactly the declared number of elements.
    static func decode(_ data: Data, type: ModelElementType, dimensions: [Int]) -> Any {
        let leaves: [NSNumber]
        switch type {
        case .string:
            // Strings: `String` leaves, `Data` for one that is not UTF-8.
            let strings: [Any] = (Tensor.strings(inStringData: data) ?? []).map { bytes in
                String(validating: bytes, as: UTF8.self).map { $0 as Any } ?? bytes
            }
            return nest(strings[...], dimensions[...])
        case .float32: leaves = load(data, Float32.self) { NSNumber(value: $0) }
        case .int32: leaves = load(data, Int32.self) { NSNumber(value: Int32(littleEndian: $0)) }
        case .uInt8: leaves = load(data, UInt8.self) { NSNumber(value: $0) }
        case .int64: leaves = load(data, Int64.self) { NSNumber(value: Int64(littleEndian: $0)) }
        case .unknown: leaves = []
        }
        return nest(leaves[...], dimensions[...])
    }

    private static func load<T>(_ data: Data, _: T.Type, _ make: (T) -> NSNumber) -> [NSNumber] {
        let count = data.count / MemoryLayout<T>.size
        return data.withUnsafeBytes { raw in
            (0 ..< count).map { make(raw.loadUnaligned(fromByteOffset: $0 * MemoryLayout<T>.size, as: T.self)) }
        }
    }

    private static func nest<Leaf>(_ leaves: ArraySlice<Leaf>, _ dimensions: ArraySlice<Int>) -> Any {
        guard dimensions.count > 1, let outer = dimensions.first else { return Array(leaves) }
        let inner = dimensions.dropFirst()
        let stride = leaves.count / max(outer, 1)
        if inner.count == 1 {
            return (0 ..< outer).map { i -> [Leaf] in
                let start = leaves.startIndex + i * stride
                return Array(leaves[start ..< start + stride])
            }
        }
        return (0 ..< outer).map { i -> Any in
            let start = leaves.startIndex + i * stride
            return nest(leaves[start ..< start + stride], inner)
        }
    }
}
