import Foundation
import TFLiteModel
@testable import TFLiteRuntime

/// Plain-loop references of the recurrent kernels, written from the definitions in
/// spec/recurrent-ops.md, not from the runtime's code.
enum RecurrentReference {
    /// The activation in double precision (`signBit` is left to its own test).
    static func activate(_ x: Double, _ a: FusedActivation) -> Double {
        switch a {
        case .relu: return Swift.max(x, 0)
        case .relu6: return Swift.min(Swift.max(x, 0), 6)
        case .reluN1To1: return Swift.min(Swift.max(x, -1), 1)
        case .tanh: return Foundation.tanh(x)
        default: return x
        }
    }

    /// One float cell: `y = act(b + W·x + Wa·a + R·h)` (weights row-major), in Double.
    struct Cell {
        var w: [Float], r: [Float], b: [Float], aux: [Float]? = nil
        var units: Int, input: Int, auxSize: Int = 0

        func step(x: ArraySlice<Float>, a: ArraySlice<Float>?, h: inout [Float], _ act: FusedActivation) -> [Float] {
            let x = Array(x), a = a.map(Array.init)
            var y = [Float](repeating: 0, count: units)
            for o in 0 ..< units {
                var s = Double(b[o])
                for i in 0 ..< input { s += Double(w[o * input + i]) * Double(x[i]) }
                if let aux, let a { for i in 0 ..< auxSize { s += Double(aux[o * auxSize + i]) * Double(a[i]) } }
                for i in 0 ..< units { s += Double(r[o * units + i]) * Double(h[i]) }
                y[o] = Float(activate(s, act))
            }
            h = y
            return y
        }
    }

    /// LiteRT's hybrid cell, written as plain loops: each operand row quantized by
    /// ``HybridInput`` (whose rules `HybridTests` checks), exact integer sums, and the float
    /// steps in LiteRT's order. `skip[k]` says operand `k` (input, aux, state) is skipped
    /// (all zeros). `codes` are the int8 weights with per-tensor scales.
    struct HybridCell {
        var w: [Int8], ws: Float, r: [Int8], rs: Float, b: [Float]
        var aux: [Int8]? = nil, auxScale: Float = 0
        var units: Int, input: Int, auxSize: Int = 0
        var asymmetric: Bool

        func contribution(_ values: [Float], _ weights: [Int8], depth: Int, scale ws: Float) -> [Float] {
            var q = [Int8](repeating: 0, count: depth)
            let (scale, zero) = values.withUnsafeBufferPointer { v in
                q.withUnsafeMutableBufferPointer { qb in
                    HybridInput.quantize(
                        v.baseAddress!, count: depth, stride: 1, asymmetric: asymmetric, into: qb.baseAddress!)
                }
            }
            let s = scale * ws
            return (0 ..< units).map { o in
                var acc: Int32 = 0
                for i in 0 ..< depth {
                    acc = acc &+ Int32(weights[o * depth + i]) &* (Int32(q[i]) &- zero)
                }
                return Float(acc) * s
            }
        }

        func step(
            x: [Float], a: [Float]?, h: inout [Float], skip: [Bool], _ act: RecurrentActivation
        ) -> [Float] {
            var y = b
            if !skip[0] { y = zip(y, contribution(x, w, depth: input, scale: ws)).map { $0 + $1 } }
            if let aux, let a, !skip[1] {
                y = zip(y, contribution(a, aux, depth: auxSize, scale: auxScale)).map { $0 + $1 }
            }
            if !skip[2] { y = zip(y, contribution(h, r, depth: units, scale: rs)).map { $0 + $1 } }
            y.withUnsafeMutableBufferPointer { act.apply($0.baseAddress!, count: units) }
            h = y
            return y
        }
    }

    /// Per-tensor symmetric int8 codes and scale of `w` (as the dynamic-range quantizer).
    static func int8(_ w: [Float]) -> ([Int8], Float) {
        let scale = Swift.max(w.map { abs($0) }.max() ?? 1, 1e-6) / 127
        return (w.map { Int8(Swift.max(-127, Swift.min(127, ($0 / scale).rounded()))) }, scale)
    }
}

extension Engine {
    /// The contents of tensor `index` (a variable tensor, say) as `[T]`.
    func tensorValues<T>(_ index: Int, as _: T.Type) throws -> [T] {
        guard let buffer = buffer(forTensor: index) else { throw RuntimeError.notAllocated }
        return Array(buffer.bindMemory(to: T.self))
    }
}
