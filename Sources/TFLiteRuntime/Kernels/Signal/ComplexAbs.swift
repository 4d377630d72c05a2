#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteModel

/// COMPLEX_ABS: `|z| = hypotf(re, im)` of each complex64 element, as float32.
enum ComplexAbsKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        guard input.type == .complex64, output.type == .float32 else { throw context.unsupportedTypes() }
        try context.setOutputShape(0, input.shape)
        return ComplexAbs(input: input.index, output: output.index, count: input.elementCount)
    }
}

struct ComplexAbs: PreparedKernel {
    let input: Int
    let output: Int
    let count: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let z = UnsafePointer(context.pointer(input, as: Float.self))
        let y = context.pointer(output, as: Float.self)
        for i in 0 ..< count { y[i] = hypotf(z[2 * i], z[2 * i + 1]) }
    }
}
