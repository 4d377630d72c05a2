import TFLiteModel

extension KernelRegistry {
    static var activationKernels: [(BuiltinOperator, KernelPrepare)] {
        [
            (.relu, ClampActivation.prepare(lower: 0, upper: .infinity)),
            (.relu6, ClampActivation.prepare(lower: 0, upper: 6)),
            (.reluN1To1, ClampActivation.prepare(lower: -1, upper: 1)),
            (.relu0To1, ClampActivation.prepare(lower: 0, upper: 1)),
            (.leakyRelu, UnaryActivation.prepare(.leakyRelu)),
            (.prelu, PRelu.prepare),
            (.logistic, UnaryActivation.prepare(.logistic)),
            (.tanh, UnaryActivation.prepare(.tanh)),
            (.hardSwish, UnaryActivation.prepare(.hardSwish)),
            (.exp, UnaryActivation.prepare(.exp)),
            (.sqrt, UnaryActivation.prepare(.sqrt)),
            (.rsqrt, UnaryActivation.prepare(.rsqrt)),
            (.softmax, Softmax.prepare(logarithmic: false)),
            (.logSoftmax, Softmax.prepare(logarithmic: true)),
        ]
    }
}
