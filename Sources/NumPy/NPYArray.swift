import Foundation

/// An n-dimensional array read from or written to NumPy's `.npy` format.
///
/// The elements are kept as raw little-endian bytes in C (row-major) order; the typed
/// accessors ``values(as:)`` and ``floatValues()`` decode them. Construction validates
/// that `data.count == shape.product * dtype.itemSize`, so every `NPYArray` is consistent.
///
/// ```swift
/// let array = try NPYArray(contentsOf: URL(fileURLWithPath: "input.npy"))
/// let pixels: [Float] = try array.values(as: Float.self)
/// try NPYArray(shape: [1, 10], values: scores).write(to: outputURL)
/// ```
public struct NPYArray: Hashable, Sendable {
    public let dtype: NPYDType
    /// Dimensions in C order; empty for a scalar (which has one element).
    public let shape: [Int]
    /// `elementCount * dtype.itemSize` bytes, little-endian, C order.
    public let data: [UInt8]

    /// Creates an array from raw little-endian bytes.
    ///
    /// - Throws: ``NPYError/invalidShape(_:)`` for a negative dimension or an element
    ///   count or byte size that overflows `Int`; ``NPYError/dataSizeMismatch(expected:actual:)``
    ///   when `data` is not exactly the size the dtype and shape need.
    public init(dtype: NPYDType, shape: [Int], data: [UInt8]) throws(NPYError) {
        let expected = try NPYArray.byteCount(dtype: dtype, shape: shape)
        guard data.count == expected else { throw .dataSizeMismatch(expected: expected, actual: data.count) }
        self.dtype = dtype
        self.shape = shape
        self.data = data
    }

    /// Parses the bytes of a `.npy` file (format 1.0, 2.0 or 3.0).
    public init(bytes: [UInt8]) throws(NPYError) {
        let (header, dataOffset) = try NPYHeader.read(bytes)
        let expected = try NPYArray.byteCount(dtype: header.dtype, shape: header.shape)
        let available = bytes.count - dataOffset
        guard available >= expected else {
            throw .truncated("data is \(available) bytes, but dtype and shape need \(expected)")
        }
        guard available == expected else { throw .dataSizeMismatch(expected: expected, actual: available) }
        try self.init(dtype: header.dtype, shape: header.shape, data: Array(bytes[dataOffset...]))
    }

    /// Reads and parses the `.npy` file at `url`.
    public init(contentsOf url: URL) throws(NPYError) {
        let contents: Data
        do {
            contents = try Data(contentsOf: url)
        } catch {
            throw .cannotRead(path: url.path, reason: Self.reason(error))
        }
        try self.init(bytes: [UInt8](contents))
    }

    /// The number of elements: the product of `shape` (1 for a scalar).
    public var elementCount: Int { shape.reduce(1, *) }

    /// The complete `.npy` file, byte-identical to what `numpy.save` writes for the same
    /// array (format 1.0, or 2.0 when the header needs a 32-bit length).
    public func encoded() -> [UInt8] {
        NPYHeader(dtype: dtype, shape: shape).encodedPreamble() + data
    }

    /// Writes the array to `url` as a `.npy` file, replacing any existing file.
    public func write(to url: URL) throws(NPYError) {
        do {
            try Data(encoded()).write(to: url, options: .atomic)
        } catch {
            throw .cannotWrite(path: url.path, reason: Self.reason(error))
        }
    }

    /// `product(shape) * dtype.itemSize`, with every step checked.
    static func byteCount(dtype: NPYDType, shape: [Int]) throws(NPYError) -> Int {
        var count = 1
        for (axis, dim) in shape.enumerated() {
            guard dim >= 0 else { throw .invalidShape("dimension \(axis) is \(dim)") }
            let (product, overflow) = count.multipliedReportingOverflow(by: dim)
            guard !overflow else { throw .invalidShape("element count of \(shape) overflows") }
            count = product
        }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: dtype.itemSize)
        guard !overflow else { throw .invalidShape("byte size of \(shape) × \(dtype.itemSize) overflows") }
        return bytes
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
