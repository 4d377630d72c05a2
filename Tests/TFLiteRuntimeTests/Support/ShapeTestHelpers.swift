import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Helpers for the data-movement kernel tests.
enum ShapeTest {
    /// `0, 1, 2, …` as `T`, the usual input of layout tests: each value names its position.
    static func iota<T: Numeric>(_ count: Int, as _: T.Type = T.self) -> [T] {
        (0 ..< count).map { T(exactly: $0)! }
    }

    /// Allocates, feeds input 0 (if any values are given), invokes, and returns output `position`.
    static func run<I, O>(
        _ g: GraphBuilder, input: [I], as _: O.Type, position: Int = 0,
        threads: Int = 1
    ) throws -> (shape: [Int], values: [O]) {
        let engine = try g.engine(threads: threads)
        try engine.allocate()
        if !input.isEmpty { try engine.setInput(0, input) }
        try engine.invoke()
        return (engine.outputShape(position), try engine.output(position, as: O.self))
    }

    /// Expects building the engine (which prepares every operator) to fail with a message
    /// containing `fragment`.
    static func expectPrepareError(
        _ g: GraphBuilder, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            _ = try g.engine()
            Issue.record("expected a prepare error containing '\(fragment)'", sourceLocation: sourceLocation)
        } catch let error as RuntimeError {
            #expect(error.description.contains(fragment), "\(error.description)", sourceLocation: sourceLocation)
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Row-major multi-index of flat position `flat` in `shape`.
    static func unravel(_ flat: Int, _ shape: [Int]) -> [Int] {
        var rest = flat
        var index = [Int](repeating: 0, count: shape.count)
        for d in shape.indices.reversed() {
            index[d] = rest % shape[d]
            rest /= shape[d]
        }
        return index
    }

    /// Flat position of multi-index `index` in `shape`.
    static func ravel(_ index: [Int], _ shape: [Int]) -> Int {
        zip(index, shape).reduce(0) { $0 * $1.1 + $1.0 }
    }
}
