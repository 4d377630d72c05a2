import TFLiteModel

extension KernelRegistry {
    static var lstmKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.lstm, LSTMOperator.prepare),
            (.unidirectionalSequenceLstm, SequenceLSTM.prepareUnidirectional),
            (.bidirectionalSequenceLstm, BidirectionalSequenceLSTM.prepare),
        ]
    }
}
