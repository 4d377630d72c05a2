import Foundation

// Completion handlers of the Firebase / ML Kit callback APIs.
//
// App code hands these APIs closures that capture and change local state:
//
//     var modelPath: String?
//     ModelManager.modelManager().getLatestModelFilePath(remoteModel) { path, error in
//         modelPath = path
//     }
//
// Such a closure is not `Sendable`, so a `@Sendable` parameter rejects it in Swift 6
// language mode; the parameters are plain escaping closures, which compile in Swift 5 and
// Swift 6 mode, in `@MainActor` code and in nonisolated code alike. A plain closure may
// only run where its captured state is safe to touch, so every API follows these rules:
//
// 1. Synchronously, before the method returns, on the caller's thread, whenever the
//    answer is known without downloading, reading a model or running one:
//    `ModelManager.getLatestModelFilePath` (a look-up in the local cache, like
//    `isModelDownloaded`),
//    `ModelInterpreter.inputIndex` / `outputIndex` once the model has been read, and any
//    error found in the arguments alone.
// 2. Otherwise once, later, on one queue chosen when the method is called:
//    - the object's (or its options') `completionQueue`, else
//      `ModelInterpreter.defaultCompletionQueue` (read when the object is created), when
//      one is set;
//    - else the main queue when the caller is on the main thread, as Firebase does, so
//      `@MainActor` code (a view controller, a Swift 6 `main.swift`) gets its callbacks
//      on its own actor;
//    - else a private serial queue of the object, so completions of one object never run
//      at once. State the closure shares with the calling thread then needs that thread's
//      own synchronization (waiting for the completion, a lock), as with any callback.
//
// A command-line program that calls from the main thread and never runs the main queue
// (no `dispatchMain()`, `RunLoop.main.run()` or top-level `await`) would never see the
// main-queue callbacks of rule 2: it sets `ModelInterpreter.defaultCompletionQueue` (or
// the object's `completionQueue`) to a queue of its own, or uses the `async` variants.
// Every hand-off to the main queue goes through `MainQueueWatch.async(on:_:)`, which
// tells such a program so on standard error (once) when a completion has waited there a
// few seconds.

/// A caller's completion handler, carried to the queue it runs on.
///
/// `@unchecked Sendable`: the closure runs exactly once, either before the method
/// returns or on the queue ``CompletionRoute/queue(_:fallback:)`` picked on the caller's
/// thread (see the rules above), never on two threads at once.
struct Completion<Value>: @unchecked Sendable {
    private let body: (Value?, (any Error)?) -> Void

    init(_ body: @escaping (Value?, (any Error)?) -> Void) { self.body = body }

    func callAsFunction(_ result: Result<Value, any Error>) {
        switch result {
        case .success(let value): body(value, nil)
        case .failure(let error): body(nil, error)
        }
    }
}

/// A completion handler that takes only an error (``ModelManager/deleteDownloadedModel(_:completion:)``).
struct ErrorCompletion: @unchecked Sendable {
    private let body: ((any Error)?) -> Void
    init(_ body: @escaping ((any Error)?) -> Void) { self.body = body }
    func callAsFunction(_ error: (any Error)?) { body(error) }
}

/// The queue a later completion runs on (rule 2 above), decided on the caller's thread.
enum CompletionRoute {
    static func queue(_ explicit: DispatchQueue?, fallback: DispatchQueue) -> DispatchQueue {
        if let explicit { return explicit }
        return Thread.isMainThread ? .main : fallback
    }
}
