import TensorFlowLite
import TFLiteModel

extension Model {
    /// The input and output names of signature `key` in the order of its subgraph's inputs
    /// and outputs (a `SignatureDef` lists them in its own order, often alphabetical), or
    /// nil when the model has no such signature.
    public func signatureNamesInSubgraphOrder(_ key: String) -> (inputs: [String], outputs: [String])? {
        guard let signature = signatures.first(where: { $0.key == key }),
            subgraphs.indices.contains(signature.subgraphIndex)
        else { return nil }
        let subgraph = subgraphs[signature.subgraphIndex]
        func ordered(_ entries: [Signature.TensorName], by order: [Int]) -> [String] {
            order.compactMap { t in entries.first { $0.tensorIndex == t }?.name }
        }
        return (ordered(signature.inputs, by: subgraph.inputs), ordered(signature.outputs, by: subgraph.outputs))
    }
}
