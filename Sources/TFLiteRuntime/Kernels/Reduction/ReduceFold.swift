import TFLiteModel

/// REDUCE_MIN, REDUCE_MAX (all but float32), REDUCE_PROD, REDUCE_ANY and REDUCE_ALL: a fold of the
/// reduced elements of each output element, in row-major order, starting from the fold's
/// identity. Axes and `keep_dims` work as for ``Reduce`` (constant int32 or int64 axes,
/// negative counting from the end, duplicates allowed).
///
/// - REDUCE_MIN: `acc < x ? acc : x` from the type's largest value (`+∞` for float32), so
///   an empty reduction gives that value, as in TFLite. int8/uint8 compare codes, which
///   requires the output to be quantized like the input.
/// - REDUCE_MAX: `x > acc ? x : acc` from the type's smallest value, codes compared as
///   for MIN. float32 REDUCE_MAX is ``Reduce``'s vectorized kernel.
/// - REDUCE_PROD: `acc · x` from 1 (float32, int32, int64 and unquantized int8, uint8 and
///   int16; integers wrap). Quantized int8 and int16 rescale every step
///   (``ReduceProdQuantizedKernel``); TFLite has no quantized uint8 product.
/// - REDUCE_ANY: `acc || x` over bool from `false` (any nonzero byte is true).
/// - REDUCE_ALL: `acc && x` over bool from `true`, so an empty reduction is true.
enum ReduceFold {
    enum Kind: Sendable { case min, max, product, any, all }

    static func prepare(_ kind: Kind) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 2, outputs: 1)
            let input = try context.input(0)
            if kind == .max, input.type == .float32 { return try Reduce.prepare(.max)(&context) }
            let axesTensor = try context.input(1)
            let output = try context.output(0)
            guard input.type == output.type else { throw context.unsupportedTypes() }
            let keepDims: Bool
            switch context.op.options {
            case .reducer(let k): keepDims = k
            case .none: keepDims = false
            default: throw .invalid("unexpected options \(context.op.options)")
            }
            var axes: [Int] = []
            for a in try ShapeSupport.constantIntegers(axesTensor, role: "axes") {
                axes.append(try ShapeSupport.normalizedAxis(a, rank: input.rank))
            }
            let geometry = try ReductionGeometry(shape: input.shape, axes: axes, keepDims: keepDims)
            let element: FoldElement
            switch (kind, input.type) {
            case (.any, .bool), (.all, .bool): element = .bool
            case (.min, .float32), (.product, .float32): element = .float32
            case (.min, .int32), (.max, .int32), (.product, .int32): element = .int32
            case (.min, .int64), (.max, .int64), (.product, .int64): element = .int64
            case (.min, .int16), (.max, .int16), (.min, .int8), (.max, .int8), (.min, .uint8), (.max, .uint8):
                try ShapeSupport.requireSameQuantization([input], output: output)
                element = FoldElement(input.type)
            case (.product, .int8), (.product, .int16), (.product, .uint8):
                if input.quantization != nil {
                    guard input.type != .uint8 else { throw context.unsupportedTypes() }
                    try context.setOutputShape(0, geometry.outputShape)
                    return try ReduceProdQuantizedKernel.prepare(
                        input: input, output: output, walk: ReductionWalk(geometry),
                        reducedCount: geometry.reducedCount)
                }
                try ShapeSupport.requireSameQuantization([input], output: output)
                element = FoldElement(input.type)
            default: throw context.unsupportedTypes()
            }
            try context.setOutputShape(0, geometry.outputShape)
            return ReduceFoldKernel(
                kind: kind, element: element, input: input.index, output: output.index,
                walk: ReductionWalk(geometry))
        }
    }
}

enum FoldElement: Sendable {
    case float32, int32, int64, int16, int8, uint8, bool

    /// The element of a one- or two-byte integer type (uint8 otherwise).
    init(_ type: ElementType) {
        switch type {
        case .int8: self = .int8
        case .int16: self = .int16
        default: self = .uint8
        }
    }
}

/// Every layout of a ``ReductionGeometry`` as kept and reduced groups (sizes and input
/// strides, outermost first), so one odometer loop serves the folds that are not
/// performance-critical.
struct ReductionWalk: Sendable {
    let kept: [ReductionGeometry.Group]
    let reduced: [ReductionGeometry.Group]
    let outputCount: Int
    /// The input is empty: every output is the fold's identity.
    let isEmpty: Bool

    init(_ g: ReductionGeometry) {
        typealias G = ReductionGeometry.Group
        outputCount = g.outputCount
        switch g.layout {
        case .elementwise(let count):
            kept = [G(size: count, stride: 1)]; reduced = []; isEmpty = false
        case .empty:
            kept = []; reduced = []; isEmpty = true
        case .inner(let outer, let r):
            kept = [G(size: outer, stride: r)]; reduced = [G(size: r, stride: 1)]; isEmpty = false
        case .middle(let outer, let r, let inner):
            kept = [G(size: outer, stride: r * inner), G(size: inner, stride: 1)]
            reduced = [G(size: r, stride: inner)]; isEmpty = false
        case .general(let k, let r):
            kept = k; reduced = r; isEmpty = false
        }
    }

    /// Calls `body` with the input offset of each element reduced into output `o`, in
    /// row-major order.
    @inline(__always)
    func forEachOffset(output o: Int, _ body: (Int) -> Void) {
        var base = 0
        var rest = o
        for g in kept.reversed() {
            base += (rest % g.size) * g.stride
            rest /= g.size
        }
        guard !reduced.isEmpty else { body(base); return }
        var index = [Int](repeating: 0, count: reduced.count)
        let last = reduced.count - 1
        let n = reduced[last].size, s = reduced[last].stride
        var offset = base
        while true {
            for r in 0 ..< n { body(offset + r * s) }
            var d = last - 1
            while d >= 0 {
                index[d] += 1
                offset += reduced[d].stride
                if index[d] < reduced[d].size { break }
                offset -= reduced[d].stride * reduced[d].size
                index[d] = 0
                d -= 1
            }
            if d < 0 { return }
        }
    }
}

struct ReduceFoldKernel: PreparedKernel {
    let kind: ReduceFold.Kind
    let element: FoldElement
    let input: Int
    let output: Int
    let walk: ReductionWalk

    func eval(_ context: EvalContext) throws(KernelError) {
        switch (kind, element) {
        // Bytes, not Swift `Bool`: a file may hold any byte in a bool tensor.
        case (.any, _): fold(context, initial: UInt8(0)) { $0 != 0 || $1 != 0 ? 1 : 0 }
        case (.all, _): fold(context, initial: UInt8(1)) { $0 != 0 && $1 != 0 ? 1 : 0 }
        case (.min, .float32): fold(context, initial: Float.infinity) { $0 < $1 ? $0 : $1 }
        case (.min, .int32): fold(context, initial: Int32.max) { Swift.min($0, $1) }
        case (.min, .int64): fold(context, initial: Int64.max) { Swift.min($0, $1) }
        case (.min, .int16): fold(context, initial: Int16.max) { Swift.min($0, $1) }
        case (.min, .int8): fold(context, initial: Int8.max) { Swift.min($0, $1) }
        case (.min, .uint8), (.min, .bool): fold(context, initial: UInt8.max) { Swift.min($0, $1) }
        case (.max, .int32): fold(context, initial: Int32.min) { Swift.max($0, $1) }
        case (.max, .int64): fold(context, initial: Int64.min) { Swift.max($0, $1) }
        case (.max, .int16): fold(context, initial: Int16.min) { Swift.max($0, $1) }
        case (.max, .int8): fold(context, initial: Int8.min) { Swift.max($0, $1) }
        case (.max, _): fold(context, initial: UInt8.min) { Swift.max($0, $1) }
        case (.product, .float32): fold(context, initial: Float(1)) { $0 * $1 }
        case (.product, .int64): fold(context, initial: Int64(1)) { $0 &* $1 }
        case (.product, .int16): fold(context, initial: Int16(1)) { $0 &* $1 }
        case (.product, .int8): fold(context, initial: Int8(1)) { $0 &* $1 }
        case (.product, .uint8), (.product, .bool): fold(context, initial: UInt8(1)) { $0 &* $1 }
        case (.product, _): fold(context, initial: Int32(1)) { $0 &* $1 }
        }
    }

    /// Every output folds its elements in row-major order. The last-axis and middle-axis
    /// layouts run plain loops in that same order (a row per output; or, per outer index,
    /// each reduced row combined into a row of outputs), which LLVM vectorizes where the
    /// fold allows; the others walk ``ReductionWalk``'s odometer.
    @inline(__always)
    private func fold<T>(_ context: EvalContext, initial: T, _ combine: (T, T) -> T) {
        let x = UnsafePointer(context.pointer(input, as: T.self))
        let y = context.pointer(output, as: T.self)
        let (kept, reduced) = (walk.kept, walk.reduced)
        if !walk.isEmpty, reduced.count == 1, reduced[0].stride == 1, kept.count == 1, kept[0].stride == reduced[0].size
        {
            let n = reduced[0].size
            for o in 0 ..< walk.outputCount {
                let row = x + o * n
                var acc = initial
                for r in 0 ..< n { acc = combine(acc, row[r]) }
                y[o] = acc
            }
            return
        }
        if !walk.isEmpty, reduced.count == 1, kept.count == 2, kept[1].stride == 1, reduced[0].stride == kept[1].size,
            kept[0].stride == reduced[0].size * kept[1].size
        {
            let inner = kept[1].size, rows = reduced[0].size
            for o in 0 ..< kept[0].size {
                let out = y + o * inner, block = x + o * rows * inner
                for c in 0 ..< inner { out[c] = initial }
                for r in 0 ..< rows {
                    let row = block + r * inner
                    for c in 0 ..< inner { out[c] = combine(out[c], row[c]) }
                }
            }
            return
        }
        for o in 0 ..< walk.outputCount {
            var acc = initial
            if !walk.isEmpty { walk.forEachOffset(output: o) { acc = combine(acc, x[$0]) } }
            y[o] = acc
        }
    }
}
