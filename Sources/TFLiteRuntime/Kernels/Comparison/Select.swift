import TFLiteModel

/// SELECT and SELECT_V2: `y = condition ? x : y` elementwise, condition bool, `x`, `y`
/// and the output of one type (codes are copied, so quantized tensors keep their codes).
///
/// - SELECT: all three of one shape, or a condition that is a scalar (picks all of `x`
///   or all of `y`) or of rank 1 with `x`'s first dimension (picks rows).
/// - SELECT_V2: the three shapes broadcast together as NumPy does.
///
/// Both become one strided loop: per output dimension, each operand's stride is 0 where
/// it is repeated.
enum Select {
    static func prepare(broadcasting: Bool) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 3, outputs: 1)
            let condition = try context.input(0)
            let x = try context.input(1)
            let y = try context.input(2)
            let output = try context.output(0)
            guard condition.type == .bool, x.type == y.type, x.type == output.type,
                let width = x.type.byteSize, [1, 2, 4, 8].contains(width)
            else {
                throw context.unsupportedTypes()
            }
            switch context.op.options {
            case .none, .empty: break
            default: throw .invalid("unexpected options \(context.op.options)")
            }
            let shape: [Int]
            var conditionShape = condition.shape
            if broadcasting {
                shape = try Broadcast.shape(condition.shape, try Broadcast.shape(x.shape, y.shape))
            } else {
                guard x.shape == y.shape else { throw .invalid("x \(x.shape) and y \(y.shape) must have one shape") }
                shape = x.shape
                if condition.shape != x.shape {
                    if condition.rank == 1, x.rank >= 1, condition.shape[0] == x.shape[0] {
                        // One condition per row: as if its shape were [n, 1, 1, ...].
                        conditionShape = condition.shape + [Int](repeating: 1, count: x.rank - 1)
                    } else if condition.rank != 0 {
                        throw .invalid(
                            "condition \(condition.shape) must be a scalar, have x's shape \(x.shape), or be rank 1 with x's first dimension"
                        )
                    }
                }
            }
            try context.setOutputShape(0, shape)
            let geometry = try StridedGeometry(output: shape, operands: [conditionShape, x.shape, y.shape])
            return SelectKernel(
                width: width, condition: condition.index, x: x.index, y: y.index,
                output: output.index, geometry: geometry)
        }
    }
}

/// Strides of several operands over an output shape (rank ≤ ``Broadcast/maxRank``), each
/// operand aligned at its last dimension and read with stride 0 where its size is 1.
struct StridedGeometry: Sendable {
    /// Output dimensions, outermost first (at least one).
    let dims: [Int]
    /// `strides[k][d]`: element stride of operand `k` along output dimension `d`.
    let strides: [[Int]]
    let elementCount: Int

    init(output: [Int], operands: [[Int]]) throws(KernelError) {
        guard output.count <= Broadcast.maxRank else {
            throw .invalid("rank \(output.count) is above the supported \(Broadcast.maxRank)")
        }
        guard let count = Shape.elementCount(output) else { throw .invalid("shape \(output) is too large") }
        dims = output.isEmpty ? [1] : output
        elementCount = count
        var all: [[Int]] = []
        for shape in operands {
            guard shape.count <= dims.count || (output.isEmpty && shape.allSatisfy { $0 == 1 }) else {
                throw .invalid("shape \(shape) does not broadcast to \(output)")
            }
            var strides = [Int](repeating: 0, count: dims.count)
            var step = 1
            for d in stride(from: dims.count - 1, through: 0, by: -1) {
                let k = d - (dims.count - shape.count)
                let size = k >= 0 ? shape[k] : 1
                guard size == dims[d] || size == 1 else {
                    throw .invalid("shape \(shape) does not broadcast to \(output)")
                }
                if size != 1 { strides[d] = step }
                step *= size // bounded by the operand's own element count
            }
            all.append(strides)
        }
        strides = all
    }
}

struct SelectKernel: PreparedKernel {
    /// Bytes per element of `x`, `y` and the output.
    let width: Int
    let condition: Int
    let x: Int
    let y: Int
    let output: Int
    let geometry: StridedGeometry

    func eval(_ context: EvalContext) throws(KernelError) {
        switch width {
        case 1: select(context, UInt8.self)
        case 2: select(context, UInt16.self)
        case 4: select(context, UInt32.self)
        default: select(context, UInt64.self)
        }
    }

    @inline(__always)
    private func select<T>(_ context: EvalContext, _: T.Type) {
        let pc = UnsafePointer(context.pointer(condition, as: UInt8.self))
        let px = UnsafePointer(context.pointer(x, as: T.self))
        let py = UnsafePointer(context.pointer(y, as: T.self))
        let out = context.pointer(output, as: T.self)
        let g = geometry
        guard g.elementCount > 0 else { return }
        let inner = g.dims.count - 1
        let n = g.dims[inner]
        let (sc, sx, sy) = (g.strides[0][inner], g.strides[1][inner], g.strides[2][inner])
        context.parallel.forEachChunk(g.elementCount / n, minimumChunk: Swift.max(1, (1 << 14) / n)) { rows in
            for row in rows {
                // Operand offsets of this row from its outer index.
                var rest = row, oc = 0, ox = 0, oy = 0
                for d in stride(from: inner - 1, through: 0, by: -1) {
                    let i = rest % g.dims[d]
                    rest /= g.dims[d]
                    oc += i * g.strides[0][d]; ox += i * g.strides[1][d]; oy += i * g.strides[2][d]
                }
                let o = row * n
                for k in 0 ..< n {
                    out[o + k] = pc[oc + k * sc] != 0 ? px[ox + k * sx] : py[oy + k * sy]
                }
            }
        }
    }
}
