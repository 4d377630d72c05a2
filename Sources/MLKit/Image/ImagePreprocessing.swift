import Foundation
import TensorFlowLite

/// How 0–255 pixel values become a float model's input: `(value - mean[c]) / std[c]`
/// per channel `c` (one value applies to all three channels). TFLite metadata's
/// `NormalizationOptions` have the same meaning.
public struct InputNormalization: Equatable, Hashable, Sendable {
    public var mean: [Float]
    public var std: [Float]

    /// - Precondition-free: `mean` and `std` must hold 1 or 3 values and `std` no zero;
    ///   otherwise `nil`.
    public init?(mean: [Float], std: [Float]) {
        guard [1, 3].contains(mean.count), [1, 3].contains(std.count), !std.contains(0),
            (mean + std).allSatisfy(\.isFinite)
        else { return nil }
        self.mean = mean
        self.std = std
    }

    init(uncheckedMean mean: Float, std: Float) { self.mean = [mean]; self.std = [std] }

    /// `[0, 255] → [0, 1]` (mean 0, std 255): the default when nothing else is known.
    public static let unitRange = InputNormalization(uncheckedMean: 0, std: 255)
    /// `[0, 255] → [-1, 1]` (mean 127.5, std 127.5): MobileNet/MediaPipe convention.
    public static let symmetricUnitRange = InputNormalization(uncheckedMean: 127.5, std: 127.5)

    func apply(_ v: Float, channel c: Int) -> Float {
        (v - mean[mean.count == 3 ? c : 0]) / std[std.count == 3 ? c : 0]
    }
}

/// How an image is fitted to the model's input size before conversion.
public enum ImageFit: Sendable, Equatable {
    /// Resize the whole image to the input size (aspect ratio not kept).
    case stretch
    /// Resize the largest centered region with the input's aspect ratio.
    case centerCrop
    /// Keep the aspect ratio, centering the image on a padded canvas (pad value in 0–255).
    case letterbox(padValue: Float)
}

/// Errors running a vision model on an image.
public enum VisionError: Error, Equatable, Hashable, Sendable, CustomStringConvertible, LocalizedError {
    /// The model's input is not an image tensor the pipeline can fill.
    case unsupportedInput(String)
    /// The model's outputs do not have the shape or type the task needs.
    case unexpectedOutput(String)
    /// The interpreter failed (its message).
    case interpreter(String)
    /// A remote model was used before it was downloaded.
    case modelNotDownloaded(name: String)
    /// The model or bundle could not be loaded.
    case invalidModel(String)

    public var description: String {
        switch self {
        case .unsupportedInput(let m): return "unsupported model input: \(m)"
        case .unexpectedOutput(let m): return "unexpected model output: \(m)"
        case .interpreter(let m): return "interpreter error: \(m)"
        case .modelNotDownloaded(let name): return "the remote model '\(name)' is not downloaded"
        case .invalidModel(let m): return "invalid model: \(m)"
        }
    }

    public var errorDescription: String? { description }
}

/// An image input tensor: `[1, height, width, 3]` of uint8, int8 or float32.
struct ImageInputSpec: Equatable {
    var width: Int
    var height: Int
    var dataType: Tensor.DataType
    var quantization: QuantizationParameters?

    init(width: Int, height: Int, dataType: Tensor.DataType, quantization: QuantizationParameters?) {
        self.width = width; self.height = height; self.dataType = dataType; self.quantization = quantization
    }

    init(_ tensor: Tensor) throws(VisionError) {
        let d = tensor.shape.dimensions
        guard d.count == 4, d[0] == 1, d[3] == 3, d[1] > 0, d[2] > 0 else {
            throw .unsupportedInput("input '\(tensor.name)' has shape \(d); expected [1, height, width, 3]")
        }
        guard [.uInt8, .int8, .float32].contains(tensor.dataType) else {
            throw .unsupportedInput(
                "input '\(tensor.name)' has type \(tensor.dataType); expected uInt8, int8 or float32")
        }
        if tensor.dataType == .int8, tensor.quantizationParameters == nil {
            throw .unsupportedInput("int8 input '\(tensor.name)' has no quantization parameters")
        }
        height = d[1]; width = d[2]; dataType = tensor.dataType; quantization = tensor.quantizationParameters
    }
}

/// Turns an upright image into the bytes of an image input tensor.
///
/// 1. Fit (``ImageFit``) and resize with ``BilinearResampler`` to the input size,
///    giving float samples in `[0, 255]`.
/// 2. Convert to the input type:
///    - `uInt8`: the resized sample rounded to nearest (halves away from zero) and
///      clamped to 0–255 — raw pixels, the AutoML Vision Edge convention; no normalization.
///    - `int8`: `q = clamp(round(normalized / scale) + zeroPoint, -128, 127)` with the
///      tensor's quantization, `normalized` as for float32.
///    - `float32`: `(sample - mean) / std` (``InputNormalization``).
struct ImagePreprocessor: Sendable {
    var fit: ImageFit
    var normalization: InputNormalization
    /// Resize with Pillow's antialiasing bilinear filter (``AntialiasedResampler``, bytes
    /// out) instead of TensorFlow's (``BilinearResampler``); the face detector's reference
    /// preprocesses that way.
    var antialiased = false

    /// The layout used for `image` and an input of `spec`'s size.
    func layout(for image: RGBImage, _ spec: ImageInputSpec) -> ResampleLayout {
        switch fit {
        case .stretch: return .stretch(image)
        case .centerCrop: return .centerCrop(image, outputWidth: spec.width, outputHeight: spec.height)
        case .letterbox(let pad):
            return .letterbox(image, outputWidth: spec.width, outputHeight: spec.height, padValue: pad)
        }
    }

    /// The resized float samples (before type conversion), for tests and references.
    func resized(_ image: RGBImage, _ spec: ImageInputSpec) -> [Float] {
        if antialiased {
            return AntialiasedResampler.resample(
                image, layout: layout(for: image, spec), outputWidth: spec.width, outputHeight: spec.height
            ).map { Float($0) }
        }
        return BilinearResampler.resample(
            image, layout: layout(for: image, spec), outputWidth: spec.width, outputHeight: spec.height)
    }

    func tensorData(_ image: RGBImage, _ spec: ImageInputSpec) -> Data {
        let samples = resized(image, spec)
        return tensorData(samples: samples, spec)
    }

    func tensorData(samples: [Float], _ spec: ImageInputSpec) -> Data {
        switch spec.dataType {
        case .uInt8:
            return Data(samples.map { UInt8(min(max($0.rounded(), 0), 255)) })
        case .int8:
            let scale = spec.quantization?.scale ?? 1, zero = Float(spec.quantization?.zeroPoint ?? 0)
            let values = samples.enumerated().map { i, v -> Int8 in
                let q = (normalization.apply(v, channel: i % 3) / scale).rounded() + zero
                return Int8(min(max(q.isFinite ? q : 0, -128), 127))
            }
            return values.withUnsafeBytes { Data($0) }
        default:
            let values = samples.enumerated().map { i, v in normalization.apply(v, channel: i % 3) }
            return values.withUnsafeBytes { Data($0) }
        }
    }
}
