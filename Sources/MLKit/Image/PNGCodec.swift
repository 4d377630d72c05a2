import CPNG
import Foundation

/// PNG reading and writing through libpng's *simplified* API (libpng ≥ 1.6).
///
/// Why this API: libpng reports errors by `longjmp`-ing out of its error callback, and
/// Swift can neither call `setjmp` nor survive a `longjmp` across Swift frames. The
/// simplified API (`png_image_*`) catches its own errors internally and returns 0 with
/// the reason in `png_image.message`, so no libpng error ever unwinds through Swift.
/// On top of that, ``PNGStructure/validate(_:)`` checks the signature, chunk framing,
/// CRCs and header limits in Swift before libpng is called, so libpng only sees
/// well-framed data whose decoded size is bounded by ``ImageLimits``.
enum PNGCodec {
    /// Decodes a PNG held in memory to 8-bit RGB.
    ///
    /// Every color type and bit depth is accepted (gray 1–16 bits, gray + alpha, RGB, RGBA,
    /// palette with or without tRNS; interlaced or not). libpng expands palettes and gray to
    /// RGB and reduces 16-bit samples to 8 bits.
    /// Alpha is dropped (not composited): a model sees the color channels as stored.
    ///
    /// Gamma: a file without gAMA, sRGB or iCCP is decoded as sRGB at every bit depth, so
    /// its samples pass through unchanged and 16-bit samples become `round(v / 257)` — as
    /// other decoders (Pillow, `tf.io.decode_png`) read them. libpng's simplified API would
    /// otherwise take untagged 16-bit data as *linear* and re-encode it to sRGB, so such
    /// files are handed to it with an `sRGB` chunk inserted after IHDR. Files that do
    /// carry gamma or a profile are converted to sRGB by libpng.
    static func decodeRGB(_ data: Data) throws(ImageError) -> RGBImage {
        let result: Result<RGBImage, ImageError> = data.withUnsafeBytes { raw in
            do {
                let header = try PNGStructure.validate(raw)
                if header.bitDepth == 16, header.interlaced {
                    return .success(try decodeInterlaced16(raw, header: header))
                }
                if header.hasColorSpace { return .success(try decodeValidated(raw, header: header)) }
                let tagged =
                    Array(raw.prefix(PNGStructure.endOfHeader)) + PNGStructure.sRGBChunk
                    + Array(raw.dropFirst(PNGStructure.endOfHeader))
                return .success(
                    try tagged.withUnsafeBytes { t throws(ImageError) in try decodeValidated(t, header: header) })
            } catch let error as ImageError {
                return .failure(error)
            } catch {
                return .failure(.decodingFailed("\(error)"))
            }
        }
        return try result.get()
    }

    private static func decodeValidated(_ raw: UnsafeRawBufferPointer, header: PNGHeader) throws(ImageError) -> RGBImage
    {
        guard let base = raw.baseAddress else { throw .notPNG }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, base, raw.count) != 0 else {
            let message = Self.message(of: &image)
            png_image_free(&image)
            throw .decodingFailed(message)
        }
        guard Int(image.width) == header.width, Int(image.height) == header.height else {
            png_image_free(&image)
            throw .decodingFailed("libpng read a different size than the header declares")
        }
        image.format = png_uint_32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let width = header.width, height = header.height
        // Bounded by ImageLimits: at most 2^26 pixels * 4 bytes.
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let ok = rgba.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width * 4), nil)
        }
        // png_image_finish_read frees libpng's state on success and on failure.
        guard ok != 0 else {
            let message = Self.message(of: &image)
            png_image_free(&image)
            throw .decodingFailed(message)
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0 ..< width * height {
            rgb[3 * i] = rgba[4 * i]
            rgb[3 * i + 1] = rgba[4 * i + 1]
            rgb[3 * i + 2] = rgba[4 * i + 2]
        }
        return RGBImage(width: width, height: height, pixels: rgb)
    }

    /// 16-bit interlaced files, through libpng's 16-bit *linear* output.
    ///
    /// libpng 1.6.39's simplified API returns wrong values when it reduces interlaced
    /// 16-bit data to 8 bits (non-interlaced is right). Its 16-bit linear output is right,
    /// and untagged 16-bit data is taken as linear, so the samples come back unchanged —
    /// but premultiplied by alpha, as linear formats always are. We divide alpha back out
    /// (`c = c' * 65535 / a`, exact for opaque pixels, approximate for translucent ones,
    /// black where `a = 0`) and reduce to 8 bits as `round(c / 257)`. A gamma-tagged file
    /// takes this path too and then yields linear-light values.
    private static func decodeInterlaced16(_ raw: UnsafeRawBufferPointer, header: PNGHeader) throws(ImageError)
        -> RGBImage
    {
        guard let base = raw.baseAddress else { throw .notPNG }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, base, raw.count) != 0 else {
            let message = Self.message(of: &image)
            png_image_free(&image)
            throw .decodingFailed(message)
        }
        image.format = png_uint_32(PNG_FORMAT_FLAG_LINEAR | PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let width = header.width, height = header.height
        var rgba = [UInt16](repeating: 0, count: width * height * 4)
        // The row stride of 16-bit formats counts components, not bytes.
        let ok = rgba.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width * 4), nil)
        }
        guard ok != 0 else {
            let message = Self.message(of: &image)
            png_image_free(&image)
            throw .decodingFailed(message)
        }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for i in 0 ..< width * height {
            let a = UInt32(rgba[4 * i + 3])
            for c in 0 ..< 3 {
                guard a > 0 else { continue }
                let straight = min(65535, (UInt32(rgba[4 * i + c]) * 65535 + a / 2) / a)
                rgb[3 * i + c] = UInt8((straight * 255 + 32767) / 65535)
            }
        }
        return RGBImage(width: width, height: height, pixels: rgb)
    }

    /// Encodes 8-bit RGB pixels as a PNG (non-interlaced, no gamma chunk beyond what
    /// libpng writes for 8-bit sRGB data).
    static func encodeRGB(_ image: RGBImage) throws(ImageError) -> Data {
        var png = png_image()
        png.version = png_uint_32(PNG_IMAGE_VERSION)
        png.width = png_uint_32(image.width)
        png.height = png_uint_32(image.height)
        png.format = png_uint_32(PNG_FORMAT_RGB)
        let stride = png_int_32(image.width * 3)
        var size = 0
        let sized = image.pixels.withUnsafeBytes { pixels in
            png_image_write_to_memory(&png, nil, &size, 0, pixels.baseAddress, stride, nil)
        }
        guard sized != 0, size > 0 else {
            let message = Self.message(of: &png)
            png_image_free(&png)
            throw .encodingFailed(message)
        }
        var out = [UInt8](repeating: 0, count: size)
        let written = out.withUnsafeMutableBytes { buffer in
            image.pixels.withUnsafeBytes { pixels in
                png_image_write_to_memory(&png, buffer.baseAddress, &size, 0, pixels.baseAddress, stride, nil)
            }
        }
        guard written != 0 else {
            let message = Self.message(of: &png)
            png_image_free(&png)
            throw .encodingFailed(message)
        }
        return Data(out.prefix(size))
    }

    /// The NUL-terminated `message` field of a `png_image`.
    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            let text = String(decoding: bytes, as: UTF8.self)
            return text.isEmpty ? "unknown libpng error" : text
        }
    }
}
