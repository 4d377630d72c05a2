/// A 5x7 pixel font for annotation labels: digits, uppercase letters (lowercase is drawn
/// uppercase) and a little punctuation; other characters draw as a hollow box.
///
/// Each glyph is seven rows, top to bottom; in each row bit 4 is the leftmost pixel.
enum BitmapFont {
    static let glyphWidth = 5
    static let glyphHeight = 7
    /// Horizontal distance between glyph origins (one blank column).
    static let advance = 6

    static let unknown: [UInt8] = [0b11111, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b11111]

    static let glyphs: [Character: [UInt8]] = [
        "0": [0b01110, 0b10001, 0b10011, 0b10101, 0b11001, 0b10001, 0b01110],
        "1": [0b00100, 0b01100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        "2": [0b01110, 0b10001, 0b00001, 0b00010, 0b00100, 0b01000, 0b11111],
        "3": [0b11110, 0b00001, 0b00001, 0b01110, 0b00001, 0b00001, 0b11110],
        "4": [0b00010, 0b00110, 0b01010, 0b10010, 0b11111, 0b00010, 0b00010],
        "5": [0b11111, 0b10000, 0b11110, 0b00001, 0b00001, 0b10001, 0b01110],
        "6": [0b00110, 0b01000, 0b10000, 0b11110, 0b10001, 0b10001, 0b01110],
        "7": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b01000, 0b01000],
        "8": [0b01110, 0b10001, 0b10001, 0b01110, 0b10001, 0b10001, 0b01110],
        "9": [0b01110, 0b10001, 0b10001, 0b01111, 0b00001, 0b00010, 0b01100],
        "A": [0b01110, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
        "B": [0b11110, 0b10001, 0b10001, 0b11110, 0b10001, 0b10001, 0b11110],
        "C": [0b01110, 0b10001, 0b10000, 0b10000, 0b10000, 0b10001, 0b01110],
        "D": [0b11100, 0b10010, 0b10001, 0b10001, 0b10001, 0b10010, 0b11100],
        "E": [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b11111],
        "F": [0b11111, 0b10000, 0b10000, 0b11110, 0b10000, 0b10000, 0b10000],
        "G": [0b01110, 0b10001, 0b10000, 0b10111, 0b10001, 0b10001, 0b01111],
        "H": [0b10001, 0b10001, 0b10001, 0b11111, 0b10001, 0b10001, 0b10001],
        "I": [0b01110, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b01110],
        "J": [0b00111, 0b00010, 0b00010, 0b00010, 0b00010, 0b10010, 0b01100],
        "K": [0b10001, 0b10010, 0b10100, 0b11000, 0b10100, 0b10010, 0b10001],
        "L": [0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b10000, 0b11111],
        "M": [0b10001, 0b11011, 0b10101, 0b10101, 0b10001, 0b10001, 0b10001],
        "N": [0b10001, 0b10001, 0b11001, 0b10101, 0b10011, 0b10001, 0b10001],
        "O": [0b01110, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
        "P": [0b11110, 0b10001, 0b10001, 0b11110, 0b10000, 0b10000, 0b10000],
        "Q": [0b01110, 0b10001, 0b10001, 0b10001, 0b10101, 0b10010, 0b01101],
        "R": [0b11110, 0b10001, 0b10001, 0b11110, 0b10100, 0b10010, 0b10001],
        "S": [0b01111, 0b10000, 0b10000, 0b01110, 0b00001, 0b00001, 0b11110],
        "T": [0b11111, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100, 0b00100],
        "U": [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01110],
        "V": [0b10001, 0b10001, 0b10001, 0b10001, 0b10001, 0b01010, 0b00100],
        "W": [0b10001, 0b10001, 0b10001, 0b10101, 0b10101, 0b10101, 0b01010],
        "X": [0b10001, 0b10001, 0b01010, 0b00100, 0b01010, 0b10001, 0b10001],
        "Y": [0b10001, 0b10001, 0b01010, 0b00100, 0b00100, 0b00100, 0b00100],
        "Z": [0b11111, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0b11111],
        " ": [0, 0, 0, 0, 0, 0, 0],
        ".": [0, 0, 0, 0, 0, 0b01100, 0b01100],
        ",": [0, 0, 0, 0, 0b01100, 0b00100, 0b01000],
        ":": [0, 0b01100, 0b01100, 0, 0b01100, 0b01100, 0],
        "-": [0, 0, 0, 0b11111, 0, 0, 0],
        "_": [0, 0, 0, 0, 0, 0, 0b11111],
        "%": [0b11000, 0b11001, 0b00010, 0b00100, 0b01000, 0b10011, 0b00011],
        "/": [0, 0b00001, 0b00010, 0b00100, 0b01000, 0b10000, 0],
        "(": [0b00010, 0b00100, 0b01000, 0b01000, 0b01000, 0b00100, 0b00010],
        ")": [0b01000, 0b00100, 0b00010, 0b00010, 0b00010, 0b00100, 0b01000],
        "#": [0b01010, 0b01010, 0b11111, 0b01010, 0b11111, 0b01010, 0b01010],
    ]

    /// The rows of `character`'s glyph.
    static func glyph(_ character: Character) -> [UInt8] {
        let upper = Character(character.uppercased())
        return glyphs[upper] ?? glyphs[character] ?? unknown
    }

    /// Width in pixels of `text` drawn at `scale`.
    static func width(of text: String, scale: Int) -> Int {
        text.isEmpty ? 0 : (text.count * advance - 1) * scale
    }
}

/// Drawing on an ``RGBImage``; everything clips to the image.
extension RGBImage {
    typealias Color = (UInt8, UInt8, UInt8)

    /// Fills the rectangle `[x0, x1) x [y0, y1)`.
    mutating func fill(x0: Int, y0: Int, x1: Int, y1: Int, _ color: Color) {
        let left = max(x0, 0), right = min(x1, width), top = max(y0, 0), bottom = min(y1, height)
        guard left < right, top < bottom else { return }
        for y in top ..< bottom { for x in left ..< right { setPixel(x, y, color) } }
    }

    /// Strokes the outline of `[x0, x1) x [y0, y1)` with lines `thickness` pixels wide,
    /// drawn inside the rectangle.
    mutating func strokeRect(x0: Int, y0: Int, x1: Int, y1: Int, thickness: Int, _ color: Color) {
        let t = max(1, thickness)
        fill(x0: x0, y0: y0, x1: x1, y1: min(y0 + t, y1), color)
        fill(x0: x0, y0: max(y1 - t, y0), x1: x1, y1: y1, color)
        fill(x0: x0, y0: y0, x1: min(x0 + t, x1), y1: y1, color)
        fill(x0: max(x1 - t, x0), y0: y0, x1: x1, y1: y1, color)
    }

    /// Draws `text` with its top-left corner at `(x, y)`, each font pixel `scale` x `scale`.
    mutating func drawText(_ text: String, x: Int, y: Int, scale: Int, _ color: Color) {
        var originX = x
        for character in text {
            let rows = BitmapFont.glyph(character)
            for (row, bits) in rows.enumerated() {
                for column in 0 ..< BitmapFont.glyphWidth where bits & (0b10000 >> UInt8(column)) != 0 {
                    fill(
                        x0: originX + column * scale, y0: y + row * scale,
                        x1: originX + (column + 1) * scale, y1: y + (row + 1) * scale, color)
                }
            }
            originX += BitmapFont.advance * scale
        }
    }
}
