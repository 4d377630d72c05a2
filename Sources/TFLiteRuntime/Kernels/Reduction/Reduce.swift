import TFLiteModel

/// MEAN, SUM and REDUCE_MAX over the axes given by input 1, a constant int32 tensor
/// (a model constant or a value folded at prepare). Negative axes count from the end;
/// duplicates are allowed. With `keep_dims` reduced dimensions stay as 1, otherwise
/// they are removed.
///
/// Per output element: SUM adds the reduced elements in row-major order from 0, MEAN
/// divides that sum by their count (and is 0 when there are none, as in TFLite), and
/// REDUCE_MAX keeps `acc > x ? acc : x` starting from the lowest finite value.
///
/// Prepare validates the operator, computes the output shape and the
/// ``ReductionGeometry``, and picks the kernel for the element type; float32 kernels
/// are in `+F32`, uint8/int8 MEAN and SUM in `+Q8`.
enum Reduce {
    enum Kind: Sendable {
        case mean, sum, max
    }

    static func prepare(_ kind: Kind) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 2, outputs: 1)
            let input = try context.input(0)
            let axesTensor = try context.input(1)
            let output = try context.output(0)
            guard input.type == output.type, axesTensor.type == .int32 else { throw context.unsupportedTypes() }
            let keepDims: Bool
            switch context.op.options {
            case .reducer(let k): keepDims = k
            case .none: keepDims = false
            default: throw .invalid("unexpected options \(context.op.options)")
            }
            let axes = try normalizedAxes(axesTensor, rank: input.rank)
            let geometry = try ReductionGeometry(shape: input.shape, axes: axes, keepDims: keepDims)
            try context.setOutputShape(0, geometry.outputShape)
            switch input.type {
            case .float32:
                return float32(kind, input: input.index, output: output.index, geometry: geometry)
            case .uint8 where kind != .max:
                return try quantized(
                    UInt8.self, kind, input: input, output: output, geometry: geometry, level: context.kernelLevel)
            case .int8 where kind != .max:
                return try quantized(
                    Int8.self, kind, input: input, output: output, geometry: geometry, level: context.kernelLevel)
            default:
                throw context.unsupportedTypes()
            }
        }
    }

    /// The axes as indices in `0 ..< rank`, in the tensor's order.
    static func normalizedAxes(_ tensor: TensorState, rank: Int) throws(KernelError) -> [Int] {
        guard let constant = tensor.constant else {
            throw .valueNeeded(tensor: tensor.index, "the axes (input 1) are needed at prepare")
        }
        let values = constant.typed(Int32.self)
        guard values.count >= tensor.elementCount else {
            throw .invalid("the axes tensor has \(values.count) values for shape \(tensor.shape)")
        }
        var axes: [Int] = []
        for v in values.prefix(tensor.elementCount) {
            let a = Int(v)
            guard a >= -rank, a < rank else {
                throw .invalid("axis \(a) is out of range for an input of rank \(rank)")
            }
            axes.append(a < 0 ? a + rank : a)
        }
        return axes
    }
}
