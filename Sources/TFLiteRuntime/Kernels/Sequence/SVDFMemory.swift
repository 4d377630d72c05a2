/// The state arithmetic shared by SVDF's kernels. The state holds, per batch row, one
/// window of `memory` values per feature filter (`state[b, f·memory + m]`, oldest first).
enum SVDFMemory {
    /// Moves the `count` values of the state one place toward the start, as LiteRT does
    /// (one move of the whole buffer): every window drops its oldest value, and its last
    /// slot then holds the next window's oldest value until ``insert`` overwrites it.
    @inline(__always)
    static func shift<T>(_ state: UnsafeMutablePointer<T>, count: Int) {
        guard count > 1 else { return }
        state.update(from: state + 1, count: count - 1) // overlapping: copies front to back
    }

    /// Writes `newest[i]` into the last slot of window `i`, for `windows` windows.
    @inline(__always)
    static func insert<T>(
        _ newest: UnsafePointer<T>, into state: UnsafeMutablePointer<T>, windows: Int, memory: Int
    ) {
        for i in 0 ..< windows { state[i * memory + memory - 1] = newest[i] }
    }

    /// `out[i] = Σ_m state[i·memory + m]·time[(i mod filters)·memory + m]` for the windows
    /// `i` in `range` (window `i` is filter `i mod filters` of row `i / filters`).
    @inline(__always)
    static func timeF32(
        _ state: UnsafePointer<Float>, time: UnsafePointer<Float>, memory: Int, filters: Int, windows range: Range<Int>,
        into out: UnsafeMutablePointer<Float>
    ) {
        for i in range {
            out[i] = dot(state + i * memory, time + (i % filters) * memory, memory)
        }
    }

    /// The same in wrapping `Int32` over int16 values (LLVM forms it with `pmaddwd`).
    @inline(__always)
    static func timeS16(
        _ state: UnsafePointer<Int16>, time: UnsafePointer<Int16>, memory: Int, filters: Int, windows range: Range<Int>,
        into out: UnsafeMutablePointer<Int32>
    ) {
        for i in range {
            let s = state + i * memory, w = time + (i % filters) * memory
            var sum: Int32 = 0
            for m in 0 ..< memory { sum = sum &+ Int32(s[m]) &* Int32(w[m]) }
            out[i] = sum
        }
    }

    /// `Σ a[i]·b[i]` over `n` floats, eight lanes at a time (a float sum does not
    /// vectorize by itself: the order of additions would change).
    @inline(__always)
    static func dot(_ a: UnsafePointer<Float>, _ b: UnsafePointer<Float>, _ n: Int) -> Float {
        var acc = SIMD8<Float>()
        var i = 0
        while i + 8 <= n {
            acc += load8(a + i) * load8(b + i)
            i += 8
        }
        let quad = acc.lowHalf + acc.highHalf
        var s = (quad[0] + quad[1]) + (quad[2] + quad[3])
        while i < n {
            s += a[i] * b[i]
            i += 1
        }
        return s
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
}
