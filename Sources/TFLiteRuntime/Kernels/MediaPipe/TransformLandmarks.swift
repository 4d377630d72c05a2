import TFLiteModel

/// MediaPipe's `TransformLandmarks` (version 2): applies the affine part of a 4×4
/// row-major matrix to 2-D or 3-D landmarks (spec/mediapipe-ops.md).
///
/// Inputs: 0 landmarks `[1, N, D]` with `D` 2 or 3, 1 matrix (16 floats, `[1, 4, 4]`).
/// `x' = m00·x + m01·y + m03`, `y' = m10·x + m11·y + m13` (z is taken as 0 and w as 1);
/// a third coordinate is copied. No options.
struct TransformLandmarks: PreparedKernel {
    static let customName = "TransformLandmarks"

    let landmarks: Int, matrix: Int, output: Int
    let count: Int, dimensions: Int

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try MediaPipeOptions.requireVersion2(context.op, "whose landmarks are [1, N, D]")
        try context.expectCounts(inputs: 2, outputs: 1)
        let landmarks = try context.input(0)
        let matrix = try context.input(1)
        let output = try context.output(0)
        guard [landmarks.type, matrix.type, output.type].allSatisfy({ $0 == .float32 }) else { throw context.unsupportedTypes() }
        guard landmarks.rank == 3, landmarks.shape[0] == 1, landmarks.shape[2] == 2 || landmarks.shape[2] == 3 else {
            throw .invalid("landmarks must be [1, N, 2] or [1, N, 3], found \(landmarks.shape)")
        }
        guard matrix.elementCount == 16 else { throw .invalid("the matrix must hold 16 values (4x4), found shape \(matrix.shape)") }
        try context.setOutputShape(0, landmarks.shape)
        return TransformLandmarks(landmarks: landmarks.index, matrix: matrix.index, output: output.index,
                                  count: landmarks.shape[1], dimensions: landmarks.shape[2])
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = context.pointer(landmarks, as: Float.self)
        let m = context.pointer(matrix, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        // The z term multiplies 0 but is kept: 0 · inf is NaN, as in MediaPipe's dot product.
        for i in 0 ..< count {
            let p = x + i * dimensions
            let (px, py) = (p[0], p[1])
            let q = y + i * dimensions
            q[0] = m[0] * px + m[1] * py + m[2] * 0 + m[3] * 1
            q[1] = m[4] * px + m[5] * py + m[6] * 0 + m[7] * 1
            if dimensions == 3 { q[2] = p[2] }
        }
    }
}
