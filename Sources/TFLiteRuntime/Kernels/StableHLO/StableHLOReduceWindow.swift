import TFLiteModel

/// STABLEHLO_REDUCE_WINDOW: StableHLO's `reduce_window` with one operand, as LiteRT runs
/// it (spec/stablehlo.md). The input is first spread by `base_dilations` (`d - 1` copies
/// of the initial value between neighbours) and padded with the initial value by
/// `padding` (a low and a high count per dimension; negative counts crop); then each
/// output element folds one window of that tensor, starting from the initial value, as
/// REDUCE_WINDOW does (``WindowGeometry``).
///
/// Inputs: 0 the tensor (rank 1...6), 1 the initial value (one element of its type). The
/// reduction is the one operator of the body subgraph (``StableHLOComputation``): ADD,
/// MULTIPLY, MAXIMUM, MINIMUM, AND or OR, StableHLO's or TFLite's (AND and OR are logical:
/// 1 or 0). Types: bool, int8, int16, int32, int64, uint8, float32, float64; integers wrap.
enum StableHLOReduceWindow {
    static let reductions: [BuiltinOperator: StableHLOComputation.Operation] = [
        .add: .add, .stablehloAdd: .add, .mul: .multiply, .stablehloMultiply: .multiply, .maximum: .maximum,
        .stablehloMaximum: .maximum, .minimum: .minimum, .stablehloMinimum: .minimum, .logicalAnd: .logicalAnd,
        .stablehloAnd: .logicalAnd, .logicalOr: .logicalOr, .stablehloOr: .logicalOr,
    ]

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        guard case .stablehloReduceWindow(let o) = context.op.options2 else {
            throw .invalid("StablehloReduceWindowOptions are missing")
        }
        let operation = try StableHLOComputation.recognise(
            context, subgraph: o.bodySubgraph, role: "reduction", accepted: reductions, allowsEmpty: false)
        let function: ReduceWindow.Function
        switch operation {
        case .add: function = .add
        case .multiply: function = .mul
        case .maximum: function = .maximum
        case .minimum: function = .minimum
        case .logicalAnd: function = .all
        case .logicalOr, .replace: function = .any
        }
        let input = try context.input(0)
        let initial = try context.input(1)
        let output = try context.output(0)
        guard input.type == output.type, initial.type == input.type, let size = input.type.byteSize,
            let element = ReduceWindow.Element(input.type)
        else { throw context.unsupportedTypes() }
        let rank = input.rank
        guard (1 ... ReduceWindow.maxRank).contains(rank) else {
            throw .invalid("the input must have rank 1...\(ReduceWindow.maxRank), found shape \(input.shape)")
        }
        guard initial.elementCount == 1 else {
            throw .invalid("the initial value (input 1) must hold one element, found shape \(initial.shape)")
        }
        let window = try positive(o.windowDimensions, "window_dimensions", rank: rank, absent: nil)
        let strides = try positive(o.windowStrides, "window_strides", rank: rank, absent: 1)
        let base = try positive(o.baseDilations, "base_dilations", rank: rank, absent: 1)
        let dilations = try positive(o.windowDilations, "window_dilations", rank: rank, absent: 1)
        let padding = try paddingPairs(o.padding, rank: rank)
        var source = input.shape
        var padded: ReduceWindowKernel.PaddedInput?
        if base.contains(where: { $0 != 1 }) || padding.contains(where: { $0 != (0, 0) }) {
            let placement = try PaddedPlacement(
                inputShape: input.shape, low: padding.map(\.low), high: padding.map(\.high),
                interior: base.map { $0 - 1 }, elementSize: size)
            guard placement.outputCount > 0 else {
                throw .invalid(
                    "the padding \(o.padding) and base dilations \(base) leave no element of the input \(input.shape)")
            }
            source = placement.outputShape
            padded = .init(placement: placement, scratch: context.requestScratch(bytes: placement.outputCount * size))
        }
        let geometry = try WindowGeometry(input: source, window: window, strides: strides, dilations: dilations)
        try context.setOutputShape(0, geometry.outputShape)
        context.declareWork([geometry.outputCount, geometry.windowCount])
        return ReduceWindowKernel(
            input: input.index, initial: initial.index, output: output.index, geometry: geometry,
            function: function, element: element, padded: padded)
    }

    /// One value per dimension, each 1...Int32.max; an absent list is all `absent`.
    private static func positive(_ list: [Int64], _ role: String, rank: Int, absent: Int?) throws(KernelError) -> [Int]
    {
        if list.isEmpty, let absent { return [Int](repeating: absent, count: rank) }
        guard list.count == rank else {
            throw .invalid("\(role) has \(list.count) values for an input of rank \(rank)")
        }
        var out: [Int] = []
        for v in list {
            guard v >= 1, v <= Int64(Int32.max) else { throw .invalid("\(role) value \(v) is out of range") }
            out.append(Int(v))
        }
        return out
    }

    /// `padding` as (low, high) per dimension; an absent list is no padding.
    private static func paddingPairs(_ list: [Int64], rank: Int) throws(KernelError) -> [(low: Int, high: Int)] {
        if list.isEmpty { return [(low: Int, high: Int)](repeating: (0, 0), count: rank) }
        guard list.count == 2 * rank else {
            throw .invalid("padding has \(list.count) values; an input of rank \(rank) needs \(2 * rank)")
        }
        var out: [(low: Int, high: Int)] = []
        for d in 0 ..< rank {
            guard let low = Int32(exactly: list[2 * d]), let high = Int32(exactly: list[2 * d + 1]) else {
                throw .invalid("padding \(list[2 * d]), \(list[2 * d + 1]) of dimension \(d) is out of range")
            }
            out.append((Int(low), Int(high)))
        }
        return out
    }
}

extension ReduceWindow.Element {
    init?(_ type: ElementType) {
        switch type {
        case .bool: self = .bool
        case .int8: self = .int8
        case .int16: self = .int16
        case .int32: self = .int32
        case .int64: self = .int64
        case .uint8: self = .uint8
        case .float32: self = .float32
        case .float64: self = .float64
        default: return nil
        }
    }
}
