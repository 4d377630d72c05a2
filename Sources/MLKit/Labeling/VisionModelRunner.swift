import Foundation
import TensorFlowLite

/// One image model loaded into an ``Interpreter``, run under a lock (interpreters are not
/// thread-safe; detectors are).
final class VisionModelRunner: @unchecked Sendable {
    let interpreter: Interpreter
    let input: ImageInputSpec
    private let lock = NSLock()

    /// Loads `modelPath`, allocates tensors and checks input 0 is an image tensor.
    init(modelPath: String) throws(VisionError) {
        do {
            interpreter = try Interpreter(modelPath: modelPath)
            try interpreter.allocateTensors()
            input = try ImageInputSpec(interpreter.input(at: 0))
        } catch let error as VisionError {
            throw error
        } catch {
            throw .invalidModel("\(modelPath): \(error)")
        }
    }

    /// Copies `data` into input 0, invokes, and returns every output tensor.
    func run(_ data: Data) throws(VisionError) -> [Tensor] {
        do {
            return try lock.withLock {
                try interpreter.copy(data, toInputAt: 0)
                try interpreter.invoke()
                return try (0 ..< interpreter.outputTensorCount).map { try interpreter.output(at: $0) }
            }
        } catch {
            throw .interpreter("\(error)")
        }
    }

    /// The real values of an output: dequantized with its quantization parameters;
    /// uInt8 without parameters reads as `q / 255`; float32 as is.
    static func realValues(_ tensor: Tensor) throws(VisionError) -> [Float] {
        do {
            switch tensor.dataType {
            case .float32: return try [Float](tensor)
            case .uInt8 where tensor.quantizationParameters == nil: return try [UInt8](tensor).map { Float($0) / 255 }
            case .uInt8, .int8: return try [Float].dequantized(tensor)
            default: throw VisionError.unexpectedOutput("output '\(tensor.name)' has type \(tensor.dataType)")
            }
        } catch let error as VisionError {
            throw error
        } catch {
            throw .unexpectedOutput("output '\(tensor.name)': \(error)")
        }
    }
}

/// Where a detector runs its work and delivers completions.
///
/// `process(_:completion:)` runs the model on the detector's private serial queue and
/// calls the completion as Completion.swift describes: on the options' `completionQueue`
/// (else ``ModelInterpreter/defaultCompletionQueue``) when set, else on the main queue
/// when called from the main thread, else on that private queue.
struct CompletionDelivery: Sendable {
    let workQueue: DispatchQueue
    let completionQueue: DispatchQueue?

    init(label: String, completionQueue: DispatchQueue?) {
        workQueue = DispatchQueue(label: "swift-tflite.mlkit.\(label)")
        self.completionQueue = completionQueue ?? ModelInterpreter.defaultCompletionQueue
    }

    func deliver<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T, completion: @escaping (T?, (any Error)?) -> Void
    ) {
        let target = CompletionRoute.queue(completionQueue, fallback: workQueue)
        let completion = Completion(completion)
        workQueue.async {
            let result = Result { try body() }
            if target === self.workQueue {
                completion(result)
            } else {
                MainQueueWatch.async(on: target) { completion(result) }
            }
        }
    }
}
