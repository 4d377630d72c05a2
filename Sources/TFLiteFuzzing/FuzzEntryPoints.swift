import Foundation
@_spi(Fuzzing) import MLKit
import NumPy
import TFLiteFormat
import TFLiteModel
import TensorFlowLite

/// The entry points the fuzz targets in `Fuzz/` drive and `Tests/ReliabilityTests`
/// replays the regression corpus (`Tests/FuzzRegressions/<target>/`) through, so a
/// crash found by the fuzzer is reproduced by `swift test` with the very same code.
///
/// Every entry point takes arbitrary bytes and must return normally: errors thrown by
/// the library are the expected outcome for bad input; a trap, a sanitizer report or a
/// hang is a bug. Each returns a short description of the outcome, for test messages.
public enum FuzzEntryPoints {
    /// A fuzz target: its directory name under `Tests/FuzzRegressions/` and entry point.
    public struct Target: Sendable {
        public let name: String
        public let run: @Sendable ([UInt8]) -> String
    }

    /// Every target available in this build.
    public static let targets: [Target] = [
        Target(name: "model-load", run: modelLoad),
        Target(name: "model-invoke", run: modelInvoke),
        Target(name: "flexbuffer", run: flexBuffer),
        Target(name: "png", run: png),
        Target(name: "npy", run: npy),
        Target(name: "bundle-files", run: bundleFiles),
    ]

    /// The memory budget of `modelInvoke`: small enough that the fuzzer's RSS limit is
    /// never reached through a legitimate (budgeted) allocation, and that work linear in
    /// the tensor bytes stays within libFuzzer's 10-second timeout under ASan and coverage
    /// instrumentation. (At 64 MB a MAX_POOL_2D over a 52 MB int8 input — 52 million
    /// window reads, 5 s even in a plain debug build — timed out: a slow input, not a
    /// hang; see RELIABILITY.md.)
    public static let invokeMemoryBudget = 16 << 20
    /// Multiply-accumulates (and NMS comparisons) per invoke: convolutions are not bounded
    /// by the memory budget (a filter as large as its input is quadratic work), and the
    /// debug + ASan kernels run about 10^7–10^8 of them per second, so this keeps every
    /// input well inside libFuzzer's 10-second timeout.
    public static let invokeWorkBudget = 50_000_000

    /// 1. Model bytes → `Model(data:)`: FlatBuffer decoding and validation, then the
    /// TFLite metadata (`Model.tfliteMetadata`), which is decoded only on access.
    @Sendable public static func modelLoad(_ bytes: [UInt8]) -> String {
        do {
            let model = try Model(data: Data(bytes))
            let metadata: String
            do {
                metadata = try model.tfliteMetadata.map { "\($0.subgraphs.count) metadata subgraphs" } ?? "no metadata"
            } catch {
                metadata = "metadata rejected: \(error)"
            }
            return "loaded: \(model.subgraphs.count) subgraphs, \(metadata)"
        } catch {
            return "rejected: \(error)"
        }
    }

    /// 2. Model bytes → `Model` → `Interpreter` (16 MB budget, 1 thread) →
    /// `allocateTensors()` → zeroed inputs → `invoke()` → read every output; then, if that
    /// ran and an input is int32, int64 or bool (index, shape and mask inputs), inputs
    /// filled from the fuzz bytes (``patternedInput(_:count:type:)``) → `invoke()` again, so
    /// GATHER, GATHER_ND and SCATTER_ND see indices out of range. Models with only float
    /// and 8-bit inputs are invoked once, which keeps their run time (and the 10-second
    /// timeout's margin) as it was.
    @Sendable public static func modelInvoke(_ bytes: [UInt8]) -> String {
        let model: Model
        do {
            model = try Model(data: Data(bytes))
        } catch {
            return "rejected at load: \(error)"
        }
        var options = Interpreter.Options()
        options.threadCount = 1
        options.memoryBudget = invokeMemoryBudget
        options.workBudget = invokeWorkBudget
        do {
            let interpreter = try Interpreter(model: model, options: options)
            try interpreter.allocateTensors()
            for i in 0 ..< interpreter.inputTensorCount {
                let input = try interpreter.input(at: i)
                try interpreter.copy(Data(count: input.data.count), toInputAt: i)
            }
            try interpreter.invoke()
            var outputBytes = 0
            for i in 0 ..< interpreter.outputTensorCount {
                outputBytes += try interpreter.output(at: i).data.count
            }
            let inputs = try (0 ..< interpreter.inputTensorCount).map { try interpreter.input(at: $0) }
            guard inputs.contains(where: { [.int32, .int64, .bool].contains($0.dataType) }) else {
                return "invoked: \(outputBytes) output bytes"
            }
            for (i, input) in inputs.enumerated() {
                try interpreter.copy(patternedInput(bytes, count: input.data.count, type: input.dataType), toInputAt: i)
            }
            do {
                try interpreter.invoke()
            } catch {
                return "invoked: \(outputBytes) output bytes; patterned inputs rejected: \(error)"
            }
            return "invoked twice: \(outputBytes) output bytes"
        } catch {
            return "rejected at run: \(error)"
        }
    }

    /// `count` bytes of input taken cyclically from the end of the fuzz input, where
    /// mutations land as often as anywhere: integer and bool tensors get the raw bytes (any
    /// index, including negative and huge ones); float32 and complex64 tensors get finite
    /// values in [-8, 8) (a NaN in an input is a legitimate value but not what this pass is
    /// for); other float types stay zero.
    static func patternedInput(_ bytes: [UInt8], count: Int, type: Tensor.DataType) -> Data {
        guard !bytes.isEmpty, count > 0 else { return Data(count: count) }
        var out = [UInt8](repeating: 0, count: count)
        switch type {
        case .float32, .complex64:
            for i in 0 ..< count / 4 {
                let b = bytes[bytes.count - 1 - i % bytes.count]
                let value = (Float(b) - 128) / 16
                withUnsafeBytes(of: value.bitPattern.littleEndian) { raw in
                    for k in 0 ..< 4 { out[4 * i + k] = raw[k] }
                }
            }
        case .float16, .float64:
            break
        default:
            for i in 0 ..< count { out[i] = bytes[bytes.count - 1 - i % bytes.count] }
        }
        return Data(out)
    }

    /// 3. FlexBuffer bytes (custom options) → `FlexBuffer(_:)` → `tree()`, then the
    /// JSON rendering `inspect` prints.
    @Sendable public static func flexBuffer(_ bytes: [UInt8]) -> String {
        do {
            let tree = try FlexBuffer(bytes).tree()
            return "decoded: \(tree.json.utf8.count) bytes of JSON"
        } catch {
            return "rejected: \(error)"
        }
    }

    /// The model input size `png` preprocesses decoded images to: small (cheap under
    /// ASan) and not square, so center crops and letterboxes really crop and pad.
    public static let pngInputSize = (width: 12, height: 9)

    /// 4. PNG bytes → `VisionImage(data:)` (Swift-side validation, then libpng); a decoded
    /// image then goes through the vision preprocessing (orientation — chosen by the
    /// input's length — every fit and resampler, uint8/int8/float32 conversion) to a
    /// 12 x 9 input. The input is decoded as it is and, when that differs, with every
    /// chunk's CRC recomputed (``MLKitFuzzing/repairingPNGChunkCRCs(_:)``), so mutations
    /// get past the CRC check to the chunk rules and libpng.
    @Sendable public static func png(_ bytes: [UInt8]) -> String {
        let outcome = decodeAndPreprocessPNG(bytes)
        let repaired = MLKitFuzzing.repairingPNGChunkCRCs(bytes)
        guard repaired != bytes else { return outcome }
        return outcome + "; CRCs repaired: " + decodeAndPreprocessPNG(repaired)
    }

    private static func decodeAndPreprocessPNG(_ bytes: [UInt8]) -> String {
        let image: VisionImage
        do {
            image = try VisionImage(data: Data(bytes))
        } catch {
            return "rejected: \(error)"
        }
        let orientation = VisionImageOrientation.allCases[bytes.count % VisionImageOrientation.allCases.count]
        let tensorBytes = MLKitFuzzing.preprocess(image, orientation: orientation, width: pngInputSize.width, height: pngInputSize.height)
        return "decoded: \(image.width)x\(image.height), \(tensorBytes) tensor bytes"
    }

    /// 5. `.npy` bytes → `NPYArray(bytes:)`, then its float conversion and re-encoding.
    @Sendable public static func npy(_ bytes: [UInt8]) -> String {
        do {
            let array = try NPYArray(bytes: bytes)
            _ = array.floatValues()
            return "decoded: shape \(array.shape), \(array.encoded().count) bytes re-encoded"
        } catch {
            return "rejected: \(error)"
        }
    }

    /// 6. Bytes → every bundle-file parser: AutoML `manifest.json`, detection
    /// `tflite_metadata.json` (both through the tolerant JSON reader), the `dict.txt`
    /// labels reader, and the model server's `model.json` descriptor.
    @Sendable public static func bundleFiles(_ bytes: [UInt8]) -> String {
        MLKitFuzzing.parseBundleFiles(bytes).joined(separator: "; ")
    }
}
