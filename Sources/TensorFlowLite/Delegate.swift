/// A hardware delegate. On Linux there are none: interpreters accept delegates for
/// source compatibility with TensorFlowLiteSwift and run every operator themselves.
public protocol Delegate: AnyObject {}

/// Accepted for source compatibility; ignored (there is no Metal on Linux).
public final class MetalDelegate: Delegate {
    /// The delegate's options, as TensorFlowLiteSwift declares them. None of them changes
    /// anything here: every operator runs on the CPU.
    public struct Options: Equatable, Hashable {
        /// Whether the GPU may compute in lower precision; default `false`. No effect here.
        public var isPrecisionLossAllowed = false
        /// Deprecated name of ``isPrecisionLossAllowed``.
        @available(*, deprecated, renamed: "isPrecisionLossAllowed")
        public var allowsPrecisionLoss: Bool {
            get { isPrecisionLossAllowed }
            set { isPrecisionLossAllowed = newValue }
        }
        /// How the calling thread waits for GPU work; default ``ThreadWaitType/passive``.
        /// No effect here.
        public var waitType: ThreadWaitType = .passive
        /// Whether 8-bit quantized models may run on the GPU; default `true`. No effect here.
        public var isQuantizationEnabled = true
        public init() {}
    }

    /// ``TensorFlowLite/ThreadWaitType`` (declared at the top level, as TensorFlowLiteSwift
    /// does) under a nested name as well, so both spellings compile.
    public typealias ThreadWaitType = TensorFlowLite.ThreadWaitType

    /// The options given at creation.
    public let options: Options

    public init(options: Options = Options()) {
        self.options = options
    }
}

/// How a thread waits for work scheduled on a GPU (``MetalDelegate/Options/waitType``).
/// Declared at the top level, where TensorFlowLiteSwift declares it; there is no GPU
/// here, so no value changes anything.
public enum ThreadWaitType: Equatable, Hashable, Sendable {
    /// The thread does not wait.
    case none
    /// The thread waits until the work is complete.
    case passive
    /// The thread waits with minimal latency, spending CPU time.
    case active
    /// The thread waits while keeping the GPU from sleeping.
    case aggressive
}

/// Core ML is unavailable off Apple platforms, so this initializer returns nil, as the
/// original does on devices without Core ML support.
public final class CoreMLDelegate: Delegate {
    /// Which devices the Core ML delegate would be enabled for.
    public enum EnabledDevices: Equatable, Hashable, Sendable {
        /// Only devices with a Neural Engine (the default).
        case neuralEngine
        /// All devices.
        case all
    }

    /// The delegate's options, as TensorFlowLiteSwift declares them, with its defaults.
    /// They are accepted and have no effect: the delegate is never created here.
    public struct Options: Equatable, Hashable {
        /// Devices to enable the delegate for; default ``EnabledDevices/neuralEngine``.
        public var enabledDevices: EnabledDevices = .neuralEngine
        /// Target Core ML version; `0` (the default) means the newest available.
        public var coreMLVersion = 0
        /// Most partitions to delegate; `0` (the default) means all.
        public var maxDelegatedPartitions = 0
        /// Fewest nodes a partition needs to be delegated; default `2`.
        public var minNodesPerPartition = 2
        public init() {}
    }

    /// The options given at creation.
    public let options: Options

    /// Returns nil: Core ML does not exist off Apple platforms.
    public init?(options: Options = Options()) {
        return nil
    }
}
