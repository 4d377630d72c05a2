import Microkernels

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
    /// Largest work one invoke (plus the constant folding at prepare) may take, summed
    /// over the operators whose work grows faster than their tensors: multiply-accumulates
    /// of convolutions, fully connected layers and matrix products, and the comparisons of
    /// non-max suppression. Preparing fails with `workBudgetExceeded` beyond it, before
    /// anything runs. Unbounded by default (a large model is allowed to be slow); set it
    /// when running untrusted models under a time limit. MobileNet v1 at 224 needs
    /// about 5.7 × 10^8.
    public var workBudget: Int = .max
    public var maxTensors: Int = 250_000
    /// How quantized convolutions and fully connected layers turn their `Int32`
    /// accumulators into 8-bit outputs. ``Requantization/exact`` (the default) reproduces
    /// LiteRT's reference kernels bit for bit.
    public var requantization: Requantization = .exact
    /// Highest instruction-set level of microkernels to run; nil for the best this CPU
    /// has (capped by the `TFLITE_KERNEL_LEVEL` environment variable when set). A level
    /// above the CPU's, or of the other architecture, is lowered to the CPU's
    /// (``KernelLevel/resolve(_:)``). 8-bit outputs are identical on every level.
    public var kernelLevel: KernelLevel? = nil
    /// Kernels for custom operators the runtime does not have (or replacements of its
    /// own), looked up by name before the built-in ones.
    package var customKernels = CustomKernelTable()
    /// Whether a float RELU, RELU6 or RELU_N1_TO_1 operator is folded into the operator
    /// that produces its input, as that operator's fused activation (``ActivationFusion``).
    /// Outputs are the same either way; the intermediate tensor is then never written, and
    /// profiles count the activation's time in its producer.
    public var fusesActivations = true
    /// Whether a float CONV_2D whose output (1 MiB or more) only a 3×3 DEPTHWISE_CONV_2D
    /// reads runs fused with it, row by row through a small per-thread buffer
    /// (``OperatorFusion``).
    /// Outputs are the same bits either way; the tensor between them is then never written,
    /// and profiles time the pair as one step (``Engine/fusedOperators``).
    public var fusesExpansions = true
    public init() {}
}

/// The arithmetic that rescales a quantized operator's `Int32` accumulator to its 8-bit
/// output (CONV_2D, DEPTHWISE_CONV_2D, TRANSPOSE_CONV, FULLY_CONNECTED).
public enum Requantization: Hashable, Sendable {
    /// LiteRT's reference arithmetic, bit for bit: a Q31 fixed-point multiplier and
    /// rounding shift per channel (FULLY_CONNECTED: a `Double` scale, ties away from zero).
    case exact
    /// XNNPACK's arithmetic: `Float(acc) · scale`, with `scale = s_in · s_w / s_out` in
    /// `Float`, clamped to the activation range and rounded to nearest, ties to even.
    /// Faster on CPUs without fast 64-bit integer vectors; an output can differ from the
    /// reference by one code (CONFORMANCE.md reports how often and by how much).
    case float32
}
