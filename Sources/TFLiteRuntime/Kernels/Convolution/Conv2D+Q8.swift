import TFLiteModel

/// Quantized (uint8 / int8) CONV_2D, TFLite's reference semantics:
/// `acc = Σ (w - zw)·(x - zx)` over the in-image taps (padding contributes nothing),
/// `+ bias[oc]`, then ``Requantizer`` (per-channel fixed-point multiplier, output zero
/// point, activation clamp). Accumulation is `Int32` with wrap-around.
///
/// With a constant filter the GEMM kernel is used; otherwise the direct loops.
enum Conv2DQ8 {
    static func make(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, groups: Int,
        input: TensorState, filter: TensorState, bias: TensorState?, output: TensorState,
        activation: FusedActivation
    ) throws(KernelError) -> any PreparedKernel {
        let params = try QuantizedConvParams.make(
            context, input: input, weights: filter, bias: bias, output: output,
            activation: activation, channels: g.outC, channelAxis: 0, kind: .fixedPoint)
        if input.type == .uint8 {
            return try build(UInt8.self, &context, g, groups, input.index, filter, bias?.index, output.index, params)
        }
        return try build(Int8.self, &context, g, groups, input.index, filter, bias?.index, output.index, params)
    }

    private static func build<T: Quantized8>(
        _: T.Type, _ context: inout PrepareContext, _ g: Conv2DGeometry, _ groups: Int,
        _ input: Int, _ filter: TensorState, _ bias: Int?, _ output: Int,
        _ params: QuantizedConvParams
    ) throws(KernelError) -> any PreparedKernel {
        let reference = Conv2DQ8Reference(
            signed: T.isSigned, input: input, filter: filter.index, bias: bias, output: output,
            geometry: g, groups: groups, params: params)
        guard let constant = filter.constant else { return reference }
        if groups == 1,
            let single = try GemvQ8.make(
                &context, signed: T.isSigned, input: input, weights: filter, bias: bias, output: output,
                rows: g.outputPixels,
                units: g.outC, depth: try ConvCheck.product([g.kh, g.kw, g.inC], "CONV_2D patch"), row: .patch(g),
                params: params)
        {
            return single
        }
        if let dot = try Conv2DQ8GemmU8S8.make(
            T.self, &context, geometry: g, groups: groups, input: input, filter: constant, bias: bias,
            output: output, params: params)
        {
            return dot
        }
        if let integer = try Conv2DQ8GemmS16.make(
            T.self, &context, geometry: g, groups: groups, input: input,
            filter: constant, bias: bias, output: output, params: params)
        {
            return integer
        }
        let groupInC = g.inC / groups, groupOutC = g.outC / groups
        let patch = try ConvCheck.product([g.kh, g.kw, groupInC], "CONV_2D patch")
        let tiles = try GemmTiles(&context, pixels: g.outputPixels, patch: patch, outChannels: groupOutC, op: "CONV_2D")
        let packed = try context.packCenteredWeights(constant, as: T.self, zeroPoint: params.weightZeroPoint)
        return Conv2DQ8Gemm(
            signed: T.isSigned, input: input, bias: bias, output: output, geometry: g, groups: groups,
            groupInC: groupInC, groupOutC: groupOutC,
            patch: patch, tiles: tiles, packed: packed,
            inputZeroPoint: params.inputZeroPoint,
            maxAbsInput: QuantizedConvParams.maxCentered(T.self, zeroPoint: params.inputZeroPoint),
            requantizer: params.requantizer)
    }
}

/// im2col + exact GEMM (``ExactGEMM``). Output pixels are processed in tiles
/// (``GemmTiles``); for each group the tile's receptive fields become rows of centered values
/// (`x - zx`, zeros for taps in the padding, which is what skipping them means), multiplied
/// by the packed centered filter rows `w - zw` (OHWI is already `[outC, kh·kw·Cg]`), then
/// requantized. Tiles are spread over threads, each with its own scratch.
struct Conv2DQ8Gemm: Quantized8Kernel {
    let signed: Bool
    let input: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    let groups: Int, groupInC: Int, groupOutC: Int
    let patch: Int
    let tiles: GemmTiles
    let packed: PackedBuffer
    /// `zx`: the im2col rows hold `Float(x - zx)`.
    let inputZeroPoint: Int32
    /// Largest `|x - zx|`; with the weights' (`packed.derived`) it sizes ``ExactGEMM``'s chunks.
    let maxAbsInput: Int
    let requantizer: Requantizer

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let b = context.optionalInt32s(bias)
        let w = UnsafePointer(packed.pointer.assumingMemoryBound(to: Float.self))
        let gemm = ExactGEMM(maxAbsA: maxAbsInput, maxAbsB: packed.derived)
        let outC = geometry.outC
        let g = geometry
        // A 1x1, stride-1, unpadded convolution's rows are consecutive input pixels.
        let pointwise =
            groups == 1 && g.kh == 1 && g.kw == 1 && g.strideH == 1 && g.strideW == 1
            && g.padTop == 0 && g.padLeft == 0 && g.outH == g.inH && g.outW == g.inW
        tiles.forEach(context) { tile in
            let p0 = tile.first, rows = tile.count
            for group in 0 ..< groups {
                if pointwise {
                    centerCodes(x + p0 * g.inC, count: rows * g.inC, zeroPoint: inputZeroPoint, into: tile.columns)
                } else {
                    for r in 0 ..< rows {
                        im2colRow(
                            g, pixel: p0 + r, firstChannel: group * groupInC, channels: groupInC, x,
                            into: tile.columns + r * patch, zero: 0
                        ) {
                            centerCodes($0, count: $1, zeroPoint: inputZeroPoint, into: $2)
                        }
                    }
                }
                gemm.run(
                    m: rows, n: groupOutC, k: patch, a: tile.columns, lda: patch,
                    b: w + group * groupOutC * patch, ldb: patch, temp: tile.result, acc: tile.sums, ldacc: groupOutC)
                for r in 0 ..< rows {
                    requantizer.store(
                        tile.sums + r * groupOutC, count: groupOutC, firstChannel: group * groupOutC,
                        bias: b, into: y + (p0 + r) * outC + group * groupOutC)
                }
            }
        }
    }
}

/// TFLite's reference loops, used when the filter is only known at run time (and as the
/// oracle the GEMM kernel is tested against). Work is split over output rows.
struct Conv2DQ8Reference: Quantized8Kernel {
    let signed: Bool
    let input: Int, filter: Int, bias: Int?, output: Int
    let geometry: Conv2DGeometry
    let groups: Int
    let params: QuantizedConvParams

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let w = UnsafePointer(context.pointer(filter, as: T.self))
        let y = context.pointer(output, as: T.self)
        let bias = context.optionalInt32s(self.bias)
        let g = geometry
        let cg = g.inC / groups, og = g.outC / groups
        let zx = params.inputZeroPoint, zw = params.weightZeroPoint
        context.parallel.forEachChunk(g.batch * g.outH) { rows in
            for row in rows {
                let b = row / g.outH, oy = row % g.outH
                for ox in 0 ..< g.outW {
                    for oc in 0 ..< g.outC {
                        let group = oc / og
                        var acc: Int32 = 0
                        for ky in 0 ..< g.kh {
                            let iy = oy * g.strideH - g.padTop + ky * g.dilationH
                            guard iy >= 0, iy < g.inH else { continue }
                            for kx in 0 ..< g.kw {
                                let ix = ox * g.strideW - g.padLeft + kx * g.dilationW
                                guard ix >= 0, ix < g.inW else { continue }
                                let src = x + ((b * g.inH + iy) * g.inW + ix) * g.inC + group * cg
                                let tap = w + ((oc * g.kh + ky) * g.kw + kx) * cg
                                for i in 0 ..< cg {
                                    acc = acc &+ (Int32(tap[i]) &- zw) &* (Int32(src[i]) &- zx)
                                }
                            }
                        }
                        if let bias { acc = acc &+ bias[oc] }
                        y[(row * g.outW + ox) * g.outC + oc] = T(
                            truncatingIfNeeded: params.requantizer.apply(acc, channel: oc))
                    }
                }
            }
        }
    }
}
