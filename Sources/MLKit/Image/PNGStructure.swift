/// The header facts of a PNG file, read and checked in Swift before libpng sees the bytes.
struct PNGHeader: Equatable, Sendable {
    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: Int
    var interlaced: Bool
    /// Whether the file carries gamma or color-space information (gAMA, sRGB or iCCP).
    var hasColorSpace = false
}

/// Structural validation of a PNG byte stream: signature, chunk framing, CRCs, the IHDR
/// fields and the chunk order rules libpng relies on.
///
/// libpng would catch most of these itself, but checking first means a corrupt file is
/// reported with a precise, typed reason (which chunk, which byte) and libpng is only
/// ever handed a well-framed stream of bounded size.
enum PNGStructure {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Valid (bit depth, color type) pairs from the PNG specification.
    static let allowedDepths: [Int: Set<Int>] = [
        0: [1, 2, 4, 8, 16], // gray
        2: [8, 16], // RGB
        3: [1, 2, 4, 8], // palette
        4: [8, 16], // gray + alpha
        6: [8, 16], // RGBA
    ]

    /// Validates `bytes` and returns its header.
    ///
    /// Rules: the signature; every chunk has a 4-byte big-endian length ≤ 2^31-1, a type of
    /// four ASCII letters, its data and a matching CRC-32 (over type and data), all within
    /// the buffer; IHDR comes first with length 13 and legal fields; a PLTE precedes the
    /// IDATs of a palette image; at least one IDAT, holding enough compressed bytes for the
    /// image's size (``maximumInflationRatio``); IEND ends the stream (bytes after it
    /// are ignored, as libpng does).
    static func validate(_ bytes: UnsafeRawBufferPointer) throws(ImageError) -> PNGHeader {
        guard bytes.count >= 8 else {
            // A proper prefix of the signature is a truncated PNG, anything else is not one.
            if bytes.count > 0, zip(bytes, signature).allSatisfy({ $0 == $1 }) { throw .truncated(offset: 0) }
            throw .notPNG
        }
        guard zip(bytes.prefix(8), signature).allSatisfy({ $0 == $1 }) else { throw .notPNG }
        var offset = 8
        var header: PNGHeader?
        var sawPalette = false, sawData = false, dataEnded = false, sawColorSpace = false
        var dataBytes = 0 // sum of IDAT lengths: each ≤ 2^31-1 and inside the buffer
        while true {
            guard bytes.count - offset >= 8 else { throw .truncated(offset: offset) }
            let length = Int(readUInt32(bytes, offset))
            guard length <= Int(Int32.max) else {
                throw .malformed("chunk at byte \(offset) declares length \(length)")
            }
            let typeBytes = Array(bytes[(offset + 4) ..< (offset + 8)])
            guard typeBytes.allSatisfy({ (0x41 ... 0x5A).contains($0) || (0x61 ... 0x7A).contains($0) }) else {
                throw .malformed("chunk at byte \(offset) has an invalid type")
            }
            let type = String(decoding: typeBytes, as: UTF8.self)
            // length + 12 cannot overflow: length ≤ 2^31-1.
            guard bytes.count - offset >= length + 12 else { throw .truncated(offset: offset) }
            let stored = readUInt32(bytes, offset + 8 + length)
            let computed = CRC32.checksum(
                UnsafeRawBufferPointer(rebasing: bytes[(offset + 4) ..< (offset + 8 + length)]))
            guard stored == computed else { throw .badCRC(chunk: type, offset: offset) }

            if header == nil {
                guard type == "IHDR" else { throw .malformed("the first chunk is \(type), not IHDR") }
                guard length == 13 else { throw .malformed("IHDR has length \(length), not 13") }
                header = try parseHeader(bytes, at: offset + 8)
            } else {
                switch type {
                case "IHDR": throw .malformed("a second IHDR chunk at byte \(offset)")
                case "PLTE":
                    guard !sawData else { throw .malformed("PLTE after IDAT") }
                    guard length > 0, length % 3 == 0, length / 3 <= 256 else {
                        throw .malformed("PLTE has length \(length)")
                    }
                    sawPalette = true
                case "IDAT":
                    guard !dataEnded else { throw .malformed("IDAT chunks are not consecutive") }
                    if header?.colorType == 3, !sawPalette {
                        throw .malformed("palette image without PLTE before IDAT")
                    }
                    sawData = true
                    dataBytes += length
                case "IEND":
                    guard sawData else { throw .malformed("no IDAT chunk") }
                    guard var header else { throw .malformed("no IHDR chunk") }
                    try checkDataSuffices(dataBytes, for: header)
                    header.hasColorSpace = sawColorSpace
                    return header
                default:
                    if sawData { dataEnded = true }
                    if ["gAMA", "sRGB", "iCCP"].contains(type) { sawColorSpace = true }
                    // An unknown critical chunk (uppercase first letter) cannot be skipped.
                    if typeBytes[0] < 0x61, !["PLTE", "IDAT", "IEND"].contains(type) {
                        throw .malformed("unknown critical chunk \(type)")
                    }
                }
            }
            offset += length + 12
        }
    }

    /// The most bytes one compressed byte of a zlib stream can inflate to. A deflate match
    /// (at most 258 bytes) costs at least 2 bits — a length code and a distance code of at
    /// least 1 bit each — so `n` bytes inflate to at most `1032 * n` bytes (plus the first
    /// literal).
    static let maximumInflationRatio = 1032

    /// Throws unless `dataBytes` compressed bytes can hold the image's samples: every pixel's
    /// bits are in the inflated stream (interlaced or not, besides the filter bytes), so a
    /// stream too short to inflate to them cannot decode. Checked before any pixel memory is
    /// allocated: a 60-byte file declaring 8192 x 8192 pixels would otherwise cost 256 MB
    /// (512 MB for 16-bit interlaced) before libpng ran out of data.
    private static func checkDataSuffices(_ dataBytes: Int, for header: PNGHeader) throws(ImageError) {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][header.colorType] ?? 4
        // ≤ 2^26 pixels x 4 channels x 16 bits: no overflow.
        let sampleBytes = (header.width * header.height * channels * header.bitDepth + 7) / 8
        let inflatable = dataBytes * maximumInflationRatio + maximumInflationRatio
        guard sampleBytes <= inflatable else {
            throw .malformed(
                "the IDAT chunks hold \(dataBytes) bytes, too few for the \(sampleBytes) bytes of a \(header.width)x\(header.height) image"
            )
        }
    }

    private static func parseHeader(_ bytes: UnsafeRawBufferPointer, at p: Int) throws(ImageError) -> PNGHeader {
        let width = Int(readUInt32(bytes, p)), height = Int(readUInt32(bytes, p + 4))
        let depth = Int(bytes[p + 8]), color = Int(bytes[p + 9])
        try ImageLimits.check(width: width, height: height)
        guard let depths = allowedDepths[color] else { throw .malformed("IHDR color type \(color) is invalid") }
        guard depths.contains(depth) else {
            throw .malformed("IHDR bit depth \(depth) is invalid for color type \(color)")
        }
        guard bytes[p + 10] == 0 else { throw .malformed("IHDR compression method \(bytes[p + 10]) is invalid") }
        guard bytes[p + 11] == 0 else { throw .malformed("IHDR filter method \(bytes[p + 11]) is invalid") }
        guard bytes[p + 12] <= 1 else { throw .malformed("IHDR interlace method \(bytes[p + 12]) is invalid") }
        return PNGHeader(
            width: width, height: height, bitDepth: depth, colorType: color, interlaced: bytes[p + 12] == 1)
    }

    /// An `sRGB` chunk (rendering intent 0), to insert after IHDR in files without color
    /// information: see ``PNGCodec/decodeRGB(_:)``.
    static let sRGBChunk: [UInt8] = {
        let body: [UInt8] = Array("sRGB".utf8) + [0]
        let crc = body.withUnsafeBytes { CRC32.checksum($0) }
        return [0, 0, 0, 1] + body + [
            UInt8(crc >> 24), UInt8((crc >> 16) & 0xFF), UInt8((crc >> 8) & 0xFF), UInt8(crc & 0xFF),
        ]
    }()

    /// Byte offset just past the IHDR chunk (signature 8 + IHDR 25).
    static let endOfHeader = 33

    static func readUInt32(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        (UInt32(bytes[offset]) << 24) | (UInt32(bytes[offset + 1]) << 16) | (UInt32(bytes[offset + 2]) << 8)
            | UInt32(bytes[offset + 3])
    }
}

/// CRC-32 (ISO 3309, the reflected polynomial 0xEDB88320) as PNG chunks use it.
enum CRC32 {
    static let table: [UInt32] = (0 ..< 256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0 ..< 8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}
