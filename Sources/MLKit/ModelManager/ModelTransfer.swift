import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streams the bytes of one URL (`http`, `https` or `file`) to handlers, chunk by chunk,
/// so a model is hashed and written while it arrives and never held whole in memory.
///
/// Handlers run one at a time on a private queue. An error thrown by a handler stops the
/// transfer and is passed to `completion` unchanged; so is a ``MachineLearningErrorCode``
/// error for an HTTP status other than 200. Otherwise `completion` gets `nil` when the
/// server ended the body normally, or the URL loading system's error.
final class ModelTransfer: @unchecked Sendable {
    struct Handlers: Sendable {
        /// The server's `Content-Length` (nil if unknown), before any data.
        var response: @Sendable (Int64?) throws -> Void
        var data: @Sendable (Data) throws -> Void
        var completion: @Sendable ((any Error)?) -> Void
    }

    private let lock = NSLock()
    private var cancelled = false
    private var task: URLSessionTask?

    /// Starts transferring `url`; `timeout` is the longest wait for any data.
    static func start(_ url: URL, timeout: TimeInterval, allowsCellularAccess: Bool, handlers: Handlers)
        -> ModelTransfer
    {
        let transfer = ModelTransfer()
        if url.isFileURL {
            transfer.readFile(url, handlers: handlers)
        } else {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            configuration.allowsCellularAccess = allowsCellularAccess
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            let delegateQueue = OperationQueue()
            delegateQueue.maxConcurrentOperationCount = 1
            let delegate = StreamingDelegate(handlers: handlers)
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
            var request = URLRequest(url: url)
            request.timeoutInterval = timeout
            let task = session.dataTask(with: request)
            transfer.lock.lock()
            transfer.task = task
            let wasCancelled = transfer.cancelled
            transfer.lock.unlock()
            task.resume()
            // The session keeps its delegate alive until the task ends, then lets it go.
            session.finishTasksAndInvalidate()
            if wasCancelled { task.cancel() }
        }
        return transfer
    }

    /// Stops the transfer; `completion` is called with an error.
    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }

    private var isCancelled: Bool {
        lock.lock(); defer { lock.unlock() }
        return cancelled
    }

    private func readFile(_ url: URL, handlers: Handlers) {
        DispatchQueue.global(qos: .utility).async { [self] in
            do {
                let handle: FileHandle
                do {
                    handle = try FileHandle(forReadingFrom: url)
                } catch {
                    throw MachineLearningErrorCode.notFound.error(
                        "The model server has no file \(url.path).", underlying: error)
                }
                defer { try? handle.close() }
                let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
                try handlers.response(size)
                while !isCancelled {
                    guard let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty else { break }
                    try handlers.data(chunk)
                }
                handlers.completion(isCancelled ? CocoaError(.userCancelled) : nil)
            } catch {
                handlers.completion(error)
            }
        }
    }
}

/// Feeds a data task's response and bytes to the handlers, and remembers the first error a
/// handler throws so the completion reports it rather than the cancellation it causes.
private final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let handlers: ModelTransfer.Handlers
    private var failure: (any Error)?

    init(handlers: ModelTransfer.Handlers) { self.handlers = handlers }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        do {
            if let http = response as? HTTPURLResponse, http.statusCode != 200 {
                let url = response.url?.absoluteString ?? "?"
                let code: MachineLearningErrorCode =
                    http.statusCode == 404 || http.statusCode == 410 ? .notFound : .unavailable
                throw code.error("The model server answered HTTP \(http.statusCode) for \(url).")
            }
            let length = response.expectedContentLength
            try handlers.response(length >= 0 ? length : nil)
            completionHandler(.allow)
        } catch {
            failure = error
            completionHandler(.cancel)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard failure == nil else { return }
        do {
            try handlers.data(data)
        } catch {
            failure = error
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        handlers.completion(failure ?? error)
    }
}
