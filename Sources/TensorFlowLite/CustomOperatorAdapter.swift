import TFLiteModel
import TFLiteRuntime

/// Runs a user's ``CustomOperator`` as a runtime kernel: the same `KernelPrepare` and
/// `PreparedKernel` the runtime's own custom kernels are, registered in the engine's
/// `CustomKernelTable`.
struct CustomOperatorAdapter: PreparedKernel {
    /// A tensor the kernel may access, as fixed at prepare.
    struct Slot {
        let tensor: Int
        let type: Tensor.DataType?
        let typeName: String
        let shape: [Int]
        let count: Int

        func check<T: TensorElement>(_: T.Type, what: String) throws {
            guard type == T.tensorDataType, MemoryLayout<T>.stride == type?.byteSize else {
                throw CustomOperatorError("\(what) has type \(typeName), not \(T.tensorDataType)")
            }
        }
    }

    let kernel: any CustomOperatorKernel
    let inputs: [Slot?]
    let outputs: [Slot?]

    static func prepare(name: String, kernel: some CustomOperator) -> KernelPrepare {
        { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            var user = CustomOperatorPrepareContext(name: name, context: context)
            let prepared: any CustomOperatorKernel
            do {
                prepared = try kernel.prepare(&user)
            } catch {
                throw .invalid(String(describing: error))
            }
            for (i, shape) in user.outputShapes.sorted(by: { $0.key < $1.key }) {
                try context.setOutputShape(i, shape)
            }
            var inputs: [Slot?] = []
            for i in 0 ..< context.inputCount {
                inputs.append(context.inputIndex(i).map { slot(context.tensors[$0]) })
            }
            var outputs: [Slot?] = []
            for i in 0 ..< context.outputCount {
                let state = try context.output(i)
                guard state.byteCount != nil else {
                    throw .types("output \(i) has type \(state.type), which has no fixed element size")
                }
                outputs.append(slot(state))
            }
            return CustomOperatorAdapter(kernel: prepared, inputs: inputs, outputs: outputs)
        }
    }

    private static func slot(_ state: TensorState) -> Slot {
        // Element counts of arena tensors were checked by the planner's byte counts; a
        // tensor whose size cannot be computed gets no elements.
        var count =
            state.type.byteSize.flatMap { Shape.byteCount(state.shape, elementSize: $0) } == nil
            ? 0 : state.elementCount
        // A constant holds no more elements than its bytes (a sparse one stores fewer
        // than its dense shape says).
        if let constant = state.constant, let size = state.type.byteSize, size > 0 {
            count = Swift.min(count, constant.bytes.count / size)
        }
        return Slot(
            tensor: state.index, type: Tensor.DataType(state.type), typeName: state.type.name,
            shape: state.shape, count: count)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let views = CustomOperatorEvalContext(context: context, inputs: inputs, outputs: outputs)
        do {
            try kernel.eval(views)
        } catch {
            throw .invalid(String(describing: error))
        }
        if let fault = views.faults.first { throw .invalid("the kernel \(fault)") }
    }

    /// Element `index` of a tensor of `T`s; booleans are read as bytes, so a byte other
    /// than 0 or 1 reads as true instead of being an invalid `Bool`.
    static func load<T>(_ base: UnsafeRawPointer, at index: Int) -> T {
        if T.self == Bool.self {
            return unsafeBitCast(base.load(fromByteOffset: index, as: UInt8.self) != 0, to: T.self)
        }
        return base.load(fromByteOffset: index * MemoryLayout<T>.stride, as: T.self)
    }
}
