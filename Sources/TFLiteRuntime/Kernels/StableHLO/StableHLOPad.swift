import TFLiteModel

/// STABLEHLO_PAD: edge padding (negative values crop) and interior padding of a tensor
/// with a padding value, per `StablehloPadOptions` (spec/window-ops.md, ``PaddedPlacement``).
///
/// Inputs: 0 the tensor (any fixed-size type, rank 1...8), 1 the padding value (one
/// element of that type).
enum StableHLOPad {
    static let maxRank = 8

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        guard case .stablehloPad(let low, let high, let interior) = context.op.options2 else {
            throw .invalid("StablehloPadOptions are missing")
        }
        let input = try context.input(0)
        let value = try context.input(1)
        let output = try context.output(0)
        guard input.type == output.type, value.type == input.type, let size = input.type.byteSize else {
            throw context.unsupportedTypes()
        }
        guard (1 ... maxRank).contains(input.rank) else {
            throw .invalid("the input must have rank 1...\(maxRank), found shape \(input.shape)")
        }
        guard value.elementCount == 1 else {
            throw .invalid("the padding value (input 1) must hold one element, found shape \(value.shape)")
        }
        func ints(_ list: [Int64], _ role: String) throws(KernelError) -> [Int] {
            var out: [Int] = []
            for v in list {
                guard let i = Int32(exactly: v) else { throw .invalid("\(role) \(v) is out of range") }
                out.append(Int(i))
            }
            return out
        }
        let placement = try PaddedPlacement(
            inputShape: input.shape, low: try ints(low, "edge_padding_low"), high: try ints(high, "edge_padding_high"),
            interior: try ints(interior, "interior_padding"), elementSize: size)
        try context.setOutputShape(0, placement.outputShape)
        return PaddedPlacementKernel(input: input.index, value: value.index, output: output.index, placement: placement)
    }
}

struct PaddedPlacementKernel: PreparedKernel {
    let input: Int, value: Int, output: Int
    let placement: PaddedPlacement

    func eval(_ context: EvalContext) throws(KernelError) {
        placement.run(
            context, input: UnsafeRawPointer(context.raw(input)), value: UnsafeRawPointer(context.raw(value)),
            output: context.raw(output))
    }
}
