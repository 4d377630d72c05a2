import TFLiteModel

/// The LSTM operator (one time step). Its options choose the kernel: FULL takes the
/// 20/24 operands of UNIDIRECTIONAL_SEQUENCE_LSTM on a `[batch, features]` input;
/// BASIC is the 5-input, 4-output cell of ``LSTMBasic``.
enum LSTMOperator {
    static func prepare(_ context: inout PrepareContext) throws(KernelError) -> any PreparedKernel {
        // TFLite refuses an LSTM without its options table.
        guard case .lstm(let options) = context.op.options else {
            throw .invalid("expected LSTMOptions, found \(context.op.options)")
        }
        switch options.kernelType {
        case 0: return try SequenceLSTM.prepareFull(&context, options: options)
        case 1: return try LSTMBasic.prepare(&context)
        default: throw .invalid("unknown LSTM kernel type \(options.kernelType)")
        }
    }
}
