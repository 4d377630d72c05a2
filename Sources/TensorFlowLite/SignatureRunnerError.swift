import Foundation

/// Errors thrown by ``SignatureRunner``, with TensorFlowLiteSwift's cases and messages.
public enum SignatureRunnerError: Error, Equatable, Hashable {
    case invalidTensorDataCount(provided: Int, required: Int)
    case invalidTensorDataType
    case failedToCreateSignatureRunner(signatureKey: String)
    case failedToGetTensor(tensorType: String, nameInSignature: String)
    case failedToResizeInputTensor(inputName: String)
    case failedToCopyDataToInputTensor
    case failedToAllocateTensors
    case failedToInvokeSignature(signatureKey: String)
    case allocateTensorsRequired
}

extension SignatureRunnerError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .invalidTensorDataCount(let provided, let required):
            return "Provided data count \(provided) must match the required count \(required)."
        case .invalidTensorDataType:
            return "Tensor data type is unsupported or could not be determined due to a model error."
        case .failedToCreateSignatureRunner(let signatureKey):
            return "Failed to create a signature runner. Signature with key (\(signatureKey)) not found."
        case .failedToGetTensor(let tensorType, let nameInSignature):
            return "Failed to get \(tensorType) tensor with \(tensorType) name (\(nameInSignature))."
        case .failedToResizeInputTensor(let inputName):
            return "Failed to resize input tensor with input name (\(inputName))."
        case .failedToCopyDataToInputTensor:
            return "Failed to copy data to input tensor."
        case .failedToAllocateTensors:
            return "Failed to allocate memory for input tensors."
        case .failedToInvokeSignature(let signatureKey):
            return "Failed to invoke the signature runner with key (\(signatureKey))."
        case .allocateTensorsRequired:
            return "Must call allocateTensors()."
        }
    }
}

extension SignatureRunnerError: CustomStringConvertible {
    public var description: String { errorDescription ?? "Unknown error." }
}
