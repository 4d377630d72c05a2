import TFLiteModel

/// DILATE: spreads the input's elements `d[k]` apart along each dimension `k` and fills
/// the gaps with a padding value: `y[i] = x[i / d]` where every `i[k] % d[k] == 0`, else
/// `padding_value`; each dimension `s` becomes `(s - 1)·d + 1` (an empty one stays empty).
///
/// Inputs: 0 the tensor (any fixed-size type, rank ≥ 1), 1 the dilations (int32
/// `[rank]`, each ≥ 1; constant, or computed at run time), 2 the padding value (a scalar
/// of the input's type). This is STABLEHLO_PAD's interior padding (``PaddedPlacement``).
enum Dilate {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3, outputs: 1)
        let input = try context.input(0)
        let dilations = try context.input(1)
        let value = try context.input(2)
        let output = try context.output(0)
        guard input.type == output.type, value.type == input.type, let size = input.type.byteSize else {
            throw context.unsupportedTypes()
        }
        guard input.rank >= 1 else { throw .invalid("the input must have rank ≥ 1, found a scalar") }
        guard dilations.type == .int32, dilations.shape == [input.rank] else {
            throw .invalid(
                "dilations (input 1) must be int32 of shape [\(input.rank)], found \(dilations.type) \(dilations.shape)"
            )
        }
        guard value.elementCount == 1 else {
            throw .invalid("the padding value (input 2) must hold one element, found shape \(value.shape)")
        }
        let kernel = DilateKernel(
            input: input.index, dilations: dilations.index, value: value.index, output: output.index,
            inputShape: input.shape, elementSize: size, placement: nil)
        guard let constant = dilations.constant?.array(Int32.self) else { return DilateDynamic(kernel: kernel) }
        let placement = try DilateKernel.placement(input.shape, constant.map(Int.init), size)
        try context.setOutputShape(0, placement.outputShape)
        return DilateKernel(
            input: input.index, dilations: dilations.index, value: value.index, output: output.index,
            inputShape: input.shape, elementSize: size, placement: placement)
    }
}

/// DILATE with the dilations known at prepare (`placement` set) or read at invoke.
struct DilateKernel: PreparedKernel {
    let input: Int, dilations: Int, value: Int, output: Int
    let inputShape: [Int]
    let elementSize: Int
    let placement: PaddedPlacement?

    static func placement(_ shape: [Int], _ factors: [Int], _ size: Int) throws(KernelError) -> PaddedPlacement {
        for (k, d) in factors.enumerated() where d < 1 {
            throw .invalid("dilation \(d) of dimension \(k) must be ≥ 1")
        }
        let zeros = [Int](repeating: 0, count: shape.count)
        return try PaddedPlacement(
            inputShape: shape, low: zeros, high: zeros, interior: factors.map { $0 - 1 }, elementSize: size)
    }

    func resolved(_ context: EvalContext) throws(KernelError) -> PaddedPlacement {
        if let placement { return placement }
        let raw = UnsafeRawPointer(context.raw(dilations))
        let factors = (0 ..< inputShape.count).map { Int(raw.load(fromByteOffset: 4 * $0, as: Int32.self)) }
        return try Self.placement(inputShape, factors, elementSize)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        try resolved(context).run(
            context, input: UnsafeRawPointer(context.raw(input)), value: UnsafeRawPointer(context.raw(value)),
            output: context.raw(output))
    }
}

/// DILATE whose dilations are computed at run time: the output shape depends on them.
struct DilateDynamic: DynamicShapeKernel {
    let kernel: DilateKernel

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        [try kernel.resolved(context).outputShape]
    }

    func eval(_ context: EvalContext) throws(KernelError) { try kernel.eval(context) }
}
