import TFLiteModel

/// The hybrid RNN cell step (float activations and state, constant int8 weights), as
/// LiteRT's hybrid kernels compute it (spec/recurrent-ops.md, "Hybrid"):
///
/// 1. each row of `x`, `a` and `h` is quantized on its own to int8 (``HybridInput``:
///    symmetric, or asymmetric with `asymmetric_quantize_inputs`), giving a scale `s` and
///    a zero point `z`; an operand that is all zeros (per row, or over all rows, as
///    ``RecurrentStep/zeroTestPerRow`` says) is skipped, as LiteRT skips it;
/// 2. `acc[o] = Σ_k w[o, k]·(q[k] - z)` exactly in `Int32` (``Int8RowProduct``);
/// 3. `y = bias`, then `y += Float(acc)·(s·s_w)` for the input, the aux input and the
///    hidden state in that order, in single precision; then the activation and `h = y`.
///
/// Every float operation is LiteRT's, in its order, so the result is LiteRT's bit for bit
/// (the hidden state feeds the next step's quantization, where one bit of difference
/// could change a code).
struct RecurrentCellHybrid: RecurrentCell {
    let weights: Int8Weights
    let aux: Int8Weights?
    let recurrent: Int8Weights
    let bias: Int
    let units: Int
    let activation: RecurrentActivation
    let asymmetric: Bool
    let product: Int8RowProduct
    let scratch: Int
    let layout: Layout
    let minimumTasks: Int
    static let block = 64

    /// Offsets in the step's scratch: the int8 codes of one row, the prepared rows of the
    /// three operands, the accumulators of every row, and per row and operand its scale
    /// (0 when skipped) and the product's offset.
    struct Layout: Sendable {
        let codes: Int
        let inputRows: Int, auxRows: Int, stateRows: Int
        let inputRowBytes: Int, auxRowBytes: Int, stateRowBytes: Int
        let acc: Int
        let scales: Int
        let offsets: Int
        let bytes: Int
    }

    init(
        _ context: inout PrepareContext, _ cell: RecurrentCellOperands, rows: Int, activation: RecurrentActivation,
        asymmetric: Bool, role: String
    ) throws(KernelError) {
        weights = try Int8Weights(cell.weights, role: "\(role)input weights")
        aux = try cell.auxWeights.map { w throws(KernelError) in try Int8Weights(w, role: "\(role)aux input weights") }
        recurrent = try Int8Weights(cell.recurrent, role: "\(role)recurrent weights")
        (bias, units, self.activation, self.asymmetric) = (cell.bias.index, cell.units, activation, asymmetric)
        product = Int8RowProduct(level: context.kernelLevel)
        let what = "\(role)hybrid RNN"
        let inputRow = try Int8RowProduct.rowBytes(depth: weights.depth, what)
        let auxRow = try Int8RowProduct.rowBytes(depth: aux?.depth ?? 0, what)
        let stateRow = try Int8RowProduct.rowBytes(depth: units, what)
        let deepest = Swift.max(weights.depth, aux?.depth ?? 0, units, 1)
        var offset = 0
        func take(_ bytes: Int) throws(KernelError) -> Int {
            let start = offset
            offset = try ConvCheck.cacheLines([offset, bytes], what)
            return start
        }
        let codes = try take(deepest)
        let inputRows = try take(try ConvCheck.product([rows, inputRow], what))
        let auxRows = try take(try ConvCheck.product([rows, auxRow], what))
        let stateRows = try take(try ConvCheck.product([rows, stateRow], what))
        let acc = try take(try ConvCheck.product([rows, units, 4], what))
        let scales = try take(try ConvCheck.product([rows, 3, 4], what))
        let offsets = try take(try ConvCheck.product([rows, 3, 4], what))
        layout = Layout(
            codes: codes, inputRows: inputRows, auxRows: auxRows, stateRows: stateRows, inputRowBytes: inputRow,
            auxRowBytes: auxRow, stateRowBytes: stateRow, acc: acc, scales: scales, offsets: offsets, bytes: offset)
        scratch = context.requestScratch(bytes: offset)
        let depth = try RecurrentCheck.sum([weights.depth, aux?.depth ?? 0, units], what)
        minimumTasks = Parallel.minimumChunk(cost: try ConvCheck.product([Self.block, depth], what))
    }

    func step(_ context: EvalContext, _ s: RecurrentStep) {
        guard let w = weights.pointer, let r = recurrent.pointer else { return }
        let wa = aux?.pointer
        let base = UnsafeMutableRawPointer(context.scratch(scratch, as: UInt8.self))
        let codes = (base + layout.codes).assumingMemoryBound(to: Int8.self)
        let scales = (base + layout.scales).assumingMemoryBound(to: Float.self)
        let offsets = (base + layout.offsets).assumingMemoryBound(to: Int32.self)
        let acc = (base + layout.acc).assumingMemoryBound(to: Int32.self)
        let b = UnsafePointer(context.pointer(bias, as: Float.self))
        let rows = s.rows
        // Operand k's scale and offset of row `row` are at `k·rows + row`.
        quantize(
            s.x, stride: s.xStride, depth: weights.depth, weightScale: weights.scale, rows: rows,
            perRow: s.zeroTestPerRow, codes: codes, into: base + layout.inputRows, rowBytes: layout.inputRowBytes,
            scales: scales, offsets: offsets)
        if let aux, let a = s.aux {
            quantize(
                a, stride: s.auxStride, depth: aux.depth, weightScale: aux.scale, rows: rows,
                perRow: s.zeroTestPerRow, codes: codes, into: base + layout.auxRows, rowBytes: layout.auxRowBytes,
                scales: scales + rows, offsets: offsets + rows)
        }
        quantize(
            UnsafePointer(s.h), stride: units, depth: units, weightScale: recurrent.scale, rows: rows,
            perRow: s.zeroTestPerRow, codes: codes, into: base + layout.stateRows, rowBytes: layout.stateRowBytes,
            scales: scales + 2 * rows, offsets: offsets + 2 * rows)
        let (units, product, activation, layout) = (units, product, activation, layout)
        let (inputDepth, auxDepth) = (weights.depth, aux?.depth ?? 0)
        let hasAux = aux != nil && s.aux != nil
        let blocks = (units + Self.block - 1) / Self.block
        context.parallel.forEachChunk(rows * blocks, minimumChunk: minimumTasks) { range in
            for task in range {
                let row = task / blocks, o0 = (task % blocks) * Self.block
                let n = Swift.min(Self.block, units - o0)
                let y = s.y + row * s.yStride + o0
                let sums = acc + row * units + o0
                y.update(from: b + o0, count: n)
                @inline(__always) func add(
                    _ w: UnsafePointer<Int8>, depth: Int, rowForm: UnsafeRawPointer, operand: Int
                ) {
                    let scale = scales[operand * rows + row]
                    guard scale != 0 else { return }
                    product.run(
                        w: w, k: depth, row: rowForm, offset: offsets[operand * rows + row], first: o0, count: n,
                        acc: sums)
                    for j in 0 ..< n { y[j] += Float(sums[j]) * scale }
                }
                add(w, depth: inputDepth, rowForm: base + layout.inputRows + row * layout.inputRowBytes, operand: 0)
                if hasAux, let wa {
                    add(wa, depth: auxDepth, rowForm: base + layout.auxRows + row * layout.auxRowBytes, operand: 1)
                }
                add(r, depth: units, rowForm: base + layout.stateRows + row * layout.stateRowBytes, operand: 2)
                activation.apply(y, count: n)
            }
        }
        for row in 0 ..< rows { (s.h + row * units).update(from: s.y + row * s.yStride, count: units) }
    }

    /// Quantizes the `rows` rows of `depth` values (`stride` apart) that are not skipped:
    /// row `i`'s prepared form goes to `into + i·rowBytes`, its scale times `weightScale`
    /// to `scales[i]` (0 for a skipped row) and the product's offset to `offsets[i]`.
    private func quantize(
        _ x: UnsafePointer<Float>, stride: Int, depth: Int, weightScale: Float, rows: Int, perRow: Bool,
        codes: UnsafeMutablePointer<Int8>, into: UnsafeMutableRawPointer, rowBytes: Int,
        scales: UnsafeMutablePointer<Float>, offsets: UnsafeMutablePointer<Int32>
    ) {
        @inline(__always) func isZero(_ row: Int) -> Bool {
            let v = x + row * stride
            for i in 0 ..< depth where v[i] != 0 { return false }
            return true
        }
        let allZero = !perRow && (0 ..< rows).allSatisfy(isZero)
        for row in 0 ..< rows {
            if allZero || (perRow && isZero(row)) {
                scales[row] = 0
                continue
            }
            let (scale, zero) = HybridInput.quantize(
                x + row * stride, count: depth, stride: 1, asymmetric: asymmetric, into: codes)
            offsets[row] = product.prepareRow(codes, count: depth, zeroPoint: zero, into: into + row * rowBytes)
            scales[row] = scale * weightScale
        }
    }
}
