/// The 256-entry table behind TFLite's int16 LOGISTIC and TANH: entry `j` is
/// `σ(j/24)` in unsigned Q0.16 (`σ(x) = 1/(1 + e^-x)`), from `σ(0) = 32768` to 65535.
///
/// The entries are stored data, not a formula: 212 are `σ(j/24)·2^16` rounded to
/// nearest and 44 are one above it, and bit-exactness needs them all.
/// They were read off LiteRT's reference kernel (its int16 TANH at input scales that put
/// the interpolation weight at zero on every node), and every int16 input code at a
/// dozen scales then reproduced its outputs (spec/ops-math.md, "int16 LOGISTIC and TANH").
public enum SigmoidTableQ16 {
    /// `σ(j/24)·2^16`, j = 0 … 255.
    public static let entries: [UInt16] = [
        32768, 33451, 34133, 34813, 35493, 36169, 36843, 37513, 38180, 38841, 39498, 40149,
        40794, 41432, 42064, 42688, 43304, 43912, 44511, 45102, 45683, 46255, 46817, 47369,
        47911, 48443, 48964, 49475, 49975, 50464, 50942, 51409, 51865, 52311, 52745, 53169,
        53581, 53983, 54374, 54755, 55125, 55485, 55834, 56174, 56503, 56823, 57133, 57433,
        57724, 58007, 58280, 58544, 58800, 59048, 59288, 59519, 59743, 59959, 60168, 60370,
        60565, 60753, 60935, 61110, 61279, 61441, 61599, 61750, 61896, 62036, 62172, 62302,
        62428, 62549, 62666, 62778, 62886, 62990, 63090, 63186, 63279, 63368, 63454, 63536,
        63615, 63691, 63765, 63835, 63903, 63968, 64030, 64090, 64148, 64204, 64257, 64308,
        64357, 64405, 64450, 64494, 64536, 64576, 64614, 64652, 64687, 64721, 64754, 64786,
        64816, 64845, 64873, 64900, 64926, 64950, 64974, 64997, 65019, 65039, 65060, 65079,
        65097, 65115, 65132, 65149, 65164, 65179, 65194, 65208, 65221, 65234, 65246, 65258,
        65269, 65280, 65291, 65301, 65310, 65319, 65328, 65337, 65345, 65352, 65360, 65367,
        65374, 65381, 65387, 65393, 65399, 65404, 65410, 65415, 65420, 65425, 65429, 65433,
        65438, 65442, 65445, 65449, 65453, 65456, 65459, 65462, 65465, 65468, 65471, 65474,
        65476, 65479, 65481, 65483, 65485, 65488, 65489, 65491, 65493, 65495, 65497, 65498,
        65500, 65501, 65503, 65504, 65505, 65507, 65508, 65509, 65510, 65511, 65512, 65513,
        65514, 65515, 65516, 65517, 65517, 65518, 65519, 65520, 65520, 65521, 65522, 65522,
        65523, 65523, 65524, 65524, 65525, 65525, 65526, 65526, 65526, 65527, 65527, 65528,
        65528, 65528, 65529, 65529, 65529, 65529, 65530, 65530, 65530, 65530, 65531, 65531,
        65531, 65531, 65531, 65532, 65532, 65532, 65532, 65532, 65532, 65533, 65533, 65533,
        65533, 65533, 65533, 65533, 65533, 65534, 65534, 65534, 65534, 65534, 65534, 65534,
        65534, 65534, 65534, 65535,
    ]

    /// The nodes a kernel interpolates between, packed `node | slope << 16` with
    /// `slope = entries[j + 1] − entries[j]` (never negative) for j = 0 … 254. Entry 255
    /// is `saturation` with slope 0: the kernels clamp the node index to 255, so inputs
    /// past the table read exactly the value the reference saturates to.
    public static func nodes(saturation: UInt16) -> [UInt32] {
        (0 ..< 256).map { j in
            j == 255 ? UInt32(saturation) : UInt32(entries[j]) | UInt32(entries[j + 1] - entries[j]) << 16
        }
    }

    /// TANH's nodes: it saturates to `0xFFFF · 2^8`, the last node itself.
    public static let tanhNodes = nodes(saturation: 0xFFFF)
    /// LOGISTIC's nodes: it saturates to `0x7FFF · 2^10 = 0xFFFE · 2^9`.
    public static let logisticNodes = nodes(saturation: 0xFFFE)
}
