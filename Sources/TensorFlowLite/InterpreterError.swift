import Foundation

/// Errors thrown by the TensorFlow Lite ``Interpreter``.
///
/// Cases and messages are those of TensorFlowLiteSwift. Where the original reports a
/// generic or misleading case, this library throws ``tensorFlowLiteError(_:)`` with the
/// precise reason (unsupported operators and types, invalid operators, failures inside
/// `invoke()`), so the message names the operator, its index and the types.
public enum InterpreterError: Error, Equatable, Hashable {
    case invalidTensorIndex(index: Int, maxIndex: Int)
    case invalidTensorDataCount(provided: Int, required: Int)
    case invalidTensorDataType
    case failedToLoadModel
    case failedToCreateInterpreter
    case failedToResizeInputTensor(index: Int)
    case failedToCopyDataToInputTensor
    case failedToAllocateTensors
    case allocateTensorsRequired
    case invokeInterpreterRequired
    case tensorFlowLiteError(String)
    /// A custom operator registered with ``Interpreter/Options/registerCustomOperator(_:_:)``
    /// threw, or broke the rules of the custom-operator API, while preparing or running
    /// (an addition): its name, its index in the model, and the error's description.
    case customOperatorFailed(name: String, operatorIndex: Int, reason: String)
}

extension InterpreterError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .invalidTensorIndex(let index, let maxIndex):
            return "Invalid tensor index \(index), max index is \(maxIndex)."
        case .invalidTensorDataCount(let provided, let required):
            return "Provided data count \(provided) must match the required count \(required)."
        case .invalidTensorDataType:
            return "Tensor data type is unsupported or could not be determined due to a model error."
        case .failedToLoadModel:
            return "Failed to load the given model."
        case .failedToCreateInterpreter:
            return "Failed to create the interpreter."
        case .failedToResizeInputTensor(let index):
            return "Failed to resize input tensor at index \(index)."
        case .failedToCopyDataToInputTensor:
            return "Failed to copy data to input tensor."
        case .failedToAllocateTensors:
            return "Failed to allocate memory for input tensors."
        case .allocateTensorsRequired:
            return "Must call allocateTensors()."
        case .invokeInterpreterRequired:
            return "Must call invoke()."
        case .tensorFlowLiteError(let message):
            return "TensorFlow Lite Error: \(message)"
        case .customOperatorFailed(let name, let index, let reason):
            return "Custom operator '\(name)' (operator \(index)) failed: \(reason)"
        }
    }
}

extension InterpreterError: CustomStringConvertible {
    /// A textual representation of the error (its `errorDescription`).
    public var description: String { errorDescription ?? "Unknown error." }
}
