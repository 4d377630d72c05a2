import Dispatch

/// Parallel loops sized by the interpreter's thread count.
///
/// Work is split into at most `threadCount` contiguous chunks, so the partition — and
/// therefore every result — depends only on the range, never on scheduling. Kernels keep
/// each output element's computation inside one chunk, which makes outputs identical for
/// any thread count.
public struct Parallel: Sendable {
    public let threadCount: Int

    public init(threadCount: Int) {
        self.threadCount = Swift.max(1, threadCount)
    }

    /// Calls `body` on disjoint subranges covering `0..<count`, in parallel when more than
    /// one thread is configured and there are at least `minimumChunk` items per thread.
    public func forEachChunk(_ count: Int, minimumChunk: Int = 1, _ body: (Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunks = Swift.min(threadCount, Swift.max(1, count / Swift.max(1, minimumChunk)))
        Self.perform(count, chunks: chunks) { _, range in body(range) }
    }

    /// Like ``forEachChunk(_:minimumChunk:_:)``, also passing the chunk's index, which is
    /// below `threadCount`: kernels index per-thread scratch with it.
    public func forEachChunkIndexed(_ count: Int, _ body: (Int, Range<Int>) -> Void) {
        guard count > 0 else { return }
        Self.perform(count, chunks: Swift.min(threadCount, count), body)
    }

    private static func perform(_ count: Int, chunks: Int, _ body: (Int, Range<Int>) -> Void) {
        if chunks <= 1 {
            body(0, 0 ..< count)
            return
        }
        withoutActuallyEscaping(body) { body in
            let box = UncheckedBox(body)
            DispatchQueue.concurrentPerform(iterations: chunks) { c in
                let lo = count * c / chunks
                let hi = count * (c + 1) / chunks
                if lo < hi { box.value(c, lo ..< hi) }
            }
        }
    }
}

/// Carries a non-Sendable closure into `concurrentPerform`; safe because every chunk
/// writes a disjoint part of the output and the call does not return until all finish.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
