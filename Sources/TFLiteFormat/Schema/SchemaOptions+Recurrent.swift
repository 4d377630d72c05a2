// The options tables of the recurrent operators without gates (RNN,
// UNIDIRECTIONAL_SEQUENCE_RNN, BIDIRECTIONAL_SEQUENCE_RNN) and of SVDF. Absent fields
// take the schema defaults (0, false, NONE).

extension Schema.BuiltinOptionsType {
    package static let svdf: UInt8 = 6
    package static let rnn: UInt8 = 7
    package static let sequenceRNN: UInt8 = 31
    package static let bidirectionalSequenceRNN: UInt8 = 70
}

extension Schema {
    /// RNNOptions: 0 fused_activation_function, 1 asymmetric_quantize_inputs.
    package struct RNNOptions: Hashable, Sendable {
        package var fusedActivation: Int8, asymmetricQuantizeInputs: Bool
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            fusedActivation = try t.scalar(0, "fused_activation_function", default: 0)
            asymmetricQuantizeInputs = try t.bool(1, "asymmetric_quantize_inputs")
        }
    }

    /// SequenceRNNOptions: 0 time_major, 1 fused_activation_function,
    /// 2 asymmetric_quantize_inputs.
    package struct SequenceRNNOptions: Hashable, Sendable {
        package var timeMajor: Bool, fusedActivation: Int8, asymmetricQuantizeInputs: Bool
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            timeMajor = try t.bool(0, "time_major")
            fusedActivation = try t.scalar(1, "fused_activation_function", default: 0)
            asymmetricQuantizeInputs = try t.bool(2, "asymmetric_quantize_inputs")
        }
    }

    /// BidirectionalSequenceRNNOptions: 0 time_major, 1 fused_activation_function,
    /// 2 merge_outputs, 3 asymmetric_quantize_inputs.
    package struct BidirectionalSequenceRNNOptions: Hashable, Sendable {
        package var timeMajor: Bool, fusedActivation: Int8, mergeOutputs: Bool, asymmetricQuantizeInputs: Bool
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            timeMajor = try t.bool(0, "time_major")
            fusedActivation = try t.scalar(1, "fused_activation_function", default: 0)
            mergeOutputs = try t.bool(2, "merge_outputs")
            asymmetricQuantizeInputs = try t.bool(3, "asymmetric_quantize_inputs")
        }
    }

    /// SVDFOptions: 0 rank (int32), 1 fused_activation_function,
    /// 2 asymmetric_quantize_inputs.
    package struct SVDFOptions: Hashable, Sendable {
        package var rank: Int32, fusedActivation: Int8, asymmetricQuantizeInputs: Bool
        package init(_ t: FlatBufferTable) throws(FlatBufferError) {
            rank = try t.scalar(0, "rank", default: 0)
            fusedActivation = try t.scalar(1, "fused_activation_function", default: 0)
            asymmetricQuantizeInputs = try t.bool(2, "asymmetric_quantize_inputs")
        }
    }
}
