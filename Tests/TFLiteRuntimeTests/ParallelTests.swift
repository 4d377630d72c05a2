import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// The thread pool behind `Parallel`: every task runs exactly once, partitions depend only
/// on the range and the thread count, nested and concurrent loops finish, parked workers
/// wake up, and releasing a pool joins its threads.
@Suite struct ParallelTests {
    static let counts = [0, 1, 2, 3, 5, 7, 16, 64, 1000, 100_003]

    /// Per-index counters that tasks on any thread can bump: each index has its own slot.
    final class Tally: @unchecked Sendable {
        let slots: UnsafeMutableBufferPointer<Int>
        init(_ count: Int) { slots = .allocate(capacity: Swift.max(count, 1)); slots.initialize(repeating: 0) }
        deinit { slots.deallocate() }
        func bump(_ range: Range<Int>) { for i in range { slots[i] += 1 } }
        func allOnce(_ count: Int) -> Bool { (0 ..< count).allSatisfy { slots[$0] == 1 } }
    }

    /// Flags one thread number as in use while a task runs; `clean` is false once a number
    /// was out of range or entered while already in use. An `NSLock` (pthread mutex), which
    /// ThreadSanitizer understands; it does not see `Mutex`'s futex as synchronization.
    final class ThreadSlots: @unchecked Sendable {
        private let lock = NSLock()
        private var inUse: [Bool]
        private var fault = false
        init(_ count: Int) { inUse = Array(repeating: false, count: count) }
        func enter(_ thread: Int) {
            lock.withLock {
                if thread < 0 || thread >= inUse.count || inUse[thread] { fault = true } else { inUse[thread] = true }
            }
        }
        func leave(_ thread: Int) {
            lock.withLock { if thread >= 0, thread < inUse.count { inUse[thread] = false } }
        }
        var clean: Bool { lock.withLock { !fault } }
    }

    @Test(arguments: [1, 2, 3, 4, 8])
    func everyChunkRunsExactlyOnce(threads: Int) {
        let parallel = Parallel(threadCount: threads)
        for count in Self.counts {
            let tally = Tally(count)
            parallel.forEachChunk(count) { tally.bump($0) }
            #expect(tally.allOnce(count), "forEachChunk(\(count)) with \(threads) threads")

            // The chunks are the fixed partition for (count, threads), each run once, and
            // a thread number is never used by two chunks at the same time.
            let indexed = Tally(count)
            let chunks = Swift.min(threads, count)
            let starts = Tally(count + 1)
            let busy = ThreadSlots(threads)
            parallel.forEachChunkOnThread(count) { thread, range in
                busy.enter(thread)
                starts.bump(range.lowerBound ..< range.lowerBound + 1)
                indexed.bump(range)
                busy.leave(thread)
            }
            #expect(indexed.allOnce(count))
            if count > 0 {
                let expected = (0 ..< chunks).map { count * $0 / chunks }
                #expect((0 ..< count).filter { starts.slots[$0] == 1 } == expected)
            }

            let tasks = Tally(count)
            let taskThreads = ThreadSlots(threads)
            let watched = count <= 1000 // the locks would dominate 100,003 one-index tasks
            parallel.forEachTaskOnThread(count) { thread, task in
                if watched { taskThreads.enter(thread) }
                tasks.bump(task ..< task + 1)
                if watched { taskThreads.leave(thread) }
            }
            #expect(tasks.allOnce(count), "forEachTaskOnThread(\(count)) with \(threads) threads")
            #expect(busy.clean && taskThreads.clean, "a thread number was out of range or shared")
        }
    }

    @Test func minimumChunkKeepsSmallLoopsOnOneThread() {
        let parallel = Parallel(threadCount: 4)
        var calls = 0
        parallel.forEachChunk(100, minimumChunk: 64) { range in
            calls += 1
            #expect(range == 0 ..< 100)
        }
        #expect(calls == 1)
        let small = Parallel.minimumWorkPerThread / 8 - 1
        var costCalls = 0
        parallel.forEachChunk(small, cost: 8) { _ in costCalls += 1 }
        #expect(costCalls == 1)
        #expect(Parallel.minimumChunk(cost: 0) == Parallel.minimumWorkPerThread)
        #expect(Parallel.minimumChunk(cost: Int.max) == 1)
    }

    @Test(arguments: [2, 4])
    func repeatedRegionsOnOnePool(threads: Int) {
        let parallel = Parallel(threadCount: threads)
        let total = Tally(1)
        for round in 0 ..< 20_000 {
            let count = 1 + round % 9
            let tally = Tally(count)
            parallel.forEachTask(count) { tally.bump($0 ..< $0 + 1) }
            if tally.allOnce(count) { total.slots[0] += 1 }
        }
        #expect(total.slots[0] == 20_000)
    }

    @Test func nestedLoopsRunSeriallyInsteadOfDeadlocking() {
        let parallel = Parallel(threadCount: 3)
        let outer = 6, inner = 50
        let tally = Tally(outer * inner)
        parallel.forEachTask(outer) { o in
            parallel.forEachChunk(inner) { range in
                tally.bump(o * inner + range.lowerBound ..< o * inner + range.upperBound)
            }
            parallel.forEachTask(2) { _ in }
        }
        #expect(tally.allOnce(outer * inner))
    }

    @Test func concurrentCallersShareOnePoolSafely() async {
        let parallel = Parallel(threadCount: 2)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0 ..< 4 {
                group.addTask {
                    var ok = true
                    for count in [1, 17, 1000] {
                        let tally = Tally(count)
                        parallel.forEachChunk(count) { tally.bump($0) }
                        ok = ok && tally.allOnce(count)
                    }
                    return ok
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == [true, true, true, true])
    }

    /// Workers park after spinning; a region must wake them (a lost wake-up would leave
    /// the caller doing every task, which the thread count below would show).
    @Test func parkedWorkersWakeForTheNextRegion() {
        let parallel = Parallel(threadCount: 2)
        var helped = false
        for _ in 0 ..< 10 where !helped {
            usleep(2_000) // far beyond the spin time: the worker is parked
            let threads = Tally(2)
            let caller = pthread_self()
            parallel.forEachTask(2) { i in
                threads.slots[i] = pthread_equal(pthread_self(), caller) != 0 ? 0 : 1
                usleep(20_000)
            }
            helped = threads.slots[0] + threads.slots[1] == 1
        }
        #expect(helped)
    }

    /// The caller claims from the top and the worker from the bottom, so with two threads
    /// each one's tasks are a contiguous block, whoever wins each claim (either may take
    /// them all when the other is descheduled).
    @Test func twoThreadsEachRunAContiguousBlock() {
        let parallel = Parallel(threadCount: 2)
        let caller = pthread_self()
        for count in [2, 3, 4, 9, 64] {
            for _ in 0 ..< 20 {
                let onCaller = Tally(count)
                parallel.forEachTask(count) { i in
                    onCaller.slots[i] = pthread_equal(pthread_self(), caller) != 0 ? 1 : 0
                    usleep(50)
                }
                let flags = Array(onCaller.slots.prefix(count))
                // Worker's tasks (0s) first, then the caller's (1s): at most one switch.
                #expect(flags == flags.sorted(), "\(count) tasks: \(flags)")
            }
        }
    }

    @Test func claimsWordHandsOutBothEnds() {
        var word = Claims.region(5, count: 4)
        var taken: [Int] = []
        for fromTop in [true, false, true, false] {
            guard let (task, next) = Claims.claim(word, fromTop: fromTop) else { break }
            taken.append(task)
            word = next
            #expect(Claims.generation(word) == 5)
        }
        #expect(taken == [3, 0, 2, 1])
        #expect(Claims.claim(word, fromTop: true) == nil)
        #expect(Claims.claim(word, fromTop: false) == nil)
        // The generation wraps within its field and never leaks into the task indices.
        let last = Claims.region(Claims.generationMask, count: Int(Claims.indexMask))
        #expect(Claims.generation(last) == Claims.generationMask)
        #expect(Claims.claim(last, fromTop: true)?.task == Int(Claims.indexMask) - 1)
        #expect(Claims.claim(last, fromTop: false)?.task == 0)
    }

    @Test func releasingThePoolJoinsItsWorkers() {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        weak var team: WorkerTeam?
        do {
            let pool = WorkerPool(workers: 3)
            team = pool.team
            #expect(pool.threadCount == 4)
            let tally = Tally(100)
            pool.run(100) { _, i in tally.bump(i ..< i + 1) }
            #expect(tally.allOnce(100))
        }
        // Each worker holds the team until its thread exits, and deinit joined them all.
        #expect(team == nil)
    }

    #if os(Linux)
    /// Engines with several threads own a pool each; dropping them must not leave threads.
    @Test func droppedEnginesLeaveNoThreads() throws {
        func threadCount() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0
        }
        var g = GraphBuilder()
        let x = g.input([4, 64], .float32)
        let y = g.tensor([4, 64], .float32)
        g.op(.relu, inputs: [x], outputs: [y])
        g.output(y)
        let before = threadCount()
        for _ in 0 ..< 100 {
            let engine = try g.engine(threads: 4)
            try engine.allocate()
            try engine.invoke()
        }
        // 300 workers would be left if engines leaked them; other suites' threads come and go.
        #expect(threadCount() < before + 100)
    }
    #endif
}

/// GEMM tiles split evenly over the threads: the tile count is a multiple of the thread
/// count, no tile exceeds the bound, and every pixel is covered.
@Test func gemmTilesSplitEvenlyOverThreads() {
    #expect(GemmTiles.evenRows(pixels: 784, most: 256, threads: 2) == 200)
    #expect(GemmTiles.evenRows(pixels: 784, most: 256, threads: 1) == 256)
    #expect(GemmTiles.evenRows(pixels: 10, most: 5, threads: 2) == 5)
    for (pixels, most, threads) in [(784, 256, 2), (1000, 256, 3), (12544, 256, 2), (49, 25, 2), (3, 1, 2), (7, 7, 4)] {
        let rows = GemmTiles.evenRows(pixels: pixels, most: most, threads: threads)
        let tiles = (pixels + rows - 1) / rows
        #expect(rows >= 1 && rows <= most, "\(pixels) \(most) \(threads)")
        // Equal shares of whole tiles, the last share short by at most one tile.
        let shares = (0 ..< threads).map { t in
            (0 ..< tiles).filter { $0 * threads / tiles == t }.reduce(0) { $0 + Swift.min(rows, pixels - $1 * rows) }
        }
        #expect(shares.reduce(0, +) == pixels)
        #expect((shares.max() ?? 0) - (shares.min() ?? 0) <= rows, "\(pixels) \(most) \(threads): \(shares)")
    }
}

/// A graph whose whole work is under `Parallel.graphRunsSerially`'s floor runs every
/// operator on the calling thread; one above it splits its large operators.
@Test func tinyGraphsRunOnOneThread() throws {
    func engine(side: Int) throws -> Engine {
        var g = GraphBuilder()
        let x = g.input([1, side, side, 32], .float32)
        let w = g.constant(seededFloats(32 * 32, seed: 5), shape: [32, 1, 1, 32])
        let y = g.tensor([1], .float32)
        g.op(
            .conv2D, inputs: [x, w, -1], outputs: [y],
            options: .conv2D(Conv2DOptions(padding: .valid, strideWidth: 1, strideHeight: 1, activation: .none)))
        g.output(y)
        let e = try g.engine(threads: 2)
        try e.allocate()
        return e
    }
    let small = try engine(side: 8) // 64 pixels x 32 x 32 = 65,536 multiply-accumulates
    #expect(Parallel.graphRunsSerially(work: small.work, arenaBytes: small.arenaSize))
    #expect(small.steps.allSatisfy { $0.serial })
    let large = try engine(side: 32) // 1,048,576
    #expect(!Parallel.graphRunsSerially(work: large.work, arenaBytes: large.arenaSize))
    #expect(large.steps.allSatisfy { !$0.serial })
    // No declared work (an elementwise graph) but a large arena: not tiny.
    #expect(!Parallel.graphRunsSerially(work: 0, arenaBytes: 2 << 20))
}
