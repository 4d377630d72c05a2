/// Affine quantization of a tensor: `real = scale * (quantized - zeroPoint)`.
///
/// Per-tensor quantization has one scale and zero point; per-axis quantization has one
/// of each per slice along `quantizedDimension`. Validation at load guarantees
/// `scales.count == zeroPoints.count`, that `quantizedDimension` is inside the tensor's
/// rank, and that a per-axis count equals that dimension's size.
public struct Quantization: Hashable, Sendable {
    public var scales: [Float]
    public var zeroPoints: [Int64]
    public var quantizedDimension: Int
    /// Calibration ranges recorded by the converter (informational; not used to compute).
    public var min: [Float]
    public var max: [Float]

    public init(scales: [Float], zeroPoints: [Int64], quantizedDimension: Int = 0, min: [Float] = [], max: [Float] = [])
    {
        self.scales = scales
        self.zeroPoints = zeroPoints
        self.quantizedDimension = quantizedDimension
        self.min = min
        self.max = max
    }

    /// True when there is more than one scale (one per slice of `quantizedDimension`).
    public var isPerAxis: Bool { scales.count > 1 }
}

/// Sparse storage of a constant tensor (TFLite's `SparsityParameters`).
public struct Sparsity: Hashable, Sendable {
    public enum Format: Hashable, Sendable { case dense, sparseCSR }

    /// One level of the sparse traversal.
    public struct Dimension: Hashable, Sendable {
        public var format: Format
        /// Size of a dense level.
        public var denseSize: Int
        /// CSR row pointers of a sparse level.
        public var arraySegments: [Int]
        /// CSR column indices of a sparse level.
        public var arrayIndices: [Int]
        public init(format: Format, denseSize: Int, arraySegments: [Int], arrayIndices: [Int]) {
            self.format = format
            self.denseSize = denseSize
            self.arraySegments = arraySegments
            self.arrayIndices = arrayIndices
        }
    }

    public var traversalOrder: [Int]
    public var blockMap: [Int]
    public var dimensions: [Dimension]

    public init(traversalOrder: [Int], blockMap: [Int], dimensions: [Dimension]) {
        self.traversalOrder = traversalOrder
        self.blockMap = blockMap
        self.dimensions = dimensions
    }
}
