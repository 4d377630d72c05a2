import TFLiteModel

/// A prepared operator: every input, shape and option has been validated and every
/// derived value precomputed by its prepare function, so `eval` only computes.
///
/// `eval` may throw only for faults that depend on run-time data (a gather index out
/// of range); everything else is rejected at prepare.
package protocol PreparedKernel {
    func eval(_ context: EvalContext) throws(KernelError)
}

/// A kernel whose result depends on more than its input tensors (a variable, a subgraph
/// it runs, a random generator's state) or that changes state besides its outputs: the
/// engine never evaluates one at prepare, even when all its inputs are constants.
package protocol StatefulKernel: PreparedKernel {}

/// A kernel's prepare step: validates the operator in `context`, sets output shapes,
/// requests scratch memory, and returns the prepared kernel.
package typealias KernelPrepare = @Sendable (inout PrepareContext) throws(KernelError) -> any PreparedKernel

/// The run-time view of memory: one pointer per tensor of the subgraph, and the
/// operator's scratch buffers, all fixed after planning.
package struct EvalContext {
    @usableFromInline let tensors: UnsafePointer<UnsafeMutableRawPointer>
    @usableFromInline let scratchBuffers: UnsafePointer<UnsafeMutableRawPointer>
    package let scratchCount: Int
    /// One scratch region per thread (nil: none), each `threadRegionBytes` long.
    @usableFromInline let threadRegions: UnsafePointer<UnsafeMutableRawPointer>?
    @usableFromInline let threadRegionBytes: Int
    /// Parallel loops sized by the interpreter's thread count.
    package let parallel: Parallel

    init(
        tensors: UnsafePointer<UnsafeMutableRawPointer>, scratch: UnsafePointer<UnsafeMutableRawPointer>,
        scratchCount: Int, parallel: Parallel,
        threadRegions: UnsafePointer<UnsafeMutableRawPointer>? = nil, threadRegionBytes: Int = 0
    ) {
        self.tensors = tensors
        self.scratchBuffers = scratch
        self.scratchCount = scratchCount
        self.parallel = parallel
        self.threadRegions = threadRegions
        self.threadRegionBytes = threadRegionBytes
    }

    /// The data of tensor `index` (a subgraph tensor index captured at prepare).
    /// Prepare guarantees the tensor has storage of the shape and type the kernel validated.
    @inlinable
    package func raw(_ index: Int) -> UnsafeMutableRawPointer {
        tensors[index]
    }

    @inlinable
    package func pointer<T>(_ index: Int, as _: T.Type) -> UnsafeMutablePointer<T> {
        raw(index).assumingMemoryBound(to: T.self)
    }

    /// Thread `thread`'s `bytes` of the scratch `slot` that
    /// ``PrepareContext/requestThreadScratch(bytesPerThread:)`` returned for `bytes` per
    /// thread: the thread's own region when the engine has regions that large, else its
    /// part of the arena slot.
    @inlinable
    package func threadScratch(_ slot: Int, thread: Int, bytes: Int) -> UnsafeMutableRawPointer {
        if let threadRegions, bytes <= threadRegionBytes { return threadRegions[thread] }
        return scratchBuffers[slot] + thread * bytes
    }

    /// Scratch buffer `slot` returned by `PrepareContext.requestScratch(bytes:)`.
    @inlinable
    package func scratch<T>(_ slot: Int, as _: T.Type) -> UnsafeMutablePointer<T> {
        scratchBuffers[slot].assumingMemoryBound(to: T.self)
    }
}
