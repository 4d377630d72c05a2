import TFLiteModel

/// UNIDIRECTIONAL_SEQUENCE_LSTM (20 or 24 inputs, one output) and the full-kernel LSTM
/// (the same operands, one time step): validation, output shape, and the choice of the
/// float, hybrid or integer kernel by the types of the input and the weights.
enum SequenceLSTM {
    static func prepareUnidirectional(_ context: inout PrepareContext) throws(KernelError) -> any PreparedKernel {
        let options: LSTMOptions
        switch context.op.options {
        case .unidirectionalSequenceLSTM(let o): options = o
        case .none: options = LSTMOptions(activation: .none)
        default: throw .invalid("expected UnidirectionalSequenceLSTMOptions, found \(context.op.options)")
        }
        let input = try context.input(0)
        guard input.rank == 3 || input.rank == 2 else {
            throw .invalid(
                "the input has shape \(input.shape); [time, batch, features] or [batch, time, features] expected")
        }
        let maxTime = input.rank == 2 ? 1 : (options.timeMajor ? input.shape[0] : input.shape[1])
        let nBatch = input.rank == 2 ? input.shape[0] : (options.timeMajor ? input.shape[1] : input.shape[0])
        return try make(&context, options: options, maxTime: maxTime, nBatch: nBatch, allowDiagonal: true)
    }

    /// The full-kernel LSTM: one step on a `[batch, features]` input.
    static func prepareFull(_ context: inout PrepareContext, options: LSTMOptions) throws(KernelError)
        -> any PreparedKernel
    {
        let input = try context.input(0)
        guard input.rank == 2 else { throw .invalid("the input has shape \(input.shape); [batch, features] expected") }
        var o = options
        o.timeMajor = true
        return try make(&context, options: o, maxTime: 1, nBatch: input.shape[0], allowDiagonal: false)
    }

    private static func make(
        _ context: inout PrepareContext, options: LSTMOptions, maxTime: Int, nBatch: Int, allowDiagonal: Bool
    ) throws(KernelError) -> any PreparedKernel {
        guard context.inputCount == 24 || context.inputCount == 20 else {
            throw .invalid("expected 20 or 24 inputs, found \(context.inputCount)")
        }
        guard context.outputCount == 1 else { throw .invalid("expected 1 output, found \(context.outputCount)") }
        guard options.cellClip >= 0, options.projClip >= 0 else {
            throw .invalid("cell_clip (\(options.cellClip)) and proj_clip (\(options.projClip)) must not be negative")
        }
        let input = try context.input(0)
        let nInput = input.shape[input.rank - 1]
        guard maxTime >= 0, nBatch >= 0, nInput > 0 else { throw .invalid("the input shape \(input.shape) is empty") }
        let operands = try LSTMOperands.make(
            context, .full, nBatch: nBatch, nInput: nInput, allowDiagonal: allowDiagonal)
        let rows = try ConvCheck.product([maxTime, nBatch], "LSTM")
        try context.setOutputShape(0, Array(input.shape.dropLast()) + [operands.nOutput])
        let output = try context.output(0)
        declareWork(&context, operands, rows: rows)
        let sequence = LSTMSequence(
            maxTime: maxTime, nBatch: nBatch, timeMajor: options.timeMajor || input.rank == 2, forward: true)
        let weightType = operands.inputWeights[3]?.type ?? .float32
        switch (input.type, weightType) {
        case (.float32, .float32):
            guard output.type == .float32, operands.outputState.type == .float32, operands.cellState.type == .float32
            else { throw context.unsupportedTypes() }
            let direction = try LSTMFloatDirection.make(
                &context, operands, activation: try LSTMFloatMath.Activation(options.activation),
                cellClip: options.cellClip, projClip: options.projClip, rows: rows)
            return LSTMFloatKernel(
                directions: [direction], inputs: [input.index], aux: [nil], outputs: [output.index],
                leadingDims: [operands.nOutput], offsets: [0], sequences: [sequence])
        case (.float32, .int8):
            guard output.type == .float32, operands.outputState.type == .float32, operands.cellState.type == .float32
            else { throw context.unsupportedTypes() }
            let direction = try LSTMHybridDirection.make(&context, operands, options: options, rows: rows)
            return LSTMHybridKernel(
                directions: [direction], inputs: [input.index], aux: [nil], outputs: [output.index],
                leadingDims: [operands.nOutput], offsets: [0], sequences: [sequence])
        case (.int8, .int8):
            if context.op.intermediates.count == 12 {
                throw .types(
                    "the 8x8_8 integer LSTM (12 intermediate tensors) is not supported; its 8x8_16 form (5) is")
            }
            let direction = try LSTMInteger8x8_16.make(
                &context, operands, input: input, output: output, options: options, rows: rows,
                timeMajor: sequence.timeMajor)
            return LSTMIntegerKernel(direction: direction, input: input.index, output: output.index, sequence: sequence)
        default:
            throw context.unsupportedTypes()
        }
    }

    /// Multiply-accumulates per invoke: every row through every gate's input and recurrent
    /// weights, plus the projection.
    static func declareWork(_ context: inout PrepareContext, _ o: LSTMOperands, rows: Int) {
        context.declareWork([rows, o.gates.count, o.nCell, o.nInput + o.nAux + (o.diagonalRecurrent ? 1 : o.nOutput)])
        if o.projection { context.declareWork([rows, o.nOutput, o.nCell]) }
    }
}

/// Runs one or two float directions, each over its sequence, in order.
struct LSTMFloatKernel: PreparedKernel {
    let directions: [LSTMFloatDirection]
    let inputs: [Int]
    let aux: [Int?]
    let outputs: [Int]
    let leadingDims: [Int]
    let offsets: [Int]
    let sequences: [LSTMSequence]

    func eval(_ context: EvalContext) throws(KernelError) {
        for (d, direction) in directions.enumerated() {
            direction.run(
                context, input: inputs[d], aux: aux[d], output: outputs[d], leadingDim: leadingDims[d],
                offset: offsets[d], sequence: sequences[d])
        }
    }
}

/// Runs one or two hybrid directions, each over its sequence, in order.
struct LSTMHybridKernel: PreparedKernel {
    let directions: [LSTMHybridDirection]
    let inputs: [Int]
    let aux: [Int?]
    let outputs: [Int]
    let leadingDims: [Int]
    let offsets: [Int]
    let sequences: [LSTMSequence]

    func eval(_ context: EvalContext) throws(KernelError) {
        for (d, direction) in directions.enumerated() {
            direction.run(
                context, input: inputs[d], aux: aux[d], output: outputs[d], leadingDim: leadingDims[d],
                offset: offsets[d], sequence: sequences[d])
        }
    }
}

/// Runs one integer direction over its sequence.
struct LSTMIntegerKernel: PreparedKernel {
    let direction: LSTMInteger8x8_16
    let input: Int, output: Int
    let sequence: LSTMSequence

    func eval(_ context: EvalContext) throws(KernelError) {
        direction.run(context, input: input, output: output, sequence: sequence)
    }
}
