import TFLiteModel

/// One hybrid LSTM direction: float input, states and output, int8 weights with one
/// symmetric scale per tensor (dynamic-range quantization), as TFLite's hybrid kernel
/// computes it (spec/sequence-ops.md, "Hybrid LSTM"). Each product quantizes its float
/// operand row by row on the fly (symmetric, or asymmetric with
/// `asymmetric_quantize_inputs`), sums `Σ w·(q - z)` exactly in `Int32` through
/// ``LSTMInt8Product``, and adds `Float(sum)·(s_row·s_w)` to the gate, in TFLite's
/// order: bias (0 with layer norm), input, aux input, recurrent, peephole. The input and
/// aux terms of every row are computed before the steps; the rest is
/// ``LSTMFloatGates``, then the projection (the same quantized product, on the hidden rows).
struct LSTMHybridDirection: Sendable {
    let nInput: Int, nAux: Int, nCell: Int, nOutput: Int, nBatch: Int
    let gateList: [Int]
    let asymmetric: Bool
    let gates: LSTMFloatGates
    let inputWeights: PackedBuffer, auxWeights: PackedBuffer?, recurrentWeights: PackedBuffer
    /// Weight scales by gate slot (the position in ``gateList``).
    let inputScales: [Float], auxScales: [Float], recurrentScales: [Float]
    let projectionWeights: Int?, projectionScale: Float, projectionBias: Int?
    let projClip: Float
    /// Peephole weights times their scale, `[4][nCell]` (zeros where absent).
    let peepholes: [Float]
    let hasPeephole: [Bool]
    let biases: [Int?], layerNorm: [Int?]
    let outputState: Int, cellState: Int
    let product: LSTMInt8Product
    let rows: Int
    /// Scratch: the input terms of every row, codes, widened codes, sums, step rows, hidden rows.
    let projected: Int, codes: Int, widened: Int, sums: Int, stepGates: Int, hidden: Int

    static func make(
        _ context: inout PrepareContext, _ o: LSTMOperands, options: LSTMOptions, rows: Int
    ) throws(KernelError) -> LSTMHybridDirection {
        guard !o.diagonalRecurrent else { throw .types("diagonal recurrent weights in a hybrid LSTM") }
        for w in o.weightTensors + o.peepholes.compactMap({ $0 }) {
            guard w.type == .int8 else { throw .types("hybrid LSTM with \(w.type) weights (tensor \(w.index))") }
        }
        for t in (o.biases + o.layerNorm).compactMap({ $0 }) + [o.projectionBias].compactMap({ $0 })
        where t.type != .float32 {
            throw .types("hybrid LSTM with a \(t.type) bias or layer norm tensor (tensor \(t.index))")
        }
        func scale(_ t: TensorState?) throws(KernelError) -> Float {
            guard let t else { return 1 }
            guard let q = t.quantization, q.scales.count == 1, let s = q.scales.first, s.isFinite else {
                throw .invalid("hybrid LSTM weights (tensor \(t.index)) need one quantization scale")
            }
            return s
        }
        let gateList = o.gates
        let width = gateList.count * o.nCell
        var peepholes = [Float](repeating: 0, count: try ConvCheck.product([4, o.nCell], "LSTM"))
        var hasPeephole = [false, false, false, false]
        for g in [0, 1, 3] {
            guard let p = o.peepholes[g] else { continue }
            guard let c = p.constant else { throw .invalid("LSTM peephole weights must be constant") }
            let codes = c.typed(Int8.self), s = try scale(p)
            guard codes.count >= o.nCell else { throw .invalid("peephole tensor \(p.index) is too short") }
            for j in 0 ..< o.nCell { peepholes[g * o.nCell + j] = s * Float(codes[j]) }
            hasPeephole[g] = true
        }
        let widest = Swift.max(o.nInput, o.nAux, o.nOutput, o.nCell)
        return LSTMHybridDirection(
            nInput: o.nInput, nAux: o.nAux, nCell: o.nCell, nOutput: o.nOutput, nBatch: o.nBatch, gateList: gateList,
            asymmetric: options.asymmetricQuantizeInputs,
            gates: LSTMFloatGates(
                nCell: o.nCell, cifg: o.cifg, activation: try LSTMFloatMath.Activation(options.activation),
                cellClip: options.cellClip),
            inputWeights: try LSTMPacking.stacked(
                context, gateList.compactMap { o.inputWeights[$0] },
                count: try ConvCheck.product([o.nCell, o.nInput], "LSTM"), as: Int8.self),
            auxWeights: o.nAux > 0
                ? try LSTMPacking.stacked(
                    context, gateList.compactMap { o.auxWeights[$0] },
                    count: try ConvCheck.product([o.nCell, o.nAux], "LSTM"), as: Int8.self)
                : nil,
            recurrentWeights: try LSTMPacking.stacked(
                context, gateList.compactMap { o.recurrentWeights[$0] },
                count: try ConvCheck.product([o.nCell, o.nOutput], "LSTM"), as: Int8.self),
            inputScales: try gateList.map { (g: Int) throws(KernelError) in try scale(o.inputWeights[g]) },
            auxScales: try gateList.map { (g: Int) throws(KernelError) in try scale(o.auxWeights[g]) },
            recurrentScales: try gateList.map { (g: Int) throws(KernelError) in try scale(o.recurrentWeights[g]) },
            projectionWeights: o.projectionWeights?.index, projectionScale: try scale(o.projectionWeights),
            projectionBias: o.projectionBias?.index, projClip: options.projClip, peepholes: peepholes,
            hasPeephole: hasPeephole, biases: o.biases.map { $0?.index }, layerNorm: o.layerNorm.map { $0?.index },
            outputState: o.outputState.index, cellState: o.cellState.index,
            product: LSTMInt8Product(context.kernelLevel), rows: rows,
            projected: context.requestScratch(bytes: try ConvCheck.product([rows, width, 4], "LSTM")),
            codes: context.requestScratch(bytes: widest),
            widened: context.requestScratch(bytes: try ConvCheck.product([widest, 2], "LSTM")),
            sums: context.requestScratch(bytes: try ConvCheck.product([Swift.max(width, o.nOutput), 4], "LSTM")),
            stepGates: context.requestScratch(bytes: try ConvCheck.product([o.nBatch, width, 4], "LSTM")),
            hidden: context.requestScratch(bytes: try ConvCheck.product([o.nBatch, o.nCell, 4], "LSTM")))
    }

    /// `out[o] += Float(Σ_k w[o, k]·(q_k - z))·(s_row·scales[o / rowsPerScale])` for `n`
    /// weight rows, with `x`'s `k` floats quantized first.
    private func accumulate(
        _ context: EvalContext, x: UnsafePointer<Float>, k: Int, weights: UnsafePointer<Int8>, n: Int,
        scales: [Float], rowsPerScale: Int, into out: UnsafeMutablePointer<Float>
    ) {
        let q = context.scratch(codes, as: Int8.self)
        let wide = context.scratch(widened, as: Int16.self)
        let acc = context.scratch(sums, as: Int32.self)
        let (rowScale, offset) = HybridInput.quantize(x, count: k, stride: 1, asymmetric: asymmetric, into: q)
        for i in 0 ..< k { wide[i] = Int16(truncatingIfNeeded: Int32(q[i]) &- offset) }
        product.run(n: n, k: k, w: weights, x: wide, acc: acc)
        for (slot, s) in scales.enumerated() {
            let factor = rowScale * s
            let base = slot * rowsPerScale
            for j in base ..< Swift.min(base + rowsPerScale, n) { out[j] += Float(acc[j]) * factor }
        }
    }

    func run(
        _ context: EvalContext, input: Int, aux: Int?, output: Int, leadingDim: Int, offset: Int,
        sequence: LSTMSequence
    ) {
        let width = gateList.count * nCell
        let a = context.scratch(projected, as: Float.self)
        let x = context.pointer(input, as: Float.self)
        let layerNormalized = layerNorm[1] != nil
        let wx = UnsafePointer(inputWeights.pointer.assumingMemoryBound(to: Int8.self))
        for r in 0 ..< rows {
            let row = a + r * width
            for (slot, g) in gateList.enumerated() {
                let seg = row + slot * nCell
                if !layerNormalized, let b = context.optionalFloats(biases[g]) {
                    seg.update(from: b, count: nCell)
                } else {
                    seg.update(repeating: 0, count: nCell)
                }
            }
            accumulate(
                context, x: x + r * nInput, k: nInput, weights: wx, n: width, scales: inputScales, rowsPerScale: nCell,
                into: row)
            if let aux, let auxWeights {
                accumulate(
                    context, x: context.pointer(aux, as: Float.self) + r * nAux, k: nAux,
                    weights: auxWeights.pointer.assumingMemoryBound(to: Int8.self), n: width, scales: auxScales,
                    rowsPerScale: nCell, into: row)
            }
        }
        var constants = LSTMFloatGates.Constants()
        peepholes.withUnsafeBufferPointer { peep in
            for g in 0 ..< 4 {
                if hasPeephole[g], let base = peep.baseAddress { constants.peepholes[g] = base + g * nCell }
                constants.biases[g] = context.optionalFloats(biases[g])
                constants.layerNorm[g] = context.optionalFloats(layerNorm[g])
            }
            let h = context.pointer(outputState, as: Float.self)
            let c = context.pointer(cellState, as: Float.self)
            let stepRows = context.scratch(stepGates, as: Float.self)
            let hiddenRows = context.scratch(hidden, as: Float.self)
            let y = context.pointer(output, as: Float.self)
            let wh = UnsafePointer(recurrentWeights.pointer.assumingMemoryBound(to: Int8.self))
            for step in 0 ..< sequence.maxTime {
                let t = sequence.time(step: step)
                for b in 0 ..< nBatch {
                    let row = stepRows + b * width
                    row.update(from: a + sequence.row(time: t, batch: b) * width, count: width)
                    accumulate(
                        context, x: h + b * nOutput, k: nOutput, weights: wh, n: width, scales: recurrentScales,
                        rowsPerScale: nCell, into: row)
                }
                for b in 0 ..< nBatch {
                    gates.step(
                        gates: stepRows + b * width, cell: c + b * nCell, constants: constants,
                        hidden: hiddenRows + b * nCell)
                }
                project(context, hiddenRows, into: h)
                for b in 0 ..< nBatch {
                    (y + sequence.row(time: t, batch: b) * leadingDim + offset).update(
                        from: h + b * nOutput, count: nOutput)
                }
            }
        }
    }

    private func project(
        _ context: EvalContext, _ hidden: UnsafeMutablePointer<Float>, into h: UnsafeMutablePointer<Float>
    ) {
        guard let projectionWeights else {
            h.update(from: hidden, count: nBatch * nOutput)
            return
        }
        let w = UnsafePointer(context.pointer(projectionWeights, as: Int8.self))
        let bias = context.optionalFloats(projectionBias)
        for b in 0 ..< nBatch {
            let row = h + b * nOutput
            if let bias { row.update(from: bias, count: nOutput) } else { row.update(repeating: 0, count: nOutput) }
            accumulate(
                context, x: hidden + b * nCell, k: nCell, weights: w, n: nOutput, scales: [projectionScale],
                rowsPerScale: nOutput, into: row)
        }
        LSTMFloatMath.clip(h, count: nBatch * nOutput, projClip)
    }
}
