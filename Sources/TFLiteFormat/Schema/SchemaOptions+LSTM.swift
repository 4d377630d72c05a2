extension Schema {
    /// The three LSTM options tables share their first three fields
    /// (`fused_activation_function`, `cell_clip`, `proj_clip`); the rest sit at
    /// different slots per table. Absent fields take the schema defaults: 0 clips (no
    /// clipping), FULL kernel, false flags, except BidirectionalSequenceLSTMOptions'
    /// `time_major`, which defaults to true.
    package struct LSTMOptions: Hashable, Sendable {
        package var fusedActivation: Int8
        package var cellClip: Float, projClip: Float
        /// LSTMKernelType: FULL = 0, BASIC = 1 (LSTMOptions only).
        package var kernelType: Int8 = 0
        package var timeMajor = false
        package var mergeOutputs = false
        package var asymmetricQuantizeInputs = false
        package var diagonalRecurrentTensors = false

        /// `LSTMOptions`: 3 kernel_type, 4 asymmetric_quantize_inputs.
        package init(lstm t: FlatBufferTable) throws(FlatBufferError) {
            fusedActivation = try t.scalar(0, "fused_activation_function", default: 0)
            cellClip = try t.float(1, "cell_clip")
            projClip = try t.float(2, "proj_clip")
            kernelType = try t.scalar(3, "kernel_type", default: 0)
            asymmetricQuantizeInputs = try t.bool(4, "asymmetric_quantize_inputs")
        }

        /// `UnidirectionalSequenceLSTMOptions`: 3 time_major, 4 asymmetric_quantize_inputs,
        /// 5 diagonal_recurrent_tensors.
        package init(unidirectional t: FlatBufferTable) throws(FlatBufferError) {
            fusedActivation = try t.scalar(0, "fused_activation_function", default: 0)
            cellClip = try t.float(1, "cell_clip")
            projClip = try t.float(2, "proj_clip")
            timeMajor = try t.bool(3, "time_major")
            asymmetricQuantizeInputs = try t.bool(4, "asymmetric_quantize_inputs")
            diagonalRecurrentTensors = try t.bool(5, "diagonal_recurrent_tensors")
        }

        /// `BidirectionalSequenceLSTMOptions`: 3 merge_outputs, 4 time_major (default
        /// true), 5 asymmetric_quantize_inputs.
        package init(bidirectional t: FlatBufferTable) throws(FlatBufferError) {
            fusedActivation = try t.scalar(0, "fused_activation_function", default: 0)
            cellClip = try t.float(1, "cell_clip")
            projClip = try t.float(2, "proj_clip")
            mergeOutputs = try t.bool(3, "merge_outputs")
            timeMajor = try t.bool(4, "time_major", default: true)
            asymmetricQuantizeInputs = try t.bool(5, "asymmetric_quantize_inputs")
        }
    }
}
