// TensorFlowLite
