/// Options of an ``Engine``.
public struct EngineOptions: Hashable, Sendable {
    /// Threads for the runtime's parallel loops and for BLAS (≥ 1).
    public var threadCount: Int = 1
    /// Largest tensor arena (planned activations, inputs, outputs, scratch) the engine
    /// may allocate, in bytes; planning fails with `memoryBudgetExceeded` beyond it,
    /// before anything large is allocated.
    public var memoryBudget: Int = 4 << 30
    /// Largest value computed once at prepare (e.g. float16 weights dequantized to
    /// float32) per operator output, in bytes.
    public var maxFoldedConstantBytes: Int = 256 << 20
    public init() {}
}
