import TFLiteRuntime

/// What a ``CustomOperatorKernel`` sees while it runs: read-only views of its inputs and
/// writable views of its outputs, typed and bounded by the shapes fixed at prepare.
///
/// The views are the only access the kernel has to tensor memory, and every element
/// access is bounds-checked, so a kernel can write its own outputs and nothing else. An
/// access outside a view touches no memory (a read gives zero, a write is dropped) and
/// fails the invocation once the kernel returns, with an error naming the first such
/// access. They are valid only during ``CustomOperatorKernel/eval(_:)``.
public struct CustomOperatorEvalContext {
    let context: EvalContext
    let inputs: [CustomOperatorAdapter.Slot?]
    let outputs: [CustomOperatorAdapter.Slot?]
    let faults = CustomOperatorAccessFaults()

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
            base: UnsafeRawPointer(context.raw(slot.tensor)), count: slot.count, shape: Tensor.Shape(slot.shape),
            faults: faults, name: "input \(index)")
    }

    /// Output `index` as elements of `T`, which must be the output's data type.
    public func output<T: TensorElement>(_ index: Int, as _: T.Type = T.self) throws -> CustomOperatorOutput<T> {
        guard index >= 0, index < outputs.count, let slot = outputs[index] else {
            throw CustomOperatorError("output \(index) does not exist (the operator has \(outputs.count) outputs)")
        }
        try slot.check(T.self, what: "output \(index)")
        return CustomOperatorOutput(
            base: context.raw(slot.tensor), count: slot.count, shape: Tensor.Shape(slot.shape), faults: faults,
            name: "output \(index)")
    }
}

/// A read-only view of a custom operator's input tensor (row-major elements).
///
/// Reading outside `0 ..< count` reads zero and fails the invocation once the kernel
/// returns (``InterpreterError/customOperatorFailed(name:operatorIndex:reason:)``): it is a
/// bug in the kernel, never an access to other memory.
public struct CustomOperatorInput<Element: TensorElement> {
    let base: UnsafeRawPointer
    /// Number of elements.
    public let count: Int
    /// The tensor's shape.
    public let shape: Tensor.Shape
    let faults: CustomOperatorAccessFaults
    let name: String

    /// Element `index` of the flattened tensor, `0 ..< count`.
    public subscript(index: Int) -> Element {
        guard index >= 0, index < count else {
            faults.record("read \(name) at index \(index), outside 0..<\(count)")
            return CustomOperatorAccessFaults.zero()
        }
        return CustomOperatorAdapter.load(base, at: index)
    }

    /// A copy of all elements.
    public var elements: [Element] { (0 ..< count).map { self[$0] } }
}

/// A writable view of a custom operator's output tensor (row-major elements).
///
/// Accessing outside `0 ..< count` reads zero or drops the write, and fails the
/// invocation once the kernel returns
/// (``InterpreterError/customOperatorFailed(name:operatorIndex:reason:)``): it is a bug in
/// the kernel, never an access to other memory.
public struct CustomOperatorOutput<Element: TensorElement> {
    let base: UnsafeMutableRawPointer
    /// Number of elements.
    public let count: Int
    /// The tensor's shape.
    public let shape: Tensor.Shape
    let faults: CustomOperatorAccessFaults
    let name: String

    /// Element `index` of the flattened tensor, `0 ..< count`.
    public subscript(index: Int) -> Element {
        get {
            guard index >= 0, index < count else {
                faults.record("read \(name) at index \(index), outside 0..<\(count)")
                return CustomOperatorAccessFaults.zero()
            }
            return CustomOperatorAdapter.load(UnsafeRawPointer(base), at: index)
        }
        nonmutating set {
            guard index >= 0, index < count else {
                faults.record("wrote \(name) at index \(index), outside 0..<\(count)")
                return
            }
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

/// The first out-of-range access a kernel's views saw during one `eval`, reported as the
/// invocation's error after the kernel returns. A class, so that every view copied out of
/// the context records into the same place; one `eval` runs on one thread.
final class CustomOperatorAccessFaults {
    private(set) var first: String?

    func record(_ fault: String) {
        if first == nil { first = fault }
    }

    /// The element of all-zero bytes, read in place of an element out of range (every
    /// element type is at most 16 bytes wide).
    static func zero<T>() -> T {
        var bytes: (UInt64, UInt64) = (0, 0)
        return withUnsafePointer(to: &bytes) { CustomOperatorAdapter.load(UnsafeRawPointer($0), at: 0) }
    }
}
