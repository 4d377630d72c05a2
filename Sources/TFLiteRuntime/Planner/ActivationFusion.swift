import TFLiteModel

/// Folds standalone float activations (RELU, RELU6, RELU_N1_TO_1) into the operator that
/// produces their input, as the fused activation TFLite's own options already carry.
///
/// Converters often leave `CONV_2D → RELU` or `ADD → RELU` as two operators (MediaPipe's
/// face detectors have one RELU after almost every block). Run separately, the activation
/// costs a full read and write of the tensor; fused, it is a `max` in the producer's
/// store loop, which is how XNNPACK runs these graphs. Float results are unchanged: the
/// producer computes the same value and clamps it to the same range the activation would.
///
/// A pair is fused only when nothing else can observe the intermediate tensor `T`:
/// - `T` is float32, written by exactly one operator `P` (with a single output and no
///   fused activation of its own) and read only by the activation `A`, which comes later;
/// - `T` is not a graph input or output, a variable or a constant;
/// - `A`'s output `U` is float32, written only by `A`, read by no operator up to `A`,
///   and not a graph input, a variable or a constant.
///
/// `P` then writes `U` directly, with `A`'s clamp as its fused activation, and `A` is
/// dropped from the execution order. 8-bit activations are never fused: their output can
/// carry other quantization parameters than their input.
enum ActivationFusion {
    /// The operators to execute, in order: the graph's own, with fused producers
    /// rewritten and the activations they absorbed removed.
    static func plan(_ subgraph: Subgraph) -> [Operator] {
        let operators = subgraph.operators
        let tensorCount = subgraph.tensors.count
        var producers = [Int](repeating: 0, count: tensorCount)
        var producer = [Int](repeating: -1, count: tensorCount)
        var readers = [Int](repeating: 0, count: tensorCount)
        var firstReader = [Int](repeating: Int.max, count: tensorCount)
        for (position, op) in operators.enumerated() {
            for t in op.outputs where t >= 0 && t < tensorCount {
                producers[t] += 1
                producer[t] = position
            }
            for t in op.inputs + op.intermediates where t >= 0 && t < tensorCount {
                readers[t] += 1
                firstReader[t] = Swift.min(firstReader[t], position)
            }
        }
        // Tensors no operator may start writing (`fixed`), and those whose value someone
        // outside the operators can see (`observed`).
        var fixed = [Bool](repeating: false, count: tensorCount)
        for t in subgraph.inputs where t >= 0 && t < tensorCount { fixed[t] = true }
        for t in subgraph.tensors.indices {
            let tensor = subgraph.tensors[t]
            if tensor.isVariable || tensor.constantData != nil { fixed[t] = true }
        }
        var observed = fixed
        for t in subgraph.outputs where t >= 0 && t < tensorCount { observed[t] = true }

        var result = operators
        var removed = [Bool](repeating: false, count: operators.count)
        for (a, activationOp) in operators.enumerated() {
            guard let clamp = clampActivation(activationOp.code),
                activationOp.inputs.count == 1, activationOp.outputs.count == 1
            else { continue }
            let t = activationOp.inputs[0], u = activationOp.outputs[0]
            guard t >= 0, t < tensorCount, u >= 0, u < tensorCount, t != u,
                !observed[t], !fixed[u],
                subgraph.tensors[t].type == .float32, subgraph.tensors[u].type == .float32,
                producers[t] == 1, readers[t] == 1,
                producers[u] == 1, firstReader[u] > a
            else { continue }
            let p = producer[t]
            guard p >= 0, p < a, !removed[p], result[p].outputs == [t],
                let options = fusing(clamp, into: result[p])
            else { continue }
            result[p].options = options
            result[p].outputs = [u]
            removed[a] = true
        }
        return result.indices.filter { !removed[$0] }.map { result[$0] }
    }

    /// The fused activation a standalone activation operator computes.
    private static func clampActivation(_ code: OperatorCode) -> FusedActivation? {
        switch code.builtin {
        case .relu: return .relu
        case .relu6: return .relu6
        case .reluN1To1: return .reluN1To1
        default: return nil
        }
    }

    /// `op`'s options with `activation` as their fused activation, or nil when the operator
    /// has none to set (or already has one: clamps do not compose into one option).
    private static func fusing(_ activation: FusedActivation, into op: Operator) -> BuiltinOptions? {
        switch (op.code.builtin, op.options) {
        case (.conv2D, .conv2D(var o)) where o.activation == .none:
            o.activation = activation; return .conv2D(o)
        case (.depthwiseConv2D, .depthwiseConv2D(var o)) where o.activation == .none:
            o.activation = activation; return .depthwiseConv2D(o)
        case (.fullyConnected, .fullyConnected(var o)) where o.activation == .none:
            o.activation = activation; return .fullyConnected(o)
        case (.add, .add(.none, let pot)): return .add(activation: activation, potScaleInt16: pot)
        case (.sub, .sub(.none, let pot)): return .sub(activation: activation, potScaleInt16: pot)
        case (.mul, .mul(.none)): return .mul(activation: activation)
        default: return nil
        }
    }
}
