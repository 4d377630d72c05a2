import Foundation

/// The error domain of every `NSError` the custom-model API reports (the interpreter,
/// its input/output options and the ``ModelManager``).
public let MachineLearningErrorDomain = "com.google.firebaseml"

/// Codes of errors in ``MachineLearningErrorDomain``: Firebase ML's
/// `MachineLearningErrorDomainCode`, numbered like the canonical (gRPC) status codes
/// Google's libraries use.
///
/// What each code means here:
/// - ``invalidArgument``: the caller's inputs, options or model do not fit together
///   (wrong type, shape, byte count or number of inputs; a non-numeric or ragged array;
///   a model file that cannot be loaded or run).
/// - ``outOfRange``: an input or output index past the model's inputs or outputs.
/// - ``unknown``: the model produced no output for a requested index.
/// - ``internal``: the runtime failed while running a model it had accepted.
/// - ``failedPrecondition``: a remote model was used before it was downloaded, or no
///   model server is configured.
/// - ``notFound``, ``unavailable``, ``dataLoss``, ``resourceExhausted``, ``cancelled``:
///   model download failures (missing on the server, server unreachable, truncated or
///   corrupted or wrong-hash bytes, disk full, download cancelled).
public enum MachineLearningErrorCode: Int, Sendable, CaseIterable {
    case cancelled = 1
    case unknown = 2
    case invalidArgument = 3
    case notFound = 5
    case resourceExhausted = 8
    case failedPrecondition = 9
    case outOfRange = 11
    case `internal` = 13
    case unavailable = 14
    case dataLoss = 15
}

/// The name Firebase's interpreter headers use for the same codes.
public typealias ModelInterpreterErrorCode = MachineLearningErrorCode

extension MachineLearningErrorCode {
    /// An `NSError` in ``MachineLearningErrorDomain`` with this code and `message` as its
    /// `localizedDescription`; `underlying` (if any) under `NSUnderlyingErrorKey`.
    func error(_ message: String, underlying: (any Error)? = nil) -> NSError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying as NSError }
        return NSError(domain: MachineLearningErrorDomain, code: rawValue, userInfo: userInfo)
    }
}
