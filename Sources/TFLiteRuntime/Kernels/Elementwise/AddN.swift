import TFLiteModel

/// ADD_N: the elementwise sum of two or more tensors of one shape, float32 or int32.
///
/// `y = ((0 + x₀) + x₁) + … + x_{n−1}`, added in input order from zero as TFLite's kernel
/// does on one thread (so a float sum of `-0.0`s is `+0.0`); int32 wraps. There is no
/// broadcasting and no fused activation.
enum AddNKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard context.inputCount >= 2 else {
            throw .invalid("expected at least 2 inputs, found \(context.inputCount)")
        }
        try context.expectCounts(inputs: context.inputCount, outputs: 1)
        let first = try context.input(0)
        var inputs: [Int] = []
        for i in 0 ..< context.inputCount {
            let x = try context.input(i)
            guard x.type == first.type else { throw context.unsupportedTypes() }
            guard x.shape == first.shape else {
                throw .invalid(
                    "input \(i) has shape \(x.shape); every input must have the shape of input 0, \(first.shape)")
            }
            inputs.append(x.index)
        }
        // TFLite gives the output the inputs' type at prepare.
        try context.deriveOutputType(0, first.type)
        let output = try context.output(0)
        guard first.type == .float32 || first.type == .int32 else { throw context.unsupportedTypes() }
        try context.setOutputShape(0, first.shape)
        return AddN(inputs: inputs, output: output.index, count: first.elementCount, isFloat: first.type == .float32)
    }
}

/// The sum of `inputs`, split over elements: each thread adds every input over its own
/// range, so the order of additions per element is the same for any thread count.
struct AddN: PreparedKernel {
    let inputs: [Int]
    let output: Int
    let count: Int
    /// float32 (else int32).
    let isFloat: Bool

    func eval(_ context: EvalContext) throws(KernelError) {
        if isFloat {
            sum(context, Float.self) { $0 + $1 }
        } else {
            sum(context, Int32.self) { $0 &+ $1 }
        }
    }

    @inline(__always)
    private func sum<T: Numeric>(_ context: EvalContext, _: T.Type, _ add: (T, T) -> T) {
        let y = context.pointer(output, as: T.self)
        let inputs = self.inputs
        context.parallel.forEachChunk(count, cost: inputs.count * MemoryLayout<T>.stride) { range in
            let x0 = UnsafePointer(context.pointer(inputs[0], as: T.self))
            for i in range { y[i] = add(0, x0[i]) }
            for k in 1 ..< inputs.count {
                let x = UnsafePointer(context.pointer(inputs[k], as: T.self))
                for i in range { y[i] = add(y[i], x[i]) }
            }
        }
    }
}
