import Microkernels
import TFLiteModel

/// Everything a kernel's prepare step may read and the few things it may decide:
/// output shapes and scratch memory.
package struct PrepareContext {
    /// The operator being prepared.
    package let op: Operator
    /// Tensor states of the whole subgraph (shapes of earlier outputs already inferred).
    package internal(set) var tensors: [TensorState]
    /// Scratch sizes requested so far, in bytes.
    package internal(set) var scratchSizes: [Int] = []
    /// The largest per-thread scratch asked for with ``requestThreadScratch(bytesPerThread:)``.
    package internal(set) var threadScratchBytes = 0
    /// Work declared with ``declareWork(_:)``.
    package internal(set) var work = 0
    /// The input whose memory output 0 may take over (``allowOutputToShareInput(_:)``).
    package internal(set) var sharedInput: Int?
    /// The interpreter's thread count (≥ 1).
    package let threadCount: Int
    /// The requantization arithmetic of quantized convolutions and fully connected layers.
    package let requantization: Requantization
    /// The instruction-set level whose microkernels the prepared kernels call.
    package let kernelLevel: KernelLevel
    /// Collects the packed constants of the whole prepare pass (nil: each is placed at once).
    let packer: ConstantPacker?
    /// The interpreter's shared state: its variables, and the engines of called subgraphs.
    package let interpreterState: InterpreterState?

    init(
        op: Operator, tensors: [TensorState], threadCount: Int, requantization: Requantization = .exact,
        kernelLevel: KernelLevel = .portable, packer: ConstantPacker? = nil, interpreterState: InterpreterState? = nil
    ) {
        self.interpreterState = interpreterState
        self.op = op
        self.tensors = tensors
        self.threadCount = threadCount
        self.requantization = requantization
        self.kernelLevel = kernelLevel
        self.packer = packer
    }

    package var opName: String { op.code.name }
    package var inputCount: Int { op.inputs.count }
    package var outputCount: Int { op.outputs.count }

    /// Tensor index of input `i`, or nil if absent (`-1`) or past the operator's inputs.
    package func inputIndex(_ i: Int) -> Int? {
        guard i >= 0, i < op.inputs.count else { return nil }
        let t = op.inputs[i]
        return t >= 0 && t < tensors.count ? t : nil
    }

    /// Required input `i`.
    package func input(_ i: Int) throws(KernelError) -> TensorState {
        guard let t = inputIndex(i) else {
            throw .invalid("input \(i) is missing (the operator has \(op.inputs.count) inputs)")
        }
        return tensors[t]
    }

    /// Optional input `i` (nil when absent or `-1`).
    package func optionalInput(_ i: Int) -> TensorState? {
        inputIndex(i).map { tensors[$0] }
    }

    /// Tensor index of output `i`.
    package func outputIndex(_ i: Int) throws(KernelError) -> Int {
        guard i >= 0, i < op.outputs.count, op.outputs[i] >= 0, op.outputs[i] < tensors.count else {
            throw .invalid("output \(i) is missing (the operator has \(op.outputs.count) outputs)")
        }
        return op.outputs[i]
    }

    package func output(_ i: Int) throws(KernelError) -> TensorState {
        tensors[try outputIndex(i)]
    }

    /// Requires exactly `inputs` inputs (counting absent optional ones) and `outputs` outputs.
    package func expectCounts(inputs: ClosedRange<Int>, outputs: ClosedRange<Int>) throws(KernelError) {
        guard inputs.contains(op.inputs.count) else {
            throw .invalid("expected \(Self.describe(inputs)) inputs, found \(op.inputs.count)")
        }
        guard outputs.contains(op.outputs.count) else {
            throw .invalid("expected \(Self.describe(outputs)) outputs, found \(op.outputs.count)")
        }
    }

    package func expectCounts(inputs: Int, outputs: Int) throws(KernelError) {
        try expectCounts(inputs: inputs ... inputs, outputs: outputs ... outputs)
    }

    private static func describe(_ r: ClosedRange<Int>) -> String {
        r.lowerBound == r.upperBound ? "\(r.lowerBound)" : "\(r.lowerBound)...\(r.upperBound)"
    }

    /// Sets the shape of output `i` (the type and quantization stay those of the model).
    /// Rejects negative dimensions and byte sizes that overflow.
    package mutating func setOutputShape(_ i: Int, _ shape: [Int]) throws(KernelError) {
        let t = try outputIndex(i)
        guard let size = tensors[t].type.byteSize else {
            throw .types("output \(i) has type \(tensors[t].type), which has no fixed element size")
        }
        guard Shape.byteCount(shape, elementSize: size) != nil else {
            throw .invalid("output \(i) shape \(shape) is invalid or too large")
        }
        tensors[t].shape = shape
    }

    /// Sets the shape of STRING output `i`, whose value the kernel writes with
    /// ``EvalContext/setStrings(_:_:)``: exactly one string per element of `shape`. Kept
    /// apart from ``setOutputShape(_:_:)`` so that a kernel written for fixed-size types
    /// never takes a string tensor for bytes it may copy.
    package mutating func setStringOutputShape(_ i: Int, _ shape: [Int]) throws(KernelError) {
        let t = try outputIndex(i)
        guard tensors[t].type == .string else {
            throw .types("output \(i) has type \(tensors[t].type), not STRING")
        }
        guard shape.count <= 8, Shape.elementCount(shape) != nil else {
            throw .invalid("output \(i) shape \(shape) is invalid or too large")
        }
        tensors[t].shape = shape
    }

    /// Sets the element type of output `i`, for the operators whose TFLite kernel assigns
    /// it at prepare instead of trusting the file (spec/derived-output-types.md): a
    /// converter may leave such a tensor's type unset, which the schema reads as FLOAT32.
    /// The quantization stays the file's. Call it before ``setOutputShape(_:_:)``, which
    /// sizes the tensor by its type.
    package mutating func deriveOutputType(_ i: Int, _ type: ElementType) throws(KernelError) {
        tensors[try outputIndex(i)].type = type
    }

    /// Records work `eval` does beyond a constant amount per tensor element: the product
    /// of `factors` (saturating), e.g. the multiply-accumulates of a convolution or the
    /// box comparisons of non-max suppression. The engine sums it over the graph and
    /// checks it against ``EngineOptions/workBudget``, since such work is not bounded by the
    /// memory budget: a 1 KB file can declare a 2-D filter as large as its input.
    package mutating func declareWork(_ factors: [Int]) {
        var product = 1
        for f in factors {
            let (p, overflow) = product.multipliedReportingOverflow(by: Swift.max(f, 0))
            product = overflow ? .max : p
        }
        let (sum, overflow) = work.addingReportingOverflow(product)
        work = overflow ? .max : sum
    }

    /// Lets the planner give output 0 the memory of input `i` (an in-place operator): it
    /// does so when that input is an activation of the same byte size that nothing reads
    /// after this operator and that is no graph input, graph output or variable
    /// (spec/runtime.md, "In-place operators"). The kernel must then work whether or not
    /// the two pointers are equal, reading each input element before writing over it.
    package mutating func allowOutputToShareInput(_ i: Int) {
        sharedInput = i
    }

    /// Requests `bytes` of scratch memory, live only while this operator runs.
    /// Returns the slot to pass to `EvalContext.scratch(_:as:)`.
    package mutating func requestScratch(bytes: Int) -> Int {
        scratchSizes.append(Swift.max(bytes, 0))
        return scratchSizes.count - 1
    }

    /// Requests `bytesPerThread` of scratch for each thread, live only while this operator
    /// runs, to be read with ``EvalContext/threadScratch(_:thread:bytes:)``.
    ///
    /// A multi-thread engine gives each thread a region of its own, outside the arena and
    /// the same for every operator, so a thread's scratch stays in its core's cache. In the
    /// shared arena, the bytes a worker's scratch covers were last written by whichever
    /// thread the tensors or scratch placed there before belonged to, and every such line
    /// crossed between the cores again: MobileNet v2 int8's 8-bit depthwise layers took
    /// 12% longer at 2 threads. The arena slot requested here (`bytesPerThread` times the
    /// thread count) is the fallback for engines without the regions.
    package mutating func requestThreadScratch(bytesPerThread: Int) -> Int {
        let bytes = Swift.max(bytesPerThread, 0)
        let (rounded, o1) = bytes.addingReportingOverflow(63)
        threadScratchBytes = Swift.max(threadScratchBytes, o1 ? Int.max : rounded / 64 * 64)
        let (total, o2) = bytes.multipliedReportingOverflow(by: threadCount)
        return requestScratch(bytes: o2 ? Int.max : total)
    }

    /// Reserves `bytes` of constant data the kernel derives from the model's constants
    /// (its packed weights). `fill` writes all of them once every operator is prepared,
    /// before any `eval`, and returns ``PackedBuffer/derived``; the kernel keeps the
    /// buffer. Such bytes are paid for by constant data in the file, so they need no budget.
    func pack(bytes: Int, fill: @escaping (UnsafeMutableRawPointer) -> Int) throws(KernelError) -> PackedBuffer {
        if let packer { return try packer.request(bytes: bytes, fill: fill) }
        let own = ConstantPacker()
        let buffer = try own.request(bytes: bytes, fill: fill)
        own.finish()
        return buffer
    }

    /// Error for an unsupported type combination, listing the operator's tensor types.
    package func unsupportedTypes() -> KernelError {
        let ins = op.inputs.map { $0 >= 0 && $0 < tensors.count ? tensors[$0].type.name : "-" }
        let outs = op.outputs.map { $0 >= 0 && $0 < tensors.count ? tensors[$0].type.name : "-" }
        return .types("inputs (\(ins.joined(separator: ", "))) -> outputs (\(outs.joined(separator: ", ")))")
    }
}
