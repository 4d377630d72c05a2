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

    /// 2. Model bytes → `Model` → `Interpreter` (16 MB budget; 1 thread for an input of
    /// even length, 2 for odd, so the split loops, the worker pool and the per-thread
    /// scratch regions are fuzzed too) →
    /// `allocateTensors()` → zeroed inputs → `invoke()` → read every output; then inputs
    /// filled with the fuzz input's own bytes (cycled from its middle) → `invoke()` again,
    /// so data-dependent paths (NaN and infinite floats, zero or negative integer divisors
    /// and exponents, out-of-range indices, bool bytes other than 0 and 1) are reached.
    @Sendable public static func modelInvoke(_ bytes: [UInt8]) -> String {
        let model: Model
        do {
            model = try Model(data: Data(bytes))
        } catch {
            return "rejected at load: \(error)"
        }
        var options = Interpreter.Options()
        options.threadCount = bytes.count % 2 == 0 ? 1 : 2
        options.memoryBudget = invokeMemoryBudget
        options.workBudget = invokeWorkBudget
        do {
            let interpreter = try Interpreter(model: model, options: options)
            try interpreter.allocateTensors()
            for i in 0 ..< interpreter.inputTensorCount {
                let input = try interpreter.input(at: i)
                // A string input already holds empty strings, one per element.
                try interpreter.copy(
                    input.dataType == .string ? input.data : Data(count: input.data.count), toInputAt: i)
            }
            try interpreter.invoke()
            var outputBytes = 0
            for i in 0 ..< interpreter.outputTensorCount {
                outputBytes += try interpreter.output(at: i).data.count
            }
            return "invoked: \(outputBytes) output bytes; " + invokeWithPatternInputs(interpreter, bytes)
        } catch {
            return "rejected at run: \(error)"
        }
    }

    /// Fills every input with `bytes` cycled from their middle and invokes once more.
    static func invokeWithPatternInputs(_ interpreter: Interpreter, _ bytes: [UInt8]) -> String {
        guard !bytes.isEmpty else { return "no pattern" }
        do {
            var next = bytes.count / 2
            for i in 0 ..< interpreter.inputTensorCount {
                // Copied in runs, not per byte: inputs may be megabytes, and a per-byte
                // loop under the fuzzer's instrumentation timed out.
                let input = try interpreter.input(at: i)
                if input.dataType == .string {
                    // The pattern as a raw layout (checked, and usually refused), then as
                    // one string per element, so the string kernels run on it.
                    _ = try? interpreter.copy(Data(bytes.prefix(256)), toInputAt: i)
                    let text = Data(bytes[next...].prefix(64))
                    let count = input.shape.dimensions.reduce(1, *)
                    try interpreter.copy(Array(repeating: text, count: count), toInputAt: i)
                    continue
                }
                var data = Data(count: input.data.count)
                var filled = 0
                while filled < data.count {
                    let run = Swift.min(data.count - filled, bytes.count - next)
                    data.replaceSubrange(filled ..< filled + run, with: bytes[next ..< next + run])
                    filled += run
                    next = next + run == bytes.count ? 0 : next + run
                }
                try interpreter.copy(data, toInputAt: i)
            }
            try interpreter.invoke()
            return "pattern invoked"
        } catch {
            return "pattern rejected at run: \(error)"
        }
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
        let tensorBytes = MLKitFuzzing.preprocess(
            image, orientation: orientation, width: pngInputSize.width, height: pngInputSize.height)
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
