/// ``LSTMInt16Math``'s logistic and tanh of every 16-bit code, each table built once per
/// process when an integer LSTM first needs it (65536 evaluations, a few milliseconds;
/// 128 KiB). A gate then costs one load per element instead of some thirty fixed-point
/// multiplies, and the tables equal the functions by construction.
enum LSTMInt16Tables {
    static let logisticQ3 = table { LSTMInt16Math.logistic($0, integerBits: 3) }
    static let tanhQ0 = table { LSTMInt16Math.tanh($0, integerBits: 0) }
    static let tanhQ1 = table { LSTMInt16Math.tanh($0, integerBits: 1) }
    static let tanhQ2 = table { LSTMInt16Math.tanh($0, integerBits: 2) }
    static let tanhQ3 = table { LSTMInt16Math.tanh($0, integerBits: 3) }
    static let tanhQ4 = table { LSTMInt16Math.tanh($0, integerBits: 4) }
    static let tanhQ5 = table { LSTMInt16Math.tanh($0, integerBits: 5) }
    static let tanhQ6 = table { LSTMInt16Math.tanh($0, integerBits: 6) }

    /// The tanh table for `bits` integer bits (0 ... 6), nil otherwise.
    static func tanh(integerBits bits: Int32) -> [Int16]? {
        switch bits {
        case 0: return tanhQ0
        case 1: return tanhQ1
        case 2: return tanhQ2
        case 3: return tanhQ3
        case 4: return tanhQ4
        case 5: return tanhQ5
        case 6: return tanhQ6
        default: return nil
        }
    }

    /// Entry `UInt16(bitPattern: x)` holds `f(x)`.
    private static func table(_ f: (Int32) -> Int32) -> [Int16] {
        (0 ..< 65536).map { Int16(truncatingIfNeeded: f(Int32(Int16(truncatingIfNeeded: $0)))) }
    }

    /// `x[i] = table[x[i]]` for `count` codes.
    @inline(__always)
    static func apply(_ table: UnsafeBufferPointer<Int16>, _ x: UnsafeMutablePointer<Int16>, count: Int) {
        guard let t = table.baseAddress, table.count == 65536 else { return }
        for i in 0 ..< count { x[i] = t[Int(UInt16(bitPattern: x[i]))] }
    }
}
