import Foundation
import TFLiteModel

/// Version 1 of MediaPipe's `Landmarks2TransformMatrix` (spec/mediapipe-ops.md): the
/// matrix mapping a crop of the output size back to pixels of an `input_hw` image, for
/// landmarks in a `landmarks_range`-sized space.
///
/// Input: landmarks `[1, 1, 1, 3N]`. Options (FlexBuffers): `input_hw`, `output_hw`
/// (`[h, w]`), `dimensions` (3), `landmarks_range`, `bbox_size_multiplier`,
/// `left_rotation_idx`, `right_rotation_idx`, `subset` (pairs of landmark indices).
/// With `a = −atan((yR − yL) / (xR − xL))`, the subset's points rotated by `a` give a
/// bounding box (started from ±100000) of size `w × h` scaled by the multiplier and a
/// middle `m`, rotated back by `−a`. The 3×3 product
/// `toAbsolute · R(−a, 2m/range − 1) · diag(w/range, h/range, 1) · toRelative`
/// (`toRelative` maps output pixels to [−1, 1], `toAbsolute` [−1, 1] to input pixels) is
/// written into the 4×4 output with z passed through: rows `(i00, i01, 0, i02)`,
/// `(i10, i11, 0, i12)`, `(i20, i21, i22, 0)`, `(0, 0, 0, 1)`.
struct Landmarks2TransformMatrixV1: PreparedKernel {
    let input: Int, output: Int
    let left: Int, right: Int
    let subset: [Int]
    let inH: Int, inW: Int, outH: Int, outW: Int
    let range: Int
    let multiplier: Float

    static func prepare(_ context: inout PrepareContext) throws(KernelError) -> any PreparedKernel {
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        guard input.type == .float32, output.type == .float32 else { throw context.unsupportedTypes() }
        guard input.rank == 4, input.shape[0] == 1, input.shape[1] == 1, input.shape[2] == 1 else {
            throw .invalid("landmarks must be [1, 1, 1, 3N], found \(input.shape)")
        }
        let options = try MediaPipeOptions.flexMap(context.op)
        let inputHW = try MediaPipeOptions.ints(options, "input_hw")
        let outputHW = try MediaPipeOptions.ints(options, "output_hw")
        guard inputHW.count == 2, outputHW.count == 2 else {
            throw .invalid("input_hw (\(inputHW)) and output_hw (\(outputHW)) must be [height, width]")
        }
        guard inputHW.allSatisfy({ $0 > 0 }), outputHW.allSatisfy({ $0 > 0 }) else {
            throw .invalid("input_hw (\(inputHW)) and output_hw (\(outputHW)) must be positive")
        }
        let dimensions = try MediaPipeOptions.int(options, "dimensions")
        guard dimensions == 3 else { throw .invalid("dimensions \(dimensions) is not 3") }
        let range = try MediaPipeOptions.int(options, "landmarks_range")
        guard range > 0 else { throw .invalid("landmarks_range \(range) must be positive") }
        let multiplier = try MediaPipeOptions.float(options, "bbox_size_multiplier")
        guard multiplier != 0 else { throw .invalid("bbox_size_multiplier must not be 0") }
        let left = try MediaPipeOptions.int(options, "left_rotation_idx")
        let right = try MediaPipeOptions.int(options, "right_rotation_idx")
        var subset = try MediaPipeOptions.ints(options, "subset")
        if subset.count % 2 == 1, let last = subset.last { subset.append(last) }
        try Landmarks2TransformMatrix.checkIndices(
            left: left, right: right, subset: subset, subsetKey: "subset",
            count: input.shape[3] / 3)
        try context.setOutputShape(0, [1, 4, 4])
        return Landmarks2TransformMatrixV1(
            input: input.index, output: output.index, left: left, right: right, subset: subset,
            inH: inputHW[0], inW: inputHW[1], outH: outputHW[0], outW: outputHW[1],
            range: range, multiplier: multiplier)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let p = context.pointer(input, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let (lx, ly) = (p[left * 3], p[left * 3 + 1])
        let (rx, ry) = (p[right * 3], p[right * 3 + 1])
        let a = -atanf((ry - ly) / (rx - lx))
        let (ca, sa) = (cosf(a), sinf(a))
        var maxX: Float = -100_000, maxY: Float = -100_000, minX: Float = 100_000, minY: Float = 100_000
        for i in subset {
            let (x, v) = (p[i * 3], p[i * 3 + 1])
            let px = x * ca - v * sa, py = x * sa + v * ca
            maxX = Swift.max(maxX, px); maxY = Swift.max(maxY, py)
            minX = Swift.min(minX, px); minY = Swift.min(minY, py)
        }
        let r = Float(range)
        let boxW = (maxX - minX) * multiplier, boxH = (maxY - minY) * multiplier
        let midX = Float((Double(maxX) + Double(minX)) / 2.0), midY = Float((Double(maxY) + Double(minY)) / 2.0)
        let (cb, sb) = (cosf(-a), sinf(-a))
        let rotX = midX * cb - midY * sb, rotY = midX * sb + midY * cb
        // MediaPipe's Mat3 constructor takes floats; `x * 2.0 - 1.0` and the ratios are doubles rounded once.
        let scale = Matrix3(boxW / r, 0, 0, 0, boxH / r, 0, 0, 0, 1)
        let rotation = Matrix3(
            cb, -sb, Float(Double(rotX / r) * 2.0 - 1.0), sb, cb, Float(Double(rotY / r) * 2.0 - 1.0), 0, 0, 1)
        let toRelative = Matrix3(
            Float(2.0 / (Double(outW) - 1.0)), 0, -1, 0, Float(2.0 / (Double(outH) - 1.0)), -1, 0, 0, 1)
        let halfW = Float((Double(inW) - 1.0) / 2.0), halfH = Float((Double(inH) - 1.0) / 2.0)
        let toAbsolute = Matrix3(halfW, 0, halfW, 0, halfH, halfH, 0, 0, 1)
        let m = toAbsolute.times(rotation).times(scale).times(toRelative)
        let values = SIMD16<Float>(m[0], m[1], 0, m[2], m[3], m[4], 0, m[5], m[6], m[7], m[8], 0, 0, 0, 0, 1)
        for i in 0 ..< 16 { y[i] = values[i] }
    }
}

/// A row-major 3×3 float matrix, multiplied as MediaPipe's `Mat3` does (each entry
/// accumulated from 0 in k order).
struct Matrix3 {
    /// Entries in lanes 0..<9.
    var m = SIMD16<Float>()

    init(_ a: Float, _ b: Float, _ c: Float, _ d: Float, _ e: Float, _ f: Float, _ g: Float, _ h: Float, _ i: Float) {
        m = SIMD16(a, b, c, d, e, f, g, h, i, 0, 0, 0, 0, 0, 0, 0)
    }

    private init(lanes: SIMD16<Float>) { m = lanes }

    subscript(_ i: Int) -> Float { m[i] }

    func times(_ o: Matrix3) -> Matrix3 {
        var out = SIMD16<Float>()
        for r in 0 ..< 3 {
            for c in 0 ..< 3 {
                var s: Float = 0
                for k in 0 ..< 3 { s += m[r * 3 + k] * o.m[k * 3 + c] }
                out[r * 3 + c] = s
            }
        }
        return Matrix3(lanes: out)
    }
}
