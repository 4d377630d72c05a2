import TFLiteModel

/// How a scatter combines the current element with an update, per storage type. Integer
/// ADD and MULTIPLY wrap (their low bits do not depend on signedness); float16 computes
/// in float32 and rounds; MAXIMUM is `a < b ? b : a` and MINIMUM `b < a ? b : a` with `a`
/// the current element, as LiteRT's `std::max` and `std::min`.
enum ScatterCombine: Sendable, Equatable {
    case replace(bytes: Int)
    case add(Storage), multiply(Storage), maximum(Storage), minimum(Storage)

    enum Storage: Sendable, Equatable { case f16, f32, f64, s8, u8, s16, u16, s32, u32, s64, u64 }

    init?(_ operation: StableHLOComputation.Operation, _ type: ElementType) {
        let storage: Storage
        switch type {
        case .float16: storage = .f16
        case .float32: storage = .f32
        case .float64: storage = .f64
        case .int8: storage = .s8
        case .uint8: storage = .u8
        case .int16: storage = .s16
        case .uint16: storage = .u16
        case .int32: storage = .s32
        case .uint32: storage = .u32
        case .int64: storage = .s64
        case .uint64: storage = .u64
        default: return nil
        }
        switch operation {
        case .replace:
            guard let size = type.byteSize else { return nil }
            self = .replace(bytes: size)
        case .add: self = .add(storage)
        case .multiply: self = .multiply(storage)
        case .maximum: self = .maximum(storage)
        case .minimum: self = .minimum(storage)
        case .logicalAnd, .logicalOr: return nil
        }
    }
}

/// The update is the result.
enum ReplaceOp<T: ClampableScalar>: BinaryElementOp {
    @inline(__always) static func apply(_ a: T, _ b: T) -> T { b }
}

struct StableHLOScatterKernel: PreparedKernel {
    let operand: Int, indices: Int, updates: Int, output: Int
    let plan: ScatterPlan
    let combine: ScatterCombine
    let wideIndices: Bool
    /// Scratch for one chunk's target offsets (-1: skipped).
    let targets: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let bytes = plan.operandShape.reduce(1, *) * elementBytes
        copyTensor(from: context.raw(operand), to: context.raw(output), bytes: bytes)
        switch combine {
        case .replace(let size):
            switch size {
            case 1: scatter(context, ReplaceOp<UInt8>.self)
            case 2: scatter(context, ReplaceOp<UInt16>.self)
            case 4: scatter(context, ReplaceOp<UInt32>.self)
            default: scatter(context, ReplaceOp<UInt64>.self)
            }
        case .add(let s):
            switch s {
            case .f16: scatter(context, AddF16.self)
            case .f32: scatter(context, AddFloat.self)
            case .f64: scatter(context, AddDouble.self)
            case .s8, .u8: scatter(context, AddWrap8.self)
            case .s16, .u16: scatter(context, AddWrap16.self)
            case .s32, .u32: scatter(context, AddWrap32.self)
            case .s64, .u64: scatter(context, AddWrap64.self)
            }
        case .multiply(let s):
            switch s {
            case .f16: scatter(context, MulF16.self)
            case .f32: scatter(context, MulFloat.self)
            case .f64: scatter(context, MulDouble.self)
            case .s8, .u8: scatter(context, MulWrap8.self)
            case .s16, .u16: scatter(context, MulWrap16.self)
            case .s32, .u32: scatter(context, MulWrap32.self)
            case .s64, .u64: scatter(context, MulWrap64.self)
            }
        case .maximum(let s):
            switch s {
            case .f16: scatter(context, MaxF16.self)
            case .f32: scatter(context, HLOMaxF32.self)
            case .f64: scatter(context, HLOMaxF64.self)
            case .s8: scatter(context, HLOMaxS8.self)
            case .u8: scatter(context, HLOMaxU8.self)
            case .s16: scatter(context, HLOMaxS16.self)
            case .u16: scatter(context, HLOMaxU16.self)
            case .s32: scatter(context, HLOMaxS32.self)
            case .u32: scatter(context, HLOMaxU32.self)
            case .s64: scatter(context, HLOMaxS64.self)
            case .u64: scatter(context, HLOMaxU64.self)
            }
        case .minimum(let s):
            switch s {
            case .f16: scatter(context, MinF16.self)
            case .f32: scatter(context, HLOMinF32.self)
            case .f64: scatter(context, HLOMinF64.self)
            case .s8: scatter(context, HLOMinS8.self)
            case .u8: scatter(context, HLOMinU8.self)
            case .s16: scatter(context, HLOMinS16.self)
            case .u16: scatter(context, HLOMinU16.self)
            case .s32: scatter(context, HLOMinS32.self)
            case .u32: scatter(context, HLOMinU32.self)
            case .s64: scatter(context, HLOMinS64.self)
            case .u64: scatter(context, HLOMinU64.self)
            }
        }
    }

    private var elementBytes: Int {
        switch combine {
        case .replace(let size): return size
        case .add(let s), .multiply(let s), .maximum(let s), .minimum(let s):
            switch s {
            case .s8, .u8: return 1
            case .f16, .s16, .u16: return 2
            case .f32, .s32, .u32: return 4
            case .f64, .s64, .u64: return 8
            }
        }
    }

    /// Applies the updates in row-major order, a chunk at a time: first the chunk's target
    /// offsets, then the combination (one pass each, so the type-specific loop is small).
    private func scatter<Op: BinaryElementOp>(_ context: EvalContext, _: Op.Type) {
        let y = context.pointer(output, as: Op.Scalar.self)
        let u = UnsafePointer(context.pointer(updates, as: Op.Scalar.self))
        let offsets = context.scratch(targets, as: Int.self)
        var start = 0
        while start < plan.updateCount {
            let count = Swift.min(ScatterPlan.chunk, plan.updateCount - start)
            findTargets(context, from: start, count: count, into: offsets)
            for e in 0 ..< count where offsets[e] >= 0 {
                y[offsets[e]] = Op.apply(y[offsets[e]], u[start + e])
            }
            start += count
        }
    }

    /// The operand offset each of update elements `start ..< start + count` lands on, or
    /// -1 when it lies outside the operand.
    private func findTargets(
        _ context: EvalContext, from start: Int, count: Int, into offsets: UnsafeMutablePointer<Int>
    ) {
        let p = plan
        let rawIndices = UnsafeRawPointer(context.raw(indices))
        let rank = p.operandShape.count, updateRank = p.updatesShape.count
        withUnsafeTemporaryAllocation(of: Int.self, capacity: Swift.max(rank + updateRank, 1)) { scratch in
            guard let position = scratch.baseAddress else { return }
            let coords = position + rank
            var rest = start
            for d in stride(from: updateRank - 1, through: 0, by: -1) {
                coords[d] = rest % p.updatesShape[d]
                rest /= p.updatesShape[d]
            }
            for e in 0 ..< count {
                var indexBase = 0
                for d in 0 ..< updateRank { indexBase += coords[d] * p.indexStride[d] }
                for d in 0 ..< rank { position[d] = 0 }
                for k in 0 ..< p.vectorLength {
                    let at = indexBase + k * p.vectorStride
                    position[p.startTarget[k]] =
                        wideIndices
                        ? Int(rawIndices.load(fromByteOffset: 8 * at, as: Int64.self))
                        : Int(rawIndices.load(fromByteOffset: 4 * at, as: Int32.self))
                }
                var inside = true
                for d in 0 ..< updateRank {
                    guard let t = p.windowTarget[d] else { continue }
                    let (sum, overflow) = position[t].addingReportingOverflow(coords[d])
                    position[t] = sum
                    inside = inside && !overflow
                }
                var offset = 0
                for d in 0 ..< rank {
                    inside = inside && position[d] >= 0 && position[d] < p.operandShape[d]
                    offset += inside ? position[d] * p.operandStrides[d] : 0
                }
                offsets[e] = inside ? offset : -1
                // Next update element, row-major.
                var d = updateRank - 1
                while d >= 0 {
                    coords[d] += 1
                    if coords[d] < p.updatesShape[d] { break }
                    coords[d] = 0
                    d -= 1
                }
            }
        }
    }
}
