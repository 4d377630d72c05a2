import Microkernels
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// The state arithmetic shared by SVDF's kernels. The state holds, per batch row, one
/// window of `memory` values per feature filter (`state[b, f·memory + m]`, oldest first).
///
/// LiteRT moves the whole state one value toward the start, writes each window's newest
/// value into its last slot, then applies the time filters. Window by window that is
///
///     s[m] = s[m + 1] (m < memory - 1),   s[memory - 1] = newest,   out = Σ_m s[m]·time[m]
///
/// which ``stepF32(avx2:windows:memory:state:newest:time:out:)`` and its int16 twin do in
/// one pass over each window (`svdfMemoryF32AVX2` / `svdfMemoryS16AVX2` at `avx2` and up).
enum SVDFMemory {
    /// One pass over `windows` consecutive windows whose time weights are consecutive rows
    /// of `time`. `out` may be `newest`.
    @inline(__always)
    static func stepF32(
        avx2: Bool, windows: Int, memory: Int, state: UnsafeMutablePointer<Float>, newest: UnsafePointer<Float>,
        time: UnsafePointer<Float>, out: UnsafeMutablePointer<Float>
    ) {
        #if arch(x86_64)
        if avx2 {
            svdfMemoryF32AVX2(windows: windows, memory: memory, state: state, newest: newest, time: time, out: out)
            return
        }
        #endif
        let shifted = memory - 1, vectorized = shifted & ~7
        for i in 0 ..< windows {
            let s = state + i * memory, w = time + i * memory
            let v = newest[i]
            // Eight lanes, because a float sum does not vectorize by itself (the order of
            // additions would change).
            var acc = SIMD8<Float>()
            var m = 0
            while m < vectorized {
                let x = load8(s + m + 1)
                UnsafeMutableRawPointer(s + m).storeBytes(of: x, as: SIMD8<Float>.self)
                acc += x * load8(w + m)
                m += 8
            }
            let quad = acc.lowHalf + acc.highHalf
            var sum = (quad[0] + quad[1]) + (quad[2] + quad[3])
            while m < shifted {
                s[m] = s[m + 1]
                sum += s[m] * w[m]
                m += 1
            }
            s[shifted] = v
            out[i] = sum + v * w[shifted]
        }
    }

    /// The int16 step with `Int32` sums, exact (wrapping; LLVM forms it with `pmaddwd`).
    @inline(__always)
    static func stepS16(
        avx2: Bool, windows: Int, memory: Int, state: UnsafeMutablePointer<Int16>, newest: UnsafePointer<Int16>,
        time: UnsafePointer<Int16>, out: UnsafeMutablePointer<Int32>
    ) {
        #if arch(x86_64)
        if avx2 {
            svdfMemoryS16AVX2(windows: windows, memory: memory, state: state, newest: newest, time: time, out: out)
            return
        }
        #endif
        let shifted = memory - 1
        for i in 0 ..< windows {
            let s = state + i * memory, w = time + i * memory
            var sum: Int32 = 0
            for m in 0 ..< shifted {
                let x = s[m + 1]
                s[m] = x
                sum = sum &+ Int32(x) &* Int32(w[m])
            }
            let v = newest[i]
            s[shifted] = v
            out[i] = sum &+ Int32(v) &* Int32(w[shifted])
        }
    }

    /// `y[b, u] = act(Σ_{r < rank} t[b, u·rank + r] + bias[u])` in LiteRT's order: the sum
    /// from 0 over r, then the bias, then the activation.
    @inline(__always)
    static func reduceF32(
        _ t: UnsafePointer<Float>, rows: Int, units: Int, rank: Int, bias: UnsafePointer<Float>?,
        activation: RecurrentActivation, into y: UnsafeMutablePointer<Float>
    ) {
        for b in 0 ..< rows {
            let row = y + b * units, src = t + b * units * rank
            if rank == 1 {
                row.update(from: src, count: units)
            } else {
                for u in 0 ..< units {
                    var sum: Float = 0
                    for r in 0 ..< rank { sum += src[u * rank + r] }
                    row[u] = sum
                }
            }
            if let bias { for u in 0 ..< units { row[u] += bias[u] } }
            activation.apply(row, count: units)
        }
    }

    /// Filters per parallel task of the memory step.
    static let block = 64

    /// Runs `body(row, firstFilter, count)` over blocks of ``block`` filters of every batch
    /// row, split over the threads when there is enough work.
    @inline(__always)
    static func forEachBlock(
        _ context: EvalContext, rows: Int, filters: Int, minimumTasks: Int, _ body: (Int, Int, Int) -> Void
    ) {
        let blocks = (filters + block - 1) / block
        context.parallel.forEachChunk(rows * blocks, minimumChunk: minimumTasks) { range in
            for task in range {
                let row = task / blocks, f0 = (task % blocks) * block
                body(row, f0, Swift.min(block, filters - f0))
            }
        }
    }
}
