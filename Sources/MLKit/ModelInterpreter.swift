import Foundation
import TensorFlowLite

/// Runs a custom TensorFlow Lite model: Firebase's `ModelInterpreter`.
///
///     let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: path))
///     interpreter.run(inputs: inputs, options: ioOptions) { outputs, error in
///         guard let probabilities = try? outputs?.output(index: 0) as? [[NSNumber]] else { return }
///         …
///     }
///
/// Thread-safe: ``run(inputs:options:completion:)`` may be called from any number of
/// threads at once. The model is read once, on first use, and shared; each concurrent run
/// takes its own TensorFlow Lite `Interpreter` from a pool, so runs proceed in parallel and
/// each gets its own outputs. A model that keeps state between runs (a streaming LSTM, a
/// model updating variables) runs on one interpreter instead, one run at a time in the
/// order they start, so each run continues from the state the last one left, as with
/// Firebase's single interpreter.
///
/// Completions are plain closures (they may capture and change local state in Swift 6
/// mode). ``inputIndex(opName:completion:)`` and ``outputIndex(opName:completion:)`` call
/// theirs before returning once the model has been read; ``run(inputs:options:completion:)``
/// calls back later on ``completionQueue`` if set, else on the main queue when called on
/// the main thread (as Firebase does), else on a private serial queue. A command-line
/// program that calls from the main thread without running the main queue sets
/// ``defaultCompletionQueue`` or uses the `async` variants; when it does neither, a
/// completion that has waited 3 seconds on the main queue makes the library say so on
/// standard error, once. Completion.swift states the rules.
public final class ModelInterpreter: NSObject, @unchecked Sendable {
    enum Source: Sendable {
        case local(CustomLocalModel)
        case remote(CustomRemoteModel, ModelManager)
    }

    let source: Source
    private let state = ModelLocked(State())
    /// Held for the whole of each run of a model that keeps state between runs.
    let statefulRuns = NSLock()
    private struct State {
        var completionQueue = ModelInterpreter.defaultCompletionQueue
        let privateQueue = DispatchQueue(label: "swift-tflite.mlkit.model-interpreter")
        var isStatsCollectionEnabled = true
        var loaded: LoadedModel?
        var idle: [PooledInterpreter] = []
    }

    private init(source: Source) {
        self.source = source
        super.init()
    }

    /// An interpreter for a model file on this machine.
    public class func modelInterpreter(localModel: CustomLocalModel) -> ModelInterpreter {
        ModelInterpreter(source: .local(localModel))
    }

    /// An interpreter for a remote model downloaded by ``ModelManager/modelManager()``.
    /// Download it first; until then runs fail with
    /// ``MachineLearningErrorCode/failedPrecondition``. The model file is read on the first
    /// run; a version downloaded later is used by interpreters created after it.
    public class func modelInterpreter(remoteModel: CustomRemoteModel) -> ModelInterpreter {
        ModelInterpreter(source: .remote(remoteModel, .modelManager()))
    }

    /// An interpreter for a remote model downloaded by `modelManager` (an addition: a
    /// manager with its own server and cache).
    public class func modelInterpreter(remoteModel: CustomRemoteModel, modelManager: ModelManager) -> ModelInterpreter {
        ModelInterpreter(source: .remote(remoteModel, modelManager))
    }

    // MARK: - Settings

    private static let defaultQueue = ModelLocked<DispatchQueue?>(nil)

    /// The queue new interpreters, model managers, labelers and detectors call later
    /// completions on (an addition). `nil` (the default): the main queue when the call is
    /// made on the main thread, else the object's private serial queue.
    public static var defaultCompletionQueue: DispatchQueue? {
        get { defaultQueue.withLock { $0 } }
        set { defaultQueue.withLock { $0 = newValue } }
    }

    /// The queue this interpreter calls later completions on (``defaultCompletionQueue``
    /// when it was created); `nil` routes them as ``defaultCompletionQueue`` describes.
    public var completionQueue: DispatchQueue? {
        get { state.withLock { $0.completionQueue } }
        set { state.withLock { $0.completionQueue = newValue } }
    }

    /// Whether usage statistics may be collected. Accepted for source compatibility
    /// (default `true`); this library collects none.
    public var isStatsCollectionEnabled: Bool {
        get { state.withLock { $0.isStatsCollectionEnabled } }
        set { state.withLock { $0.isStatsCollectionEnabled = newValue } }
    }

    // MARK: - Running

    /// Runs the model on `inputs`, checked against `options`, and calls `completion`
    /// later (on ``completionQueue``, or the main queue when called on the main thread)
    /// with the outputs, or with an `NSError` in ``MachineLearningErrorDomain`` whose
    /// message says what was expected and what was found (see
    /// ``MachineLearningErrorCode``). `inputs` and `options` are read when the run starts.
    public func run(
        inputs: ModelInputs, options: ModelInputOutputOptions,
        completion: @escaping (ModelOutputs?, (any Error)?) -> Void
    ) {
        let queue = completionTarget()
        let completion = Completion(completion)
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = Result { try runNow(inputs: inputs, options: options) }
            MainQueueWatch.async(on: queue) { completion(result) }
        }
    }

    /// Where a later completion of a call made now runs (Completion.swift, rule 2).
    private func completionTarget() -> DispatchQueue {
        let (explicit, fallback) = state.withLock { ($0.completionQueue, $0.privateQueue) }
        return CompletionRoute.queue(explicit, fallback: fallback)
    }

    /// Runs the model on `inputs`; errors as in ``run(inputs:options:completion:)``.
    public func run(inputs: ModelInputs, options: ModelInputOutputOptions) async throws -> ModelOutputs {
        // The result crosses threads through a lock, not through the continuation alone:
        // ThreadSanitizer (Swift 6.3, Linux) does not always see a checked continuation's
        // resume as synchronizing, and reported the caller's first read of the outputs as a
        // race with their creation (reproducible with ten lines outside this package). The
        // lock makes the hand-over visible to it; the continuation only signals.
        let result = ModelLocked<Result<ModelOutputs, any Error>?>(nil)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                let outcome = Result { try runNow(inputs: inputs, options: options) }
                result.withLock { $0 = outcome }
                continuation.resume()
            }
        }
        guard let outcome = result.withLock({ $0 }) else {
            throw MachineLearningErrorCode.internal.error("The run ended without a result.")
        }
        return try outcome.get()
    }

    /// The index of the model input whose tensor is named `opName`; or an error
    /// (``MachineLearningErrorCode/invalidArgument``) listing the input names. Calls
    /// `completion` before returning once the model has been read (by an earlier call or
    /// run), else later, as ``run(inputs:options:completion:)`` does.
    public func inputIndex(opName: String, completion: @escaping (NSNumber?, (any Error)?) -> Void) {
        index(of: opName, role: "input", in: { $0.inputs }, completion: completion)
    }

    /// The index of the model output whose tensor is named `opName`; or an error
    /// (``MachineLearningErrorCode/invalidArgument``) listing the output names. Timing as
    /// for ``inputIndex(opName:completion:)``.
    public func outputIndex(opName: String, completion: @escaping (NSNumber?, (any Error)?) -> Void) {
        index(of: opName, role: "output", in: { $0.outputs }, completion: completion)
    }

    private func index(
        of name: String, role: String, in tensors: @escaping @Sendable (LoadedModel) -> [LoadedModel.TensorInfo],
        completion: @escaping (NSNumber?, (any Error)?) -> Void
    ) {
        let completion = Completion(completion)
        let find: @Sendable (LoadedModel) -> Result<NSNumber, any Error> = { model in
            let list = tensors(model)
            guard let i = list.firstIndex(where: { $0.name == name }) else {
                let names = list.map { "'\($0.name)'" }.joined(separator: ", ")
                return .failure(
                    MachineLearningErrorCode.invalidArgument.error(
                        "The model has no \(role) named '\(name)'; its \(role)s are [\(names)]."))
            }
            return .success(NSNumber(value: i))
        }
        // Known without reading a file: answer before returning (Completion.swift, rule 1).
        if let loaded = state.withLock({ $0.loaded }) {
            completion(find(loaded))
            return
        }
        let queue = completionTarget()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result = Result { try load() }.flatMap(find)
            MainQueueWatch.async(on: queue) { completion(result) }
        }
    }

    // MARK: - Model and interpreter pool

    /// The model, read on first use; a failed read is retried by the next call.
    func load() throws -> LoadedModel {
        if let loaded = state.withLock({ $0.loaded }) { return loaded }
        let loaded: LoadedModel
        let first: PooledInterpreter
        (loaded, first) = try LoadedModel.load(source)
        return state.withLock { s in
            if let existing = s.loaded { return existing }
            s.loaded = loaded
            s.idle.append(first)
            return loaded
        }
    }

    /// An idle interpreter, or a new one; give it back with ``release(_:)``.
    func acquire(_ model: LoadedModel) throws -> PooledInterpreter {
        if let idle = state.withLock({ $0.idle.popLast() }) { return idle }
        return try model.makeInterpreter()
    }

    /// Returns an interpreter to the pool, which keeps at most one per processor.
    func release(_ interpreter: PooledInterpreter) {
        let limit = max(2, ProcessInfo.processInfo.activeProcessorCount)
        state.withLock { s in
            if s.idle.count < limit { s.idle.append(interpreter) }
        }
    }
}

/// A TensorFlow Lite interpreter owned by one run at a time, and the input shapes its
/// tensors are allocated for.
final class PooledInterpreter: @unchecked Sendable {
    let interpreter: Interpreter
    var inputShapes: [[Int]]

    init(_ interpreter: Interpreter, inputShapes: [[Int]]) {
        self.interpreter = interpreter
        self.inputShapes = inputShapes
    }
}
