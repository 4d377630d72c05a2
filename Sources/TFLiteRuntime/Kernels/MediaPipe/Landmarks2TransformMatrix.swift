import Foundation
import TFLiteModel

/// MediaPipe's `Landmarks2TransformMatrix` (version 2; version 1 is
/// ``Landmarks2TransformMatrixV1``): the 4×4 matrix that maps a crop
/// of `output_width × output_height` pixels, rotated and scaled around a subset of
/// landmarks, back to the landmarks' coordinates (spec/mediapipe-ops.md).
///
/// Input: landmarks `[1, N, 3]`. Options (FlexBuffers): `left_rotation_idx`,
/// `right_rotation_idx`, `target_rotation_radians`, `subset_idxs` (pairs of landmark
/// indices; an odd last one pairs with itself), `output_height`, `output_width`,
/// `scale_x`, `scale_y`. Output `[1, 4, 4]`, row-major:
/// `T = shift(center) · rotate(−r) · scale(sx·w/ow, sy·h/oh) · shift(−ow/2, −oh/2)`, where
/// `r = target − atan2(yR − yL, xR − xL)`, and `center`, `w`, `h` are those of the subset's
/// bounding box after rotating its points by `r`, the center rotated back by `−r`.
struct Landmarks2TransformMatrix: PreparedKernel {
    static let customName = "Landmarks2TransformMatrix"

    let input: Int, output: Int
    let left: Int, right: Int
    let targetRotation: Float
    /// Landmark indices of the subset, pairs flattened (both of a pair are used alike).
    let subset: [Int]
    let outH: Int, outW: Int
    let scaleX: Float, scaleY: Float

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        if try MediaPipeOptions.version(context.op, supported: 1 ... 2) == 1 {
            return try Landmarks2TransformMatrixV1.prepare(&context)
        }
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        guard input.type == .float32, output.type == .float32 else { throw context.unsupportedTypes() }
        guard input.rank == 3, input.shape[0] == 1, input.shape[2] == 3 else {
            throw .invalid("landmarks must be [1, N, 3], found \(input.shape)")
        }
        let count = input.shape[1]
        let options = try MediaPipeOptions.flexMap(context.op)
        let left = try MediaPipeOptions.int(options, "left_rotation_idx")
        let right = try MediaPipeOptions.int(options, "right_rotation_idx")
        var subset = try MediaPipeOptions.ints(options, "subset_idxs")
        if subset.count % 2 == 1, let last = subset.last { subset.append(last) }
        let outH = try MediaPipeOptions.int(options, "output_height")
        let outW = try MediaPipeOptions.int(options, "output_width")
        let scaleX = try MediaPipeOptions.float(options, "scale_x")
        let scaleY = try MediaPipeOptions.float(options, "scale_y")
        let target = try MediaPipeOptions.float(options, "target_rotation_radians")
        try checkIndices(left: left, right: right, subset: subset, subsetKey: "subset_idxs", count: count)
        guard outH > 0, outW > 0 else {
            throw .invalid("output_height (\(outH)) and output_width (\(outW)) must be positive")
        }
        guard scaleX > 0, scaleY > 0 else {
            throw .invalid("scale_x (\(scaleX)) and scale_y (\(scaleY)) must be positive")
        }
        try context.setOutputShape(0, [1, 4, 4])
        return Landmarks2TransformMatrix(
            input: input.index, output: output.index, left: left, right: right,
            targetRotation: target, subset: subset, outH: outH, outW: outW,
            scaleX: scaleX, scaleY: scaleY)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let p = context.pointer(input, as: Float.self)
        let y = context.pointer(output, as: Float.self)
        let (lx, ly) = (p[left * 3], p[left * 3 + 1])
        let (rx, ry) = (p[right * 3], p[right * 3 + 1])
        let r = targetRotation - atan2f(ry - ly, rx - lx)
        // Rotate the subset by r (as 3-vectors with z = 1, summed in MediaPipe's order).
        let (cr, sr) = (cosf(r), sinf(r))
        var minX = Float(0), maxX = Float(0), minY = Float(0), maxY = Float(0)
        for (k, i) in subset.enumerated() {
            let (x, v) = (p[i * 3], p[i * 3 + 1])
            let rx = Self.dot3(cr, -sr, 0, x, v)
            let ry = Self.dot3(sr, cr, 0, x, v)
            if k == 0 {
                (minX, maxX, minY, maxY) = (rx, rx, ry, ry)
            } else {
                if maxX < rx { maxX = rx }
                if maxY < ry { maxY = ry }
                if minX > rx { minX = rx }
                if minY > ry { minY = ry }
            }
        }
        let width = maxX - minX, height = maxY - minY
        let cx = (minX + maxX) / 2, cy = (minY + maxY) / 2
        let (ci, si) = (cosf(-r), sinf(-r))
        let centerX = Self.dot3(ci, -si, 0, cx, cy)
        let centerY = Self.dot3(si, ci, 0, cx, cy)
        let back = -r
        let (cb, sb) = (cosf(back), sinf(back))
        let sx = scaleX * width / Float(outW)
        let sy = scaleY * height / Float(outH)
        let shiftX = Float(-1.0 * (Double(outW) / 2.0))
        let shiftY = Float(-1.0 * (Double(outH) / 2.0))
        var t = SIMD16<Float>(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
        t = Self.multiply(t, SIMD16<Float>(1, 0, 0, centerX, 0, 1, 0, centerY, 0, 0, 1, 0, 0, 0, 0, 1))
        t = Self.multiply(t, SIMD16<Float>(cb, -sb, 0, 0, sb, cb, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
        t = Self.multiply(t, SIMD16<Float>(sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1))
        t = Self.multiply(t, SIMD16<Float>(1, 0, 0, shiftX, 0, 1, 0, shiftY, 0, 0, 1, 0, 0, 0, 0, 1))
        for i in 0 ..< 16 { y[i] = t[i] }
    }

    /// Refuses rotation and subset indices that are not landmarks of the input (MediaPipe
    /// reads whatever memory they point at), and an empty subset.
    static func checkIndices(left: Int, right: Int, subset: [Int], subsetKey: String, count: Int) throws(KernelError) {
        for (name, index) in [("left_rotation_idx", left), ("right_rotation_idx", right)]
        where !(0 ..< count).contains(index) {
            throw .invalid("\(name) \(index) is not a landmark index (0..<\(count))")
        }
        guard !subset.isEmpty else { throw .invalid("\(subsetKey) is empty") }
        if let bad = subset.first(where: { !(0 ..< count).contains($0) }) {
            throw .invalid("\(subsetKey) holds \(bad), which is not a landmark index (0..<\(count))")
        }
    }

    /// `a·x + b·y + c·1`, accumulated from 0 in that order.
    @inline(__always)
    static func dot3(_ a: Float, _ b: Float, _ c: Float, _ x: Float, _ y: Float) -> Float {
        var s: Float = 0
        s += a * x
        s += b * y
        s += c * 1
        return s
    }

    /// Row-major 4×4 product `a · b`, each entry summed from 0 over k in order.
    static func multiply(_ a: SIMD16<Float>, _ b: SIMD16<Float>) -> SIMD16<Float> {
        var out = SIMD16<Float>()
        for r in 0 ..< 4 {
            for c in 0 ..< 4 {
                var s: Float = 0
                for k in 0 ..< 4 { s += a[r * 4 + k] * b[k * 4 + c] }
                out[r * 4 + c] = s
            }
        }
        return out
    }
}
