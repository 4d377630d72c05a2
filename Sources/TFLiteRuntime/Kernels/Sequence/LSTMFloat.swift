import Microkernels
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// One float LSTM direction (spec/sequence-ops.md).
///
/// The input's contribution to every gate does not depend on the state, so it is one
/// GEMM over all `time × batch` rows at the start of the invoke
/// (`A = X·W_xᵀ (+ X_aux·W_auxᵀ) + bias`, the bias only without layer norm). Each step
/// then adds the recurrent product `H·W_hᵀ` to the step's rows of `A`: through the
/// matrix-vector microkernel on packed weights for up to four rows at `avx2` and above
/// (the step's rows of `A` are its bias operand), else one BLAS call accumulating into a
/// copy of the rows. The gates' elementwise part is ``LSTMFloatGates``; a projection is a
/// second product of the same two kinds. States are the operator's variable tensors,
/// read and written in place.
struct LSTMFloatDirection: Sendable {
    let nInput: Int, nAux: Int, nCell: Int, nOutput: Int, nBatch: Int
    let gateCount: Int
    let gates: LSTMFloatGates
    let inputWeights: PackedBuffer
    let auxWeights: PackedBuffer?
    /// `[G·nCell, nOutput]` (``recurrentGemv``: in `GemvF32Layout`), or the diagonal's
    /// `[G·nCell]` values.
    let recurrent: PackedBuffer
    let recurrentGemv: Bool
    let diagonal: Bool
    let projection: PackedBuffer?
    let projectionGemv: Bool
    let projectionBias: Int?
    let projClip: Float
    /// Tensor indices by gate (i, f, c, o).
    let biases: [Int?], peepholes: [Int?], layerNorm: [Int?]
    let outputState: Int, cellState: Int
    /// Scratch: the input products of every row, the step's gate rows, the hidden rows.
    let projected: Int, auxProjected: Int?, stepGates: Int, hidden: Int
    let rows: Int

    static func make(
        _ context: inout PrepareContext, _ o: LSTMOperands, activation: LSTMFloatMath.Activation,
        cellClip: Float, projClip: Float, rows: Int
    ) throws(KernelError) -> LSTMFloatDirection {
        let gateList = o.gates
        let g = gateList.count
        let width = try ConvCheck.product([g, o.nCell], "LSTM gates")
        let gemv = context.kernelLevel >= .avx2 && o.nBatch <= FullyConnectedF32.maxRowByRow
        for t in [o.biases, o.peepholes, o.layerNorm].joined().compactMap({ $0 })
            + [o.projectionBias].compactMap({ $0 })
        where t.type != .float32 {
            throw .types("float LSTM with a \(t.type) bias, peephole or layer norm tensor (tensor \(t.index))")
        }
        try ConvCheck.blasSizes([rows, width, o.nInput, o.nOutput, o.nAux, o.nCell], "LSTM")
        let inputWeights = try LSTMPacking.floats(
            context, gateList.compactMap { o.inputWeights[$0] }, rows: o.nCell, depth: o.nInput, gemv: false)
        let auxWeights =
            o.nAux > 0
            ? try LSTMPacking.floats(
                context, gateList.compactMap { o.auxWeights[$0] }, rows: o.nCell, depth: o.nAux, gemv: false) : nil
        let recurrentTensors = gateList.compactMap { o.recurrentWeights[$0] }
        let recurrent =
            o.diagonalRecurrent
            ? try LSTMPacking.floats(context, recurrentTensors, rows: o.nCell, depth: 1, gemv: false)
            : try LSTMPacking.floats(context, recurrentTensors, rows: o.nCell, depth: o.nOutput, gemv: gemv)
        let projection = try o.projectionWeights.map { (w: TensorState) throws(KernelError) in
            try LSTMPacking.floats(context, [w], rows: o.nOutput, depth: o.nCell, gemv: gemv)
        }
        let floatBytes = MemoryLayout<Float>.stride
        let projected = context.requestScratch(bytes: try ConvCheck.product([rows, width, floatBytes], "LSTM"))
        let auxProjected =
            o.nAux > 0
            ? context.requestScratch(bytes: try ConvCheck.product([rows, width, floatBytes], "LSTM")) : nil
        let stepGates = context.requestScratch(bytes: try ConvCheck.product([o.nBatch, width, floatBytes], "LSTM"))
        let hidden = context.requestScratch(bytes: try ConvCheck.product([o.nBatch, o.nCell, floatBytes], "LSTM"))
        return LSTMFloatDirection(
            nInput: o.nInput, nAux: o.nAux, nCell: o.nCell, nOutput: o.nOutput, nBatch: o.nBatch, gateCount: g,
            gates: LSTMFloatGates(nCell: o.nCell, cifg: o.cifg, activation: activation, cellClip: cellClip),
            inputWeights: inputWeights, auxWeights: auxWeights, recurrent: recurrent,
            recurrentGemv: gemv && !o.diagonalRecurrent, diagonal: o.diagonalRecurrent, projection: projection,
            projectionGemv: gemv, projectionBias: o.projectionBias?.index, projClip: projClip,
            biases: o.biases.map { $0?.index }, peepholes: o.peepholes.map { $0?.index },
            layerNorm: o.layerNorm.map { $0?.index }, outputState: o.outputState.index,
            cellState: o.cellState.index, projected: projected, auxProjected: auxProjected, stepGates: stepGates,
            hidden: hidden, rows: rows)
    }

    /// Runs the whole sequence: `input` `[rows, nInput]`, `aux` `[rows, nAux]` (or nil),
    /// output row `r` written at `output + r·leadingDim + offset`.
    func run(
        _ context: EvalContext, input: Int, aux: Int?, output: Int, leadingDim: Int, offset: Int,
        sequence: LSTMSequence
    ) {
        let width = gateCount * nCell
        let a = context.scratch(projected, as: Float.self)
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        TiledGEMM.run(
            context.parallel, m: rows, n: width, k: nInput, a: x, lda: nInput,
            b: UnsafePointer(inputWeights.pointer.assumingMemoryBound(to: Float.self)), ldb: nInput,
            transposeB: true, c: a, ldc: width)
        if let aux, let auxWeights, let auxProjected {
            let p = context.scratch(auxProjected, as: Float.self)
            TiledGEMM.run(
                context.parallel, m: rows, n: width, k: nAux, a: UnsafePointer(context.pointer(aux, as: Float.self)),
                lda: nAux, b: UnsafePointer(auxWeights.pointer.assumingMemoryBound(to: Float.self)), ldb: nAux,
                transposeB: true, c: p, ldc: width)
            let total = rows * width
            for i in 0 ..< total { a[i] += p[i] }
        }
        var constants = LSTMFloatGates.Constants()
        for g in 0 ..< 4 {
            constants.peepholes[g] = context.optionalFloats(peepholes[g])
            constants.biases[g] = context.optionalFloats(biases[g])
            constants.layerNorm[g] = context.optionalFloats(layerNorm[g])
        }
        if layerNorm[1] == nil {
            // The bias goes into every row's input product once, before the steps.
            for r in 0 ..< rows {
                for g in 0 ..< 4 {
                    guard let b = constants.biases[g] else { continue }
                    let row = a + r * width + gates.segment(g)
                    for j in 0 ..< nCell { row[j] += b[j] }
                }
            }
        }
        let h = context.pointer(outputState, as: Float.self)
        let c = context.pointer(cellState, as: Float.self)
        let stepRows = context.scratch(stepGates, as: Float.self)
        let hiddenRows = context.scratch(hidden, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let projectionBias = context.optionalFloats(self.projectionBias)
        for step in 0 ..< sequence.maxTime {
            let t = sequence.time(step: step)
            recurrentProduct(context, h: h, a: a, sequence: sequence, time: t, into: stepRows)
            for b in 0 ..< nBatch {
                gates.step(
                    gates: stepRows + b * width, cell: c + b * nCell, constants: constants,
                    hidden: hiddenRows + b * nCell)
            }
            project(hiddenRows, bias: projectionBias, into: h)
            for b in 0 ..< nBatch {
                let out = y + sequence.row(time: t, batch: b) * leadingDim + offset
                out.update(from: h + b * nOutput, count: nOutput)
            }
        }
    }

    /// The step's gate rows: `A[row(t, b)] + W_h·h_b` for every batch row `b`.
    private func recurrentProduct(
        _ context: EvalContext, h: UnsafeMutablePointer<Float>, a: UnsafeMutablePointer<Float>,
        sequence: LSTMSequence, time t: Int, into rowsOut: UnsafeMutablePointer<Float>
    ) {
        let width = gateCount * nCell
        let w = UnsafePointer(recurrent.pointer.assumingMemoryBound(to: Float.self))
        #if arch(x86_64)
        if recurrentGemv {
            for b in 0 ..< nBatch {
                gemvF32x4PackedAVX2(
                    n: width, k: nOutput, x: h + b * nOutput, packed: w,
                    bias: a + sequence.row(time: t, batch: b) * width, lower: -.infinity, upper: .infinity,
                    y: rowsOut + b * width)
            }
            return
        }
        #endif
        for b in 0 ..< nBatch {
            (rowsOut + b * width).update(from: a + sequence.row(time: t, batch: b) * width, count: width)
        }
        if diagonal {
            // Each gate's recurrent weight is a vector: `a_g += w_g ⊙ h` (nOutput = nCell).
            for b in 0 ..< nBatch {
                let row = rowsOut + b * width, hb = h + b * nOutput
                for g in 0 ..< gateCount {
                    for j in 0 ..< nCell { row[g * nCell + j] += w[g * nCell + j] * hb[j] }
                }
            }
            return
        }
        sgemm(
            m: nBatch, n: width, k: nOutput, a: h, lda: nOutput, b: w, ldb: nOutput, transposeB: true,
            c: rowsOut, ldc: width, beta: 1)
    }

    /// The new output state: the hidden rows (no projection; nOutput = nCell), or
    /// `clip(W_p·hidden + b_p)`.
    private func project(
        _ hidden: UnsafeMutablePointer<Float>, bias: UnsafePointer<Float>?, into h: UnsafeMutablePointer<Float>
    ) {
        guard let projection else {
            h.update(from: hidden, count: nBatch * nOutput)
            return
        }
        let w = UnsafePointer(projection.pointer.assumingMemoryBound(to: Float.self))
        let bound: Float = projClip > 0 ? projClip : .infinity
        #if arch(x86_64)
        if projectionGemv {
            for b in 0 ..< nBatch {
                gemvF32x4PackedAVX2(
                    n: nOutput, k: nCell, x: hidden + b * nCell, packed: w, bias: bias, lower: -bound, upper: bound,
                    y: h + b * nOutput)
            }
            return
        }
        #endif
        for b in 0 ..< nBatch {
            let row = h + b * nOutput
            if let bias { row.update(from: bias, count: nOutput) } else { row.update(repeating: 0, count: nOutput) }
        }
        sgemm(
            m: nBatch, n: nOutput, k: nCell, a: hidden, lda: nCell, b: w, ldb: nCell, transposeB: true, c: h,
            ldc: nOutput, beta: 1)
        LSTMFloatMath.clip(h, count: nBatch * nOutput, projClip)
    }
}
