import TFLiteModel

/// Merges prepared steps whose intermediate tensor nothing else can observe into one
/// kernel that never writes it: today a float CONV_2D on the GEMM path (an expansion 1×1 or
/// a stem) followed by the 3×3 DEPTHWISE_CONV_2D that reads its output
/// (``ExpansionDepthwiseF32``).
///
/// A pair `P → D` through tensor `T` is merged only when
/// - `D` is the step right after `P` and takes `T` as its input;
/// - `T` is read by no other operator of the graph, and is not a graph input or output,
///   a variable or a constant;
/// - `D` uses no arena scratch (`P`'s slots stay reserved, unused by the merged kernel),
///   and the kernels accept the pair.
///
/// The merged step keeps `P`'s operator index and records `D`'s position as absorbed, so
/// the arena plan gives `D`'s outputs their lifetime and `T` none.
enum OperatorFusion {
    static func fuseExpansions(
        _ steps: [Engine.Step], order: [Operator], subgraph: Subgraph, tensors: [TensorState], threadCount: Int
    ) -> [Engine.Step] {
        guard steps.count > 1 else { return steps }
        var readers = [Int](repeating: 0, count: tensors.count)
        for op in order {
            for t in op.inputs + op.intermediates where t >= 0 && t < tensors.count { readers[t] += 1 }
        }
        var observed = [Bool](repeating: false, count: tensors.count)
        for t in subgraph.inputs + subgraph.outputs where t >= 0 && t < tensors.count { observed[t] = true }
        var result: [Engine.Step] = []
        result.reserveCapacity(steps.count)
        var i = 0
        while i < steps.count {
            if i + 1 < steps.count,
                let fused = fusedPair(
                    steps[i], steps[i + 1], order: order, tensors: tensors, readers: readers,
                    observed: observed, threadCount: threadCount)
            {
                result.append(fused)
                i += 2
            } else {
                result.append(steps[i])
                i += 1
            }
        }
        return result
    }

    private static func fusedPair(
        _ first: Engine.Step, _ second: Engine.Step, order: [Operator], tensors: [TensorState], readers: [Int],
        observed: [Bool], threadCount: Int
    ) -> Engine.Step? {
        guard first.absorbed == nil, second.absorbed == nil, second.scratchCount == 0,
            first.position >= 0, first.position < order.count, second.position >= 0, second.position < order.count
        else { return nil }
        let producer = order[first.position], consumer = order[second.position]
        guard producer.outputs.count == 1, let t = producer.outputs.first, t >= 0, t < tensors.count,
            consumer.inputs.first == t, readers[t] == 1, !observed[t], !tensors[t].isVariable,
            !tensors[t].isConstant,
            let kernel = ExpansionDepthwiseF32(first.kernel, second.kernel, threadCount: threadCount)
        else { return nil }
        var step = Engine.Step(
            operatorIndex: first.operatorIndex, position: first.position, kernel: kernel,
            scratchStart: first.scratchStart, scratchCount: first.scratchCount, serial: first.serial && second.serial)
        step.absorbed = second.position
        return step
    }
}
