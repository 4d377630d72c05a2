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
    public static func preprocess(_ image: VisionImage, orientation: VisionImageOrientation, width: Int, height: Int)
        -> Int
    {
        image.orientation = orientation
        let upright = image.upright()
        var bytes = 0
        for fit in [ImageFit.stretch, .centerCrop, .letterbox(padValue: 114)] {
            for antialiased in [false, true] {
                let preprocessor = ImagePreprocessor(
                    fit: fit, normalization: .symmetricUnitRange, antialiased: antialiased)
                let samples = preprocessor.resized(
                    upright, ImageInputSpec(width: width, height: height, dataType: .float32, quantization: nil))
                for type in [Tensor.DataType.uInt8, .int8, .float32] {
                    let spec = ImageInputSpec(width: width, height: height, dataType: type, quantization: nil)
                    bytes += preprocessor.tensorData(samples: samples, spec).count
                }
            }
        }
        return bytes
    }

    /// `bytes` with the CRC of every complete chunk after the PNG signature recomputed
    /// (bytes before the first chunk and a trailing partial chunk are kept as they are).
    ///
    /// A mutated PNG almost always fails its CRC check, so the fuzzer decodes this repaired
    /// copy too: mutations of lengths, chunk order, header fields and compressed data then
    /// reach the chunk rules and libpng instead of stopping at the CRC.
    public static func repairingPNGChunkCRCs(_ bytes: [UInt8]) -> [UInt8] {
        var out = bytes
        var offset = 8
        while out.count - offset >= 12 {
            let length =
                Int(out[offset]) << 24 | Int(out[offset + 1]) << 16 | Int(out[offset + 2]) << 8 | Int(out[offset + 3])
            guard length <= out.count - offset - 12 else { break }
            let crcOffset = offset + 8 + length
            let crc = out.withUnsafeBytes {
                CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[(offset + 4) ..< crcOffset]))
            }
            out[crcOffset] = UInt8(crc >> 24)
            out[crcOffset + 1] = UInt8((crc >> 16) & 0xFF)
            out[crcOffset + 2] = UInt8((crc >> 8) & 0xFF)
            out[crcOffset + 3] = UInt8(crc & 0xFF)
            offset = crcOffset + 4
        }
        return out
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
