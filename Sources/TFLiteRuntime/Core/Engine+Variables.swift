import TFLiteModel

extension Engine {
    /// Returns every variable tensor (`is_variable` in the model: the state an LSTM or
    /// SVDF keeps between invokes) to its initial value: all bytes zero, except an int8
    /// tensor, whose every element becomes its zero point, the code of 0.0 (LiteRT's rule;
    /// a variable tensor has no constant data to start from). `allocate()` does this too.
    public func resetVariableTensors() {
        guard isAllocated else { return }
        for t in tensors.indices where tensors[t].isVariable {
            guard let buffer = buffer(forTensor: t), let base = buffer.baseAddress else { continue }
            var fill: UInt8 = 0
            if tensors[t].type == .int8, let zero = tensors[t].zeroPoint, let code = Int8(exactly: zero) {
                fill = UInt8(bitPattern: code)
            }
            base.initializeMemory(as: UInt8.self, repeating: fill, count: buffer.count)
        }
    }
}
