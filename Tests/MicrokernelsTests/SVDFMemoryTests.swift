import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX2

/// SVDF's memory step by its definition: every window moves one value back, takes its
/// newest value, and is dotted with its time weights (in Double for floats, wrapping
/// `Int32` for int16).
private func referenceStep<T: BinaryInteger>(
    windows: Int, memory: Int, state: inout [T], newest: [T], time: [T]
) -> [Int32] {
    (0 ..< windows).map { i in
        let base = i * memory
        for m in 0 ..< memory - 1 { state[base + m] = state[base + m + 1] }
        state[base + memory - 1] = newest[i]
        return (0 ..< memory).reduce(Int32(0)) { $0 &+ Int32(state[base + $1]) &* Int32(time[base + $1]) }
    }
}

@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func svdfMemoryS16AVX2MatchesDefinitionExactly() {
    var rng = SplitMix64(seed: 11)
    // Memories around the 16-lane step, windows with and without a tail; extreme codes,
    // where a pair of products wraps.
    for memory in [1, 2, 15, 16, 17, 31, 33, 48] {
        for windows in [1, 5] {
            let count = windows * memory
            let extreme = memory == 33
            var state = (0 ..< count + 1).map { _ in extreme ? Int16.min : Int16.random(in: .min ... .max, using: &rng)
            }
            let newest = (0 ..< windows).map { _ in Int16.random(in: .min ... .max, using: &rng) }
            let time = (0 ..< count).map { _ in extreme ? Int16.min : Int16.random(in: .min ... .max, using: &rng) }
            var expectedState = state
            let want = referenceStep(
                windows: windows, memory: memory, state: &expectedState, newest: newest, time: time)
            var got = [Int32](repeating: 7, count: windows)
            state.withUnsafeMutableBufferPointer { s in
                svdfMemoryS16AVX2(
                    windows: windows, memory: memory, state: s.baseAddress!, newest: newest, time: time, out: &got)
            }
            #expect(got == want, "memory \(memory), \(windows) windows: sums")
            #expect(state == expectedState, "memory \(memory), \(windows) windows: state (the value past it untouched)")
        }
    }
}

@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2 + FMA"))
func svdfMemoryF32AVX2MatchesDefinition() {
    var rng = SplitMix64(seed: 12)
    for memory in [1, 2, 7, 8, 9, 17, 32, 40] {
        for windows in [1, 6] {
            let count = windows * memory
            // Integers, so every sum is exact and the order of additions does not matter.
            var state = (0 ..< count + 1).map { _ in Float(Int.random(in: -100 ... 100, using: &rng)) }
            let newest = (0 ..< windows).map { _ in Float(Int.random(in: -100 ... 100, using: &rng)) }
            let time = (0 ..< count).map { _ in Float(Int.random(in: -100 ... 100, using: &rng)) }
            var expectedState = state.map { Int32($0) }
            let want = referenceStep(
                windows: windows, memory: memory, state: &expectedState, newest: newest.map { Int32($0) },
                time: time.map { Int32($0) }
            ).map(Float.init)
            var got = newest // in place: out may be newest
            state.withUnsafeMutableBufferPointer { s in
                got.withUnsafeMutableBufferPointer { g in
                    svdfMemoryF32AVX2(
                        windows: windows, memory: memory, state: s.baseAddress!, newest: g.baseAddress!, time: time,
                        out: g.baseAddress!)
                }
            }
            #expect(got == want, "memory \(memory), \(windows) windows: sums")
            #expect(state == expectedState.map(Float.init), "memory \(memory), \(windows) windows: state")
        }
    }
}
#endif
