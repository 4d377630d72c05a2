#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Runs numbered tasks on persistent worker threads together with the calling thread.
///
/// Contract of ``run(_:_:)``: `body(thread, index)` is called exactly once for every index
/// in `0 ..< count`, on the caller or on a worker, and `run` returns only after every call
/// has returned. `thread` is below ``threadCount`` and names the running thread (0 is the
/// caller): within a region no two calls with the same `thread` overlap, so it can index
/// per-thread scratch. A nested or concurrent call, run serially, reports thread 0 for
/// every index, so kernels do not use per-thread scratch inside another loop's body.
/// Which thread runs which index is not fixed; callers make each index's work independent
/// of where it runs. A call made while the pool is already running a
/// region (a nested call from inside `body`, or a second thread) runs its indices in
/// order on the calling thread, so it cannot deadlock.
///
/// Regions are cheap enough to issue one per operator: workers spin for a few tens of
/// microseconds after a region, waiting for the next, before parking on a condition
/// variable. The caller never waits for a worker to wake: it claims every index no
/// worker has claimed yet, so a late worker only lowers the speedup, never adds latency
/// beyond one task. Workers are joined when the pool is released.
protocol TaskRunner: AnyObject, Sendable {
    /// Number of threads taking part in a region, the caller included.
    var threadCount: Int { get }
    func run(_ count: Int, _ body: (_ thread: Int, _ index: Int) -> Void)
}

/// The owner of a ``WorkerTeam``: releasing it stops and joins the workers.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class WorkerPool: TaskRunner {
    let team: WorkerTeam
    private let threads: [WorkerThread]

    /// Starts `workers` threads. A thread the system refuses is left out: the pool then
    /// runs with fewer workers (the caller alone at worst), which is slower but correct.
    init(workers: Int) {
        let team = WorkerTeam()
        self.team = team
        var started: [WorkerThread] = []
        for _ in 0 ..< Swift.max(0, workers) {
            // A worker's thread number is its place among those that started (1, 2, ...).
            if let thread = WorkerThread.start(team, number: started.count + 1) { started.append(thread) }
        }
        self.threads = started
    }

    deinit {
        team.stop()
        for thread in threads { thread.join() }
    }

    var threadCount: Int { threads.count + 1 }

    func run(_ count: Int, _ body: (_ thread: Int, _ index: Int) -> Void) {
        team.run(count, body)
    }
}

/// State shared by the caller and the workers of one pool.
///
/// One atomic word, `claims`, both announces a region and hands out its tasks: its high
/// 20 bits are the region's generation, the next 22 bits `low` and the last 22 bits
/// `high`, the unclaimed tasks being `low ..< high`. The caller claims from the top (task
/// `high - 1`), workers from the bottom (task `low`), each with a compare-exchange that
/// also checks the generation, so a worker still looking at an old region can never take
/// a task of a new one. `unfinished` counts tasks not yet done; the caller returns when it
/// reaches zero, after which no worker touches `body` again.
///
/// Claiming from both ends keeps each thread's tasks contiguous while still balancing
/// them: with two threads and four GEMM tiles the caller computes tiles 3 and 2 and the
/// worker 0 and 1, the same halves as a region of two chunks gives them. So the next
/// operator, split in chunks, finds most of its input in its own core's cache. Claimed
/// from one end, the tiles alternated between the threads, and MobileNet v2's depthwise
/// layers after them read half their input from the other core.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class WorkerTeam: @unchecked Sendable {
    /// How long an idle worker polls for the next region before parking. Operators follow
    /// each other within microseconds, so this covers the gaps inside an invocation while
    /// letting the cores go soon after it ends.
    static let spinNanoseconds: UInt64 = 50_000
    /// How long the caller polls for workers to finish their tasks before yielding the
    /// core on each poll (a preempted worker needs it when the machine is oversubscribed).
    static let finishSpinNanoseconds: UInt64 = 200_000
    /// Largest task count one region announces: the width of `low` and `high`.
    static let maximumTasks = Int(Claims.indexMask)

    private let claims = Atomic<UInt64>(0)
    private let unfinished = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let busy = Atomic<Bool>(false)
    private let parking = ParkingLot()
    /// Written by the caller owning the region (`busy`) before it publishes `claims` and
    /// read by workers only after claiming a task of that region, so the atomics order
    /// every access.
    private var body: ((Int, Int) -> Void)?
    private var generation: UInt32 = 0

    func run(_ count: Int, _ body: (_ thread: Int, _ index: Int) -> Void) {
        guard count > 1, count <= Self.maximumTasks,
            busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        else {
            for i in 0 ..< Swift.max(0, count) { body(0, i) }
            return
        }
        withoutActuallyEscaping(body) { body in
            self.body = body
            unfinished.store(count, ordering: .relaxed)
            generation = (generation &+ 1) & Claims.generationMask
            let g = generation
            // Sequentially consistent, as `ParkingLot` requires of the condition it checks.
            claims.store(Claims.region(g, count: count), ordering: .sequentiallyConsistent)
            parking.wakeSleepers()
            drain(generation: g, thread: 0)
            waitUntilFinished()
            self.body = nil
        }
        busy.store(false, ordering: .releasing)
    }

    /// Claims and runs tasks of region `g` until none is left: the highest unclaimed one
    /// each time for the caller (`thread` 0), the lowest for a worker.
    private func drain(generation g: UInt32, thread: Int) {
        var word = claims.load(ordering: .relaxed)
        while Claims.generation(word) == g, let (task, next) = Claims.claim(word, fromTop: thread == 0) {
            let (exchanged, current) = claims.compareExchange(
                expected: word, desired: next,
                successOrdering: .acquiring, failureOrdering: .relaxed)
            if exchanged {
                runTask(thread, task)
                unfinished.subtract(1, ordering: .releasing)
                word = claims.load(ordering: .relaxed)
            } else {
                word = current
            }
        }
    }

    /// Out of line so that the copy of `body` it makes is released before it returns, that
    /// is, before the task is counted as finished: the caller's `withoutActuallyEscaping`
    /// checks that no copy outlives the region.
    @inline(never)
    private func runTask(_ thread: Int, _ index: Int) {
        body?(thread, index)
    }

    private func waitUntilFinished() {
        guard unfinished.load(ordering: .acquiring) > 0 else { return }
        let start = monotonicNanoseconds()
        var polls = 0
        while unfinished.load(ordering: .acquiring) > 0 {
            spinHint()
            polls &+= 1
            if polls & 63 == 0, monotonicNanoseconds() &- start > Self.finishSpinNanoseconds { sched_yield() }
        }
    }

    /// A worker's life: wait for a region newer than the last one seen, help drain it.
    /// `thread` is the worker's number (1, 2, ...).
    func workerLoop(thread: Int) {
        var seen = Claims.generation(claims.load(ordering: .acquiring))
        while let g = nextRegion(after: seen) {
            seen = g
            drain(generation: g, thread: thread)
        }
    }

    /// The generation of the next region, or nil once the pool is stopping.
    private func nextRegion(after seen: UInt32) -> UInt32? {
        let start = monotonicNanoseconds()
        var polls = 0
        while true {
            if stopping.load(ordering: .relaxed) { return nil }
            let g = Claims.generation(claims.load(ordering: .acquiring))
            if g != seen { return g }
            spinHint()
            polls &+= 1
            if polls & 63 == 0, monotonicNanoseconds() &- start > Self.spinNanoseconds { break }
        }
        parking.park {
            stopping.load(ordering: .sequentiallyConsistent)
                || Claims.generation(claims.load(ordering: .sequentiallyConsistent)) != seen
        }
        if stopping.load(ordering: .relaxed) { return nil }
        return Claims.generation(claims.load(ordering: .acquiring))
    }

    func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        parking.wakeAll()
    }
}

/// The fields of ``WorkerTeam``'s `claims` word: generation (20 bits), `low` and `high`
/// (22 bits each), the region's unclaimed tasks being `low ..< high`.
enum Claims {
    static let indexBits: UInt64 = 22
    static let indexMask: UInt64 = (1 << indexBits) - 1
    static let generationMask: UInt32 = (1 << 20) - 1

    /// A new region `g` of `count` tasks (`count <= indexMask`), none claimed.
    @inline(__always)
    static func region(_ g: UInt32, count: Int) -> UInt64 {
        UInt64(g & generationMask) << (2 * indexBits) | UInt64(count) & indexMask
    }

    @inline(__always)
    static func generation(_ word: UInt64) -> UInt32 {
        UInt32(truncatingIfNeeded: word >> (2 * indexBits))
    }

    /// The task a thread claims from `word` and the word after the claim, or nil when
    /// every task is claimed.
    @inline(__always)
    static func claim(_ word: UInt64, fromTop: Bool) -> (task: Int, next: UInt64)? {
        let low = (word >> indexBits) & indexMask, high = word & indexMask
        guard low < high else { return nil }
        return fromTop ? (Int(high - 1), word - 1) : (Int(low), word + (1 << indexBits))
    }
}

/// Monotonic clock in nanoseconds, for spin deadlines.
@inline(__always)
func monotonicNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
}
