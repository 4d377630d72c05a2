import TFLiteModel

/// Bytes of a tensor whose value is known before invoke: a model constant (a view into
/// the file) or a value the runtime computed at prepare (folded, dequantized, densified).
package struct ConstantBytes: @unchecked Sendable {
    // What keeps `bytes` alive: the model's bytes, or a buffer the runtime owns. Two
    // optionals rather than an enum with two payloads: Swift stores such an enum's case in
    // spare bits of the reference, which LeakSanitizer cannot recognize as a pointer, so
    // every live copied constant was reported as leaked (scripts/test-asan.sh).
    private let view: ByteView?
    private let owner: AlignedBuffer?
    /// The bytes; valid as long as this value (or the model) is alive, aligned to at least
    /// the `alignment` they were created with.
    package let bytes: UnsafeRawBufferPointer

    /// Wraps a model constant, copying it only when it is not aligned to `alignment` (a
    /// power of two): kernels read constants through typed pointers of their element type,
    /// and SIMD values with unaligned loads, so the element's natural alignment is all they
    /// need. Converters only guarantee 4 bytes for float data (MobileNet v1 from TF 2.21:
    /// 44 of its 60 buffers are not 16-byte aligned), so asking for more would copy most of
    /// the weights at load.
    package init(view: ByteView, alignment: Int = 16) {
        let raw = view.bytes
        if let base = raw.baseAddress, Int(bitPattern: base) & (Swift.max(alignment, 1) - 1) != 0 {
            let copy = AlignedBuffer(copying: raw)
            self.view = nil
            owner = copy
            bytes = copy.bytes
        } else {
            self.view = view
            owner = nil
            bytes = raw
        }
    }

    package init(owned buffer: AlignedBuffer) {
        view = nil
        owner = buffer
        bytes = buffer.bytes
    }

    /// Lets the system reclaim the resident pages of a constant that a kernel has
    /// consumed at prepare (converted into its own packed form): see
    /// ``ModelBytes/releasePages(_:)``. Only a view into a memory-mapped model file is
    /// affected, and reading it again stays correct; a copy the runtime owns is kept.
    package func releasePages() {
        view?.releasePages()
    }

    /// The bytes as a typed buffer. The caller guarantees the element type matches.
    package func typed<T>(_: T.Type) -> UnsafeBufferPointer<T> {
        let count = bytes.count / MemoryLayout<T>.stride
        guard let base = bytes.baseAddress else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(start: base.assumingMemoryBound(to: T.self), count: count)
    }

    /// A copy of the elements.
    package func array<T>(_: T.Type) -> [T] { Array(typed(T.self)) }
}

/// What the runtime knows about one tensor while preparing a graph.
public struct TensorState: Sendable {
    package enum Storage: Sendable {
        /// Absent optional tensor, or not yet placed.
        case none
        /// Lives in the planned arena (activations, graph inputs and outputs).
        case arena
        /// Known before invoke.
        case constant(ConstantBytes)
    }

    public var index: Int
    public var name: String
    public var type: ElementType
    public var shape: [Int]
    public var quantization: Quantization?
    package var storage: Storage
    public var isVariable: Bool
    /// How a sparse constant's bytes are laid out (nil for dense tensors); DENSIFY reads it.
    /// The tensor's `shape` is the dense shape, its bytes only the stored values.
    package var sparsity: Sparsity?
    /// The file's shape signature (`-1` for a dimension known only at run time), when it
    /// records one.
    package var shapeSignature: [Int]?

    package init(
        index: Int, name: String, type: ElementType, shape: [Int], quantization: Quantization?, storage: Storage,
        isVariable: Bool = false, sparsity: Sparsity? = nil, shapeSignature: [Int]? = nil
    ) {
        self.index = index; self.name = name; self.type = type; self.shape = shape
        self.quantization = quantization; self.storage = storage; self.isVariable = isVariable
        self.sparsity = sparsity; self.shapeSignature = shapeSignature
    }

    /// Whether the file declares every dimension of the tensor (no `-1` in its signature).
    package var hasStaticShape: Bool { !(shapeSignature?.contains { $0 < 0 } ?? false) }

    public var rank: Int { shape.count }

    /// Number of elements; shapes are validated at load or by the producing kernel
    /// so the product does not overflow (`byteCount` checks again).
    public var elementCount: Int { shape.reduce(1, *) }

    /// `elementCount * type.byteSize`, or nil on overflow or for types without a fixed size.
    public var byteCount: Int? {
        guard let size = type.byteSize else { return nil }
        return Shape.byteCount(shape, elementSize: size)
    }

    package var constant: ConstantBytes? {
        if case .constant(let c) = storage { return c }
        return nil
    }

    package var isConstant: Bool { constant != nil }

    /// Per-tensor scale (the first scale), or nil if not quantized.
    package var scale: Float? { quantization?.scales.first }
    /// Per-tensor zero point as Int32, or nil if not quantized.
    package var zeroPoint: Int32? {
        guard let z = quantization?.zeroPoints.first, let v = Int32(exactly: z) else { return nil }
        return v
    }
}

/// Shape arithmetic with overflow checks.
package enum Shape {
    /// Product of `dims`, or nil if any is negative or the product overflows.
    package static func elementCount(_ dims: [Int]) -> Int? {
        var n = 1
        for d in dims {
            guard d >= 0 else { return nil }
            let (p, o) = n.multipliedReportingOverflow(by: d)
            if o { return nil }
            n = p
        }
        return n
    }

    /// `elementCount(dims) * elementSize`, or nil on overflow.
    package static func byteCount(_ dims: [Int], elementSize: Int) -> Int? {
        guard let n = elementCount(dims) else { return nil }
        let (p, o) = n.multipliedReportingOverflow(by: elementSize)
        return o ? nil : p
    }
}
