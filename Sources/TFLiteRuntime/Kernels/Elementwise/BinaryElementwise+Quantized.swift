import TFLiteModel

extension BinaryElementwise {
    /// The uint8/int8 kernel of `kind` (nil for DIV and SQUARED_DIFFERENCE, which
    /// TFLite's reference kernels do not quantize this way).
    ///
    /// - ADD/SUB: both operands are brought to a common scale `2·max(s_a, s_b)` with
    ///   20 bits of headroom, `a' = MBQM((a − z_a)·2^20, s_a/(2·max))`, likewise `b'`,
    ///   then `y = MBQM(a' ± b', 2·max/(2^20·s_y)) + z_y` (multipliers from Double).
    /// - MUL: `y = MBQM((a − z_a)(b − z_b), s_a·s_b/s_y) + z_y`, the ratio formed in Float.
    /// - MAXIMUM/MINIMUM compare the codes and copy one (no requantization).
    /// Every result is clamped to the fused activation's range.
    static func quantized<T: QuantizedByte>(_: T.Type, _ kind: Kind, _ operands: Operands, activation: FusedActivation,
                                            a: TensorState, b: TensorState, output: TensorState) throws(KernelError) -> (any PreparedKernel)? {
        func make<Op: QuantizedBinaryOp>(_ op: Op) -> any PreparedKernel {
            QuantizedBinaryKernel<T, Op>(a: operands.a, b: operands.b, output: operands.output,
                                         broadcast: operands.broadcast, op: op)
        }
        switch kind {
        case .maximum: return make(MaximumQ8())
        case .minimum: return make(MinimumQ8())
        case .div, .squaredDifference: return nil
        case .add, .sub, .mul: break
        }
        let qa = try QuantizedOperand(a, role: "input 0")
        let qb = try QuantizedOperand(b, role: "input 1")
        let qy = try QuantizedOperand(output, role: "output")
        let range = try activation.quantizedRange(T.self, output: qy)
        if kind == .mul {
            let real = Double(qa.scale * qb.scale / qy.scale)
            return make(MulQ8(zeroA: qa.zeroPoint, zeroB: qb.zeroPoint, zeroY: qy.zeroPoint,
                              multiplier: QuantizedMultiplier(real), lower: range.lower, upper: range.upper))
        }
        let twiceMax = Double(2 * Swift.max(qa.scale, qb.scale))
        let realY = twiceMax / Double(Float(1 << AddSubQ8.leftShift) * qy.scale)
        // TFLite's QuantizeMultiplierSmallerThanOneExp aborts otherwise.
        guard realY < 1 else {
            throw .invalid("output scale \(qy.scale) is too small for input scales \(qa.scale) and \(qb.scale) (rescale factor \(realY) ≥ 1)")
        }
        return make(AddSubQ8(subtract: kind == .sub, zeroA: qa.zeroPoint, zeroB: qb.zeroPoint, zeroY: qy.zeroPoint,
                             multiplierA: QuantizedMultiplier(Double(qa.scale) / twiceMax),
                             multiplierB: QuantizedMultiplier(Double(qb.scale) / twiceMax),
                             multiplierY: QuantizedMultiplier(realY), lower: range.lower, upper: range.upper))
    }
}

/// An integer function of two 8-bit codes, returning the clamped output code.
protocol QuantizedBinaryOp: Sendable {
    func apply(_ a: Int32, _ b: Int32) -> Int32
}

extension QuantizedBinaryOp {
    /// `y[k] = apply(a[k * sa], b[k * sb])` for `k < n`. Kept in an extension of the op
    /// protocol, so each concrete op gets its own specialized loop.
    @inline(__always)
    func run<T: QuantizedByte>(_ a: UnsafePointer<T>, _ sa: Int, _ b: UnsafePointer<T>, _ sb: Int,
                               _ y: UnsafeMutablePointer<T>, _ n: Int) {
        for k in 0 ..< n {
            y[k] = T(truncatingIfNeeded: apply(a[k * sa].code, b[k * sb].code))
        }
    }
}

struct AddSubQ8: QuantizedBinaryOp {
    static let leftShift = 20
    let subtract: Bool
    let zeroA: Int32, zeroB: Int32, zeroY: Int32
    let multiplierA: QuantizedMultiplier
    let multiplierB: QuantizedMultiplier
    let multiplierY: QuantizedMultiplier
    let lower: Int32, upper: Int32

    @inline(__always)
    func apply(_ a: Int32, _ b: Int32) -> Int32 {
        // |code − zero| ≤ 255, so the shifted values stay below 2^29.
        let sa = multiplierA.apply((a - zeroA) << Int32(Self.leftShift))
        let sb = multiplierB.apply((b - zeroB) << Int32(Self.leftShift))
        let y = multiplierY.apply(subtract ? sa - sb : sa + sb) + zeroY
        return Swift.min(Swift.max(y, lower), upper)
    }
}

struct MulQ8: QuantizedBinaryOp {
    let zeroA: Int32, zeroB: Int32, zeroY: Int32
    let multiplier: QuantizedMultiplier
    let lower: Int32, upper: Int32

    @inline(__always)
    func apply(_ a: Int32, _ b: Int32) -> Int32 {
        let y = multiplier.apply((a - zeroA) * (b - zeroB)) + zeroY
        return Swift.min(Swift.max(y, lower), upper)
    }
}

struct MaximumQ8: QuantizedBinaryOp {
    @inline(__always) func apply(_ a: Int32, _ b: Int32) -> Int32 { a > b ? a : b }
}

struct MinimumQ8: QuantizedBinaryOp {
    @inline(__always) func apply(_ a: Int32, _ b: Int32) -> Int32 { a < b ? a : b }
}

/// `output = Op(a, b)` over 8-bit codes with `a` and `b` broadcast to the output shape.
/// Each output element is computed on its own, so results do not depend on the thread count.
struct QuantizedBinaryKernel<T: QuantizedByte, Op: QuantizedBinaryOp>: PreparedKernel {
    let a: Int
    let b: Int
    let output: Int
    let broadcast: Broadcast
    let op: Op

    func eval(_ context: EvalContext) throws(KernelError) {
        let pa = UnsafePointer(context.pointer(a, as: T.self))
        let pb = UnsafePointer(context.pointer(b, as: T.self))
        let py = context.pointer(output, as: T.self)
        let (sa, sb) = broadcast.innerStrides
        let broadcast = self.broadcast
        let op = self.op
        context.parallel.forEachChunk(broadcast.elementCount, minimumChunk: 1 << 14) { range in
            broadcast.forEachRun(in: range) { o, ia, ib, n in
                op.run(pa + ia, sa, pb + ib, sb, py + o, n)
            }
        }
    }
}
