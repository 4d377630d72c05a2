import TFLiteModel

/// MediaPipe's `TransformLandmarks`: applies the affine part of a 4×4 row-major matrix to
/// 2-D or 3-D landmarks (spec/mediapipe-ops.md).
///
/// Inputs: 0 landmarks, 1 matrix (16 floats, `[1, 4, 4]`).
/// `x' = m00·x + m01·y + m02·0 + s·m03`, `y' = m10·x + m11·y + m12·0 + s·m13`; a third
/// coordinate is copied.
/// - Version 2: landmarks `[1, N, D]` with `D` 2 or 3, `s = 1`, no options.
/// - Version 1: landmarks `[1, H, W, C]` read as groups of `D` values; options
///   (FlexBuffers) `dimensions` (`D`, 2 or 3, dividing `C`) and `scale` (`s`, not 0).
struct TransformLandmarks: PreparedKernel {
    static let customName = "TransformLandmarks"

    let landmarks: Int, matrix: Int, output: Int
    let count: Int, dimensions: Int
    let scale: Float

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        let version = try MediaPipeOptions.version(context.op, supported: 1 ... 2)
        try context.expectCounts(inputs: 2, outputs: 1)
        let landmarks = try context.input(0)
        let matrix = try context.input(1)
        let output = try context.output(0)
        guard [landmarks.type, matrix.type, output.type].allSatisfy({ $0 == .float32 }) else {
            throw context.unsupportedTypes()
        }
        guard matrix.elementCount == 16 else {
            throw .invalid("the matrix must hold 16 values (4x4), found shape \(matrix.shape)")
        }
        let shape = landmarks.shape
        let dimensions: Int, scale: Float
        if version == 2 {
            guard shape.count == 3, shape[0] == 1, shape[2] == 2 || shape[2] == 3 else {
                throw .invalid("landmarks must be [1, N, 2] or [1, N, 3], found \(shape)")
            }
            (dimensions, scale) = (shape[2], 1)
        } else {
            let options = try MediaPipeOptions.flexMap(context.op)
            dimensions = try MediaPipeOptions.int(options, "dimensions")
            scale = try MediaPipeOptions.float(options, "scale")
            guard dimensions == 2 || dimensions == 3 else { throw .invalid("dimensions \(dimensions) is not 2 or 3") }
            guard scale != 0, scale.isFinite else { throw .invalid("scale \(scale) must be finite and not 0") }
            guard shape.count == 4, shape[0] == 1, shape[3] % dimensions == 0 else {
                throw .invalid("landmarks must be [1, H, W, C] with C a multiple of \(dimensions), found \(shape)")
            }
        }
        try context.setOutputShape(0, shape)
        return TransformLandmarks(
            landmarks: landmarks.index, matrix: matrix.index, output: output.index,
            count: landmarks.elementCount / dimensions, dimensions: dimensions, scale: scale)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = context.pointer(landmarks, as: Float.self)
        let m = context.pointer(matrix, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let (tx, ty) = (m[3] * scale, m[7] * scale)
        // The z term multiplies 0 but is kept: 0 · inf is NaN, as in MediaPipe's dot product.
        for i in 0 ..< count {
            let p = x + i * dimensions
            let (px, py) = (p[0], p[1])
            let q = y + i * dimensions
            q[0] = m[0] * px + m[1] * py + m[2] * 0 + tx * 1
            q[1] = m[4] * px + m[5] * py + m[6] * 0 + ty * 1
            if dimensions == 3 { q[2] = p[2] }
        }
    }
}
