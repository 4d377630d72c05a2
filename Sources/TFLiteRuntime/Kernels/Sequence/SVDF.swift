import TFLiteModel

/// SVDF: a fully connected layer over a window of the last `memory` inputs, factored into
/// `rank` feature filters per output unit and a time filter per feature filter
/// (spec/recurrent-ops.md, "SVDF"). Per invoke, for each batch row:
///
/// 1. the state (`[batch, filters·memory]`, filter-major, a variable tensor) moves one
///    step back: each filter's window drops its oldest value;
/// 2. `s[f] = W_feature[f]·x` becomes the newest value of filter `f`'s window;
/// 3. `t[f] = Σ_m state[f, m]·W_time[f, m]`;
/// 4. `y[u] = act(Σ_{r < rank} t[u·rank + r] + bias[u])`.
///
/// Inputs: 0 input `[batch, inputSize]`, 1 feature weights `[filters, inputSize]`, 2 time
/// weights `[filters, memory]`, 3 optional bias `[units]`, 4 state. Output `[batch, units]`,
/// `units = filters / rank`.
///
/// Three dtype paths, LiteRT's: float32 (``SVDFF32Kernel``); hybrid, float activations
/// and state with int8 weights (``SVDFHybridKernel``); and integer, int8 input and output
/// with int16 time weights and state (``SVDFS8Kernel``).
enum SVDF {
    /// The validated sizes of an SVDF operator.
    struct Geometry: Sendable {
        let batch: Int, inputSize: Int, filters: Int, memory: Int, rank: Int
        var units: Int { filters / rank }
    }

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 5, outputs: 1)
        let options: SVDFOptions
        switch context.op.options {
        case .svdf(let o): options = o
        case .none: options = SVDFOptions(rank: 0, activation: .none) // LiteRT's zeroed parameters
        default: throw .invalid("expected SVDFOptions, found \(context.op.options)")
        }
        let input = try context.input(0)
        let feature = try context.input(1)
        let time = try context.input(2)
        let bias = context.optionalInput(3)
        let state = try context.input(4)
        let output = try context.output(0)
        guard options.rank >= 1 else { throw .invalid("rank must be at least 1, found \(options.rank)") }
        guard input.rank == 2 else { throw .invalid("input must have rank 2, found shape \(input.shape)") }
        guard feature.rank == 2, feature.shape[1] == input.shape[1] else {
            throw .invalid("feature weights must be [filters, \(input.shape[1])], found \(feature.shape)")
        }
        let g = Geometry(
            batch: input.shape[0], inputSize: input.shape[1], filters: feature.shape[0],
            memory: time.rank == 2 ? time.shape[1] : 0, rank: options.rank)
        guard g.filters % g.rank == 0 else {
            throw .invalid("rank \(g.rank) does not divide the \(g.filters) feature filters")
        }
        guard time.rank == 2, time.shape[0] == g.filters, g.memory >= 1 else {
            throw .invalid("time weights must be [\(g.filters), memory] with memory at least 1, found \(time.shape)")
        }
        if let bias, bias.shape != [g.units] {
            throw .invalid("bias must be [\(g.units)], found \(bias.shape)")
        }
        guard state.isVariable else { throw .invalid("state (tensor \(state.index)) must be a variable tensor") }
        let window = try ConvCheck.product([g.memory, g.filters], "SVDF")
        guard state.shape == [g.batch, window] else {
            throw .invalid(
                "state must be [\(g.batch), \(window)] (memory \(g.memory) x \(g.filters) filters), found \(state.shape)"
            )
        }
        try RecurrentCheck.stateIsOwnTensor(context, states: [state.index])
        try RecurrentCheck.dense([input, feature, time, bias])
        try context.setOutputShape(0, [g.batch, g.units])
        context.declareWork([
            g.batch, g.filters, try RecurrentCheck.sum([g.inputSize, g.memory], "SVDF"),
        ])
        let tensors = Tensors(
            input: input, feature: feature, time: time, bias: bias, state: state, output: output)
        switch (input.type, feature.type) {
        case (.float32, .float32):
            return try SVDFF32Kernel(&context, tensors, g, activation: try RecurrentActivation(options.activation))
        case (.float32, .int8):
            return try SVDFHybridKernel(
                &context, tensors, g, activation: try RecurrentActivation(options.activation),
                asymmetric: options.asymmetricQuantizeInputs)
        case (.int8, .int8):
            return try SVDFS8Kernel(&context, tensors, g, activation: options.activation)
        default:
            throw context.unsupportedTypes()
        }
    }

    /// The operator's tensors, for the dtype paths' prepare.
    struct Tensors {
        let input: TensorState, feature: TensorState, time: TensorState, bias: TensorState?
        let state: TensorState, output: TensorState

        /// Requires the types of the bias (when present), state, time weights and output.
        func expect(
            _ context: PrepareContext, time t: ElementType, bias b: ElementType, state s: ElementType,
            output o: ElementType
        ) throws(KernelError) {
            guard time.type == t, bias.map({ $0.type == b }) ?? true, state.type == s, output.type == o else {
                throw context.unsupportedTypes()
            }
        }
    }
}
