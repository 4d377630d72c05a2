import Microkernels
import SeededRandom
import Testing

#if arch(x86_64)
import MicrokernelsAVX2

/// The multipliers TFLite derives for 8-bit ADD, SUB, MUL and SQUARED_DIFFERENCE from the
/// three scales, as `(mantissa, exponent)` pairs for A, B and the output.
private func multipliers(
    _ op: BinaryQ8AVX2Parameters.Operation, sa: Double, sb: Double, sy: Double
) -> (ma: (Int32, Int), mb: (Int32, Int), my: (Int32, Int)) {
    let twiceMax = 2 * max(sa, sb)
    let ma = ReferenceFixedPoint.quantize(sa / twiceMax), mb = ReferenceFixedPoint.quantize(sb / twiceMax)
    switch op {
    case .multiply: return (ma, mb, ReferenceFixedPoint.quantize(sa * sb / sy))
    case .squaredDifference: return (ma, mb, ReferenceFixedPoint.quantize(twiceMax * twiceMax / (16384 * sy)))
    default: return (ma, mb, ReferenceFixedPoint.quantize(twiceMax / (1_048_576 * sy)))
    }
}

/// `binaryQ8RowsAVX2` against the per-element reference for the broadcast shapes it takes:
/// a per-row vector (`rowB = 0`), one code a row (`strideB = 0`) on either side, and
/// contiguous rows; every column count from 1 to 70 (each tail of a 32-code block), both
/// code types, extreme zero points and clamps, and the scale ratios of residual ADDs and
/// SUBs (equal input scales, output scale 1, 2 or 4 times theirs: every step exact but the
/// last, the `vpmaddwd` lanes) beside random ones.
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2"))
func binaryQ8RowsAVX2MatchesTheReferenceForEveryTail() {
    var rng = SplitMix64(seed: 61)
    let operations: [BinaryQ8AVX2Parameters.Operation] = [.add, .subtract, .multiply, .squaredDifference]
    for trial in 0 ..< 48 {
        let op = operations[trial % 4], signed = (trial / 4) % 2 == 0
        let range = codes(signed: signed)
        let extreme = trial % 3 == 0
        let za = extreme ? range.lowerBound : Int32.random(in: range, using: &rng)
        let zb = extreme ? range.upperBound : Int32.random(in: range, using: &rng)
        let zy = trial % 6 == 1 ? range.upperBound : Int32.random(in: range, using: &rng)
        let sa = Double.random(in: 0.001 ... 0.1, using: &rng)
        let exactRatio = (trial / 8) % 2 == 0
        let sb = exactRatio ? sa : Double.random(in: 0.001 ... 0.1, using: &rng)
        let sy =
            exactRatio && op != .squaredDifference
            ? sa * [1, 2, 4][trial % 3]
            : Double.random(in: 0.002 ... 0.2, using: &rng)
                * (op == .squaredDifference ? 0.05 : 1)
        let (ma, mb, my) = multipliers(op, sa: sa, sb: sb, sy: sy)
        let lower = trial % 5 == 0 ? range.lowerBound + 20 : range.lowerBound
        let upper = trial % 7 == 0 ? range.upperBound - 9 : range.upperBound
        guard
            let p = BinaryQ8AVX2Parameters(
                operation: op, signed: signed, zeroA: za, mantissaA: ma.0, exponentA: ma.1, zeroB: zb,
                mantissaB: mb.0, exponentB: mb.1, mantissaY: my.0, exponentY: my.1, zeroY: zy, lower: lower,
                upper: upper)
        else {
            // MUL's multiplier can exceed the range the kernel takes; the runtime then stays scalar.
            #expect(op == .multiply || op == .squaredDifference, "parameters refused: \(op) \(my)")
            continue
        }
        func code(_ x: UInt8) -> Int32 { signed ? Int32(Int8(bitPattern: x)) : Int32(x) }
        func want(_ x: UInt8, _ y: UInt8) -> UInt8 {
            UInt8(
                truncatingIfNeeded: referenceBinary(
                    op, code(x), code(y), za: za, zb: zb, zy: zy, ma: ma, mb: mb, my: my, lower: lower, upper: upper))
        }
        let rows = 3
        for columns in 1 ... 70 {
            let a = (0 ..< rows * columns).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            let b = (0 ..< rows * columns).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            // (strideA, rowA, strideB, rowB): contiguous, a vector per row on either side,
            // one code a row on either side.
            let shapes = [
                (1, columns, 1, columns), (1, columns, 1, 0), (1, 0, 1, columns), (1, columns, 0, 1),
                (0, 1, 1, columns),
            ]
            for (strideA, rowA, strideB, rowB) in shapes {
                // One guard byte past the output catches a store beyond the last row.
                var out = [UInt8](repeating: 0xA5, count: rows * columns + 1)
                a.withUnsafeBytes { pa in
                    b.withUnsafeBytes { pb in
                        out.withUnsafeMutableBytes {
                            binaryQ8RowsAVX2(
                                pa.baseAddress!, strideA, rowA, pb.baseAddress!, strideB, rowB, $0.baseAddress!,
                                rows: rows, columns: columns, p)
                        }
                    }
                }
                var wrong = 0
                for r in 0 ..< rows {
                    for c in 0 ..< columns
                    where out[r * columns + c]
                        != want(a[r * rowA + c * strideA], b[r * rowB + c * strideB])
                    {
                        wrong += 1
                    }
                }
                #expect(
                    wrong == 0 && out[rows * columns] == 0xA5,
                    "\(op) signed \(signed) columns \(columns) strides \((strideA, rowA, strideB, rowB)): \(wrong) wrong"
                )
            }
        }
    }
}
#endif

#if arch(x86_64)
/// `binaryF32RowsAVX2` bit for bit against the scalar operation and clamp, for the same
/// broadcast shapes and every column count from 1 to 40, with NaN and infinite inputs.
@Test(.enabled(if: KernelLevel.host >= .avx2, "needs AVX2"))
func binaryF32RowsAVX2MatchesTheScalarOperation() {
    var rng = SplitMix64(seed: 71)
    let operations: [BinaryF32Operation] = [.add, .subtract, .multiply]
    for trial in 0 ..< 6 {
        let op = operations[trial % 3]
        let clamp: (Float, Float)? = trial < 3 ? nil : (-1.5, 6)
        func want(_ x: Float, _ z: Float) -> Float {
            let v: Float
            switch op {
            case .add: v = x + z
            case .subtract: v = x - z
            case .multiply: v = x * z
            }
            guard let (lower, upper) = clamp else { return v }
            let low = v < lower ? lower : v
            return upper < low ? upper : low
        }
        let rows = 3
        for columns in 1 ... 40 {
            func values() -> [Float] {
                (0 ..< rows * columns).map { i in
                    switch i % 29 {
                    case 3: return .nan
                    case 11: return .infinity
                    case 17: return -.infinity
                    default: return Float.random(in: -8 ... 8, using: &rng)
                    }
                }
            }
            let a = values(), b = values()
            let shapes = [
                (1, columns, 1, columns), (1, columns, 1, 0), (1, 0, 1, columns), (1, columns, 0, 1),
                (0, 1, 1, columns),
            ]
            for (strideA, rowA, strideB, rowB) in shapes {
                var out = [Float](repeating: 0, count: rows * columns + 1)
                out[rows * columns] = 12345
                a.withUnsafeBufferPointer { pa in
                    b.withUnsafeBufferPointer { pb in
                        out.withUnsafeMutableBufferPointer {
                            binaryF32RowsAVX2(
                                op, pa.baseAddress!, strideA, rowA, pb.baseAddress!, strideB, rowB, $0.baseAddress!,
                                rows: rows, columns: columns, clamp: clamp)
                        }
                    }
                }
                var wrong = 0
                for r in 0 ..< rows {
                    for c in 0 ..< columns
                    where out[r * columns + c].bitPattern
                        != want(a[r * rowA + c * strideA], b[r * rowB + c * strideB]).bitPattern
                    {
                        wrong += 1
                    }
                }
                #expect(
                    wrong == 0 && out[rows * columns] == 12345,
                    "\(op) columns \(columns) strides \((strideA, rowA, strideB, rowB)): \(wrong) wrong")
            }
        }
    }
}
#endif
