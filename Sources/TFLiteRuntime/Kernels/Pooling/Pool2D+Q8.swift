import TFLiteModel

/// Quantized (uint8 / int8) pooling on the codes themselves, as TFLite does: the input and
/// output must share scale and zero point (checked at prepare), so averaging or taking the
/// maximum of codes is the same as doing it on real values.
///
/// Average: the `Int32` sum over the in-image window divided by the pixel count `n`,
/// rounded half up for uint8 (`(sum + n/2) / n`) and half away from zero for int8
/// (`(sum ± n/2) / n` with C's truncating division). Max: the largest code. Then the
/// fused activation's clamp.
enum Pool2DQ8 {
    static func make(
        _ context: inout PrepareContext, kind: Pool2D.Kind, input: TensorState, output: TensorState,
        geometry: Pool2D.Geometry, activation: FusedActivation,
        separable: Bool
    ) throws(KernelError) -> any PreparedKernel {
        guard output.type == input.type else { throw context.unsupportedTypes() }
        let (qmin, qmax): (Int32, Int32) = input.type == .uint8 ? (0, 255) : (-128, 127)
        let (sIn, zIn) = try QuantizedConvParams.perTensor(input, "input", qmin: qmin, qmax: qmax)
        let (sOut, zOut) = try QuantizedConvParams.perTensor(output, "output", qmin: qmin, qmax: qmax)
        guard abs(sIn - sOut) <= 1e-6, zIn == zOut else {
            throw .invalid(
                "input and output must share scale and zero point, found (\(sIn), \(zIn)) and (\(sOut), \(zOut))")
        }
        guard let range = FixedPoint.activationRange(activation, scale: sOut, zeroPoint: zOut, qmin: qmin, qmax: qmax)
        else {
            throw .invalid("fused activation \(activation.name) is not supported")
        }
        guard separable else {
            return Pool2DQ8Kernel(
                signed: input.type == .int8, kind: kind, input: input.index, output: output.index,
                geometry: geometry, lower: range.lower, upper: range.upper)
        }
        func make<R: PoolReduction>(_ reduction: R) throws(KernelError) -> Pool2DSeparable<R> {
            try Pool2DSeparable.make(
                &context, reduction: reduction, input: input.index, output: output.index, geometry: geometry)
        }
        let (lower, upper) = range
        switch (kind, input.type == .int8) {
        case (.max, false): return SeparablePool.maxU8(try make(MaxPoolQ8<UInt8>(lower: lower, upper: upper)))
        case (.max, true): return SeparablePool.maxI8(try make(MaxPoolQ8<Int8>(lower: lower, upper: upper)))
        case (.average, false):
            return SeparablePool.averageU8(try make(AveragePoolQ8<UInt8>(lower: lower, upper: upper)))
        case (.average, true): return SeparablePool.averageI8(try make(AveragePoolQ8<Int8>(lower: lower, upper: upper)))
        }
    }
}

/// Per output pixel and channel, a reduction over the clipped window; work is split over
/// output rows.
struct Pool2DQ8Kernel: Quantized8Kernel {
    let signed: Bool
    let kind: Pool2D.Kind
    let input: Int, output: Int
    let geometry: Pool2D.Geometry
    let lower: Int32, upper: Int32

    func run<T: Quantized8>(_ context: EvalContext, _: T.Type) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let g = geometry
        let signed = T.isSigned
        context.parallel.forEachChunk(g.batch * g.outH) { rows in
            for row in rows {
                let b = row / g.outH, oy = row % g.outH
                let ys = Pool2D.Geometry.window(oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
                let image = x + b * g.inH * g.inW * g.channels
                for ox in 0 ..< g.outW {
                    let xs = Pool2D.Geometry.window(
                        ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW)
                    let out = y + (row * g.outW + ox) * g.channels
                    let n = Int32(ys.count * xs.count) // ≥ 1: prepare rejects empty windows
                    for c in 0 ..< g.channels {
                        var v: Int32
                        switch kind {
                        case .average:
                            var sum: Int32 = 0
                            for iy in ys {
                                for ix in xs { sum = sum &+ Int32(image[(iy * g.inW + ix) * g.channels + c]) }
                            }
                            v = signed && sum <= 0 ? (sum &- n / 2) / n : (sum &+ n / 2) / n
                        case .max:
                            v = Int32(T.min)
                            for iy in ys {
                                for ix in xs { v = Swift.max(v, Int32(image[(iy * g.inW + ix) * g.channels + c])) }
                            }
                        }
                        out[c] = T(truncatingIfNeeded: Swift.min(Swift.max(v, lower), upper))
                    }
                }
            }
        }
    }
}
