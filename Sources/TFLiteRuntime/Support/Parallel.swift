import Dispatch

/// Parallel loops sized by the interpreter's thread count.
///
/// Work is split into at most `threadCount` contiguous chunks, so the partition — and
/// therefore every result — depends only on the range and the thread count, never on
/// scheduling; which thread runs a chunk does depend on scheduling. Kernels keep each
/// output element's computation inside one chunk, which makes outputs identical for any
/// thread count. Threads claim chunks and tasks from both ends of a region, the caller
/// from the top and the workers from the bottom (``WorkerTeam``), so the caller takes the
/// upper part of every operator and each thread's tasks stay contiguous.
///
/// More chunks than threads (four per thread, claimed as threads free up) measured no
/// different at 2 threads on an idle machine (MobileNet v2 float and int8, the face
/// detectors: within 2%, this VM's noise) while adding cross-core claims to every small
/// operator, so loops keep one chunk per thread and only the GEMM tiles
/// (``forEachTaskOnThread(_:_:)``) balance dynamically.
///
/// A `Parallel` with more than one thread owns a persistent ``WorkerPool`` of
/// `threadCount - 1` workers (the calling thread is the last one), shared by its copies
/// and joined when the last copy is released. Where the pool's atomics are unavailable
/// (Apple systems before macOS 15 / iOS 18), loops go to `DispatchQueue.concurrentPerform`.
/// A loop started from inside another loop's body runs on the calling thread alone.
package struct Parallel: Sendable {
    package let threadCount: Int
    private let runner: (any TaskRunner)?

    /// Smallest amount of work, in the units of `forEachChunk(_:cost:_:)` (about one
    /// multiply-add or one byte moved each), worth handing to another thread. Workers spin
    /// between the operators of an invocation, so a hand-off costs little; and an operator
    /// left on one thread reads the half of its input the other core wrote, through the
    /// shared cache. Measured on a 2-vCPU Zen 4 VM at 2 threads: 2^12 against 2^15 made the
    /// short-range face detector 5% and MobileNet v2 int8 4% faster; 2^10 gained nothing
    /// more.
    package static let minimumWorkPerThread = 1 << 12

    /// Whether an operator that declared `work` multiply-accumulates (or comparable steps,
    /// ``PrepareContext/declareWork(_:)``) at prepare is too small to repay a second thread
    /// and runs on the calling thread alone: below four times ``minimumWorkPerThread``
    /// (under a microsecond of a float convolution on one core). A floor of 2^17 instead
    /// measured 2-3% slower on the face detectors at 2 threads. Operators that declare no
    /// work (elementwise, data movement) are left to their kernels, which weigh their loops
    /// with ``forEachChunk(_:cost:_:)``.
    package static func runsSerially(work: Int) -> Bool {
        work > 0 && work < 4 * minimumWorkPerThread
    }

    /// Whether a whole graph is too small for a second thread anywhere: it declared under
    /// 2^18 multiply-accumulates in all and its arena, which bounds what the operators that
    /// declare no work (elementwise, data movement) touch, is under 128 KiB. Its operators
    /// then take a few microseconds each, about what handing half of one to the other core
    /// and joining costs. The 8 µs SSD head of the benchmarks (170K, a 48 KiB arena)
    /// measured 0.74-1.19x as fast at 2 threads as at 1 across runs with its larger
    /// operators split. A single 8-bit 14×14×576 depthwise layer (1M, 51 µs) still gains
    /// from the second thread, and a float LOGISTIC over 3000×91 values declares no work
    /// but has a 2 MiB arena; the smallest real model benchmarked, the short-range face
    /// detector, declares 30M.
    package static func graphRunsSerially(work: Int, arenaBytes: Int) -> Bool {
        work < 1 << 18 && arenaBytes < 128 << 10
    }

    package init(threadCount: Int) {
        let threads = Swift.max(1, threadCount)
        self.threadCount = threads
        if threads == 1 {
            runner = nil
        } else if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            runner = WorkerPool(workers: threads - 1)
        } else {
            runner = DispatchRunner(threadCount: threads)
        }
    }

    /// Calls `body` on disjoint subranges covering `0..<count`, in parallel when more than
    /// one thread is configured and there are at least `minimumChunk` items per thread.
    package func forEachChunk(_ count: Int, minimumChunk: Int = 1, _ body: (Range<Int>) -> Void) {
        forEachChunkOnThread(count, minimumChunk: minimumChunk) { _, range in body(range) }
    }

    /// Like ``forEachChunk(_:minimumChunk:_:)``, also passing the running thread's number,
    /// below `threadCount`: chunks that run on one thread never overlap, so kernels index
    /// per-thread scratch with it.
    package func forEachChunkOnThread(_ count: Int, minimumChunk: Int = 1, _ body: (Int, Range<Int>) -> Void) {
        guard count > 0 else { return }
        let chunks = Swift.min(threadCount, Swift.max(1, count / Swift.max(1, minimumChunk)))
        perform(count, chunks: chunks, body)
    }

    /// Like ``forEachChunk(_:minimumChunk:_:)`` for items costing about `cost` units of
    /// work each (see ``minimumWorkPerThread``): a loop too small to repay a second
    /// thread runs on the calling one.
    package func forEachChunk(_ count: Int, cost: Int, _ body: (Range<Int>) -> Void) {
        forEachChunk(count, minimumChunk: Self.minimumChunk(cost: cost), body)
    }

    /// Items of `cost` units each per thread needed to reach ``minimumWorkPerThread``.
    package static func minimumChunk(cost: Int) -> Int {
        let c = Swift.max(1, cost)
        let (q, r) = minimumWorkPerThread.quotientAndRemainder(dividingBy: c)
        return Swift.max(1, r == 0 ? q : q + 1)
    }

    /// Calls `body(i)` once for every `i` in `0..<count`, handing indices to threads as
    /// they become free: for a few uneven tasks (GEMM tiles), where fixed chunks of whole
    /// tasks would leave one thread idle. Which thread runs an index varies from run to
    /// run, so every task must compute the same values wherever it runs.
    package func forEachTask(_ count: Int, _ body: (Int) -> Void) {
        forEachTaskOnThread(count) { _, i in body(i) }
    }

    /// Like ``forEachTask(_:_:)``, also passing the running thread's number, below
    /// `threadCount`: tasks that run on one thread never overlap, so kernels index
    /// per-thread scratch with it.
    package func forEachTaskOnThread(_ count: Int, _ body: (_ thread: Int, _ task: Int) -> Void) {
        guard count > 0 else { return }
        guard count > 1, let runner else {
            for i in 0 ..< count { body(0, i) }
            return
        }
        runner.run(count, body)
    }

    private func perform(_ count: Int, chunks: Int, _ body: (Int, Range<Int>) -> Void) {
        guard chunks > 1, let runner else {
            body(0, 0 ..< count)
            return
        }
        runner.run(chunks) { thread, c in
            let lo = count * c / chunks
            let hi = count * (c + 1) / chunks
            if lo < hi { body(thread, lo ..< hi) }
        }
    }
}

/// The pool's stand-in where ``WorkerPool`` is unavailable: one `concurrentPerform` per
/// region, with nested regions run serially like the pool's. `concurrentPerform` names no
/// threads, so iteration `t` of `threadCount` runs the tasks `t`, `t + threadCount`, ...
/// as thread `t`.
final class DispatchRunner: TaskRunner, @unchecked Sendable {
    let threadCount: Int
    private let lock = DispatchSemaphore(value: 1)

    init(threadCount: Int) {
        self.threadCount = threadCount
    }

    func run(_ count: Int, _ body: (_ thread: Int, _ index: Int) -> Void) {
        guard lock.wait(timeout: .now()) == .success else {
            for i in 0 ..< count { body(0, i) }
            return
        }
        defer { lock.signal() }
        let threads = Swift.min(threadCount, count)
        withoutActuallyEscaping(body) { body in
            let box = UncheckedBox(body)
            DispatchQueue.concurrentPerform(iterations: threads) { t in
                for i in stride(from: t, to: count, by: threads) { box.value(t, i) }
            }
        }
    }
}

/// Carries a non-Sendable closure into `concurrentPerform`; safe because every task
/// writes a disjoint part of the output and the call does not return until all finish.
private struct UncheckedBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
