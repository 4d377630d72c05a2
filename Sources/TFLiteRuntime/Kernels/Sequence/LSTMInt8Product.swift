#if arch(x86_64)
import MicrokernelsAVX2
#elseif arch(arm64)
import MicrokernelsNEON
#endif

/// The exact 8-bit matrix-vector product of the integer and hybrid LSTM kernels:
/// `acc[o] = Σ_k w[o, k]·x[k]` in wrapping `Int32` (TFLite's accumulator whatever the
/// order) for `n` rows of `k` int8 weights and a row `x` widened to `Int16`. At `avx2`
/// and above through `gemvS8S16AVX2` (`vpmaddwd` on sixteen codes a step), else through
/// the portable dot product the 8-bit fully connected kernel uses.
struct LSTMInt8Product: Sendable {
    let vectorized: Bool

    init(_ level: KernelLevel) { vectorized = level >= .avx2 }

    @inline(__always)
    func run(
        n: Int, k: Int, w: UnsafePointer<Int8>, x: UnsafePointer<Int16>, acc: UnsafeMutablePointer<Int32>
    ) {
        #if arch(x86_64)
        if vectorized {
            gemvS8S16AVX2(n: n, k: k, w: UnsafeRawPointer(w), ldw: k, signed: true, x: x, acc: acc)
            return
        }
        #endif
        for o in 0 ..< n { acc[o] = GemvQ8.dot(w + o * k, x, k) }
    }
}

/// The same product for uint8 weights (the 8-bit BASIC LSTM's, ``LSTMBasicU8``):
/// `acc[o] = Σ_k w[o, k]·x[k]` in wrapping `Int32`, the weights as stored (their zero
/// point is the caller's), `x` centered codes as `Int16`. Through the level's matrix-vector
/// microkernel with unsigned widening (`gemvS8S16AVX2`, `gemvS8S16NEON`), else the
/// portable dot product.
struct U8WeightsProduct: Sendable {
    let vectorized: Bool

    init(_ level: KernelLevel) { vectorized = level.hasVectorKernels }

    @inline(__always)
    func run(
        n: Int, k: Int, w: UnsafePointer<UInt8>, x: UnsafePointer<Int16>, acc: UnsafeMutablePointer<Int32>
    ) {
        #if arch(x86_64)
        if vectorized {
            gemvS8S16AVX2(n: n, k: k, w: UnsafeRawPointer(w), ldw: k, signed: false, x: x, acc: acc)
            return
        }
        #elseif arch(arm64)
        if vectorized {
            gemvS8S16NEON(n: n, k: k, w: UnsafeRawPointer(w), ldw: k, signed: false, x: x, acc: acc)
            return
        }
        #endif
        for o in 0 ..< n { acc[o] = GemvQ8.dot(w + o * k, x, k) }
    }
}
