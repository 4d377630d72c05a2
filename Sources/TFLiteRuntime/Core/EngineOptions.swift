/// Options of an ``Engine``.
public struct EngineOptions: Hashable, Sendable {
    /// Threads for the runtime's parallel loops and for BLAS (≥ 1).
    public var threadCount: Int = 1
    /// Largest amount of tensor memory the engine may allocate, in bytes: the arena
    /// (planned activations, inputs, outputs, scratch) plus the constants computed at
    /// prepare. Planning fails with `memoryBudgetExceeded` beyond it, before anything
    /// large is allocated; constant folding stops folding before it would exceed it.
    public var memoryBudget: Int = 4 << 30
    /// Largest value computed once at prepare (e.g. float16 weights dequantized to
    /// float32) per operator (all its outputs together), in bytes. Larger results are
    /// computed at invoke, in the arena.
    public var maxFoldedConstantBytes: Int = 256 << 20
    /// Largest number of operators, and of tensors, in the subgraph the engine runs;
    /// `Engine.init` rejects larger graphs (`unsupportedModel`). Preparing is linear in
    /// the graph size, but planning the arena is quadratic in the number of tensors, so
    /// this bounds the time a crafted file can make `allocate()` take.
    public var maxOperators: Int = 100_000
    public var maxTensors: Int = 250_000
    public init() {}
}
