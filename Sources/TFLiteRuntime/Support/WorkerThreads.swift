#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CPUFeatures
import Synchronization

/// Where idle workers sleep: a mutex and condition variable, entered only after spinning.
///
/// Lost wake-ups are ruled out by ordering, not by the lock alone: the waker publishes
/// its change with a sequentially consistent store and then reads `sleepers`
/// (``wakeSleepers()``); a sleeper increments `sleepers` under the lock and then reads
/// the condition with sequentially consistent loads. One of the two must see the other's
/// write, and a waker that sees a sleeper takes the lock, which the sleeper holds until
/// it is inside `pthread_cond_wait`.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class ParkingLot: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let sleepers = Atomic<Int>(0)

    init() {
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deinitialize(count: 1)
        mutex.deinitialize(count: 1)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Blocks until `ready()` (which must read its state sequentially consistently)
    /// returns true.
    func park(until ready: () -> Bool) {
        pthread_mutex_lock(mutex)
        sleepers.add(1, ordering: .sequentiallyConsistent)
        while !ready() { pthread_cond_wait(condition, mutex) }
        sleepers.subtract(1, ordering: .sequentiallyConsistent)
        pthread_mutex_unlock(mutex)
    }

    /// Wakes every parked thread, if there is one; call after a sequentially consistent
    /// store that makes their condition true. Costs one atomic load when none sleeps.
    @inline(__always)
    func wakeSleepers() {
        if sleepers.load(ordering: .sequentiallyConsistent) > 0 { wakeAll() }
    }

    /// Wakes every parked thread.
    func wakeAll() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}

/// A joinable thread running ``WorkerTeam/workerLoop(thread:)``; the thread keeps the team
/// alive until the loop returns.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
final class WorkerThread: @unchecked Sendable {
    private let handle: pthread_t

    private init(handle: pthread_t) {
        self.handle = handle
    }

    /// Starts worker `number` (1, 2, ...) of `team`, or returns nil if the system cannot
    /// create a thread.
    static func start(_ team: WorkerTeam, number: Int) -> WorkerThread? {
        let context = Unmanaged.passRetained(WorkerStart(team: team, number: number)).toOpaque()
        #if canImport(Darwin)
        var handle: pthread_t?
        let status = pthread_create(
            &handle, nil,
            { raw in
                let start = Unmanaged<WorkerStart>.fromOpaque(raw).takeRetainedValue()
                start.team.workerLoop(thread: start.number)
                return nil
            }, context)
        guard status == 0, let handle else {
            Unmanaged<WorkerStart>.fromOpaque(context).release()
            return nil
        }
        #else
        var handle = pthread_t()
        let status = pthread_create(
            &handle, nil,
            { raw in
                guard let raw else { return nil }
                let start = Unmanaged<WorkerStart>.fromOpaque(raw).takeRetainedValue()
                start.team.workerLoop(thread: start.number)
                return nil
            }, context)
        guard status == 0 else {
            Unmanaged<WorkerStart>.fromOpaque(context).release()
            return nil
        }
        #endif
        return WorkerThread(handle: handle)
    }

    /// What a new thread needs: its team and its number.
    private final class WorkerStart {
        let team: WorkerTeam
        let number: Int
        init(team: WorkerTeam, number: Int) { (self.team, self.number) = (team, number) }
    }

    /// Waits for the thread to exit; the team must be stopping.
    func join() {
        pthread_join(handle, nil)
    }
}

/// The CPU's spin-wait hint (`pause`, `yield`): it frees the core's pipeline for other
/// work while a thread polls, and avoids the memory-order flush when the polled value
/// changes. Swift has no spelling for it, so it comes from the header-only C shim.
@inline(__always)
func spinHint() {
    tflite_spin_hint()
}
