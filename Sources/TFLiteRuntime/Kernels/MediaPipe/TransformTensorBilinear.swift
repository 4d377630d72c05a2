import TFLiteModel

/// MediaPipe's `TransformTensorBilinear` (version 2; version 1 is named `TransformTensor`):
/// resamples a feature map through an affine map, bilinearly (spec/mediapipe-ops.md).
///
/// Inputs: 0 data `[1, H, W, C]`, 1 matrix (16 floats, `[1, 4, 4]`, row-major). Options
/// (FlexBuffers): `output_height`, `output_width`. Output `[1, oh, ow, C]`.
///
/// Output pixel `(ox, oy)` samples the input at `(sx, sy)`, the first two rows of the
/// matrix applied to `(ox, oy, 0, 1)` after (version 2 only) the align-corners correction
/// `t03 += (t00 + t01 − 1) / 2` (and likewise for row 1). A sample point outside
/// `[0, W − 1] × [0, H − 1]` (or NaN) gives 0; inside, the four neighbours are blended
/// with weights `frac(sx)`, `frac(sy)`, and a neighbour past the last row or column reads 0.
/// The blend runs in double precision and is rounded once to float, as MediaPipe's does.
struct TransformTensorBilinear: PreparedKernel {
    static let customName = "TransformTensorBilinear"
    /// Version 1's name: the same sampling without the align-corners correction, options
    /// `mode` (only "bilinear") and `output_size` `[height, width]`.
    static let customNameV1 = "TransformTensor"

    let data: Int, matrix: Int, output: Int
    let inH: Int, inW: Int, channels: Int
    let outH: Int, outW: Int
    let alignCorners: Bool

    static let prepare = make(version: 2)
    static let prepareV1 = make(version: 1)

    static func make(version: Int) -> KernelPrepare {
        { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            _ = try MediaPipeOptions.version(context.op, supported: version ... version)
            try context.expectCounts(inputs: 2, outputs: 1)
            let data = try context.input(0)
            let matrix = try context.input(1)
            let output = try context.output(0)
            guard [data.type, matrix.type, output.type].allSatisfy({ $0 == .float32 }) else {
                throw context.unsupportedTypes()
            }
            guard data.rank == 4, data.shape[0] == 1 else {
                throw .invalid("data must be [1, H, W, C], found \(data.shape)")
            }
            guard matrix.elementCount == 16 else {
                throw .invalid("the matrix must hold 16 values (4x4), found shape \(matrix.shape)")
            }
            let options = try MediaPipeOptions.flexMap(context.op)
            let outH: Int, outW: Int
            if version == 2 {
                outH = try MediaPipeOptions.int(options, "output_height")
                outW = try MediaPipeOptions.int(options, "output_width")
            } else {
                let mode = try MediaPipeOptions.string(options, "mode")
                guard mode == nil || mode == "bilinear" else {
                    throw .invalid("mode \"\(mode ?? "")\" is not \"bilinear\"")
                }
                let size = try MediaPipeOptions.ints(options, "output_size")
                guard size.count == 2 else { throw .invalid("output_size must be [height, width], found \(size)") }
                (outH, outW) = (size[0], size[1])
            }
            guard outH > 0, outW > 0 else { throw .invalid("the output size (\(outH), \(outW)) must be positive") }
            try context.setOutputShape(0, [1, outH, outW, data.shape[3]])
            return TransformTensorBilinear(
                data: data.index, matrix: matrix.index, output: output.index,
                inH: data.shape[1], inW: data.shape[2], channels: data.shape[3],
                outH: outH, outW: outW, alignCorners: version == 2)
        }
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(data, as: Float.self))
        let m = context.pointer(matrix, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        var rowX = (m[0], m[1], m[2], m[3])
        var rowY = (m[4], m[5], m[6], m[7])
        if alignCorners {
            // MediaPipe adds `t0·0.5 + t1·0.5 − 0.5` in double to the float t3.
            rowX.3 = Float(Double(rowX.3) + (Double(rowX.0) * 0.5 + Double(rowX.1) * 0.5 - 0.5))
            rowY.3 = Float(Double(rowY.3) + (Double(rowY.0) * 0.5 + Double(rowY.1) * 0.5 - 0.5))
        }
        let c = channels
        context.parallel.forEachChunk(outH) { rows in
            for oy in rows {
                for ox in 0 ..< outW {
                    let (fx, fy) = (Float(ox), Float(oy))
                    let sx = rowX.0 * fx + rowX.1 * fy + rowX.2 * 0 + rowX.3 * 1
                    let sy = rowY.0 * fx + rowY.1 * fy + rowY.2 * 0 + rowY.3 * 1
                    let out = y + (oy * outW + ox) * c
                    guard sx >= 0, sx <= Float(inW - 1), sy >= 0, sy <= Float(inH - 1) else {
                        out.update(repeating: 0, count: c)
                        continue
                    }
                    sample(x, sx: sx, sy: sy, into: out)
                }
            }
        }
    }

    /// Bilinear sample at `(sx, sy)`, which lies inside the image (checked by the caller).
    @inline(__always)
    func sample(_ x: UnsafePointer<Float>, sx: Float, sy: Float, into out: UnsafeMutablePointer<Float>) {
        let (x0, y0) = (sx.rounded(.down), sy.rounded(.down))
        let (ix, iy) = (Int(x0), Int(y0))
        let right = sx - x0, lower = sy - y0
        let c = channels
        let hasRight = ix + 1 < inW, hasBelow = iy + 1 < inH
        let p11 = x + (iy * inW + ix) * c
        for z in 0 ..< c {
            let q11 = p11[z]
            let q21 = hasRight ? p11[c + z] : 0
            let q12 = hasBelow ? p11[inW * c + z] : 0
            let q22 = hasRight && hasBelow ? p11[(inW + 1) * c + z] : 0
            // MediaPipe's C++ promotes `1.0 - w` to double; products of two floats stay float.
            let upper = Float((1.0 - Double(right)) * Double(q11) + Double(right * q21))
            let below = Float((1.0 - Double(right)) * Double(q12) + Double(right * q22))
            out[z] = Float(Double(lower * below) + (1.0 - Double(lower)) * Double(upper))
        }
    }
}
