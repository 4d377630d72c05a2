import TFLiteModel

/// How one input of the post-process is stored: float32, or uint8/int8 read as
/// `(Float(q) - Float(zeroPoint)) · scale`, TFLite's dequantization of these inputs
/// (per-tensor parameters only).
enum DetectionElements: Sendable, Equatable {
    case float32
    case uint8(scale: Float, zeroPoint: Float)
    case int8(scale: Float, zeroPoint: Float)

    static func of(_ tensor: TensorState, name: String) throws(KernelError) -> DetectionElements {
        switch tensor.type {
        case .float32:
            return .float32
        case .uint8, .int8:
            guard let q = tensor.quantization, q.scales.count == 1, let zeroPoint = tensor.zeroPoint,
                let scale = tensor.scale
            else {
                throw .invalid("quantized \(name) need one scale and zero point")
            }
            let zp = Float(zeroPoint)
            return tensor.type == .uint8 ? .uint8(scale: scale, zeroPoint: zp) : .int8(scale: scale, zeroPoint: zp)
        default:
            throw .types("\(name) have type \(tensor.type); float32, uint8 or int8 expected")
        }
    }

    /// Element `i` of `base` as a Float.
    @inline(__always)
    func load(_ base: UnsafeRawPointer, _ i: Int) -> Float {
        switch self {
        case .float32:
            return base.load(fromByteOffset: i &* 4, as: Float.self)
        case .uint8(let scale, let zeroPoint):
            return (Float(base.load(fromByteOffset: i, as: UInt8.self)) - zeroPoint) * scale
        case .int8(let scale, let zeroPoint):
            return (Float(base.load(fromByteOffset: i, as: Int8.self)) - zeroPoint) * scale
        }
    }
}
