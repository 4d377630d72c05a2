import Foundation

/// The one warning a program gets when a completion it was promised on the main queue
/// cannot start there.
///
/// A completion of a call made on the main thread runs on the main queue (Completion.swift,
/// rule 2), which only runs when the program runs it. An app's main run loop always does; a
/// command-line program that waits on a semaphore on its main thread, or returns to no run
/// loop, never does, and the completion would wait forever without a word. So every hand-off
/// to the main queue is watched: when its block has not started
/// ``MainQueueWatch/delay`` seconds after it was queued, one warning naming the cause and the
/// fixes goes to standard error, once per process. Nothing else changes: the completion
/// stays queued and runs if the program ever drains the main queue.
enum MainQueueWatch {
    /// Seconds a main-queue completion may wait before the warning: the environment's
    /// `TFLITE_MAIN_QUEUE_WARNING_SECONDS` when it is a number (0 turns the warning off),
    /// else 3. An app's main thread that is busy for that long already shows as a hang, so
    /// a drained main queue does not wait that long in practice.
    static let delay: Double? = {
        let value = ProcessInfo.processInfo.environment["TFLITE_MAIN_QUEUE_WARNING_SECONDS"].flatMap(Double.init)
        guard let value else { return 3 }
        return value > 0 && value.isFinite ? value : nil
    }()

    private static let warned = ModelLocked(false)

    /// Marks the main queue, so that it is recognized whatever object stands for it:
    /// on Linux every `DispatchQueue.main` is a new wrapper of the one queue, so `===`
    /// cannot tell. Set once, when first read (a `static let` initializes exactly once).
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether `queue` is the main queue itself (not a queue that targets it).
    static func isMainQueue(_ queue: DispatchQueue) -> Bool {
        queue.getSpecific(key: mainQueueKey) == true
    }

    /// Queues `work` on `queue`; when that is the main queue, checks ``delay`` seconds later
    /// that it has started, and warns once per process if not.
    static func async(on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        guard let delay, isMainQueue(queue), !warned.withLock({ $0 }) else {
            queue.async(execute: work)
            return
        }
        let started = ModelLocked(false)
        queue.async {
            started.withLock { $0 = true }
            work()
        }
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) {
            guard !started.withLock({ $0 }) else { return }
            let first = warned.withLock { already in
                defer { already = true }
                return !already
            }
            if first { FileHandle.standardError.write(Data(warning(after: delay).utf8)) }
        }
    }

    /// The warning: what is waiting, why, and the three ways out.
    static func warning(after delay: Double) -> String {
        let seconds = delay.rounded() == delay ? String(Int(delay)) : String(delay)
        return """
            swift-tflite: warning: a completion handler has waited \(seconds) s to run on the main queue, \
            which this program is not running (its main thread is blocked, e.g. waiting on a semaphore, or \
            never runs a run loop); calls made on the main thread complete on the main queue, as in \
            Firebase. Run the main queue (dispatchMain(), RunLoop.main.run() or top-level await), set \
            ModelInterpreter.defaultCompletionQueue or the object's completionQueue to a queue of your own, \
            or use the async forms (try await interpreter.run(inputs:options:)). This warning is shown \
            once; TFLITE_MAIN_QUEUE_WARNING_SECONDS=0 turns it off.

            """
    }
}
