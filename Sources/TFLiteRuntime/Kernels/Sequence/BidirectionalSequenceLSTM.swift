import TFLiteModel

/// BIDIRECTIONAL_SEQUENCE_LSTM (48 inputs): a forward and a backward LSTM direction over
/// the same sequence, each with its own weights and variable states. The backward
/// direction visits the times last to first. With `merge_outputs` both write the single
/// output `[.., nOutputFw + nOutputBw]` (forward first); otherwise each has its own.
///
/// Auxiliary input (input 39): with aux weights ("stacking") both directions add
/// `W_aux·aux` to their gates; without them ("non-stacking") the backward direction
/// reads the aux input in place of the input.
enum BidirectionalSequenceLSTM {
    static func prepare(_ context: inout PrepareContext) throws(KernelError) -> any PreparedKernel {
        let options: LSTMOptions
        switch context.op.options {
        case .bidirectionalSequenceLSTM(let o): options = o
        // TFLite keeps zeroed parameters when the table is absent: batch-major, no merge.
        case .none: options = LSTMOptions(activation: .none)
        default: throw .invalid("expected BidirectionalSequenceLSTMOptions, found \(context.op.options)")
        }
        guard context.inputCount == 48 else { throw .invalid("expected 48 inputs, found \(context.inputCount)") }
        let outputCount = options.mergeOutputs ? 1 : 2
        guard context.outputCount == outputCount else {
            throw .invalid(
                "expected \(outputCount) outputs with merge_outputs \(options.mergeOutputs), found \(context.outputCount)"
            )
        }
        guard options.cellClip >= 0, options.projClip >= 0 else {
            throw .invalid("cell_clip (\(options.cellClip)) and proj_clip (\(options.projClip)) must not be negative")
        }
        let input = try context.input(0)
        guard input.rank == 3 else {
            throw .invalid(
                "the input has shape \(input.shape); [time, batch, features] or [batch, time, features] expected")
        }
        let maxTime = options.timeMajor ? input.shape[0] : input.shape[1]
        let nBatch = options.timeMajor ? input.shape[1] : input.shape[0]
        let nInput = input.shape[2]
        guard nInput > 0 else { throw .invalid("the input shape \(input.shape) has no features") }
        let aux = context.optionalInput(39)
        let stacking = context.optionalInput(41) != nil
        var nAux = 0
        if let aux {
            guard aux.rank == 3, aux.shape[0] == input.shape[0], aux.shape[1] == input.shape[1] else {
                throw .invalid(
                    "the aux input has shape \(aux.shape); its first two dimensions must match the input's \(input.shape)"
                )
            }
            if stacking {
                nAux = aux.shape[2]
            } else {
                guard aux.shape[2] == nInput else {
                    throw .invalid(
                        "without aux weights the aux input feeds the backward direction and must have shape \(input.shape)"
                    )
                }
            }
        } else if stacking {
            throw .invalid("aux input weights are given without an aux input")
        }
        let forward = try LSTMOperands.make(context, .forward, nBatch: nBatch, nInput: nInput, nAux: nAux)
        let backward = try LSTMOperands.make(context, .backward, nBatch: nBatch, nInput: nInput, nAux: nAux)
        let rows = try ConvCheck.product([maxTime, nBatch], "LSTM")
        let base = Array(input.shape.dropLast())
        if options.mergeOutputs {
            let (width, overflow) = forward.nOutput.addingReportingOverflow(backward.nOutput)
            guard !overflow else { throw .invalid("output width overflows") }
            try context.setOutputShape(0, base + [width])
        } else {
            try context.setOutputShape(0, base + [forward.nOutput])
            try context.setOutputShape(1, base + [backward.nOutput])
        }
        SequenceLSTM.declareWork(&context, forward, rows: rows)
        SequenceLSTM.declareWork(&context, backward, rows: rows)
        let outputs = [try context.outputIndex(0), try context.outputIndex(options.mergeOutputs ? 0 : 1)]
        let leading =
            options.mergeOutputs
            ? [forward.nOutput + backward.nOutput, forward.nOutput + backward.nOutput]
            : [forward.nOutput, backward.nOutput]
        let offsets = [0, options.mergeOutputs ? forward.nOutput : 0]
        let sequences = [true, false].map {
            LSTMSequence(maxTime: maxTime, nBatch: nBatch, timeMajor: options.timeMajor, forward: $0)
        }
        let inputs = [input.index, (aux != nil && !stacking) ? (aux?.index ?? input.index) : input.index]
        let auxInputs: [Int?] = stacking ? [aux?.index, aux?.index] : [nil, nil]
        let weightType = forward.inputWeights[3]?.type ?? .float32
        for t in outputs where context.tensors[t].type != .float32 { throw context.unsupportedTypes() }
        switch (input.type, weightType) {
        case (.float32, .float32):
            let activation = try LSTMFloatMath.Activation(options.activation)
            var directions: [LSTMFloatDirection] = []
            for o in [forward, backward] {
                guard o.outputState.type == .float32, o.cellState.type == .float32 else {
                    throw context.unsupportedTypes()
                }
                directions.append(
                    try LSTMFloatDirection.make(
                        &context, o, activation: activation, cellClip: options.cellClip, projClip: options.projClip,
                        rows: rows))
            }
            return LSTMFloatKernel(
                directions: directions, inputs: inputs, aux: auxInputs, outputs: outputs, leadingDims: leading,
                offsets: offsets, sequences: sequences)
        case (.float32, .int8):
            var directions: [LSTMHybridDirection] = []
            for o in [forward, backward] {
                guard o.outputState.type == .float32, o.cellState.type == .float32 else {
                    throw context.unsupportedTypes()
                }
                directions.append(try LSTMHybridDirection.make(&context, o, options: options, rows: rows))
            }
            return LSTMHybridKernel(
                directions: directions, inputs: inputs, aux: auxInputs, outputs: outputs, leadingDims: leading,
                offsets: offsets, sequences: sequences)
        default:
            throw context.unsupportedTypes()
        }
    }
}
