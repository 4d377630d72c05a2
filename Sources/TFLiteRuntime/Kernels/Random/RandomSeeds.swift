import TFLiteModel

/// The generator state of one random operator: created at prepare from the operator's
/// seeds and advanced by every invoke, so consecutive invokes give new numbers and a new
/// prepare (allocate) starts the sequence again, as in TFLite.
final class PhiloxStream: @unchecked Sendable {
    // Only `eval` touches the state, and an engine runs one invoke at a time.
    var generator: Philox4x32

    init(_ generator: Philox4x32) { self.generator = generator }

    /// TFLite's seeding of RANDOM_UNIFORM, RANDOM_STANDARD_NORMAL and MULTINOMIAL: the key
    /// from `seed` and the counter's upper half from `seed2`; when both are 0 the two seeds
    /// are drawn from the system's random source instead, so such an operator gives
    /// different numbers in every prepared engine (spec/random.md).
    static func seeded(_ options: BuiltinOptions) throws(KernelError) -> PhiloxStream {
        var seed: Int64 = 0, seed2: Int64 = 0
        switch options {
        case .random(let s, let s2): (seed, seed2) = (s, s2)
        case .none: break
        default: throw .invalid("unexpected options \(options)")
        }
        if seed == 0 && seed2 == 0 {
            var system = SystemRandomNumberGenerator()
            seed = Int64(bitPattern: system.next())
            seed2 = Int64(bitPattern: system.next())
        }
        return PhiloxStream(Philox4x32(seed: UInt64(bitPattern: seed), seed2: UInt64(bitPattern: seed2)))
    }
}

/// Reads a shape vector (int32 or int64 values, each ≥ 0) from a constant or run-time tensor.
func readShapeVector(_ raw: UnsafeRawPointer, count: Int, wide: Bool) throws(KernelError) -> [Int] {
    var shape: [Int] = []
    shape.reserveCapacity(count)
    for i in 0 ..< count {
        let v =
            wide
            ? Int(raw.load(fromByteOffset: 8 * i, as: Int64.self))
            : Int(raw.load(fromByteOffset: 4 * i, as: Int32.self))
        guard v >= 0 else { throw .invalid("shape value \(v) at \(i) is negative") }
        shape.append(v)
    }
    guard Shape.elementCount(shape) != nil else { throw .invalid("shape \(shape) is too large") }
    return shape
}
