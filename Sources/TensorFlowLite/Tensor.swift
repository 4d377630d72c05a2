import Foundation
import TFLiteModel

/// An input or output tensor of an ``Interpreter``: a snapshot of its name, type, shape,
/// bytes and quantization at the moment it was read.
public struct Tensor: Equatable, Hashable, Sendable {
    /// The name of the tensor.
    public let name: String
    /// The data type of the tensor.
    public let dataType: DataType
    /// The shape of the tensor.
    public let shape: Shape
    /// A copy of the tensor's bytes (little-endian, row-major).
    public let data: Data
    /// The quantization parameters, present when the tensor is quantized with a non-zero scale.
    public let quantizationParameters: QuantizationParameters?

    init(
        name: String, dataType: DataType, shape: Shape, data: Data,
        quantizationParameters: QuantizationParameters? = nil
    ) {
        self.name = name
        self.dataType = dataType
        self.shape = shape
        self.data = data
        self.quantizationParameters = quantizationParameters
    }
}

extension Tensor {
    /// The element type of a tensor.
    ///
    /// `int8` is an addition to TensorFlowLiteSwift's cases (whose absence makes fully
    /// int8-quantized models unusable there), and so are `complex64` and `string`.
    public enum DataType: Equatable, Hashable, Sendable {
        case bool
        case uInt8
        case int8
        case int16
        case int32
        case int64
        case float16
        case float32
        case float64
        /// Complex numbers stored as two float32 values each, real part first (TFLite's
        /// `COMPLEX64`, the output of RFFT2D).
        case complex64
        /// Byte strings, one per element (TFLite's `STRING`). A string tensor's `data` is
        /// TFLite's layout of them: an `Int32` count `n`, `n + 1` `Int32` offsets, then the
        /// bytes. Read them with `[String](tensor)` or `[Data](tensor)`, write them with
        /// `Interpreter.copy(_:toInputAt:)` (an array of `String` or `Data`).
        case string

        init?(_ type: ElementType) {
            switch type {
            case .bool: self = .bool
            case .uint8: self = .uInt8
            case .int8: self = .int8
            case .int16: self = .int16
            case .int32: self = .int32
            case .int64: self = .int64
            case .float16: self = .float16
            case .float32: self = .float32
            case .float64: self = .float64
            case .complex64: self = .complex64
            case .string: self = .string
            default: return nil
            }
        }

        /// Size of one element in bytes (0 for ``string``, whose elements have no fixed size).
        public var byteSize: Int {
            switch self {
            case .string: return 0
            case .bool, .uInt8, .int8: return 1
            case .int16, .float16: return 2
            case .int32, .float32: return 4
            case .int64, .float64, .complex64: return 8
            }
        }
    }

    /// The shape of a tensor.
    public struct Shape: Equatable, Hashable, Sendable {
        /// The number of dimensions.
        public let rank: Int
        /// The dimensions.
        public let dimensions: [Int]

        public init(_ dimensions: [Int]) {
            self.rank = dimensions.count
            self.dimensions = dimensions
        }

        public init(_ elements: Int...) {
            self.init(elements)
        }
    }
}

extension Tensor.Shape: ExpressibleByArrayLiteral {
    public init(arrayLiteral: Int...) {
        self.init(arrayLiteral)
    }
}

/// Affine quantization: `realValue = scale * (quantizedValue - zeroPoint)`.
///
/// `scales`, `zeroPoints` and `quantizedDimension` are additions that describe per-axis
/// quantization; for per-tensor quantization they hold the single `scale`/`zeroPoint`.
public struct QuantizationParameters: Equatable, Hashable, Sendable {
    /// The (first) scale.
    public let scale: Float
    /// The (first) zero point.
    public let zeroPoint: Int
    /// One scale per slice of `quantizedDimension` (a single element when per-tensor).
    public let scales: [Float]
    /// One zero point per slice of `quantizedDimension`.
    public let zeroPoints: [Int]
    /// The dimension the per-axis parameters run along (0 when per-tensor).
    public let quantizedDimension: Int

    init(scale: Float, zeroPoint: Int) {
        self.init(scales: [scale], zeroPoints: [zeroPoint], quantizedDimension: 0)
    }

    init(scales: [Float], zeroPoints: [Int], quantizedDimension: Int) {
        self.scale = scales.first ?? 0
        self.zeroPoint = zeroPoints.first ?? 0
        self.scales = scales
        self.zeroPoints = zeroPoints
        self.quantizedDimension = quantizedDimension
    }

    init?(_ q: Quantization?) {
        guard let q, let first = q.scales.first, first != 0 else { return nil }
        self.init(scales: q.scales, zeroPoints: q.zeroPoints.map { Int($0) }, quantizedDimension: q.quantizedDimension)
    }

    /// Whether there is one scale per slice of `quantizedDimension`.
    public var isPerAxis: Bool { scales.count > 1 }
}
