#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Microkernels
import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
#endif

extension UnaryActivation {
    /// int16 LOGISTIC and TANH as TFLite's reference kernels: interpolation in a 256-node
    /// table of σ (``SigmoidInterpolationS16``), after putting the input on the table's
    /// scale of `1/(3·2^12)` per unit (``SigmoidS16/inputScaling(_:logistic:)``).
    ///
    /// TFLite's requirements, refused here as there: zero points 0; an output scale whose
    /// `log2` rounds to −15 (TANH; within TFLite's `CheckedLog2` tolerance of 10^-3) or that
    /// is exactly 1/32768 (LOGISTIC). Also refused: an input scale of `2^31/(3·2^12)` or
    /// more, whose multiplier overflows the `Int32` TFLite converts it to (its result is
    /// then undefined). Other kinds have no int16 kernel (nil).
    static func int16(
        _ kind: Kind, _ operands: Operands, input: TensorState, output: TensorState, level: KernelLevel
    ) throws(KernelError) -> (any PreparedKernel)? {
        guard kind == .tanh || kind == .logistic else { return nil }
        let name = kind == .tanh ? "TANH" : "LOGISTIC"
        let qx = try QuantizedOperand(input, role: "input")
        let qy = try QuantizedOperand(output, role: "output")
        guard qx.zeroPoint == 0, qy.zeroPoint == 0 else {
            throw .invalid(
                "int16 \(name) needs zero points 0, found \(qx.zeroPoint) (input) and \(qy.zeroPoint) (output)")
        }
        if kind == .logistic {
            guard Double(qy.scale) == 1.0 / 32768 else {
                throw .invalid("int16 LOGISTIC needs an output scale of 1/32768, found \(qy.scale)")
            }
        } else {
            guard let log2 = SigmoidS16.checkedLog2(qy.scale), log2 == -15 else {
                throw .invalid("int16 TANH needs an output scale of 2^-15, found \(qy.scale)")
            }
        }
        guard let scaling = SigmoidS16.inputScaling(qx.scale, logistic: kind == .logistic) else {
            throw .invalid(
                "int16 \(name)'s input scale \(qx.scale) is too large for its fixed-point multiplier (2^31/12288 or more)"
            )
        }
        return SigmoidS16(
            input: operands.input, output: operands.output, count: operands.count, logistic: kind == .logistic,
            multiplier: scaling.multiplier, shift: scaling.shift, vector: level >= .avx2 && level.hasVectorKernels)
    }
}

/// int16 LOGISTIC or TANH (see ``UnaryActivation/int16(_:_:input:output:level:)``).
struct SigmoidS16: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int
    let logistic: Bool
    let multiplier: Int32
    let shift: Int32
    let vector: Bool
    /// ``SigmoidTableQ16/logisticNodes`` or `tanhNodes`, held here so eval reads no global.
    let nodes: [UInt32]

    init(input: Int, output: Int, count: Int, logistic: Bool, multiplier: Int32, shift: Int32, vector: Bool) {
        self.input = input
        self.output = output
        self.count = count
        self.logistic = logistic
        self.multiplier = multiplier
        self.shift = shift
        self.vector = vector
        nodes = logistic ? SigmoidTableQ16.logisticNodes : SigmoidTableQ16.tanhNodes
    }

    /// TFLite's `CheckedLog2`, in `Float` as it computes it: `l = ln(x) · (1/ln 2)`, rounded
    /// half away from zero, when `|l − round(l)| < 10^-3`; nil otherwise. So scales within
    /// about 0.07 % of a power of two count as one.
    static func checkedLog2(_ x: Float) -> Int? {
        let l = logf(x) * (1 / logf(2))
        let rounded = l.rounded(.toNearestOrAwayFromZero)
        guard abs(l - rounded) < 1e-3, abs(rounded) < 1e6 else { return nil }
        return Int(rounded)
    }

    /// The `(M, s)` that put an input code on the table's scale, `d = (x·M + 2^(s−1)) >> s`,
    /// as TFLite's prepare chooses them:
    /// - a power-of-two input scale (``checkedLog2(_:)``) of 2^-12 (`M = 3`, `s = 0`) or, for
    ///   TANH only, 2^-11 (`M = 6`): `d` is then exact;
    /// - any other scale: `m = s_x · 3 · 2^12` (in `Double`) doubled `s` times, the fewest
    ///   that bring it above 2^14 − 1/2 (at most 31), and `M = ⌊m⌋`.
    /// Nil when that `M` would not fit an `Int32` (only when `s = 0`, for `s_x ≥ 2^31/12288`).
    static func inputScaling(_ scale: Float, logistic: Bool) -> (multiplier: Int32, shift: Int32)? {
        if let log2 = checkedLog2(scale) {
            let shift = 12 + log2
            if shift == 0 || (shift == 1 && !logistic) { return (3 << Int32(shift), 0) }
        }
        var m = Double(scale) * 4096 * 3
        var shift: Int32 = 0
        while m <= 32767.0 / 2 && shift <= 30 {
            shift += 1
            m *= 2
        }
        guard m < 2_147_483_648 else { return nil }
        return (Int32(m), shift)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Int16.self))
        let y = context.pointer(output, as: Int16.self)
        let (logistic, multiplier, shift, vector) = (self.logistic, self.multiplier, self.shift, self.vector)
        nodes.withUnsafeBufferPointer { nodes in
            let t = nodes.baseAddress.unsafelyUnwrapped
            context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
                let n = range.count, i = range.lowerBound
                #if arch(x86_64)
                if vector {
                    return sigmoidInterpolationS16AVX2(
                        x + i, y + i, count: n, logistic: logistic, multiplier: multiplier, shift: shift, nodes: t)
                }
                #endif
                sigmoidInterpolationS16Portable(
                    x + i, y + i, count: n, logistic: logistic, multiplier: multiplier, shift: shift, nodes: t)
            }
        }
    }
}
