/// A Swift type whose values are the elements of one ``NPYDType``.
///
/// Conforming types: `Float` (`<f4`), `Double` (`<f8`), `UInt8`, `Int8`, `Int16`,
/// `UInt16`, `Int32`, `UInt32`, `Int64`, `UInt64` and `Bool` (`|b1`).
public protocol NPYScalar: Sendable {
    /// The dtype this type reads and writes.
    static var npyDType: NPYDType { get }
    /// Decodes one element from `npyDType.itemSize` little-endian bytes at `offset`.
    static func npyLoad(from bytes: UnsafeRawBufferPointer, at offset: Int) -> Self
    /// Appends this value's `npyDType.itemSize` little-endian bytes.
    func npyStore(into bytes: inout [UInt8])
}

extension NPYScalar where Self: FixedWidthInteger {
    public static func npyLoad(from bytes: UnsafeRawBufferPointer, at offset: Int) -> Self {
        Self(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Self.self))
    }
    public func npyStore(into bytes: inout [UInt8]) {
        withUnsafeBytes(of: littleEndian) { bytes.append(contentsOf: $0) }
    }
}

extension UInt8: NPYScalar { public static var npyDType: NPYDType { .uint8 } }
extension Int8: NPYScalar { public static var npyDType: NPYDType { .int8 } }
extension Int16: NPYScalar { public static var npyDType: NPYDType { .int16 } }
extension UInt16: NPYScalar { public static var npyDType: NPYDType { .uint16 } }
extension Int32: NPYScalar { public static var npyDType: NPYDType { .int32 } }
extension UInt32: NPYScalar { public static var npyDType: NPYDType { .uint32 } }
extension Int64: NPYScalar { public static var npyDType: NPYDType { .int64 } }
extension UInt64: NPYScalar { public static var npyDType: NPYDType { .uint64 } }

extension Float: NPYScalar {
    public static var npyDType: NPYDType { .float32 }
    public static func npyLoad(from bytes: UnsafeRawBufferPointer, at offset: Int) -> Float {
        Float(bitPattern: UInt32.npyLoad(from: bytes, at: offset))
    }
    public func npyStore(into bytes: inout [UInt8]) { bitPattern.npyStore(into: &bytes) }
}

extension Double: NPYScalar {
    public static var npyDType: NPYDType { .float64 }
    public static func npyLoad(from bytes: UnsafeRawBufferPointer, at offset: Int) -> Double {
        Double(bitPattern: UInt64.npyLoad(from: bytes, at: offset))
    }
    public func npyStore(into bytes: inout [UInt8]) { bitPattern.npyStore(into: &bytes) }
}

extension Bool: NPYScalar {
    public static var npyDType: NPYDType { .bool }
    /// Any non-zero byte is `true`, as in NumPy.
    public static func npyLoad(from bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        bytes[offset] != 0
    }
    public func npyStore(into bytes: inout [UInt8]) { bytes.append(self ? 1 : 0) }
}

extension NPYArray {
    /// Creates an array of `values` in C order with the given shape (defaults to 1-D).
    ///
    /// - Throws: ``NPYError/dataSizeMismatch(expected:actual:)`` when `values.count` is
    ///   not the product of `shape`, or ``NPYError/invalidShape(_:)``.
    public init<T: NPYScalar>(shape: [Int]? = nil, values: [T]) throws(NPYError) {
        var bytes: [UInt8] = []
        let (capacity, overflow) = values.count.multipliedReportingOverflow(by: T.npyDType.itemSize)
        if !overflow { bytes.reserveCapacity(capacity) }
        for v in values { v.npyStore(into: &bytes) }
        try self.init(dtype: T.npyDType, shape: shape ?? [values.count], data: bytes)
    }

    /// The elements as `T`, in C order.
    ///
    /// - Throws: ``NPYError/typeMismatch(expected:actual:)`` unless `dtype == T.npyDType`.
    public func values<T: NPYScalar>(as type: T.Type = T.self) throws(NPYError) -> [T] {
        guard dtype == T.npyDType else { throw .typeMismatch(expected: T.npyDType, actual: dtype) }
        let size = dtype.itemSize
        return data.withUnsafeBytes { raw in
            (0 ..< elementCount).map { T.npyLoad(from: raw, at: $0 * size) }
        }
    }

    /// Every element converted to `Float` (rounded to nearest for wide types; `true` is 1;
    /// the real part of a complex element); empty for a string array.
    public func floatValues() -> [Float] {
        guard !dtype.isString else { return [] }
        let size = dtype.itemSize
        return data.withUnsafeBytes { raw in
            (0 ..< elementCount).map { i in
                let o = i * size
                switch dtype {
                case .float16: return floatFromHalfBits(UInt16.npyLoad(from: raw, at: o))
                case .float32: return Float.npyLoad(from: raw, at: o)
                case .float64: return Float(Double.npyLoad(from: raw, at: o))
                case .uint8: return Float(UInt8.npyLoad(from: raw, at: o))
                case .int8: return Float(Int8.npyLoad(from: raw, at: o))
                case .int16: return Float(Int16.npyLoad(from: raw, at: o))
                case .uint16: return Float(UInt16.npyLoad(from: raw, at: o))
                case .int32: return Float(Int32.npyLoad(from: raw, at: o))
                case .uint32: return Float(UInt32.npyLoad(from: raw, at: o))
                case .int64: return Float(Int64.npyLoad(from: raw, at: o))
                case .uint64: return Float(UInt64.npyLoad(from: raw, at: o))
                case .bool: return Bool.npyLoad(from: raw, at: o) ? 1 : 0
                case .complex64: return Float.npyLoad(from: raw, at: o)
                case .unicode, .bytes: return 0
                }
            }
        }
    }
}

/// Widens IEEE 754 binary16 bits to `Float` exactly (every half value is a float).
///
/// Written by hand because `Float16` is unavailable on macOS/x86_64.
func floatFromHalfBits(_ bits: UInt16) -> Float {
    let sign = UInt32(bits >> 15) << 31
    let exponent = Int(bits >> 10) & 0x1F
    let mantissa = UInt32(bits & 0x3FF)
    switch exponent {
    case 0:
        // Zero or subnormal: mantissa × 2^-24, exact in Float.
        let magnitude = Float(mantissa) * 0x1p-24
        return sign == 0 ? magnitude : -magnitude
    case 0x1F:
        return Float(bitPattern: sign | 0x7F80_0000 | mantissa << 13) // infinity or NaN (payload kept)
    default:
        return Float(bitPattern: sign | UInt32(exponent - 15 + 127) << 23 | mantissa << 13)
    }
}
