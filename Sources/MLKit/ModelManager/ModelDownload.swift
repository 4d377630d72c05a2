import Foundation
import TensorFlowLite

/// One download of one remote model: fetch the descriptor, stream the file into a partial
/// file while hashing it, verify size, SHA-256 and that it decodes as a model, install it
/// atomically, and report the outcome through `finish`.
///
/// Every failure leaves the installed version untouched and removes the partial file.
final class ModelDownload: @unchecked Sendable {
    let name: String
    let progress: Progress
    private let source: URL
    private let cache: ModelCache
    private let timeout: TimeInterval
    private let allowsCellularAccess: Bool
    /// Where to write instead of a fresh partial file (tests point it at `/dev/full`).
    private let partialFileOverride: URL?
    private let finish: @Sendable (Result<String, NSError>) -> Void

    private let lock = NSLock()
    private var transfer: ModelTransfer?
    private var isCancelled = false

    init(
        name: String, source: URL, cache: ModelCache, timeout: TimeInterval, allowsCellularAccess: Bool,
        partialFileOverride: URL?, finish: @escaping @Sendable (Result<String, NSError>) -> Void
    ) {
        self.name = name
        self.source = source
        self.cache = cache
        self.timeout = timeout
        self.allowsCellularAccess = allowsCellularAccess
        self.partialFileOverride = partialFileOverride
        self.finish = finish
        progress = Progress(totalUnitCount: -1)
        progress.cancellationHandler = { [weak self] in self?.cancel() }
    }

    /// The descriptor's URL: `<source>/<name>/model.json`.
    var descriptorURL: URL {
        source.appendingPathComponent(name, isDirectory: true).appendingPathComponent("model.json")
    }

    func start() {
        fetchDescriptor()
    }

    private func cancel() {
        lock.lock()
        isCancelled = true
        let transfer = self.transfer
        lock.unlock()
        transfer?.cancel()
    }

    private func begin(_ url: URL, _ handlers: ModelTransfer.Handlers) {
        lock.lock()
        defer { lock.unlock() }
        guard !isCancelled else {
            handlers.completion(CocoaError(.userCancelled))
            return
        }
        transfer = ModelTransfer.start(
            url, timeout: timeout, allowsCellularAccess: allowsCellularAccess, handlers: handlers)
    }

    private func fail(_ error: NSError) { finish(.failure(error)) }

    // MARK: - Descriptor

    private func fetchDescriptor() {
        let url = descriptorURL
        let body = ModelLocked(Data())
        begin(
            url,
            .init(
                response: { _ in },
                data: { chunk in
                    try body.withLock { data in
                        data.append(chunk)
                        guard data.count <= 1 << 20 else {
                            throw MachineLearningErrorCode.dataLoss.error(
                                "The descriptor at \(url.absoluteString) is larger than 1 MiB.")
                        }
                    }
                },
                completion: { [self] error in
                    if let error {
                        fail(describe(error, fetching: "the descriptor of model '\(name)' from \(url.absoluteString)"))
                        return
                    }
                    switch Result(catching: { () throws(ModelDescriptorProblem) in
                        try ModelDescriptor.decode(body.withLock { $0 }, expectedName: name)
                    }) {
                    case .success(let descriptor): received(descriptor)
                    case .failure(let problem):
                        fail(
                            MachineLearningErrorCode.dataLoss.error(
                                "The descriptor at \(url.absoluteString) \(problem.reason)."))
                    }
                }
            ))
    }

    private func received(_ descriptor: ModelDescriptor) {
        // Already current, unless the installed file was damaged since: then it is
        // downloaded again (and replaced once the new copy is verified).
        if let installed = cache.installed(name), installed.descriptor.version == descriptor.version,
            installed.descriptor.sha256 == descriptor.sha256, cache.installedFileIsIntact(installed)
        {
            progress.totalUnitCount = Int64(descriptor.size)
            progress.completedUnitCount = Int64(descriptor.size)
            finish(.success(installed.path))
            return
        }
        guard let fileURL = URL(string: descriptor.file, relativeTo: descriptorURL)?.absoluteURL,
            let scheme = fileURL.scheme?.lowercased(), ["http", "https", "file"].contains(scheme)
        else {
            fail(
                MachineLearningErrorCode.dataLoss.error(
                    "The descriptor at \(descriptorURL.absoluteString) names file '\(descriptor.file)', which is not an http, https or file URL."
                ))
            return
        }
        do {
            try ensureSpace(for: descriptor.size)
            let partial = try partialFileOverride ?? cache.makePartialFile(name)
            try download(descriptor, from: fileURL, into: partial)
        } catch {
            fail(storageError(error))
        }
    }

    // MARK: - Files

    /// One file to fetch and verify: the model, or a file of its bundle.
    struct FileFetch: Sendable {
        /// How messages name it: `model 'NAME'` or `file 'dict.txt' of model 'NAME'`.
        let subject: String
        let url: URL
        let size: Int
        let sha256: String
    }

    private func download(_ descriptor: ModelDescriptor, from url: URL, into partial: URL) throws {
        let model = FileFetch(subject: "model '\(name)'", url: url, size: descriptor.size, sha256: descriptor.sha256)
        try fetch(model, into: partial, reportsProgress: true) { [self] result in
            // Off the transfer's thread: a bundle's files are fetched one after another
            // from here, waiting for each.
            DispatchQueue.global(qos: .utility).async { [self] in verifyAndInstall(result, descriptor, partial) }
        }
    }

    /// Checks the fetched model decodes, fetches the rest of a bundle, installs, and
    /// reports the outcome; the partial file is removed on failure.
    private func verifyAndInstall(_ result: Result<Void, NSError>, _ descriptor: ModelDescriptor, _ partial: URL) {
        let installed = result.flatMap { () -> Result<String, NSError> in
            do {
                _ = try Model(contentsOfFile: partial.path)
            } catch {
                return .failure(
                    MachineLearningErrorCode.dataLoss.error(
                        "The download of model '\(name)' is not a valid TensorFlow Lite model: \(error)"))
            }
            guard descriptor.bundle != nil else { return install { try cache.install(partial, as: descriptor) } }
            return fetchBundle(descriptor, model: partial)
        }
        if case .failure = installed, partialFileOverride == nil { try? FileManager.default.removeItem(at: partial) }
        finish(installed)
    }

    /// Fetches the bundle's other files one after another into a staging directory (each
    /// verified like the model), then installs the directory with the model as a unit.
    /// Runs on the transfer's completion thread; returns the installed model's path.
    private func fetchBundle(_ descriptor: ModelDescriptor, model: URL) -> Result<String, NSError> {
        let staging: URL
        do {
            staging = try cache.makeStagingDirectory(name)
        } catch {
            return .failure(storageError(error))
        }
        let outcome = ModelLocked<Result<Void, NSError>>(.success(()))
        for member in descriptor.bundle ?? [] {
            guard let url = URL(string: member.file, relativeTo: descriptorURL)?.absoluteURL,
                let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme)
            else {
                outcome.withLock {
                    $0 = .failure(
                        MachineLearningErrorCode.dataLoss.error(
                            "The descriptor at \(descriptorURL.absoluteString) names bundle file '\(member.file)', which is not an http, https or file URL."
                        ))
                }
                break
            }
            let fetch = FileFetch(
                subject: "file '\(member.name)' of model '\(name)'", url: url, size: member.size, sha256: member.sha256)
            let done = DispatchSemaphore(value: 0)
            do {
                try self.fetch(fetch, into: staging.appendingPathComponent(member.name), reportsProgress: false) {
                    result in
                    outcome.withLock { $0 = result }
                    done.signal()
                }
            } catch {
                outcome.withLock { $0 = .failure(storageError(error)) }
                done.signal()
            }
            done.wait()
            if case .failure = outcome.withLock({ $0 }) { break }
        }
        let result = outcome.withLock { $0 }.flatMap { () -> Result<String, NSError> in
            install { try cache.installBundle(staging, model: model, as: descriptor) }
        }
        if case .failure = result { try? FileManager.default.removeItem(at: staging) }
        return result
    }

    private func install(_ body: () throws -> String) -> Result<String, NSError> {
        do {
            return .success(try body())
        } catch {
            return .failure(storageError(error))
        }
    }

    /// Streams `file` into `partial` (created if missing) while hashing it, then checks its
    /// size and SHA-256; `then` gets the outcome on the transfer's thread.
    private func fetch(
        _ file: FileFetch, into partial: URL, reportsProgress: Bool,
        then: @escaping @Sendable (Result<Void, NSError>) -> Void
    ) throws {
        if !FileManager.default.fileExists(atPath: partial.path) {
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial.path])
            }
        }
        let handle = try FileHandle(forWritingTo: partial)
        if reportsProgress {
            progress.totalUnitCount = Int64(file.size)
            progress.completedUnitCount = 0
        }
        // `failure`: an error thrown by our handlers (a write error, too many bytes), as
        // opposed to the URL loading system's error for the transfer itself.
        let state = ModelLocked((hash: SHA256(), received: 0, failure: (any Error)?.none))
        let expected = file.size
        let url = file.url
        begin(
            url,
            .init(
                response: { length in
                    if let length, length != Int64(expected) {
                        throw MachineLearningErrorCode.dataLoss.error(
                            "The model server sends \(length) bytes for \(file.subject) at \(url.absoluteString), but its descriptor says \(expected) bytes."
                        )
                    }
                },
                data: { [progress] chunk in
                    let received = try state.withLock { s -> Int in
                        do {
                            let (total, overflow) = s.received.addingReportingOverflow(chunk.count)
                            guard !overflow, total <= expected else {
                                throw MachineLearningErrorCode.dataLoss.error(
                                    "The model server sent more than the \(expected) bytes the descriptor announces for \(file.subject)."
                                )
                            }
                            try handle.write(contentsOf: chunk)
                            chunk.withUnsafeBytes { s.hash.update($0) }
                            s.received = total
                            return total
                        } catch {
                            s.failure = error
                            throw error
                        }
                    }
                    if reportsProgress { progress.completedUnitCount = Int64(received) }
                },
                completion: { [self] error in
                    let (hash, received, failure) = state.withLock { ($0.hash, $0.received, $0.failure) }
                    let result: Result<Void, NSError>
                    if let failure {
                        result = .failure(storageError(failure))
                    } else if let error {
                        result = .failure(
                            describe(
                                error,
                                fetching:
                                    "\(file.subject) from \(url.absoluteString) (after \(received) of \(expected) bytes)"
                            ))
                    } else {
                        result = Result { () throws(NSError) in
                            do {
                                try handle.synchronize()
                                try handle.close()
                            } catch {
                                throw storageError(error)
                            }
                            guard received == expected else {
                                throw MachineLearningErrorCode.dataLoss.error(
                                    "The download of \(file.subject) is truncated: received \(received) of \(expected) bytes."
                                )
                            }
                            let digest = hash.hexDigest()
                            guard digest == file.sha256 else {
                                throw MachineLearningErrorCode.dataLoss.error(
                                    "The download of \(file.subject) is corrupted: its SHA-256 is \(digest), but the descriptor says \(file.sha256)."
                                )
                            }
                        }
                    }
                    try? handle.close()
                    then(result)
                }
            ))
    }

    // MARK: - Errors

    /// Fails early when the cache's file system reports less free space than the model needs.
    private func ensureSpace(for size: Int) throws {
        try FileManager.default.createDirectory(at: cache.root, withIntermediateDirectories: true)
        guard
            let free = (try? FileManager.default.attributesOfFileSystem(forPath: cache.root.path))?[.systemFreeSize]
                as? NSNumber
        else { return }
        if free.int64Value < Int64(size) {
            throw MachineLearningErrorCode.resourceExhausted.error(
                "Not enough disk space to download model '\(name)': it needs \(size) bytes and \(cache.root.path) has \(free.int64Value) free."
            )
        }
    }

    /// A file-system failure while storing the model, as an NSError in our domain.
    private func storageError(_ error: any Error) -> NSError {
        let ns = error as NSError
        if ns.domain == MachineLearningErrorDomain { return ns }
        if Self.isOutOfSpace(ns) {
            return MachineLearningErrorCode.resourceExhausted.error(
                "Not enough disk space to store model '\(name)' in \(cache.root.path): \(ns.localizedDescription)",
                underlying: ns)
        }
        if ns.domain == NSCocoaErrorDomain, ns.code == CocoaError.userCancelled.rawValue {
            return MachineLearningErrorCode.cancelled.error("The download of model '\(name)' was cancelled.")
        }
        return MachineLearningErrorCode.internal.error(
            "Could not store model '\(name)' in \(cache.root.path): \(ns.localizedDescription)", underlying: ns)
    }

    private static func isOutOfSpace(_ error: NSError) -> Bool {
        if error.domain == NSPOSIXErrorDomain, error.code == Int(ENOSPC) || error.code == Int(EDQUOT) { return true }
        if error.domain == NSCocoaErrorDomain, error.code == CocoaError.fileWriteOutOfSpace.rawValue { return true }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError { return isOutOfSpace(underlying) }
        return false
    }

    /// A transfer failure: our own errors pass through; anything else means the server
    /// could not be reached or stopped answering.
    private func describe(_ error: any Error, fetching what: String) -> NSError {
        let ns = error as NSError
        if ns.domain == MachineLearningErrorDomain { return ns }
        if ns.domain == NSCocoaErrorDomain, ns.code == CocoaError.userCancelled.rawValue { return storageError(ns) }
        if isCancelledByUser {
            return MachineLearningErrorCode.cancelled.error("The download of model '\(name)' was cancelled.")
        }
        return MachineLearningErrorCode.unavailable.error(
            "Could not download \(what): \(ns.localizedDescription)", underlying: ns)
    }

    private var isCancelledByUser: Bool {
        lock.lock(); defer { lock.unlock() }
        return isCancelled
    }
}

/// A value guarded by a lock.
final class ModelLocked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock(); defer { lock.unlock() }
        return try body(&value)
    }
}
