extension LSTMInteger8x8_16 {
    /// One time step for every batch row; `sums` holds the input sums of every row.
    func step(_ context: EvalContext, sums: UnsafeMutablePointer<Int32>, time t: Int, sequence: LSTMSequence) {
        let p = parameters
        let width = gateList.count * nCell, cells = nBatch * nCell
        let h = context.pointer(outputState, as: Int8.self)
        let c = context.pointer(cellState, as: Int16.self)
        let gates = context.scratch(gateBuffer, as: Int16.self)
        let wide = context.scratch(widened, as: Int16.self)
        let acc = context.scratch(recurrentSums, as: Int32.self)
        let wh = UnsafePointer(recurrentWeights.pointer.assumingMemoryBound(to: Int8.self))
        // Pre-activations: sat16(MBQM(input sum) + MBQM(recurrent sum)), gate-major.
        recurrentBias.withUnsafeBufferPointer { bias in
            for b in 0 ..< nBatch {
                for k in 0 ..< nOutput { wide[k] = Int16(h[b * nOutput + k]) }
                product.run(n: width, k: nOutput, w: wh, x: wide, acc: acc)
                let xs = sums + sequence.row(time: t, batch: b) * width
                for (slot, g) in gateList.enumerated() {
                    let out = gates + g * cells + b * nCell
                    let mx = p.input[g], mh = p.recurrent[g]
                    for j in 0 ..< nCell {
                        let o = slot * nCell + j
                        let fromInput = LSTMInt16Math.saturate(mx.apply(xs[o]))
                        out[j] = Int16(LSTMInt16Math.saturate(fromInput &+ mh.apply(acc[o] &+ bias[o])))
                    }
                }
            }
        }
        let cifg = gateList.count == 3
        for g in gateList where g != 3 { finishGate(context, g, gates + g * cells, cell: c) }
        // Cell update: c = RDBPOT(f·c, 15) + RDBPOT(i·g, 30 + cellScale), saturated, clipped.
        let f = gates + cells, g = gates + 2 * cells, i = gates
        let shift = 30 + p.cellScale
        for j in 0 ..< cells {
            let kept = LSTMInt16Math.wrap(LSTMInt16Math.divideByPOT(Int32(f[j]) &* Int32(c[j]), 15))
            let inputGate = cifg ? 32767 &- Int32(f[j]) : Int32(i[j])
            let added = LSTMInt16Math.wrap(
                LSTMInt16Math.divideByPOT(LSTMInt16Math.wrap(inputGate) &* Int32(g[j]), shift))
            var v = LSTMInt16Math.saturate(kept &+ added)
            if p.cellClip > 0 { v = Swift.min(Swift.max(v, -p.cellClip), p.cellClip) }
            c[j] = Int16(v)
        }
        finishGate(context, 3, gates + 3 * cells, cell: c)
        // Hidden: o·tanh(c) rescaled to int8 codes, then the projection or the state itself.
        let o = gates + 3 * cells
        // Outside 0...6 integer bits TFLite's tanh writes nothing, and the buffer it was to
        // fill holds the input gate (spec/sequence-ops.md).
        let squashed = context.scratch(self.cellSquash, as: Int16.self)
        if let cellTanh {
            squashed.update(from: c, count: cells)
            cellTanh.withUnsafeBufferPointer { LSTMInt16Tables.apply($0, squashed, count: cells) }
        } else {
            squashed.update(from: gates, count: cells)
        }
        let hidden = context.scratch(self.hidden, as: Int8.self)
        if let projectionWeights {
            for j in 0 ..< cells {
                let v = p.hidden.apply(Int32(o[j]) &* Int32(squashed[j])) &- p.hiddenZeroPoint
                hidden[j] = Int8(Swift.min(Swift.max(v, -128), 127))
            }
            project(context, hidden: hidden, weights: projectionWeights, into: h)
        } else {
            for j in 0 ..< cells {
                let v = p.hidden.apply(Int32(o[j]) &* Int32(squashed[j])) &+ p.hiddenZeroPoint
                h[j] = Int8(Swift.min(Swift.max(v, -128), 127))
            }
        }
    }

    /// Peephole, layer norm and activation of gate `g` (`[nBatch·nCell]` codes).
    private func finishGate(
        _ context: EvalContext, _ g: Int, _ gate: UnsafeMutablePointer<Int16>, cell: UnsafeMutablePointer<Int16>
    ) {
        let p = parameters
        if let peephole = peepholes[g] {
            let w = context.pointer(peephole, as: Int16.self)
            let m = p.peephole[g]
            // TFLite's term walks each call's flattened rows `nOutput` at a time.
            for start in stride(from: 0, to: nBatch, by: peepholeGroup) {
                let base = start * nCell
                let count = Swift.min(peepholeGroup, nBatch - start) * nOutput
                for k in 0 ..< count {
                    let prod = m.apply(Int32(w[k % nOutput]) &* Int32(cell[base + k]))
                    gate[base + k] = Int16(LSTMInt16Math.saturate(Int32(gate[base + k]) &+ prod))
                }
            }
        }
        if let ln = layerNorm[g], let biasIndex = layerNormBias[g] {
            let w = context.pointer(ln, as: Int16.self), bias = context.pointer(biasIndex, as: Int32.self)
            for b in 0 ..< nBatch {
                LSTMIntegerLayerNorm.apply(
                    gate + b * nCell, count: nCell, weights: w, bias: bias, multiplier: p.layerNorm[g],
                    varianceGuard: p.varianceGuard[g])
            }
        }
        (g == 2 ? gateTanh : logistic).withUnsafeBufferPointer {
            LSTMInt16Tables.apply($0, gate, count: nBatch * nCell)
        }
    }

    /// `h = clamp(MBQM(b_p + Σ hidden·W_p) + z_h)`, clipped when `proj_clip` is set.
    private func project(
        _ context: EvalContext, hidden: UnsafeMutablePointer<Int8>, weights: Int, into h: UnsafeMutablePointer<Int8>
    ) {
        let p = parameters
        let w = UnsafePointer(context.pointer(weights, as: Int8.self))
        let wide = context.scratch(widened, as: Int16.self)
        let acc = context.scratch(recurrentSums, as: Int32.self)
        projectionBias.withUnsafeBufferPointer { bias in
            for b in 0 ..< nBatch {
                for k in 0 ..< nCell { wide[k] = Int16(hidden[b * nCell + k]) }
                product.run(n: nOutput, k: nCell, w: w, x: wide, acc: acc)
                for r in 0 ..< nOutput {
                    var v = p.projection.apply(acc[r] &+ bias[r]) &+ p.outputStateZeroPoint
                    v = Swift.min(Swift.max(v, -128), 127)
                    if p.projClip > 0 { v = Swift.min(Swift.max(v, -p.projClip), p.projClip) }
                    h[b * nOutput + r] = Int8(v)
                }
            }
        }
    }
}

/// TFLite's integer layer normalization of one gate row (`ApplyLayerNorm`): mean and
/// variance in integers scaled by 2^10, `1/σ` as a fixed-point multiplier, then
/// `MBQM(round((MBQM(1024·x - mean, 1/σ)·w + bias) / 1024), scale·2^12)` saturated to 16 bits.
enum LSTMIntegerLayerNorm {
    static func apply(
        _ x: UnsafeMutablePointer<Int16>, count n: Int, weights: UnsafePointer<Int16>, bias: UnsafePointer<Int32>,
        multiplier: LSTMIntegerParameters.Multiplier, varianceGuard: Int32
    ) {
        var sum: Int64 = 0, squares: Int64 = 0
        for j in 0 ..< n {
            let v = Int64(x[j])
            sum += v
            squares += v * v
        }
        let mean = Int32(truncatingIfNeeded: sum * 1024 / Int64(n))
        let temp = Int64((1 << 20) / n)
        let variance = squares &* temp &- Int64(mean) * Int64(mean)
        var variance2 = Int32(truncatingIfNeeded: variance / (1 << 20))
        if variance2 < 1 { variance2 = varianceGuard }
        let (inverse, shift) = FixedPoint.inverseSqrtMultiplier(variance2)
        for j in 0 ..< n {
            let shifted = 1024 &* Int32(x[j]) &- mean
            let rescaled = FixedPoint.multiplyByQuantizedMultiplier(shifted, inverse, shift)
            let v3 = Int64(rescaled &* Int32(weights[j]) &+ bias[j])
            let v4 = Int32(truncatingIfNeeded: (v3 > 0 ? v3 + 512 : v3 - 512) / 1024)
            let v5 = FixedPoint.multiplyByQuantizedMultiplier(v4, multiplier.mantissa, multiplier.exponent + 12)
            x[j] = Int16(Swift.min(Swift.max(v5, -32768), 32767))
        }
    }
}
