import TFLiteRuntime

/// What a ``CustomOperatorKernel`` sees while it runs: read-only views of its inputs and
/// writable views of its outputs, typed and bounded by the shapes fixed at prepare.
///
/// The views are the only access the kernel has to tensor memory, and every element
/// access is bounds-checked, so a kernel can write its own outputs and nothing else.
/// They are valid only during ``CustomOperatorKernel/eval(_:)``.
public struct CustomOperatorEvalContext {
    let context: EvalContext
    let inputs: [CustomOperatorAdapter.Slot?]
    let outputs: [CustomOperatorAdapter.Slot?]

    /// Number of inputs, counting absent optional ones.
    public var inputCount: Int { inputs.count }
    /// Number of outputs.
    public var outputCount: Int { outputs.count }

    /// Input `index` as elements of `T`, which must be the input's data type.
    public func input<T: TensorElement>(_ index: Int, as _: T.Type = T.self) throws -> CustomOperatorInput<T> {
        guard index >= 0, index < inputs.count, let slot = inputs[index] else {
            throw CustomOperatorError(
                "input \(index) does not exist or is absent (the operator has \(inputs.count) inputs)")
        }
        try slot.check(T.self, what: "input \(index)")
        return CustomOperatorInput(
            base: UnsafeRawPointer(context.raw(slot.tensor)), count: slot.count, shape: Tensor.Shape(slot.shape))
    }

    /// Output `index` as elements of `T`, which must be the output's data type.
    public func output<T: TensorElement>(_ index: Int, as _: T.Type = T.self) throws -> CustomOperatorOutput<T> {
        guard index >= 0, index < outputs.count, let slot = outputs[index] else {
            throw CustomOperatorError("output \(index) does not exist (the operator has \(outputs.count) outputs)")
        }
        try slot.check(T.self, what: "output \(index)")
        return CustomOperatorOutput(base: context.raw(slot.tensor), count: slot.count, shape: Tensor.Shape(slot.shape))
    }
}

/// A read-only view of a custom operator's input tensor (row-major elements).
///
/// Reading past ``count`` stops the program, as indexing an `Array` out of range does:
/// it is a bug in the kernel, never an access to other memory.
public struct CustomOperatorInput<Element: TensorElement> {
    let base: UnsafeRawPointer
    /// Number of elements.
    public let count: Int
    /// The tensor's shape.
    public let shape: Tensor.Shape

    /// Element `index` of the flattened tensor, `0 ..< count`.
    public subscript(index: Int) -> Element {
        precondition(index >= 0 && index < count, "custom operator input: index \(index) is outside 0..<\(count)")
        return CustomOperatorAdapter.load(base, at: index)
    }

    /// A copy of all elements.
    public var elements: [Element] { (0 ..< count).map { self[$0] } }
}

/// A writable view of a custom operator's output tensor (row-major elements).
///
/// Accessing past ``count`` stops the program, as indexing an `Array` out of range does:
/// it is a bug in the kernel, never a write to other memory.
public struct CustomOperatorOutput<Element: TensorElement> {
    let base: UnsafeMutableRawPointer
    /// Number of elements.
    public let count: Int
    /// The tensor's shape.
    public let shape: Tensor.Shape

    /// Element `index` of the flattened tensor, `0 ..< count`.
    public subscript(index: Int) -> Element {
        get {
            precondition(index >= 0 && index < count, "custom operator output: index \(index) is outside 0..<\(count)")
            return CustomOperatorAdapter.load(UnsafeRawPointer(base), at: index)
        }
        nonmutating set {
            precondition(index >= 0 && index < count, "custom operator output: index \(index) is outside 0..<\(count)")
            base.storeBytes(of: newValue, toByteOffset: index * MemoryLayout<Element>.stride, as: Element.self)
        }
    }

    /// Writes `values`, which must have exactly ``count`` elements.
    public func assign(_ values: some Collection<Element>) throws {
        guard values.count == count else {
            throw CustomOperatorError("output needs \(count) values, got \(values.count)")
        }
        for (i, v) in values.enumerated() { self[i] = v }
    }

    /// Sets every element to `value`.
    public func fill(with value: Element) {
        for i in 0 ..< count { self[i] = value }
    }
}
