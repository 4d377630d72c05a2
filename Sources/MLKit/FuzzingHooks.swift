import Foundation
import TensorFlowLite

/// Entry points for the fuzz targets (`TFLiteFuzzing`, fuzz targets 4 and 6 in
/// RELIABILITY.md): thin wrappers that reach the internal PNG-to-tensor path and the
/// bundle-file parsers with bytes, no files. Not API: available only through
/// `@_spi(Fuzzing) import MLKit`.
@_spi(Fuzzing) public enum MLKitFuzzing {
    /// Runs `image` through the preprocessing every vision model uses, for a
    /// `width` x `height` input: orientation, then each fit (stretch, center crop,
    /// letterbox) with the TensorFlow bilinear resampler and with the antialiased one,
    /// converted to uint8, int8 and float32 tensor bytes.
    ///
    /// - Returns: the total number of tensor bytes produced.
    public static func preprocess(_ image: VisionImage, orientation: VisionImageOrientation, width: Int, height: Int) -> Int {
        image.orientation = orientation
        let upright = image.upright()
        var bytes = 0
        for fit in [ImageFit.stretch, .centerCrop, .letterbox(padValue: 114)] {
            for antialiased in [false, true] {
                let preprocessor = ImagePreprocessor(fit: fit, normalization: .symmetricUnitRange, antialiased: antialiased)
                let samples = preprocessor.resized(upright, ImageInputSpec(width: width, height: height, dataType: .float32, quantization: nil))
                for type in [Tensor.DataType.uInt8, .int8, .float32] {
                    let spec = ImageInputSpec(width: width, height: height, dataType: type, quantization: nil)
                    bytes += preprocessor.tensorData(samples: samples, spec).count
                }
            }
        }
        return bytes
    }

    /// Parses `bytes` as each file of a model bundle or model server — an AutoML
    /// `manifest.json`, an object-detection `tflite_metadata.json`, a labels file
    /// (`dict.txt`) and a model server's descriptor (`model.json`) — and returns one
    /// outcome per parser (`ok: …` or the error).
    public static func parseBundleFiles(_ bytes: [UInt8]) -> [String] {
        var outcomes: [String] = []
        do {
            let manifest = try AutoMLManifest(bytes: bytes, path: "/bundle/manifest.json")
            outcomes.append("manifest ok: \(manifest.modelPath), \(manifest.labelsPath)")
        } catch {
            outcomes.append("manifest: \(error)")
        }
        do {
            let metadata = try DetectionMetadata(bytes: bytes, path: "/bundle/tflite_metadata.json")
            outcomes.append("metadata ok: \(metadata.inputShape), \(metadata.maxDetections)")
        } catch {
            outcomes.append("metadata: \(error)")
        }
        do {
            let labels = try LabelDictionary.parse(bytes, path: "/bundle/dict.txt")
            outcomes.append("labels ok: \(labels.count)")
        } catch {
            outcomes.append("labels: \(error)")
        }
        do {
            let descriptor = try ModelDescriptor.decode(Data(bytes), expectedName: "model")
            outcomes.append("descriptor ok: v\(descriptor.version), \(descriptor.size) bytes")
        } catch {
            outcomes.append("descriptor: \(error.reason)")
        }
        return outcomes
    }
}
