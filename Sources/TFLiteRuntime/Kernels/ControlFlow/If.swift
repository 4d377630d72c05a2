import TFLiteModel

/// IF: runs the `then` subgraph when input 0 (one BOOL) is true, the `else` subgraph when
/// it is false, passing it inputs 1... and taking its outputs as the operator's
/// (``Branches``).
enum IfKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard case .ifBranches(let thenIndex, let elseIndex) = context.op.options else {
            throw .invalid("missing IfOptions")
        }
        guard context.inputCount >= 1 else { throw .invalid("expected a condition input") }
        let condition = try context.input(0)
        guard condition.type == .bool else { throw .types("the condition is \(condition.type), not BOOL") }
        guard condition.elementCount == 1 else {
            throw .invalid("the condition has shape \(condition.shape); it must hold one element")
        }
        return try Branches.prepare(
            &context, calls: [(thenIndex, "then"), (elseIndex, "else")],
            selector: .condition(try context.requiredInputIndex(0)), firstPassed: 1)
    }
}
