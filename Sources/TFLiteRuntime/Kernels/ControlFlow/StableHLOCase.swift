import TFLiteModel

/// STABLEHLO_CASE: input 0 (one int32) picks which of the branch subgraphs runs on inputs
/// 1...; its outputs are the operator's (``Branches``). An index below 0 or past the last
/// branch runs the last branch (StableHLO's rule, which LiteRT follows).
enum StableHLOCaseKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard case .stablehloCase(let subgraphs) = context.op.options2 else {
            throw .invalid("StablehloCaseOptions are missing")
        }
        guard !subgraphs.isEmpty else { throw .invalid("StablehloCaseOptions name no branch subgraph") }
        guard context.inputCount >= 1 else { throw .invalid("expected an index input") }
        let index = try context.input(0)
        guard index.type == .int32 else { throw .types("the branch index is \(index.type), not INT32") }
        guard index.elementCount == 1 else {
            throw .invalid("the branch index has shape \(index.shape); it must hold one element")
        }
        return try Branches.prepare(
            &context, calls: subgraphs.enumerated().map { ($0.element, "branch \($0.offset)") },
            selector: .index(try context.requiredInputIndex(0)), firstPassed: 1)
    }
}

/// STABLEHLO_COMPOSITE: a named operation (`odml.rms_norm`, say) carried with its
/// meaning, the decomposition subgraph, which runs on all the operator's inputs and gives
/// its outputs (``Branches``). The name, version and attributes only let a backend that
/// knows the operation replace it; the runtime always runs the decomposition.
enum StableHLOCompositeKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        guard case .stablehloComposite(_, let decomposition, _) = context.op.options2 else {
            throw .invalid("StableHLOCompositeOptions are missing")
        }
        return try Branches.prepare(
            &context, calls: [(decomposition, "decomposition")], selector: .only, firstPassed: 0)
    }
}
