import TFLiteModel
#if arch(x86_64)
import MicrokernelsAVX2
import MicrokernelsAVX512
#elseif arch(arm64)
import MicrokernelsNEON
#endif

extension BinaryElementwise {
    /// The uint8/int8 kernel of `kind` (nil for DIV, and for uint8 SQUARED_DIFFERENCE,
    /// which TFLite's reference kernels do not quantize).
    ///
    /// - ADD/SUB: both operands are brought to a common scale `2·max(s_a, s_b)` with
    ///   20 bits of headroom, `a' = MBQM((a − z_a)·2^20, s_a/(2·max))`, likewise `b'`,
    ///   then `y = MBQM(a' ± b', 2·max/(2^20·s_y)) + z_y` (multipliers from Double).
    /// - MUL: `y = MBQM((a − z_a)(b − z_b), s_a·s_b/s_y) + z_y`, the ratio formed in Float.
    /// - int8 SQUARED_DIFFERENCE: ADD's common scale with 7 bits of headroom,
    ///   `d = MBQM((a − z_a)·2^7, s_a/(2·max)) − MBQM((b − z_b)·2^7, s_b/(2·max))`, then
    ///   `y = MBQM(d², (2·max)²/(2^14·s_y)) + z_y` (``SquaredDifferenceQ8``).
    /// - MAXIMUM/MINIMUM compare the codes and copy one (no requantization).
    /// Every result is clamped to the fused activation's range. At `avx2` and up the
    /// arithmetic ones run eight `Int32` lanes at a time (`binaryQ8AVX2`, the same bits)
    /// where an operand is contiguous or a single code.
    static func quantized<T: QuantizedByte>(
        _: T.Type, _ kind: Kind, _ operands: Operands, activation: FusedActivation,
        a: TensorState, b: TensorState, output: TensorState,
        level: KernelLevel = .portable
    ) throws(KernelError) -> (any PreparedKernel)? {
        func make<Op: QuantizedBinaryOp>(_ op: Op) -> any PreparedKernel {
            BinaryQ8Kernel<Op>(
                signed: T.lowest < 0, a: operands.a, b: operands.b, output: operands.output,
                broadcast: operands.broadcast, op: op)
        }
        switch kind {
        case .maximum: return make(MaximumQ8())
        case .minimum: return make(MinimumQ8())
        case .div: return nil
        case .squaredDifference: guard T.isSigned else { return nil }
        case .add, .sub, .mul: break
        }
        let qa = try QuantizedOperand(a, role: "input 0")
        let qb = try QuantizedOperand(b, role: "input 1")
        let qy = try QuantizedOperand(output, role: "output")
        let range = try activation.quantizedRange(T.self, output: qy)
        if kind == .mul {
            let real = Double(qa.scale * qb.scale / qy.scale)
            return make(
                MulQ8(
                    signed: T.isSigned, zeroA: qa.zeroPoint, zeroB: qb.zeroPoint, zeroY: qy.zeroPoint,
                    multiplier: QuantizedMultiplier(real), lower: range.lower, upper: range.upper, level: level))
        }
        if kind == .squaredDifference {
            return make(try SquaredDifferenceQ8(a: qa, b: qb, output: qy, level: level))
        }
        let twiceMax = Double(2 * Swift.max(qa.scale, qb.scale))
        let realY = twiceMax / Double(Float(1 << AddSubQ8.leftShift) * qy.scale)
        // LiteRT's SUB takes a factor above 1 through its greater-than-one path; its ADD,
        // and both at exactly 1, abort in QuantizeMultiplierSmallerThanOneExp.
        if kind == .sub, realY > 1, realY.isFinite {
            return SubQ8WideRescale(
                signed: T.lowest < 0, operands: operands, shapeA: a.shape, shapeB: b.shape, a: qa, b: qb,
                zeroY: qy.zeroPoint, rescale: realY, lower: range.lower, upper: range.upper)
        }
        guard realY < 1 else {
            throw .invalid(
                "output scale \(qy.scale) is too small for input scales \(qa.scale) and \(qb.scale) (rescale factor \(realY) ≥ 1)"
            )
        }
        let multiplierY = QuantizedMultiplier(realY)
        // realY > 0 (scales are positive), so the mantissa is too; the branch-free form
        // below requires it.
        guard multiplierY.mantissa >= 0 else { throw .invalid("rescale factor \(realY) is negative") }
        return make(
            AddSubQ8(
                subtract: kind == .sub, lowest: T.lowest, highest: T.highest,
                zeroA: qa.zeroPoint, zeroB: qb.zeroPoint, zeroY: qy.zeroPoint,
                multiplierA: QuantizedMultiplier(Double(qa.scale) / twiceMax),
                multiplierB: QuantizedMultiplier(Double(qb.scale) / twiceMax),
                multiplierY: multiplierY, lower: range.lower, upper: range.upper, level: level))
    }
}

#if arch(x86_64)
/// The AVX2 form of an 8-bit binary operator for the level, nil below `avx2` or for
/// parameters it does not take.
func binaryQ8AVX2Parameters(_ level: KernelLevel, _ make: () -> BinaryQ8AVX2Parameters?) -> BinaryQ8AVX2Parameters? {
    level >= .avx2 && level.hasVectorKernels ? make() : nil
}
#endif

/// `y[k] = op.apply(a[k·sa], b[k·sb])` for `k < n`, one element at a time.
@inline(__always)
func scalarBinaryQ8<Op: QuantizedBinaryOp, T: QuantizedByte>(
    _ op: Op, _ a: UnsafePointer<T>, _ sa: Int, _ b: UnsafePointer<T>, _ sb: Int,
    _ y: UnsafeMutableRawPointer, _ n: Int
) {
    for k in 0 ..< n {
        y.storeBytes(
            of: UInt8(truncatingIfNeeded: op.apply(Int32(a[k * sa]), Int32(b[k * sb]))), toByteOffset: k, as: UInt8.self
        )
    }
}

/// An integer function of two 8-bit codes, returning the clamped output code.
protocol QuantizedBinaryOp: Sendable {
    func apply(_ a: Int32, _ b: Int32) -> Int32
    /// `y[k] = apply(a[k * sa], b[k * sb])` for `k < n`, on uint8 and on int8 codes.
    /// Requirements (with the defaults below) so that each op's conformance carries loops
    /// specialized for it: the generic kernel reaches them through the witness table, and
    /// an unspecialized loop calls `apply` and the integer conversions through witnesses
    /// per element.
    func run(
        _ a: UnsafePointer<UInt8>, _ sa: Int, _ b: UnsafePointer<UInt8>, _ sb: Int,
        _ y: UnsafeMutablePointer<UInt8>, _ n: Int)
    func run(
        _ a: UnsafePointer<Int8>, _ sa: Int, _ b: UnsafePointer<Int8>, _ sb: Int,
        _ y: UnsafeMutablePointer<Int8>, _ n: Int)
    /// `run` over `rows` rows of `columns` outputs stored one after another, row `r`
    /// reading `a + r·rowA` and `b + r·rowB` (``Broadcast/rows``): one call for a whole
    /// broadcast pattern, so a vector kernel sets its constants up once, not once a row.
    func runRows(
        _ a: UnsafeRawPointer, _ sa: Int, _ rowA: Int, _ b: UnsafeRawPointer, _ sb: Int, _ rowB: Int,
        _ y: UnsafeMutableRawPointer, rows: Int, columns: Int, signed: Bool)
}

extension QuantizedBinaryOp {
    func run(
        _ a: UnsafePointer<UInt8>, _ sa: Int, _ b: UnsafePointer<UInt8>, _ sb: Int,
        _ y: UnsafeMutablePointer<UInt8>, _ n: Int
    ) {
        loop(a, sa, b, sb, y, n)
    }

    func run(
        _ a: UnsafePointer<Int8>, _ sa: Int, _ b: UnsafePointer<Int8>, _ sb: Int,
        _ y: UnsafeMutablePointer<Int8>, _ n: Int
    ) {
        loop(a, sa, b, sb, y, n)
    }

    func runRows(
        _ a: UnsafeRawPointer, _ sa: Int, _ rowA: Int, _ b: UnsafeRawPointer, _ sb: Int, _ rowB: Int,
        _ y: UnsafeMutableRawPointer, rows: Int, columns: Int, signed: Bool
    ) {
        eachRow(a, sa, rowA, b, sb, rowB, y, rows: rows, columns: columns, signed: signed)
    }

    /// `runRows` as one `run` a row.
    @inline(__always)
    func eachRow(
        _ a: UnsafeRawPointer, _ sa: Int, _ rowA: Int, _ b: UnsafeRawPointer, _ sb: Int, _ rowB: Int,
        _ y: UnsafeMutableRawPointer, rows: Int, columns: Int, signed: Bool
    ) {
        for r in 0 ..< rows {
            let pa = a + r * rowA, pb = b + r * rowB, py = y + r * columns
            if signed {
                run(
                    pa.assumingMemoryBound(to: Int8.self), sa, pb.assumingMemoryBound(to: Int8.self), sb,
                    py.assumingMemoryBound(to: Int8.self), columns)
            } else {
                run(
                    pa.assumingMemoryBound(to: UInt8.self), sa, pb.assumingMemoryBound(to: UInt8.self), sb,
                    py.assumingMemoryBound(to: UInt8.self), columns)
            }
        }
    }

    /// Contiguous operands and a broadcast one get their own loops, which LLVM vectorizes
    /// (a stride read from memory would make every load a gather).
    @inline(__always)
    private func loop<T: QuantizedByte>(
        _ a: UnsafePointer<T>, _ sa: Int, _ b: UnsafePointer<T>, _ sb: Int,
        _ y: UnsafeMutablePointer<T>, _ n: Int
    ) {
        switch (sa, sb) {
        case (1, 1):
            for k in 0 ..< n { y[k] = T(truncatingIfNeeded: apply(Int32(a[k]), Int32(b[k]))) }
        case (1, 0):
            let vb = Int32(b[0])
            for k in 0 ..< n { y[k] = T(truncatingIfNeeded: apply(Int32(a[k]), vb)) }
        case (0, 1):
            let va = Int32(a[0])
            for k in 0 ..< n { y[k] = T(truncatingIfNeeded: apply(va, Int32(b[k]))) }
        default:
            for k in 0 ..< n {
                y[k] = T(truncatingIfNeeded: apply(Int32(a[k * sa]), Int32(b[k * sb])))
            }
        }
    }
}

struct AddSubQ8: QuantizedBinaryOp, @unchecked Sendable {
    static let leftShift = 20
    let subtract: Bool
    let zeroY: Int32
    let lower: Int32, upper: Int32
    let output: Requantizer.FixedChannel
    /// The output rescale's lane constants (``FixedChannelLanes``), nil if it shifts left.
    private let outputLanes: (mantissa: UInt32, divider: UInt32, half: UInt32)?
    /// `scaledA[code]`, `scaledB[code]` for every code of the type (pointers offset so
    /// that codes index them directly); `storage` keeps them alive.
    private let scaledA: UnsafePointer<Int32>, scaledB: UnsafePointer<Int32>
    private let storage: AlignedBuffer
    /// At the levels with vector microkernels (``KernelLevel/avx2`` and up, every aarch64
    /// level): the output rescale's mantissa, left and right shifts repeated for a block of
    /// 64 lanes (the per-channel form `requantizeQ31AVX2` and `requantizeQ31NEON` take),
    /// else nil.
    private let blockConstants: AlignedBuffer?
    #if arch(x86_64)
    /// At ``KernelLevel/avx512``: the whole operation in 16 lanes without the tables
    /// (`addQ8AVX512`), for contiguous operands.
    private let wide: AddQ8AVX512Parameters?
    /// At `avx2` and up: the whole operation in eight lanes (`binaryQ8AVX2`), for operands
    /// that are contiguous or one code.
    private let avx2: BinaryQ8AVX2Parameters?
    #endif

    init(
        subtract: Bool, lowest: Int32, highest: Int32, zeroA: Int32, zeroB: Int32, zeroY: Int32,
        multiplierA: QuantizedMultiplier, multiplierB: QuantizedMultiplier, multiplierY: QuantizedMultiplier,
        lower: Int32, upper: Int32, level: KernelLevel = .portable
    ) {
        self.subtract = subtract
        self.zeroY = zeroY
        self.lower = lower
        self.upper = upper
        output = Requantizer.FixedChannel(mantissa: multiplierY.mantissa, exponent: multiplierY.exponent)
        outputLanes = FixedChannelLanes(mantissas: [multiplierY.mantissa], exponents: [multiplierY.exponent])
            .flatMap {
                $0.shiftsLeft ? nil : (mantissa: $0.constants[0], divider: $0.constants[1], half: $0.constants[2])
            }
        let codes = Int(highest - lowest) + 1
        storage = AlignedBuffer(uninitializedCount: 2 * codes * MemoryLayout<Int32>.stride)
        let table = storage.typed(Int32.self)
        for code in lowest ... highest {
            // |code − zero| ≤ 255, so the shifted values stay below 2^29.
            table[Int(code - lowest)] = multiplierA.apply((code - zeroA) << Int32(Self.leftShift))
            table[codes + Int(code - lowest)] = multiplierB.apply((code - zeroB) << Int32(Self.leftShift))
        }
        scaledA = UnsafePointer(table) - Int(lowest)
        scaledB = UnsafePointer(table) + codes - Int(lowest)
        #if arch(x86_64)
        wide =
            level >= .avx512
            ? AddQ8AVX512Parameters(
                signed: lowest < 0, subtract: subtract, zeroA: zeroA, mantissaA: multiplierA.mantissa,
                exponentA: multiplierA.exponent, zeroB: zeroB, mantissaB: multiplierB.mantissa,
                exponentB: multiplierB.exponent, mantissaY: multiplierY.mantissa, exponentY: multiplierY.exponent,
                zeroY: zeroY, lower: lower, upper: upper) : nil
        avx2 = binaryQ8AVX2Parameters(level) {
            BinaryQ8AVX2Parameters(
                operation: subtract ? .subtract : .add, signed: lowest < 0, zeroA: zeroA,
                mantissaA: multiplierA.mantissa, exponentA: multiplierA.exponent, zeroB: zeroB,
                mantissaB: multiplierB.mantissa, exponentB: multiplierB.exponent, mantissaY: multiplierY.mantissa,
                exponentY: multiplierY.exponent, zeroY: zeroY, lower: lower, upper: upper)
        }
        #endif
        let e = multiplierY.exponent
        if level.hasVectorKernels, (-31 ... 30).contains(e), multiplierY.mantissa >= 0 {
            let constants = AlignedBuffer(uninitializedCount: 3 * Self.block * MemoryLayout<Int32>.stride)
            let c = constants.typed(Int32.self)
            for i in 0 ..< Self.block {
                c[i] = multiplierY.mantissa
                c[Self.block + i] = Int32(Swift.max(e, 0))
                c[2 * Self.block + i] = Int32(Swift.max(-e, 0))
            }
            blockConstants = constants
        } else {
            blockConstants = nil
        }
    }

    /// Elements per block of table sums.
    static let block = 64

    @inline(__always)
    func apply(_ a: Int32, _ b: Int32) -> Int32 {
        let sa = scaledA[Int(a)], sb = scaledB[Int(b)]
        let y = output.apply(subtract ? sa &- sb : sa &+ sb) &+ Int64(zeroY)
        return Int32(truncatingIfNeeded: Swift.min(Swift.max(y, Int64(lower)), Int64(upper)))
    }

    func run(
        _ a: UnsafePointer<UInt8>, _ sa: Int, _ b: UnsafePointer<UInt8>, _ sb: Int,
        _ y: UnsafeMutablePointer<UInt8>, _ n: Int
    ) {
        blocks(a, sa, b, sb, UnsafeMutableRawPointer(y), n)
    }

    func run(
        _ a: UnsafePointer<Int8>, _ sa: Int, _ b: UnsafePointer<Int8>, _ sb: Int,
        _ y: UnsafeMutablePointer<Int8>, _ n: Int
    ) {
        blocks(a, sa, b, sb, UnsafeMutableRawPointer(y), n)
    }

    func runRows(
        _ a: UnsafeRawPointer, _ sa: Int, _ rowA: Int, _ b: UnsafeRawPointer, _ sb: Int, _ rowB: Int,
        _ y: UnsafeMutableRawPointer, rows: Int, columns: Int, signed: Bool
    ) {
        #if arch(x86_64)
        if wide == nil, let avx2, sa <= 1, sb <= 1 {
            return binaryQ8RowsAVX2(a, sa, rowA, b, sb, rowB, y, rows: rows, columns: columns, avx2)
        }
        #endif
        eachRow(a, sa, rowA, b, sb, rowB, y, rows: rows, columns: columns, signed: signed)
    }

    /// `tmp[i] = scaledA[a[i·sa]] ± scaledB[b[i·sb]]`: a block's rescaled operands summed.
    @inline(__always)
    private func sums<T: QuantizedByte>(
        _ pa: UnsafePointer<T>, _ sa: Int, _ pb: UnsafePointer<T>, _ sb: Int, _ count: Int,
        into tmp: UnsafeMutablePointer<Int32>
    ) {
        if subtract {
            for i in 0 ..< count { tmp[i] = scaledA[Int(pa[i * sa])] &- scaledB[Int(pb[i * sb])] }
        } else {
            for i in 0 ..< count { tmp[i] = scaledA[Int(pa[i * sa])] &+ scaledB[Int(pb[i * sb])] }
        }
    }

    /// `apply` over blocks of 64: the table sums, then the output rescale four lanes at a
    /// time (``FixedChannelLanes``, the same bits as ``Requantizer/FixedChannel``: the
    /// output multiplier is below 1, so there is no left shift), then clamp and narrow.
    @inline(__always)
    private func blocks<T: QuantizedByte>(
        _ a: UnsafePointer<T>, _ sa: Int, _ b: UnsafePointer<T>, _ sb: Int,
        _ y: UnsafeMutableRawPointer, _ n: Int
    ) {
        #if arch(x86_64)
        if let wide, sa == 1, sb == 1 {
            addQ8AVX512(a, b, y, count: n, wide)
            return
        }
        if let avx2, sa <= 1, sb <= 1 {
            binaryQ8AVX2(a, sa, b, sb, y, count: n, avx2)
            return
        }
        #endif
        #if arch(x86_64) || arch(arm64)
        if let blockConstants {
            let c = UnsafePointer(blockConstants.typed(Int32.self))
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: Self.block) { tb in
                guard let tmp = tb.baseAddress else { return }
                var k0 = 0
                while k0 < n {
                    let count = Swift.min(Self.block, n - k0)
                    let pa = a + k0 * sa, pb = b + k0 * sb
                    sums(pa, sa, pb, sb, count, into: tmp)
                    #if arch(x86_64)
                    requantizeQ31AVX2(
                        tmp, rows: 1, count: count, accStride: count, bias: nil, mantissa: c,
                        left: c + Self.block, shiftsLeft: c[Self.block] != 0, right: c + 2 * Self.block,
                        outputZeroPoint: zeroY,
                        lower: lower, upper: upper, into: y + k0, outStride: count)
                    #else
                    requantizeQ31NEON(
                        tmp, rows: 1, count: count, accStride: count, bias: nil, mantissa: c,
                        left: c + Self.block, shiftsLeft: c[Self.block] != 0, right: c + 2 * Self.block,
                        outputZeroPoint: zeroY,
                        lower: lower, upper: upper, into: y + k0, outStride: count)
                    #endif
                    k0 += count
                }
            }
            return
        }
        #endif
        guard let lanes = outputLanes else {
            for k in 0 ..< n {
                y.storeBytes(
                    of: UInt8(truncatingIfNeeded: apply(Int32(a[k * sa]), Int32(b[k * sb]))), toByteOffset: k,
                    as: UInt8.self)
            }
            return
        }
        let m = SIMD4<UInt32>(repeating: lanes.mantissa), d = SIMD4<UInt32>(repeating: lanes.divider)
        let h = SIMD4<UInt32>(repeating: lanes.half)
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 64) { tb in
            guard let tmp = tb.baseAddress else { return }
            var k0 = 0
            while k0 < n {
                let count = Swift.min(64, n - k0)
                let pa = a + k0 * sa, pb = b + k0 * sb
                sums(pa, sa, pb, sb, count, into: tmp)
                let raw = UnsafeMutableRawPointer(tmp)
                for i in stride(from: 0, to: count, by: 4) { // tmp has room for 64: a partial tail is harmless
                    let s = raw.loadUnaligned(fromByteOffset: 4 * i, as: SIMD4<Int32>.self)
                    raw.storeBytes(
                        of: FixedChannelLanes.apply(s, mantissa: m, divider: d, half: h), toByteOffset: 4 * i,
                        as: SIMD4<Int32>.self)
                }
                let out = y + k0
                for i in 0 ..< count {
                    var v = tmp[i] &+ zeroY
                    v = v < lower ? lower : v
                    v = v > upper ? upper : v
                    out.storeBytes(of: UInt8(truncatingIfNeeded: v), toByteOffset: i, as: UInt8.self)
                }
                k0 += count
            }
        }
    }
}

struct MulQ8: QuantizedBinaryOp {
    let zeroA: Int32, zeroB: Int32, zeroY: Int32
    let multiplier: QuantizedMultiplier
    let lower: Int32, upper: Int32
    #if arch(x86_64)
    let avx2: BinaryQ8AVX2Parameters?
    #endif

    init(
        signed: Bool, zeroA: Int32, zeroB: Int32, zeroY: Int32, multiplier: QuantizedMultiplier, lower: Int32,
        upper: Int32, level: KernelLevel
    ) {
        (self.zeroA, self.zeroB, self.zeroY, self.multiplier) = (zeroA, zeroB, zeroY, multiplier)
        (self.lower, self.upper) = (lower, upper)
        #if arch(x86_64)
        avx2 = binaryQ8AVX2Parameters(level) {
            BinaryQ8AVX2Parameters(
                operation: .multiply, signed: signed, zeroA: zeroA, zeroB: zeroB, mantissaY: multiplier.mantissa,
                exponentY: multiplier.exponent, zeroY: zeroY, lower: lower, upper: upper)
        }
        #endif
    }

    @inline(__always)
    func apply(_ a: Int32, _ b: Int32) -> Int32 {
        let y = multiplier.apply((a - zeroA) * (b - zeroB)) + zeroY
        return Swift.min(Swift.max(y, lower), upper)
    }

    func run(
        _ a: UnsafePointer<UInt8>, _ sa: Int, _ b: UnsafePointer<UInt8>, _ sb: Int,
        _ y: UnsafeMutablePointer<UInt8>, _ n: Int
    ) {
        #if arch(x86_64)
        if let avx2, sa <= 1, sb <= 1 { return binaryQ8AVX2(a, sa, b, sb, y, count: n, avx2) }
        #endif
        scalarBinaryQ8(self, a, sa, b, sb, y, n)
    }

    func run(
        _ a: UnsafePointer<Int8>, _ sa: Int, _ b: UnsafePointer<Int8>, _ sb: Int,
        _ y: UnsafeMutablePointer<Int8>, _ n: Int
    ) {
        #if arch(x86_64)
        if let avx2, sa <= 1, sb <= 1 { return binaryQ8AVX2(a, sa, b, sb, y, count: n, avx2) }
        #endif
        scalarBinaryQ8(self, a, sa, b, sb, y, n)
    }

    func runRows(
        _ a: UnsafeRawPointer, _ sa: Int, _ rowA: Int, _ b: UnsafeRawPointer, _ sb: Int, _ rowB: Int,
        _ y: UnsafeMutableRawPointer, rows: Int, columns: Int, signed: Bool
    ) {
        #if arch(x86_64)
        if let avx2, sa <= 1, sb <= 1 {
            return binaryQ8RowsAVX2(a, sa, rowA, b, sb, rowB, y, rows: rows, columns: columns, avx2)
        }
        #endif
        eachRow(a, sa, rowA, b, sb, rowB, y, rows: rows, columns: columns, signed: signed)
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
struct BinaryQ8Kernel<Op: QuantizedBinaryOp>: PreparedKernel {
    /// int8 (else uint8) codes.
    let signed: Bool
    let a: Int
    let b: Int
    let output: Int
    let broadcast: Broadcast
    let op: Op

    func eval(_ context: EvalContext) throws(KernelError) {
        let (sa, sb) = broadcast.innerStrides
        let broadcast = self.broadcast
        let op = self.op
        if let (rows, columns, rowA, rowB) = broadcast.rows {
            // Whole rows per thread, each thread's in one call.
            let pa = UnsafeRawPointer(context.raw(a)), pb = UnsafeRawPointer(context.raw(b))
            let py = context.raw(output), signed = self.signed
            context.parallel.forEachChunk(rows, minimumChunk: Swift.max(1, (1 << 11) / Swift.max(columns, 1))) {
                range in
                op.runRows(
                    pa + range.lowerBound * rowA, sa, rowA, pb + range.lowerBound * rowB, sb, rowB,
                    py + range.lowerBound * columns, rows: range.count, columns: columns, signed: signed)
            }
            return
        }
        if signed {
            let pa = UnsafePointer(context.pointer(a, as: Int8.self)),
                pb = UnsafePointer(context.pointer(b, as: Int8.self))
            let py = context.pointer(output, as: Int8.self)
            context.parallel.forEachChunk(broadcast.elementCount, minimumChunk: 1 << 11) { range in
                broadcast.forEachRun(in: range) { o, ia, ib, n in op.run(pa + ia, sa, pb + ib, sb, py + o, n) }
            }
        } else {
            let pa = UnsafePointer(context.pointer(a, as: UInt8.self)),
                pb = UnsafePointer(context.pointer(b, as: UInt8.self))
            let py = context.pointer(output, as: UInt8.self)
            context.parallel.forEachChunk(broadcast.elementCount, minimumChunk: 1 << 11) { range in
                broadcast.forEachRun(in: range) { o, ia, ib, n in op.run(pa + ia, sa, pb + ib, sb, py + o, n) }
            }
        }
    }
}
