import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Integer and quantized paths of the folds: quantized REDUCE_PROD's per-step rescaling,
/// the wrapping products of unquantized integers and REDUCE_MAX over integer codes. The
/// conformance corpus checks the quantized product bit for bit against LiteRT; these pin
/// hand-computed values, the prepare errors and the cases LiteRT leaves undefined.
@Suite struct ReduceFoldIntegerTests {
    static func q(_ scale: Float, _ zeroPoint: Int64) -> Quantization {
        Quantization(scales: [scale], zeroPoints: [zeroPoint])
    }

    func run<T>(
        _ code: BuiltinOperator, _ x: [T], shape: [Int], axes: [Int32], type: ElementType,
        input qx: Quantization? = nil, output qy: Quantization? = nil, keepDims: Bool = false, threads: Int = 1
    ) throws -> (shape: [Int], values: [T]) {
        var g = GraphBuilder()
        let input = g.input(shape, type, quantization: qx)
        let a = g.constant(axes, shape: [axes.count])
        let y = g.tensor([], type, quantization: qy)
        g.op(code, inputs: [input, a], outputs: [y], options: .reducer(keepDims: keepDims))
        g.output(y)
        let engine = try g.engine(threads: threads)
        try engine.allocate()
        try engine.setInput(0, x)
        try engine.invoke()
        return (engine.outputShape(0), try engine.output(0, as: T.self))
    }

    /// Quantized MEAN sums whole rows of up to 256 outputs at once when the reduced axis is
    /// in the middle, and one contiguous row per output when it is last. Reducing axis 1 of
    /// `[3, 5, 300]` and the last axis of its transpose `[3, 300, 5]` must agree code for
    /// code (the sums are the same integers), at 1 and 2 threads, for rows wider than one
    /// block.
    @Test(arguments: [1, 2])
    func quantizedMeanAgreesAcrossLayouts(threads: Int) throws {
        let (outer, reduced, inner) = (3, 5, 300)
        var state: UInt32 = 12345
        let x: [Int8] = (0 ..< outer * reduced * inner).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int8(truncatingIfNeeded: state >> 24)
        }
        var transposed = [Int8](repeating: 0, count: x.count)
        for o in 0 ..< outer {
            for r in 0 ..< reduced {
                for i in 0 ..< inner { transposed[(o * inner + i) * reduced + r] = x[(o * reduced + r) * inner + i] }
            }
        }
        let (qx, qy) = (Self.q(0.05, 3), Self.q(0.02, -7))
        let middle = try run(
            .mean, x, shape: [outer, reduced, inner], axes: [1], type: .int8, input: qx, output: qy, threads: threads)
        let last = try run(
            .mean, transposed, shape: [outer, inner, reduced], axes: [2], type: .int8, input: qx, output: qy,
            threads: threads)
        #expect(middle.shape == [outer, inner] && last.shape == [outer, inner])
        #expect(middle.values == last.values)
        #expect(Set(middle.values).count > 20)
    }

    @Test func quantizedProductRescalesEveryStep() throws {
        // s_x / √s_y = 1: the multiplier is 2^30·2^1, its 16-bit form 2^14 with a shift of 14.
        // Rows (2, 3) and (−1.5, 2): products 6 and −3, in steps of 0.25.
        let x: [Int8] = [14, 16, 7, 14]
        let r = try run(
            .reduceProd, x, shape: [2, 2], axes: [1], type: .int8, input: Self.q(0.5, 10), output: Self.q(0.25, -5))
        #expect(r.shape == [2])
        #expect(r.values == [24 - 5, -12 - 5])
        // Saturates at the type's bounds.
        let big = try run(
            .reduceProd, [127, 127, -128, 127] as [Int8], shape: [2, 2], axes: [-1], type: .int8,
            input: Self.q(0.5, 0), output: Self.q(0.25, 0), keepDims: true)
        #expect(big.shape == [2, 1])
        #expect(big.values == [127, -128])
    }

    @Test func quantizedRescaleRoundsTiesTowardPositiveInfinity() throws {
        // One element per output: y = R(x) with multiplier 1/2, so every odd code is a tie.
        let x: [Int8] = [-3, 3, -1, 1, 5, -128]
        let r = try run(
            .reduceProd, x, shape: [6, 1], axes: [1], type: .int8, input: Self.q(0.5, 0), output: Self.q(1, 0))
        #expect(r.values == [-1, 2, 0, 1, 3, -64])
    }

    @Test func int16ProductNeedsZeroPointsZero() throws {
        let r = try run(
            .reduceProd, [400, -300, 2, 1000] as [Int16], shape: [2, 2], axes: [0], type: .int16,
            input: Self.q(0.01, 0), output: Self.q(0.01, 0))
        // s_x / √s_y = 0.1 per step: (4 · 0.02) and (−3 · 10), over 0.01.
        #expect(r.values == [8, -3000])
        let error = errorDescription {
            _ = try run(
                .reduceProd, [1, 2] as [Int16], shape: [2], axes: [0], type: .int16, input: Self.q(0.01, 3),
                output: Self.q(0.01, 0))
        }
        #expect(
            error == "operator 0 (REDUCE_PROD): int16 REDUCE_PROD needs zero points 0, found input 3 and output 0")
    }

    @Test func quantizedProductPrepareErrors() throws {
        let uint8 = errorDescription {
            _ = try run(
                .reduceProd, [1, 2] as [UInt8], shape: [2], axes: [0], type: .uint8, input: Self.q(0.5, 128),
                output: Self.q(0.5, 128))
        }
        #expect(uint8 == "operator 0 (REDUCE_PROD) does not support the types inputs (UINT8, INT32) -> outputs (UINT8)")
        let hugeScale = errorDescription {
            _ = try run(
                .reduceProd, [1, 2] as [Int8], shape: [2], axes: [0], type: .int8, input: Self.q(1e6, 0),
                output: Self.q(1e-3, 0))
        }
        #expect(
            hugeScale
                == "operator 0 (REDUCE_PROD): input scale 1000000.0 is too large for output scale 0.001 over 2 elements"
        )
        let unquantizedOutput = errorDescription {
            _ = try run(.reduceProd, [1, 2] as [Int8], shape: [2], axes: [0], type: .int8, input: Self.q(0.5, 0))
        }
        #expect(unquantizedOutput == "operator 0 (REDUCE_PROD): output (tensor 2, INT8) has no quantization parameters")
    }

    @Test func emptyQuantizedProductIsTheCodeOfOne() throws {
        let r = try run(
            .reduceProd, [] as [Int8], shape: [0, 3], axes: [0], type: .int8, input: Self.q(0.5, 0),
            output: Self.q(0.25, -5))
        #expect(r.values == [-1, -1, -1])
        let clamped = try run(
            .reduceProd, [] as [Int8], shape: [0, 2], axes: [0], type: .int8, input: Self.q(0.5, 0),
            output: Self.q(0.001, 0))
        #expect(clamped.values == [127, 127])
    }

    @Test func quantizedProductIsIndependentOfThreadCount() throws {
        // Reduced groups alternate with kept ones (the general walk), and the order of
        // the steps matters, so a split that changed it would show. Factors within
        // 1 ± 1/8 keep products of 1200 of them in range.
        let shape = [3, 40, 5, 30]
        let x: [Int8] = (0 ..< shape.reduce(1, *)).map { (i: Int) -> Int8 in
            let hash: Int = (i &* 2_654_435_761) >> 7
            return Int8(56 + hash % 17)
        }
        func product(threads: Int) throws -> [Int8] {
            try run(
                .reduceProd, x, shape: shape, axes: [1, -1], type: .int8, input: Self.q(1.0 / 64, 0),
                output: Self.q(1.0 / 512, -128), threads: threads
            ).values
        }
        let one = try product(threads: 1)
        #expect(one.count == 15)
        #expect(Set(one).count > 3)
        #expect(try product(threads: 4) == one)
    }

    @Test func unquantizedIntegerProductsWrap() throws {
        let i8 = try run(.reduceProd, [100, 3, -7, 1] as [Int8], shape: [2, 2], axes: [1], type: .int8)
        #expect(i8.values == [44, -7])
        let u8 = try run(.reduceProd, [20, 13, 2, 3] as [UInt8], shape: [2, 2], axes: [1], type: .uint8)
        #expect(u8.values == [4, 6])
        let i16 = try run(.reduceProd, [300, 300, -2, 5] as [Int16], shape: [4], axes: [0], type: .int16)
        #expect(i16.values == [Int16(truncatingIfNeeded: 300 * 300 * -2 * 5)])
    }

    @Test func reduceMaxOverIntegerCodes() throws {
        let q = Self.q(0.1, -3)
        let i8 = try run(
            .reduceMax, [-128, 5, 127, -1, 0, -7] as [Int8], shape: [2, 3], axes: [-1], type: .int8, input: q,
            output: q,
            keepDims: true)
        #expect(i8.shape == [2, 1])
        #expect(i8.values == [127, 0])
        let u8 = try run(
            .reduceMax, [0, 200, 17, 255] as [UInt8], shape: [2, 2], axes: [0], type: .uint8, input: Self.q(0.5, 128),
            output: Self.q(0.5, 128))
        #expect(u8.values == [17, 255])
        let i32 = try run(.reduceMax, [Int32.min, -5, -9, 4] as [Int32], shape: [2, 2], axes: [1], type: .int32)
        #expect(i32.values == [-5, 4])
        let i64 = try run(.reduceMax, [Int64.min, 1 << 40, -3, 2] as [Int64], shape: [4], axes: [0], type: .int64)
        #expect(i64.values == [1 << 40])
        // The empty reduction is the type's smallest value, as TFLite's initial value.
        let empty = try run(.reduceMax, [] as [Int8], shape: [0, 2], axes: [0], type: .int8, input: q, output: q)
        #expect(empty.values == [-128, -128])
        let mismatched = errorDescription {
            _ = try run(
                .reduceMax, [1, 2] as [Int8], shape: [2], axes: [0], type: .int8, input: q, output: Self.q(0.2, -3))
        }
        #expect(mismatched?.contains("inputs must be quantized like the output here, as in TFLite") == true)
    }

    /// The folds' last-axis and middle-axis loops against a plain fold of each output's
    /// elements: MIN and MAX of int8 codes and of floats, and the float product (whose
    /// left-to-right order the loops keep), over odd sizes.
    @Test func foldLayoutsMatchAPlainFold() throws {
        var state: UInt32 = 99
        func next() -> UInt32 {
            state = state &* 1_664_525 &+ 1_013_904_223
            return state >> 8
        }
        let (outer, reduced, inner) = (3, 37, 21)
        let codes: [Int8] = (0 ..< outer * reduced * inner).map { _ in Int8(truncatingIfNeeded: next()) }
        let floats: [Float] = (0 ..< outer * reduced * inner).map { _ in Float(Int(next() % 2001) - 1000) / 997 }
        let q = Self.q(0.1, -3)
        // Output (o, i) folds x[o][r][i] over r (axis 1), or x[o][i][r] over r (last axis).
        func expected<T>(_ x: [T], last: Bool, _ initial: T, _ f: (T, T) -> T) -> [T] {
            var out: [T] = []
            for o in 0 ..< outer {
                for i in 0 ..< inner {
                    var acc = initial
                    for r in 0 ..< reduced {
                        acc = f(acc, last ? x[(o * inner + i) * reduced + r] : x[(o * reduced + r) * inner + i])
                    }
                    out.append(acc)
                }
            }
            return out
        }
        for last in [false, true] {
            let shape = last ? [outer, inner, reduced] : [outer, reduced, inner]
            let axes: [Int32] = [last ? 2 : 1]
            let maxCodes = try run(.reduceMax, codes, shape: shape, axes: axes, type: .int8, input: q, output: q)
            #expect(maxCodes.values == expected(codes, last: last, Int8.min) { Swift.max($0, $1) })
            let minCodes = try run(.reduceMin, codes, shape: shape, axes: axes, type: .int8, input: q, output: q)
            #expect(minCodes.values == expected(codes, last: last, Int8.max) { Swift.min($0, $1) })
            let minFloats = try run(.reduceMin, floats, shape: shape, axes: axes, type: .float32)
            #expect(minFloats.values == expected(floats, last: last, Float.infinity) { $0 < $1 ? $0 : $1 })
            let product = try run(.reduceProd, floats, shape: shape, axes: axes, type: .float32)
            #expect(product.values == expected(floats, last: last, Float(1)) { $0 * $1 })
        }
    }

    /// float32 REDUCE_MAX over the last axis keeps eight running maxima; a row holding a NaN
    /// or an infinity is folded left to right instead, so TFLite's rule (`acc > x ? acc : x`,
    /// which keeps the value after the last NaN) still decides it. SUM's partial sums agree
    /// with the left-to-right sum within float rounding.
    @Test func floatLastAxisRowsKeepTheReferenceRule() throws {
        let n = 29
        var rows: [[Float]] = []
        for k in 0 ..< 6 {
            var row = (0 ..< n).map { Float(($0 * 37 + k * 11) % 23) - 11 }
            switch k {
            case 1: row[3] = .nan
            case 2: row[n - 1] = .nan
            case 3: row[20] = .nan; row[21] = -50
            case 4: row[9] = .infinity
            case 5: row[0] = -.infinity
            default: break
            }
            rows.append(row)
        }
        let x = rows.flatMap { $0 }
        let max = try run(.reduceMax, x, shape: [rows.count, n], axes: [1], type: .float32)
        for (k, row) in rows.enumerated() {
            var acc = -Float.greatestFiniteMagnitude
            for v in row { acc = acc > v ? acc : v }
            #expect(max.values[k] == acc || (max.values[k].isNaN && acc.isNaN), "row \(k)")
        }
        let sums = try run(
            .sum, rows.prefix(1).flatMap { $0 } + (0 ..< 1000).map { Float($0) / 7 }, shape: [1029],
            axes: [0], type: .float32)
        let exact = (rows[0].map(Double.init) + (0 ..< 1000).map { Double(Float($0) / 7) }).reduce(0, +)
        #expect(abs(Double(sums.values[0]) - exact) <= 1e-5 * Swift.max(1, abs(exact)))
    }
}
