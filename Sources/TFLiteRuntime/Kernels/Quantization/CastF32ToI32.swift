import Microkernels
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// CAST float32 → int32 through the level's vector loop (``castF32ToI32Portable`` or, at
/// `avx2` and up, ``castF32ToI32AVX2``): truncation toward zero, NaN → 0, saturation to
/// `Int32.min`/`Int32.max` out of range, bit for bit what ``SaturatingIntegerCast`` gives.
/// Contiguous chunks go to the threads.
struct CastF32ToI32Kernel: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int
    private let vector: Bool

    init(input: Int, output: Int, count: Int, level: KernelLevel) {
        (self.input, self.output, self.count) = (input, output, count)
        #if arch(x86_64)
        vector = level >= .avx2 && level.hasVectorKernels
        #else
        vector = false
        #endif
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Int32.self)
        let vector = self.vector
        context.parallel.forEachChunk(count, minimumChunk: 1 << 15) { range in
            let (xs, ys) = (x + range.lowerBound, y + range.lowerBound)
            #if arch(x86_64)
            if vector { return castF32ToI32AVX2(xs, ys, count: range.count) }
            #endif
            castF32ToI32Portable(xs, ys, count: range.count)
        }
    }
}
