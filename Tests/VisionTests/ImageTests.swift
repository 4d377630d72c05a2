import Foundation
import Testing
@testable import MLKit
@testable import TensorFlowLite

@Suite struct RawBufferTests {
    @Test func formats() throws {
        // Two pixels: (10, 20, 30) and (40, 50, 60); alpha 255; rows padded to 12 bytes.
        let rgba: [UInt8] = [10, 20, 30, 255, 40, 50, 60, 255, 0, 0, 0, 0]
        let bgra: [UInt8] = [30, 20, 10, 255, 60, 50, 40, 255, 9, 9, 9, 9]
        let rgb: [UInt8] = [10, 20, 30, 40, 50, 60]
        let expected: [UInt8] = [10, 20, 30, 40, 50, 60]
        #expect(
            try VisionImage(width: 2, height: 1, pixelFormat: .rgba8, bytesPerRow: 12, pixels: rgba).rgbPixels()
                == expected)
        #expect(try VisionImage(width: 2, height: 1, pixelFormat: .bgra8, pixels: Data(bgra)).rgbPixels() == expected)
        #expect(try VisionImage(width: 2, height: 1, pixelFormat: .rgb8, pixels: rgb).rgbPixels() == expected)
        // Two rows with a stride: the padding bytes are skipped.
        let strided: [UInt8] = [1, 2, 3, 99, 4, 5, 6]
        #expect(
            try VisionImage(width: 1, height: 2, pixelFormat: .rgb8, bytesPerRow: 4, pixels: strided).rgbPixels() == [
                1, 2, 3, 4, 5, 6,
            ])
    }

    @Test func invalidBuffers() {
        #expect(throws: ImageError.zeroSize(width: 0, height: 1)) {
            try VisionImage(width: 0, height: 1, pixelFormat: .rgb8, pixels: [UInt8]())
        }
        #expect(throws: ImageError.tooLarge(width: 20000, height: 1)) {
            try VisionImage(width: 20000, height: 1, pixelFormat: .rgb8, pixels: [UInt8]())
        }
        #expect(throws: ImageError.self) {
            try VisionImage(width: 2, height: 2, pixelFormat: .rgba8, pixels: [UInt8](repeating: 0, count: 15))
        }
        #expect(throws: ImageError.self) {
            try VisionImage(
                width: 2, height: 2, pixelFormat: .rgba8, bytesPerRow: 7, pixels: [UInt8](repeating: 0, count: 64))
        }
        #expect(throws: ImageError.self) {
            try VisionImage(
                width: 2, height: 2, pixelFormat: .rgb8, bytesPerRow: Int.max, pixels: [UInt8](repeating: 0, count: 64))
        }
    }
}

@Suite struct OrientationTests {
    /// A 2-wide, 3-tall stored image whose pixel (x, y) has red value 10 * y + x:
    ///
    ///     0  1
    ///     10 11
    ///     20 21
    static func image() throws -> VisionImage {
        let reds: [UInt8] = [0, 1, 10, 11, 20, 21]
        return try VisionImage(width: 2, height: 3, pixelFormat: .rgb8, pixels: reds.flatMap { [$0, 0, 0] })
    }

    /// Displayed images, row by row, worked out by hand from UIImage.Orientation's meaning.
    static let expected: [(VisionImageOrientation, Int, [UInt8])] = [
        (.up, 2, [0, 1, 10, 11, 20, 21]),
        (.upMirrored, 2, [1, 0, 11, 10, 21, 20]),
        (.down, 2, [21, 20, 11, 10, 1, 0]),
        (.downMirrored, 2, [20, 21, 10, 11, 0, 1]),
        // Turned 90° clockwise: the stored left column (0, 10, 20) becomes the top row, read right to left.
        (.right, 3, [20, 10, 0, 21, 11, 1]),
        // Turned 90° counterclockwise: the stored right column becomes the top row.
        (.left, 3, [1, 11, 21, 0, 10, 20]),
        (.leftMirrored, 3, [0, 10, 20, 1, 11, 21]),
        (.rightMirrored, 3, [21, 11, 1, 20, 10, 0]),
    ]

    @Test func allEight() throws {
        #expect(Self.expected.count == VisionImageOrientation.allCases.count)
        for (orientation, width, reds) in Self.expected {
            let image = try Self.image()
            image.orientation = orientation
            #expect(image.displayedWidth == width, "\(orientation)")
            let pixels = image.rgbPixels()
            #expect(stride(from: 0, to: pixels.count, by: 3).map { pixels[$0] } == reds, "\(orientation)")
        }
    }

    @Test func exifAndLegacyMetadata() throws {
        let image = try Self.image()
        let metadata = VisionImageMetadata()
        metadata.orientation = .rightTop
        image.metadata = metadata
        #expect(image.orientation == .right)
        #expect(VisionImageOrientation.allCases.allSatisfy { VisionImageOrientation(exifValue: $0.exifValue) == $0 })
        #expect(VisionImageOrientation(exifValue: 9) == nil)
    }

    /// A frame around displayed pixel (x, y) maps back to the stored pixel shown there.
    @Test func storedFrames() throws {
        let image = try Self.image()
        for (orientation, width, reds) in Self.expected {
            image.orientation = orientation
            for (i, red) in reds.enumerated() {
                let frame = image.storedFrame(forDisplayed: CGRect(x: i % width, y: i / width, width: 1, height: 1))
                #expect(
                    Int(frame.minX) + 10 * Int(frame.minY) == Int(red) && frame.width == 1 && frame.height == 1,
                    "\(orientation) \(i)")
            }
        }
    }
}

@Suite struct ResizeTests {
    static func source() throws -> RGBImage {
        RGBImage(width: 13, height: 11, pixels: try VisionFixtures.bytes("resize_src.rgb"))
    }

    /// Against `tf.image.resize(..., "bilinear", antialias=False)` (make_resize_reference.py).
    @Test(arguments: [(5, 7), (29, 17), (13, 11), (1, 1)])
    func matchesTensorFlow(_ size: (Int, Int)) throws {
        let src = try Self.source()
        let ours = BilinearResampler.resample(src, layout: .stretch(src), outputWidth: size.0, outputHeight: size.1)
        let tf = try VisionFixtures.floats("resize_\(size.0)x\(size.1).f32")
        #expect(ours.count == tf.count)
        let worst = zip(ours, tf).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= 1e-4, "max |ours - tf| = \(worst)")
    }

    @Test(arguments: [(4, 4), (8, 3)])
    func centerCropMatchesTensorFlow(_ size: (Int, Int)) throws {
        let src = try Self.source()
        let layout = ResampleLayout.centerCrop(src, outputWidth: size.0, outputHeight: size.1)
        let ours = BilinearResampler.resample(src, layout: layout, outputWidth: size.0, outputHeight: size.1)
        let tf = try VisionFixtures.floats("resize_crop_\(size.0)x\(size.1).f32")
        let worst = zip(ours, tf).map { abs($0 - $1) }.max() ?? .infinity
        #expect(ours.count == tf.count && worst <= 1e-4, "max |ours - tf| = \(worst)")
    }

    @Test func letterboxPadsAndCenters() {
        let src = RGBImage(width: 4, height: 2, fill: (200, 200, 200))
        let layout = ResampleLayout.letterbox(src, outputWidth: 4, outputHeight: 4, padValue: 0)
        #expect(layout == ResampleLayout(canvasWidth: 4, canvasHeight: 4, imageX: 0, imageY: 1, padValue: 0))
        let out = BilinearResampler.resample(src, layout: layout, outputWidth: 4, outputHeight: 4)
        #expect(out[0] == 0 && out[3 * 4 * 3] == 0) // first and last rows are padding
        #expect(out[3 * 4] == 200 && out[3 * 8] == 200) // middle rows are the image
    }

    @Test func tensorConversion() {
        let samples: [Float] = [0, 127.5, 255, 2.5, 3.49, 254.6]
        let u8 = ImagePreprocessor(fit: .stretch, normalization: .unitRange)
        var spec = ImageInputSpecFixture.make(.uInt8)
        #expect([UInt8](u8.tensorData(samples: samples, spec)) == [0, 128, 255, 3, 3, 255])
        spec = ImageInputSpecFixture.make(.float32)
        let f = ImagePreprocessor(fit: .stretch, normalization: .symmetricUnitRange).tensorData(samples: samples, spec)
        let floats = f.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(floats[0] == -1 && floats[1] == 0 && floats[2] == 1)
        // int8: normalized to [-1, 1], then quantized with scale 1/128, zero point 0.
        let i8 = ImagePreprocessor(fit: .stretch, normalization: .symmetricUnitRange)
        let q = ImageInputSpec(
            width: 2, height: 1, dataType: .int8, quantization: QuantizationParameters(scale: 1.0 / 128, zeroPoint: 0))
        let ints = [UInt8](i8.tensorData(samples: samples, q)).map { Int8(bitPattern: $0) }
        #expect(ints[0] == -128 && ints[1] == 0 && ints[2] == 127)
        #expect(InputNormalization(mean: [1, 2], std: [1]) == nil)
        #expect(InputNormalization(mean: [0], std: [0]) == nil)
    }
}

enum ImageInputSpecFixture {
    static func make(_ type: Tensor.DataType) -> ImageInputSpec {
        ImageInputSpec(width: 2, height: 1, dataType: type, quantization: nil)
    }
}

@Suite struct AnnotationTests {
    @Test func drawsBoxAndCaption() throws {
        let image = try VisionImage(
            width: 64, height: 48, pixelFormat: .rgb8, pixels: [UInt8](repeating: 255, count: 64 * 48 * 3))
        let out = image.annotated([ImageAnnotation(frame: CGRect(x: 10, y: 20, width: 30, height: 20), caption: "A1")])
            .stored
        let red: (UInt8, UInt8, UInt8) = (255, 48, 48)
        #expect(out.pixel(10, 20) == red && out.pixel(39, 39) == red && out.pixel(25, 39) == red) // outline
        #expect(out.pixel(25, 30) == (255, 255, 255)) // inside untouched
        // Caption band above the box (9 px: 7 glyph rows + 1 px margins), black glyph pixels in it.
        #expect(out.pixel(10, 11) == red)
        let band = (11 ..< 20).flatMap { y in (10 ..< 23).map { x in out.pixel(x, y) } }
        #expect(band.contains { $0 == (0, 0, 0) })
        // Boxes partly outside the image clip instead of trapping.
        _ = image.annotated([ImageAnnotation(frame: CGRect(x: -100, y: -5, width: 1000, height: 1e9), caption: "?~")])
        _ = image.annotated([ImageAnnotation(frame: CGRect(x: CGFloat.nan, y: 0, width: 1, height: 1), caption: "")])
    }
}
