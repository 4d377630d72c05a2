import TFLiteModel

/// One direction of the integer LSTM: int8 input and output state, int16 cell state,
/// int8 weights, int32 biases, int16 peepholes and layer-norm coefficients
/// (spec/sequence-ops.md, "Integer LSTM"). Bit-exact with TFLite's 8x8_16 kernel.
///
/// Each gate is `sat16(MBQM(b_x + Σ x·W_x) + MBQM(b_h + Σ h·W_h))` with the zero points
/// folded into the effective biases `b_x = bias - z_x·ΣW_x`, `b_h = -z_h·ΣW_h` at prepare
/// (the gate bias moves to the layer norm when there is one). The input products of all
/// rows are computed first; the recurrent ones per step through ``LSTMInt8Product``.
struct LSTMInteger8x8_16: Sendable {
    let nInput: Int, nCell: Int, nOutput: Int, nBatch: Int
    let gateList: [Int]
    let parameters: LSTMIntegerParameters
    let inputWeights: PackedBuffer, recurrentWeights: PackedBuffer
    let projectionWeights: Int?
    /// Effective biases, `[G·nCell]` each, and the projection's `[nOutput]`.
    let inputBias: [Int32], recurrentBias: [Int32], projectionBias: [Int32]
    /// Gate biases for the layer norm, by gate.
    let layerNormBias: [Int?], layerNorm: [Int?], peepholes: [Int?]
    let outputState: Int, cellState: Int
    let product: LSTMInt8Product
    /// Rows that TFLite processes in one call (all batch rows when time-major, one row
    /// otherwise): its peephole term walks the flattened rows with a stride of `nOutput`.
    let peepholeGroup: Int
    let rows: Int
    /// The gates' σ and tanh (Q3 in), and the cell's tanh (nil when its integer bits are
    /// outside TFLite's 0 ... 6), as tables of every code.
    let logistic: [Int16], gateTanh: [Int16], cellTanh: [Int16]?
    /// Scratch: input sums of every row, a widened row, the recurrent sums, the gates
    /// (`[4][nBatch·nCell]` Int16), the hidden row codes, the cell's tanh.
    let inputSums: Int, widened: Int, recurrentSums: Int, gateBuffer: Int, hidden: Int, cellSquash: Int

    static func make(
        _ context: inout PrepareContext, _ o: LSTMOperands, input: TensorState, output: TensorState,
        options: LSTMOptions, rows: Int, timeMajor: Bool
    ) throws(KernelError) -> LSTMInteger8x8_16 {
        guard !o.diagonalRecurrent else { throw .types("diagonal recurrent weights in an integer LSTM") }
        guard output.type == .int8, o.outputState.type == .int8, o.cellState.type == .int16 else {
            throw .types("an int8 LSTM needs an int8 output and output state and an int16 cell state")
        }
        for w in o.weightTensors where w.type != .int8 {
            throw .types("int8 LSTM with \(w.type) weights (tensor \(w.index))")
        }
        for b in o.biases.compactMap({ $0 }) + [o.projectionBias].compactMap({ $0 }) where b.type != .int32 {
            throw .types("int8 LSTM with a \(b.type) bias (tensor \(b.index))")
        }
        for t in (o.peepholes + o.layerNorm).compactMap({ $0 }) where t.type != .int16 {
            throw .types("int8 LSTM with a \(t.type) peephole or layer norm tensor (tensor \(t.index))")
        }
        if o.peephole, o.nOutput > o.nCell {
            // TFLite's integer peephole walks the cell state with a stride of nOutput.
            throw .invalid(
                "an integer LSTM with peepholes needs no more outputs (\(o.nOutput)) than cells (\(o.nCell))")
        }
        let p = try LSTMIntegerParameters.make(context, o, input: input, output: output, options: options)
        let gateList = o.gates
        let width = gateList.count * o.nCell
        let zx = input.zeroPoint ?? 0, zh = p.outputStateZeroPoint
        var inputBias: [Int32] = [], recurrentBias: [Int32] = []
        for g in gateList {
            let bias = o.layerNormalized ? nil : o.biases[g]
            inputBias += try effectiveBias(
                o.inputWeights[g], rows: o.nCell, depth: o.nInput, zeroPoint: -zx, bias: bias)
            recurrentBias += try effectiveBias(
                o.recurrentWeights[g], rows: o.nCell, depth: o.nOutput, zeroPoint: -zh, bias: nil)
        }
        let projectionBias =
            o.projection
            ? try effectiveBias(
                o.projectionWeights, rows: o.nOutput, depth: o.nCell, zeroPoint: p.hiddenZeroPoint,
                bias: o.projectionBias) : []
        let inputWeights = try LSTMPacking.stacked(
            context, gateList.compactMap { o.inputWeights[$0] },
            count: try ConvCheck.product([o.nCell, o.nInput], "LSTM"), as: Int8.self)
        let recurrentWeights = try LSTMPacking.stacked(
            context, gateList.compactMap { o.recurrentWeights[$0] },
            count: try ConvCheck.product([o.nCell, o.nOutput], "LSTM"), as: Int8.self)
        let widest = Swift.max(o.nInput, o.nOutput, o.nCell)
        return LSTMInteger8x8_16(
            nInput: o.nInput, nCell: o.nCell, nOutput: o.nOutput, nBatch: o.nBatch, gateList: gateList,
            parameters: p, inputWeights: inputWeights, recurrentWeights: recurrentWeights,
            projectionWeights: o.projectionWeights?.index, inputBias: inputBias, recurrentBias: recurrentBias,
            projectionBias: projectionBias, layerNormBias: o.biases.map { $0?.index },
            layerNorm: o.layerNorm.map { $0?.index }, peepholes: o.peepholes.map { $0?.index },
            outputState: o.outputState.index, cellState: o.cellState.index,
            product: LSTMInt8Product(context.kernelLevel),
            peepholeGroup: timeMajor ? o.nBatch : 1, rows: rows, logistic: LSTMInt16Tables.logisticQ3,
            gateTanh: LSTMInt16Tables.tanhQ3, cellTanh: LSTMInt16Tables.tanh(integerBits: 15 + p.cellScale),
            inputSums: context.requestScratch(bytes: try ConvCheck.product([rows, width, 4], "LSTM")),
            widened: context.requestScratch(bytes: try ConvCheck.product([widest, 2], "LSTM")),
            recurrentSums: context.requestScratch(
                bytes: try ConvCheck.product([Swift.max(width, o.nOutput), 4], "LSTM")),
            gateBuffer: context.requestScratch(bytes: try ConvCheck.product([4, o.nBatch, o.nCell, 2], "LSTM")),
            hidden: context.requestScratch(bytes: try ConvCheck.product([o.nBatch, o.nCell], "LSTM")),
            cellSquash: context.requestScratch(bytes: try ConvCheck.product([o.nBatch, o.nCell, 2], "LSTM")))
    }

    /// `bias[r] + zeroPoint·Σ_k w[r, k]` for each row (TFLite's precomputed term).
    static func effectiveBias(
        _ weights: TensorState?, rows: Int, depth: Int, zeroPoint: Int32, bias: TensorState?
    ) throws(KernelError) -> [Int32] {
        var out = [Int32](repeating: 0, count: rows)
        if let bias {
            guard let c = bias.constant else { throw .invalid("integer LSTM biases must be constant") }
            let b = c.typed(Int32.self)
            guard b.count >= rows else { throw .invalid("bias tensor \(bias.index) is too short") }
            for r in 0 ..< rows { out[r] = b[r] }
        }
        guard let weights, zeroPoint != 0 else { return out }
        guard let c = weights.constant else { throw .invalid("LSTM weights must be constant") }
        let w = c.typed(Int8.self)
        guard w.count >= (try ConvCheck.product([rows, depth], "LSTM")) else {
            throw .invalid("weights tensor \(weights.index) is too short")
        }
        for r in 0 ..< rows {
            var sum: Int32 = 0
            for k in 0 ..< depth { sum &+= Int32(w[r * depth + k]) }
            out[r] &+= sum &* zeroPoint
        }
        return out
    }

    func run(_ context: EvalContext, input: Int, output: Int, sequence: LSTMSequence) {
        let width = gateList.count * nCell
        let sums = context.scratch(inputSums, as: Int32.self)
        let wide = context.scratch(widened, as: Int16.self)
        let x = context.pointer(input, as: Int8.self)
        let wx = UnsafePointer(inputWeights.pointer.assumingMemoryBound(to: Int8.self))
        inputBias.withUnsafeBufferPointer { bias in
            for r in 0 ..< rows {
                for k in 0 ..< nInput { wide[k] = Int16(x[r * nInput + k]) }
                let acc = sums + r * width
                product.run(n: width, k: nInput, w: wx, x: wide, acc: acc)
                for j in 0 ..< width { acc[j] &+= bias[j] }
            }
        }
        let y = context.pointer(output, as: Int8.self)
        let h = context.pointer(outputState, as: Int8.self)
        for step in 0 ..< sequence.maxTime {
            let t = sequence.time(step: step)
            self.step(context, sums: sums, time: t, sequence: sequence)
            for b in 0 ..< nBatch {
                (y + sequence.row(time: t, batch: b) * nOutput).update(from: h + b * nOutput, count: nOutput)
            }
        }
    }
}
