/// A hardware delegate. On Linux there are none: interpreters accept delegates for
/// source compatibility with TensorFlowLiteSwift and run every operator themselves.
public protocol Delegate: AnyObject {}

/// Accepted for source compatibility; ignored (there is no Metal on Linux).
public final class MetalDelegate: Delegate {
    public struct Options: Equatable, Hashable {
        public var isPrecisionLossAllowed = false
        public var waitType: ThreadWaitType = .passive
        public var isQuantizationEnabled = true
        public init() {}
    }

    public enum ThreadWaitType: Equatable, Hashable {
        case none, passive, active, aggressive
    }

    public let options: Options

    public init(options: Options = Options()) {
        self.options = options
    }
}

/// Core ML is unavailable off Apple platforms, so this initializer returns nil, as the
/// original does on devices without Core ML support.
public final class CoreMLDelegate: Delegate {
    public struct Options: Equatable, Hashable {
        public var coreMLVersion = 0
        public var maxDelegatedPartitions = 0
        public var minNodesPerPartition = 2
        public init() {}
    }

    public init?(options: Options = Options()) {
        return nil
    }
}
