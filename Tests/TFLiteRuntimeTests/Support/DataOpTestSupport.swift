import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Expects `engine.invoke()` to fail with `invokeFailed` naming `op`, with a reason
/// containing `fragment`.
func expectInvokeFailure(
    _ engine: Engine, op: String, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    do {
        try engine.invoke()
        Issue.record("expected the invoke to fail", sourceLocation: sourceLocation)
    } catch let error {
        guard case .invokeFailed(_, let name, let reason) = error else {
            Issue.record("unexpected \(error)", sourceLocation: sourceLocation)
            return
        }
        #expect(name == op, sourceLocation: sourceLocation)
        #expect(
            reason.contains(fragment), "reason '\(reason)' does not mention '\(fragment)'",
            sourceLocation: sourceLocation)
    }
}

/// Expects engine creation for `g` to fail with `invalidOperator` naming `op`.
func expectInvalid(_ g: GraphBuilder, op: String, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation)
{
    guard case .invalidOperator(_, let name, let reason)? = prepareFailure(g) else {
        Issue.record(
            "expected invalidOperator, got \(String(describing: prepareFailure(g)))", sourceLocation: sourceLocation)
        return
    }
    #expect(name == op, sourceLocation: sourceLocation)
    #expect(
        reason.contains(fragment), "reason '\(reason)' does not mention '\(fragment)'", sourceLocation: sourceLocation)
}
