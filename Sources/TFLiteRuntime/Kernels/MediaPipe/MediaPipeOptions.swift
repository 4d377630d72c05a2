import TFLiteFormat
import TFLiteModel

/// Readers of the two encodings MediaPipe's operators use for `custom_options`
/// (spec/mediapipe-ops.md): a C struct of little-endian `int32` fields, copied verbatim
/// by the converter (the convolution and pooling operators), or a FlexBuffers map (the
/// transform operators).
enum MediaPipeOptions {
    /// The first `count` little-endian `int32` fields of the options.
    static func int32Fields(_ op: Operator, count: Int, layout: String) throws(KernelError) -> [Int] {
        guard let view = op.customOptions else {
            throw .invalid("custom options are missing (expected \(layout))")
        }
        let bytes = view.bytes
        guard bytes.count >= 4 * count else {
            throw .invalid("custom options have \(bytes.count) bytes, fewer than the \(4 * count) of \(layout)")
        }
        return (0 ..< count).map { i in
            Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * i, as: Int32.self)))
        }
    }

    /// The options as a FlexBuffers map (a missing key reads as 0 in MediaPipe's parsers).
    static func flexMap(_ op: Operator) throws(KernelError) -> FlexMap {
        guard let view = op.customOptions, view.count > 0 else {
            throw .invalid("custom options are missing (expected a FlexBuffers map)")
        }
        guard op.customOptionsFormat == 0 else {
            throw .invalid("custom options format \(op.customOptionsFormat) is not FlexBuffers")
        }
        do throws(FlexBufferError) {
            return try FlexBuffer(copying: view.bytes).root.asMap()
        } catch {
            throw .invalid("custom options: \(error.message)")
        }
    }

    /// `map[key]` as an integer, 0 when absent (as flexbuffers' `AsInt32` of a null).
    static func int(_ map: FlexMap, _ key: String) throws(KernelError) -> Int {
        do throws(FlexBufferError) {
            guard let value = map[key], !value.isNull else { return 0 }
            return Int(try value.asInt32())
        } catch {
            throw .invalid("custom option \(key): \(error.message)")
        }
    }

    /// `map[key]` as a float, 0 when absent.
    static func float(_ map: FlexMap, _ key: String) throws(KernelError) -> Float {
        do throws(FlexBufferError) {
            guard let value = map[key], !value.isNull else { return 0 }
            return try value.asFloat()
        } catch {
            throw .invalid("custom option \(key): \(error.message)")
        }
    }

    /// `map[key]` as a string, nil when absent.
    static func string(_ map: FlexMap, _ key: String) throws(KernelError) -> String? {
        do throws(FlexBufferError) {
            guard let value = map[key], !value.isNull else { return nil }
            return try value.asString()
        } catch {
            throw .invalid("custom option \(key): \(error.message)")
        }
    }

    /// `map[key]` as a vector of `int32` values, empty when absent.
    static func ints(_ map: FlexMap, _ key: String) throws(KernelError) -> [Int] {
        let values: [Int64]
        do throws(FlexBufferError) {
            guard let value = map[key], !value.isNull else { return [] }
            values = try value.asVector().asInt64Array()
        } catch {
            throw .invalid("custom option \(key): \(error.message)")
        }
        var result: [Int] = []
        result.reserveCapacity(values.count)
        for v in values {
            guard let i = Int32(exactly: v) else { throw .invalid("custom option \(key): \(v) does not fit int32") }
            result.append(Int(i))
        }
        return result
    }

    /// TFLite's C `TfLitePadding`: 1 is SAME, 2 is VALID (0, unknown, pads nothing in
    /// MediaPipe's transposed convolution and gives an empty output in its pooling).
    enum Padding: Int { case unknown = 0, same = 1, valid = 2 }

    static func padding(_ raw: Int) throws(KernelError) -> Padding {
        guard let p = Padding(rawValue: raw) else { throw .invalid("padding \(raw) is not 0, 1 (SAME) or 2 (VALID)") }
        return p
    }
}

/// MediaPipe's pooling options: the C struct `TfLitePoolParams` as raw bytes,
/// `{padding, stride_width, stride_height, filter_width, filter_height, activation}`
/// (`int32` each; later fields, TFLite's computed padding, are not read).
struct MediaPipePoolOptions: Hashable, Sendable {
    var padding: MediaPipeOptions.Padding
    var strideW: Int, strideH: Int
    var filterW: Int, filterH: Int
    var range: FloatActivationRange

    static let layout = "TfLitePoolParams {padding, stride_w, stride_h, filter_w, filter_h, activation} (int32 each)"

    static func parse(_ op: Operator) throws(KernelError) -> MediaPipePoolOptions {
        let f = try MediaPipeOptions.int32Fields(op, count: 6, layout: layout)
        let padding = try MediaPipeOptions.padding(f[0])
        guard f[1] > 0, f[2] > 0 else { throw .invalid("strides (\(f[2]), \(f[1])) must be positive") }
        guard f[3] > 0, f[4] > 0 else { throw .invalid("filter size (\(f[4]), \(f[3])) must be positive") }
        // TfLiteFusedActivation: 0 none, 1 relu, 2 relu_n1_to_1, 3 relu6 (the clamping ones).
        guard (0 ... 3).contains(f[5]) else {
            throw .invalid("activation \(f[5]) is not none, relu, relu_n1_to_1 or relu6")
        }
        let range = try FloatActivationRange.of(FusedActivation(rawValue: Int8(f[5])))
        return MediaPipePoolOptions(
            padding: padding, strideW: f[1], strideH: f[2], filterW: f[3], filterH: f[4], range: range)
    }
}

/// Sizes of a pooling operator's input and output `[batch, h, w, channels]` images and
/// the padding before the first row and column of the larger one.
struct MediaPipePoolGeometry: Hashable, Sendable {
    var batch: Int, inH: Int, inW: Int, channels: Int, outH: Int, outW: Int
    var padTop: Int, padLeft: Int
}

extension MediaPipeOptions {
    /// The operator's version, which selects the semantics of the transform operators;
    /// other versions are refused.
    static func version(_ op: Operator, supported: ClosedRange<Int>) throws(KernelError) -> Int {
        guard supported.contains(op.code.version) else {
            throw .invalid(
                "version \(op.code.version) is not supported (versions \(supported.lowerBound)...\(supported.upperBound) are)"
            )
        }
        return op.code.version
    }
}
