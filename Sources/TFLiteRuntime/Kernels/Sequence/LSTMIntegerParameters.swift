import Foundation
import TFLiteModel

/// The precomputed arithmetic of the 8-bit-activation, 16-bit-cell LSTM (TFLite's
/// `8x8_16` integer kernel, the form its post-training quantizer emits), from the scales
/// of the operands and of the operator's five intermediate tensors (spec/sequence-ops.md).
struct LSTMIntegerParameters: Sendable {
    /// A quantized multiplier `(M, e)`: `x ↦ MBQM(x, M, e)`.
    struct Multiplier: Sendable {
        var mantissa: Int32 = 0, exponent: Int = 0
        init() {}
        init(_ scale: Double) { (mantissa, exponent) = FixedPoint.quantizeMultiplier(scale) }
        @inline(__always) func apply(_ x: Int32) -> Int32 {
            FixedPoint.multiplyByQuantizedMultiplier(x, mantissa, exponent)
        }
    }

    /// Per gate (i, f, c, o): input product, recurrent product, peephole product, layer norm.
    var input = [Multiplier](repeating: Multiplier(), count: 4)
    var recurrent = [Multiplier](repeating: Multiplier(), count: 4)
    var peephole = [Multiplier](repeating: Multiplier(), count: 4)
    var layerNorm = [Multiplier](repeating: Multiplier(), count: 4)
    var varianceGuard: [Int32] = [1, 1, 1, 1]
    var hidden = Multiplier()
    var projection = Multiplier()
    var hiddenZeroPoint: Int32 = 0
    var outputStateZeroPoint: Int32 = 0
    /// log2 of the cell state's scale (-30 ... 0; TFLite's cell tanh needs -15 ... -9).
    var cellScale: Int32 = 0
    var cellClip: Int32 = 0
    var projClip: Int32 = 0

    static func make(
        _ context: PrepareContext, _ o: LSTMOperands, input: TensorState, output: TensorState, options: LSTMOptions
    ) throws(KernelError) -> LSTMIntegerParameters {
        func scale(_ t: TensorState?, _ role: String) throws(KernelError) -> Float {
            guard let t else { return 1 }
            guard let q = t.quantization, let s = q.scales.first, q.scales.count == 1, s.isFinite, s > 0 else {
                throw .invalid("the \(role) (tensor \(t.index)) needs one positive quantization scale")
            }
            return s
        }
        var p = LSTMIntegerParameters()
        let intermediates = context.op.intermediates
        guard intermediates.count == 5 else {
            throw .invalid(
                "the integer LSTM needs 5 intermediate tensors (gate and hidden scales), found \(intermediates.count)")
        }
        var gateScales: [Float] = []
        for g in 0 ..< 4 {
            if o.layerNormalized {
                let t = context.tensors[intermediates[g]]
                gateScales.append(try scale(t, "gate intermediate \(g)"))
            } else {
                gateScales.append(1.0 / 4096) // 2^-12
            }
        }
        let hiddenTensor = context.tensors[intermediates[4]]
        let hiddenScale = try scale(hiddenTensor, "hidden intermediate")
        p.hiddenZeroPoint = hiddenTensor.zeroPoint ?? 0
        let inputScale = try scale(input, "input")
        let outputStateScale = try scale(o.outputState, "output state")
        p.outputStateZeroPoint = o.outputState.zeroPoint ?? 0
        let cellStateScale = try scale(o.cellState, "cell state")
        let log2 = Double(cellStateScale).log2Rounded
        guard let cellScale = log2, (-30 ... 0).contains(cellScale) else {
            throw .invalid("the cell state's scale \(cellStateScale) must be a power of two from 2^-30 to 1")
        }
        // TFLite's tanh of the cell takes 0 to 6 integer bits (scales 2^-15 ... 2^-9); for
        // other scales its kernel leaves the tanh buffer as it was, which holds the step's
        // input gate, or, with CIFG, nothing written in the step at all.
        if !(-15 ... -9).contains(cellScale), o.cifg {
            throw .invalid(
                "a CIFG integer LSTM needs a cell state scale from 2^-15 to 2^-9, found \(cellStateScale) (TFLite's kernel then reads an unwritten buffer)"
            )
        }
        p.cellScale = Int32(cellScale)
        for g in o.gates {
            let wx = try scale(o.inputWeights[g], "input weights"),
                wh = try scale(o.recurrentWeights[g], "recurrent weights")
            // TFLite forms these products in single precision.
            p.input[g] = Multiplier(Double(wx * inputScale / gateScales[g]))
            p.recurrent[g] = Multiplier(Double(wh * outputStateScale / gateScales[g]))
            if g != 2, let c = o.peepholes[g] {
                let s = Float(pow2(cellScale) * Double(try scale(c, "peephole weights")) / Double(gateScales[g]))
                p.peephole[g] = Multiplier(Double(s))
            }
            if let ln = o.layerNorm[g] {
                let s = try scale(ln, "layer norm coefficients")
                p.layerNorm[g] = Multiplier(Double(s))
                let guardValue = Double(10000 * s).rounded(.towardZero)
                p.varianceGuard[g] = guardValue >= Double(Int32.max) ? .max : Swift.max(1, Int32(guardValue))
            }
        }
        p.hidden = Multiplier(Double(Float(pow2(-15) / Double(hiddenScale) * pow2(-15))))
        if let w = o.projectionWeights {
            p.projection = Multiplier(Double(try scale(w, "projection weights") * hiddenScale / outputStateScale))
        }
        if options.cellClip > 0 {
            p.cellClip = Int32(
                Swift.min(Swift.max(options.cellClip / cellStateScale, -32768), 32767).rounded(.towardZero))
        }
        if options.projClip > 0 {
            let outputScale = try scale(output, "output")
            p.projClip = Int32(Swift.min(Swift.max(options.projClip / outputScale, -128), 127).rounded(.towardZero))
        }
        return p
    }

    static func pow2(_ e: Int) -> Double { Double(sign: .plus, exponent: e, significand: 1) }
}

extension Double {
    /// `round(log2(x))` when `x` is within 0.1% (in the exponent) of a power of two, as
    /// TFLite's `CheckedLog2` accepts; nil otherwise.
    var log2Rounded: Int? {
        guard self > 0, isFinite else { return nil }
        let l = Foundation.log2(self)
        let r = l.rounded()
        return Swift.abs(l - r) < 1e-3 ? Int(r) : nil
    }
}
