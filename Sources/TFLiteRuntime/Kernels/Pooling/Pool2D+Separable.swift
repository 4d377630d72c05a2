import TFLiteModel

/// The reduction a pool applies, split into the three steps the separable path needs: lift
/// a tensor element into the accumulator, combine two accumulators (associative), and
/// finish an accumulator of `count` pixels into an output element (divide, round, clamp).
protocol PoolReduction: Sendable {
    associatedtype Element
    associatedtype Accumulator
    static func lift(_ x: Element) -> Accumulator
    static func combine(_ a: Accumulator, _ b: Accumulator) -> Accumulator
    func finish(_ a: Accumulator, count: Int) -> Element
}

/// Pooling in time linear in the tensor sizes, whatever the window.
///
/// The direct kernels read each output's whole window, so a large window with a small
/// stride costs `outputs × window` — a crafted 1 KB model could ask for 10^10 reads. Here
/// the 2-D window is reduced separably, rows first into a `batch × inH × outW × channels`
/// buffer, then columns, and each 1-D pass answers every window from two precomputed
/// arrays (van Herk / Gil-Werman): the axis is cut into blocks of `filter` positions, `P[i]`
/// combines its block from the block's start to `i` and `S[i]` from `i` to the block's end.
/// A clipped window `[lo, hi)` is at most `filter` long, so it spans at most two blocks:
///
///     result = combine(S[lo], P[hi - 1])   when lo and hi - 1 lie in different blocks
///            = P[hi - 1]                    when lo starts its block
///            = S[lo]                        otherwise (then hi - 1 ends its block or the axis)
///
/// Three combines per element and axis, no subtraction, so sums do not cancel. Max and the
/// quantized (wrapping `Int32`) sums are exact in any order, so they equal the direct
/// kernels bit for bit; the float average sums in a different order than TFLite and stays
/// within float tolerance. Chosen at prepare when the clipped window area exceeds
/// ``Pool2D/directWindowLimit``.
struct Pool2DSeparable<Reduction: PoolReduction> {
    let reduction: Reduction
    let input: Int, output: Int
    let geometry: Pool2D.Geometry
    /// Scratch slots: the row-pass result, and per thread (``blockBytes`` each) one `P`
    /// and one `S` array of `max(inH, inW) × channels` accumulators.
    let rowsSlot: Int, blocksSlot: Int, blockBytes: Int

    /// Requests the scratch the two passes need, with overflow-checked sizes.
    static func make(
        _ context: inout PrepareContext, reduction: Reduction, input: Int, output: Int,
        geometry g: Pool2D.Geometry
    ) throws(KernelError) -> Pool2DSeparable {
        let size = MemoryLayout<Reduction.Accumulator>.stride
        let rows = try ConvCheck.product([g.batch, g.inH, g.outW, g.channels, size], "POOL_2D")
        let blockBytes = try ConvCheck.product([2, Swift.max(g.inH, g.inW), g.channels, size], "POOL_2D")
        _ = try ConvCheck.product([blockBytes, context.threadCount], "POOL_2D")
        return Pool2DSeparable(
            reduction: reduction, input: input, output: output, geometry: g,
            rowsSlot: context.requestScratch(bytes: rows),
            blocksSlot: context.requestThreadScratch(bytesPerThread: blockBytes), blockBytes: blockBytes)
    }

    func run(_ context: EvalContext) {
        typealias A = Reduction.Accumulator
        let g = geometry
        let x = UnsafePointer(context.pointer(input, as: Reduction.Element.self))
        let y = context.pointer(output, as: Reduction.Element.self)
        let rows = context.scratch(rowsSlot, as: A.self)
        let blockLength = Swift.max(g.inH, g.inW) * g.channels
        // Rows: every input row (b, iy) → its outW horizontal window results.
        context.parallel.forEachChunkOnThread(g.batch * g.inH) { thread, range in
            let p = context.threadScratch(blocksSlot, thread: thread, bytes: blockBytes)
                .assumingMemoryBound(to: A.self)
            let s = p + blockLength
            for row in range {
                let src = x + row * g.inW * g.channels, dst = rows + row * g.outW * g.channels
                Self.pass(
                    count: g.inW, stride: g.strideW, pad: g.padLeft, filter: g.filterW, outputs: g.outW,
                    channels: g.channels, step: g.channels, prefix: p, suffix: s,
                    load: { i, c in Reduction.lift(src[i + c]) },
                    store: { o, c, v in dst[o * g.channels + c] = v })
            }
        }
        // Columns: every (b, ox) column of the row results → outH outputs.
        context.parallel.forEachChunkOnThread(g.batch * g.outW) { thread, range in
            let p = context.threadScratch(blocksSlot, thread: thread, bytes: blockBytes)
                .assumingMemoryBound(to: A.self)
            let s = p + blockLength
            for column in range {
                let b = column / g.outW, ox = column % g.outW
                let src = rows + (b * g.inH * g.outW + ox) * g.channels
                let dst = y + (b * g.outH * g.outW + ox) * g.channels
                let step = g.outW * g.channels
                let columnPixels = Pool2D.Geometry.window(
                    ox, stride: g.strideW, pad: g.padLeft, filter: g.filterW, input: g.inW
                ).count
                Self.pass(
                    count: g.inH, stride: g.strideH, pad: g.padTop, filter: g.filterH, outputs: g.outH,
                    channels: g.channels, step: step, prefix: p, suffix: s,
                    load: { i, c in src[i + c] },
                    store: { oy, c, v in
                        let ys = Pool2D.Geometry.window(
                            oy, stride: g.strideH, pad: g.padTop, filter: g.filterH, input: g.inH)
                        dst[oy * step + c] = reduction.finish(v, count: columnPixels * ys.count)
                    })
            }
        }
    }

    /// One axis: positions `0 ..< count` (element offset `i · step`, then the channel), and
    /// `outputs` windows of `filter` positions starting at `o · stride - pad`, clipped.
    @inline(__always)
    static func pass(
        count n: Int, stride: Int, pad: Int, filter f: Int, outputs: Int, channels: Int, step: Int,
        prefix p: UnsafeMutablePointer<Reduction.Accumulator>,
        suffix s: UnsafeMutablePointer<Reduction.Accumulator>,
        load: (Int, Int) -> Reduction.Accumulator,
        store: (Int, Int, Reduction.Accumulator) -> Void
    ) {
        for i in 0 ..< n {
            let here = i * channels, previous = here - channels
            for c in 0 ..< channels {
                let v = load(i * step, c)
                p[here + c] = i % f == 0 ? v : Reduction.combine(p[previous + c], v)
            }
        }
        for i in Swift.stride(from: n - 1, through: 0, by: -1) {
            let here = i * channels, next = here + channels
            let blockEnd = i == n - 1 || (i + 1) % f == 0
            for c in 0 ..< channels {
                let v = load(i * step, c)
                s[here + c] = blockEnd ? v : Reduction.combine(v, s[next + c])
            }
        }
        for o in 0 ..< outputs {
            let window = Pool2D.Geometry.window(o, stride: stride, pad: pad, filter: f, input: n)
            let lo = window.lowerBound, last = window.upperBound - 1
            let (l, h) = (lo * channels, last * channels)
            if lo / f != last / f {
                for c in 0 ..< channels { store(o, c, Reduction.combine(s[l + c], p[h + c])) }
            } else if lo % f == 0 {
                for c in 0 ..< channels { store(o, c, p[h + c]) }
            } else {
                // Same block, not at its start: the window was clipped at the axis end, so
                // `last` is `n - 1`, where the suffix array stops.
                for c in 0 ..< channels { store(o, c, s[l + c]) }
            }
        }
    }
}

/// The separable pools, as one kernel that is not generic: the witness of a generic
/// kernel's `eval` is the unspecialized body, which called `lift`, `combine` and the
/// loads and stores through witnesses per element; each case here runs the specialization of ``Pool2DSeparable/run(_:)``.
enum SeparablePool: PreparedKernel {
    case maxF32(Pool2DSeparable<MaxPoolF32>)
    case averageF32(Pool2DSeparable<AveragePoolF32>)
    case maxU8(Pool2DSeparable<MaxPoolQ8<UInt8>>)
    case maxI8(Pool2DSeparable<MaxPoolQ8<Int8>>)
    case averageU8(Pool2DSeparable<AveragePoolQ8<UInt8>>)
    case averageI8(Pool2DSeparable<AveragePoolQ8<Int8>>)

    func eval(_ context: EvalContext) throws(KernelError) {
        switch self {
        case .maxF32(let pool): pool.run(context)
        case .averageF32(let pool): pool.run(context)
        case .maxU8(let pool): pool.run(context)
        case .maxI8(let pool): pool.run(context)
        case .averageU8(let pool): pool.run(context)
        case .averageI8(let pool): pool.run(context)
        }
    }
}

// MARK: Reductions

/// Largest value, then the activation clamp (as ``Pool2DF32``).
struct MaxPoolF32: PoolReduction {
    let range: FloatActivationRange
    @inline(__always) static func lift(_ x: Float) -> Float { x }
    @inline(__always) static func combine(_ a: Float, _ b: Float) -> Float { Swift.max(a, b) }
    @inline(__always) func finish(_ a: Float, count: Int) -> Float {
        Swift.min(Swift.max(Swift.max(a, -.greatestFiniteMagnitude), range.lower), range.upper)
    }
}

/// Sum, divided by the pixel count, then the activation clamp.
struct AveragePoolF32: PoolReduction {
    let range: FloatActivationRange
    @inline(__always) static func lift(_ x: Float) -> Float { x }
    @inline(__always) static func combine(_ a: Float, _ b: Float) -> Float { a + b }
    @inline(__always) func finish(_ a: Float, count: Int) -> Float {
        Swift.min(Swift.max(a / Float(count), range.lower), range.upper)
    }
}

/// Largest code, then the activation clamp (as ``Pool2DQ8Kernel``).
struct MaxPoolQ8<T: Quantized8>: PoolReduction {
    let lower: Int32, upper: Int32
    @inline(__always) static func lift(_ x: T) -> Int32 { Int32(x) }
    @inline(__always) static func combine(_ a: Int32, _ b: Int32) -> Int32 { Swift.max(a, b) }
    @inline(__always) func finish(_ a: Int32, count: Int) -> T {
        T(truncatingIfNeeded: Swift.min(Swift.max(a, lower), upper))
    }
}

/// Wrapping `Int32` sum of codes, rounded division by the pixel count (half up for uint8,
/// half away from zero for int8), then the activation clamp (as ``Pool2DQ8Kernel``).
struct AveragePoolQ8<T: Quantized8>: PoolReduction {
    let lower: Int32, upper: Int32
    @inline(__always) static func lift(_ x: T) -> Int32 { Int32(x) }
    @inline(__always) static func combine(_ a: Int32, _ b: Int32) -> Int32 { a &+ b }
    @inline(__always) func finish(_ sum: Int32, count: Int) -> T {
        let n = Int32(truncatingIfNeeded: count)
        let v = T.isSigned && sum <= 0 ? (sum &- n / 2) / n : (sum &+ n / 2) / n
        return T(truncatingIfNeeded: Swift.min(Swift.max(v, lower), upper))
    }
}
