import TFLiteModel

/// RESIZE_NEAREST_NEIGHBOR: every output pixel copies the `depth` values of one source pixel.
///
/// Per axis, output position `o` reads source
/// `s = min(alignCorners ? round((o + off) * scale) : floor((o + off) * scale), in - 1)`,
/// `off = halfPixelCenters ? 0.5 : 0`, computed in Float with round half away from zero;
/// with half-pixel centers `s` is also clamped at 0. TFLite accepts alignCorners together
/// with halfPixelCenters here (unlike bilinear) and so do we.
///
/// The copy is type-agnostic, so float32, int32 and 8/16-bit quantized tensors share one
/// kernel; quantized input and output must have the same scale and zero point, since
/// values are copied, not requantized.
enum ResizeNearestNeighbor {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard case .resizeNearestNeighbor(let options) = context.op.options else {
            throw .invalid("missing ResizeNearestNeighborOptions")
        }
        let geometry = try ResizeGeometry.prepare(&context)
        let input = try context.input(0)
        let output = try context.output(0)
        switch input.type {
        case .float32, .int32:
            break
        case .uint8, .int8, .int16:
            guard
                input.quantization == nil || output.quantization == nil
                    || (input.quantization?.scales == output.quantization?.scales
                        && input.quantization?.zeroPoints == output.quantization?.zeroPoints)
            else {
                throw .invalid("input and output quantization must be equal")
            }
        default:
            throw context.unsupportedTypes()
        }
        // Byte size is known for the types above.
        let elementSize = input.type.byteSize ?? 1
        let tables = try ResizeAxisTables.request(
            &context, rows: geometry.outputHeight, columns: geometry.outputWidth,
            entryBytes: MemoryLayout<Int>.stride)
        return ResizeNearestNeighborCopy(
            input: input.index, output: output.index, geometry: geometry,
            pixelBytes: geometry.depth * elementSize, options: options, tables: tables)
    }

    /// Source index along one axis for every output position, into `sources[0 ..< output]`.
    static func fillSources(_ sources: UnsafeMutablePointer<Int>, input: Int, output: Int, options: ResizeOptions) {
        let scale = ResizeGeometry.scale(input: input, output: output, alignCorners: options.alignCorners)
        let offset: Float = options.halfPixelCenters ? 0.5 : 0
        for o in 0 ..< output {
            let v = (Float(o) + offset) * scale
            let s = Int(options.alignCorners ? v.rounded() : v.rounded(.down))
            // The lower clamp is TFLite's for half-pixel centers; otherwise `s >= 0` already.
            sources[o] = Swift.max(Swift.min(s, input - 1), 0)
        }
    }
}

struct ResizeNearestNeighborCopy: PreparedKernel {
    let input: Int
    let output: Int
    let geometry: ResizeGeometry
    let pixelBytes: Int
    let options: ResizeOptions
    let tables: ResizeAxisTables

    func eval(_ context: EvalContext) throws(KernelError) {
        let (rows, columns) = tables.views(context, geometry, as: Int.self)
        ResizeNearestNeighbor.fillSources(
            rows, input: geometry.inputHeight, output: geometry.outputHeight, options: options)
        ResizeNearestNeighbor.fillSources(
            columns, input: geometry.inputWidth, output: geometry.outputWidth, options: options)
        let x = UnsafeRawPointer(context.raw(input))
        let y = context.raw(output)
        let g = geometry
        let pixel = pixelBytes
        let inRow = g.inputWidth * pixel, inImage = g.inputHeight * inRow
        let outRow = g.outputWidth * pixel
        context.parallel.forEachChunk(g.batch * g.outputHeight, minimumChunk: 4) { range in
            for r in range {
                let b = r / g.outputHeight, oy = r % g.outputHeight
                let source = x + b * inImage + rows[oy] * inRow
                let out = y + r * outRow
                for ox in 0 ..< g.outputWidth {
                    (out + ox * pixel).copyMemory(from: source + columns[ox] * pixel, byteCount: pixel)
                }
            }
        }
    }
}
