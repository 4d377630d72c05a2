import TFLiteModel

extension KernelRegistry {
    /// The recurrent operators without gates (the RNN cell, alone and over sequences) and
    /// SVDF, which keep state in variable tensors between invokes.
    static var recurrentKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.rnn, BasicRNN.prepare),
            (.unidirectionalSequenceRnn, UnidirectionalSequenceRNN.prepare),
            (.bidirectionalSequenceRnn, BidirectionalSequenceRNN.prepare),
            (.svdf, SVDF.prepare),
        ]
    }
}
