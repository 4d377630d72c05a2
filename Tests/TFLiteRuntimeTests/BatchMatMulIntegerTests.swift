import Microkernels
import SeededRandom
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// int8 and int16 BATCH_MATMUL against direct loops written from TFLite's reference kernel,
/// at every kernel level the CPU runs and at 1 and 2 threads.
@Suite struct BatchMatMulIntegerTests {
    /// One operand: its stored shape and codes, and whether it is a constant.
    struct Operand {
        var shape: [Int]
        var type: ElementType
        var codes: [Int]
        var quantization: Quantization?
        var constant = false
    }

    static func bytes(_ codes: [Int], _ type: ElementType) -> [UInt8] {
        switch type {
        case .int16:
            return codes.flatMap { withUnsafeBytes(of: Int16(truncatingIfNeeded: $0).littleEndian, Array.init) }
        case .int32:
            return codes.flatMap { withUnsafeBytes(of: Int32(truncatingIfNeeded: $0).littleEndian, Array.init) }
        default: return codes.map { UInt8(truncatingIfNeeded: $0) }
        }
    }

    static func codes(_ bytes: [UInt8], _ type: ElementType) -> [Int] {
        switch type {
        case .int16:
            return stride(from: 0, to: bytes.count, by: 2).map {
                Int(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8))
            }
        case .int32:
            return stride(from: 0, to: bytes.count, by: 4).map { i in
                Int(Int32(bitPattern: (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(bytes[i + $1]) << (8 * $1) }))
            }
        default: return bytes.map { Int(Int8(bitPattern: $0)) }
        }
    }

    static func graph(
        _ x: Operand, _ y: Operand, output type: ElementType, _ quantization: Quantization?, adjX: Bool, adjY: Bool
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let xi = g.input(x.shape, x.type, quantization: x.quantization)
        let yi =
            y.constant
            ? g.constant(bytes(y.codes, y.type), shape: y.shape, y.type, quantization: y.quantization)
            : g.input(y.shape, y.type, quantization: y.quantization)
        let z = g.tensor([1], type, quantization: quantization)
        g.op(
            .batchMatmul, inputs: [xi, yi], outputs: [z],
            options: .batchMatMul(BatchMatMulOptions(adjointX: adjX, adjointY: adjY)))
        g.output(z)
        return g
    }

    /// The exact sums `Σ_k (op(x)[i, k] - zx)·(op(y)[k, j] - zy)` of every output matrix, the
    /// batch dimensions broadcast, and the output shape.
    static func sums(_ x: Operand, _ y: Operand, adjX: Bool, adjY: Bool, zx: Int, zy: Int) -> ([Int64], [Int]) {
        let rank = max(x.shape.count, y.shape.count)
        let xb = [Int](repeating: 1, count: rank - x.shape.count) + x.shape
        let yb = [Int](repeating: 1, count: rank - y.shape.count) + y.shape
        let batch = (0 ..< rank - 2).map { max(xb[$0], yb[$0]) }
        let (xr, xc, yr, yc) = (xb[rank - 2], xb[rank - 1], yb[rank - 2], yb[rank - 1])
        let m = adjX ? xc : xr, k = adjX ? xr : xc, n = adjY ? yr : yc
        var out: [Int64] = []
        for flat in 0 ..< batch.reduce(1, *) {
            // The batch index, then each operand's matrix offset (size-1 dimensions repeat).
            var index: [Int] = []
            var rest = flat
            for d in batch.indices.reversed() {
                index.insert(rest % batch[d], at: 0)
                rest /= batch[d]
            }
            var xo = 0, yo = 0
            for d in batch.indices {
                xo = xo * xb[d] + (xb[d] == 1 ? 0 : index[d])
                yo = yo * yb[d] + (yb[d] == 1 ? 0 : index[d])
            }
            xo *= xr * xc
            yo *= yr * yc
            for i in 0 ..< m {
                for j in 0 ..< n {
                    var acc: Int64 = 0
                    for p in 0 ..< k {
                        let a = adjX ? x.codes[xo + p * xc + i] : x.codes[xo + i * xc + p]
                        let b = adjY ? y.codes[yo + j * yc + p] : y.codes[yo + p * yc + j]
                        acc += Int64(a - zx) * Int64(b - zy)
                    }
                    out.append(acc)
                }
            }
        }
        return (out, batch + [m, n])
    }

    /// Runs the graph at every level and at 1 and 2 threads; expects `expected` each time.
    static func expectOutputs(
        _ g: GraphBuilder, _ x: Operand, _ y: Operand, type: ElementType, expected: [Int], shape: [Int],
        _ label: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let inputs = [bytes(x.codes, x.type)] + (y.constant ? [] : [bytes(y.codes, y.type)])
        for level in QTest.levels {
            for threads in [1, 2] {
                let got = try QTest.run(g, inputs, threads: threads, level: level)
                #expect(got.shape == shape, "\(label) \(level)", sourceLocation: sourceLocation)
                let values = codes(got.bytes, type)
                let wrong = zip(values, expected).filter { $0 != $1 }.count
                #expect(
                    values.count == expected.count && wrong == 0,
                    "\(label) at \(level), \(threads) threads: \(wrong) of \(expected.count) differ",
                    sourceLocation: sourceLocation)
            }
        }
    }

    /// int8 operands with random codes and quantization, the output scale spreading the results.
    func checkInt8(
        _ xs: [Int], _ ys: [Int], adjX: Bool = false, adjY: Bool = false, constant: Bool = false, seed: UInt64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var rng = SplitMix64(seed: seed)
        let zx = QTest.randomZeroPoint(.int8, &rng), zy = QTest.randomZeroPoint(.int8, &rng)
        let zo = Int.random(in: -20 ... 20, using: &rng)
        let sx = Float.random(in: 0.01 ... 0.05, using: &rng), sy = Float.random(in: 0.01 ... 0.05, using: &rng)
        let depth = adjX ? xs[xs.count - 2] : xs[xs.count - 1]
        let so = sx * sy * Float(max(depth, 1)).squareRoot() * 60 * Float.random(in: 0.5 ... 2, using: &rng)
        let x = Operand(
            shape: xs, type: .int8, codes: QTest.randomCodes(xs.reduce(1, *), .int8, &rng),
            quantization: QTest.quantization([sx], [zx]))
        let y = Operand(
            shape: ys, type: .int8, codes: QTest.randomCodes(ys.reduce(1, *), .int8, &rng),
            quantization: QTest.quantization([sy], [zy]), constant: constant)
        let (acc, shape) = Self.sums(x, y, adjX: adjX, adjY: adjY, zx: zx, zy: zy)
        let (mantissa, exponent) = FixedPoint.quantizeMultiplier(Double(sx * sy) / Double(so))
        let expected = acc.map { a -> Int in
            let scaled = FixedPoint.multiplyByQuantizedMultiplier(Int32(truncatingIfNeeded: a), mantissa, exponent)
            return min(max(Int(scaled) + zo, -128), 127)
        }
        let g = Self.graph(x, y, output: .int8, QTest.quantization([so], [zo]), adjX: adjX, adjY: adjY)
        try Self.expectOutputs(
            g, x, y, type: .int8, expected: expected, shape: shape,
            "int8 \(xs) x \(ys) adj \(adjX) \(adjY) constant \(constant)", sourceLocation: sourceLocation)
    }

    @Test func int8AdjointsBroadcastAndOddSizes() throws {
        var seed: UInt64 = 1
        for constant in [false, true] {
            for adjX in [false, true] {
                for adjY in [false, true] {
                    let xs = adjX ? [2, 7, 5] : [2, 5, 7]
                    let ys = adjY ? [2, 13, 7] : [2, 7, 13]
                    try checkInt8(xs, ys, adjX: adjX, adjY: adjY, constant: constant, seed: seed)
                    seed += 1
                }
            }
            try checkInt8([2, 1, 3, 7], [3, 7, 13], constant: constant, seed: 20) // → [2, 3, 3, 13]
            try checkInt8([2, 3, 1, 2, 4], [3, 5, 3, 4], adjY: true, constant: constant, seed: 21) // rank 5
            try checkInt8([4, 6], [3, 1, 6, 5], constant: constant, seed: 22) // fewer columns than a panel
            try checkInt8([1, 9, 1], [3, 1, 17], adjX: false, constant: constant, seed: 23) // depth 1
        }
    }

    @Test func int8TilesRowsAndColumns() throws {
        try checkInt8([1, 150, 40], [1, 40, 130], seed: 30) // row and column tiles of one matrix
        try checkInt8([3, 70, 33], [33, 150], adjY: false, constant: true, seed: 31)
        try checkInt8([2, 33, 90], [2, 80, 33], adjX: true, adjY: true, seed: 32)
    }

    /// int32 outputs are the sums of the raw codes' products: LiteRT ignores every
    /// quantization parameter, and needs none.
    @Test func int8ToInt32SumsRawProducts() throws {
        for (xs, ys, adjX, adjY, constant, quantized) in [
            ([2, 5, 7], [2, 7, 13], false, false, false, true), ([3, 9, 4], [9, 20], true, false, true, true),
            ([2, 1, 6, 8], [3, 11, 8], false, true, false, false), ([1, 70, 40], [40, 70], false, false, true, false),
        ] {
            var rng = SplitMix64(seed: UInt64(xs.reduce(1, *)))
            let q = quantized ? QTest.quantization([0.03], [17]) : nil
            let x = Operand(
                shape: xs, type: .int8, codes: QTest.randomCodes(xs.reduce(1, *), .int8, &rng), quantization: q)
            let y = Operand(
                shape: ys, type: .int8, codes: QTest.randomCodes(ys.reduce(1, *), .int8, &rng),
                quantization: quantized ? QTest.quantization([0.02], [-5]) : nil, constant: constant)
            let (acc, shape) = Self.sums(x, y, adjX: adjX, adjY: adjY, zx: 0, zy: 0)
            let g = Self.graph(x, y, output: .int32, q, adjX: adjX, adjY: adjY)
            try Self.expectOutputs(
                g, x, y, type: .int32, expected: acc.map { Int($0) }, shape: shape, "int32 \(xs) x \(ys)")
        }
    }

    /// int16 LHS, int16 or int8 RHS: Int64 sums and TFLite's 64-bit rescaling.
    func checkInt16(
        _ xs: [Int], _ ys: [Int], rhs: ElementType = .int16, adjX: Bool = false, adjY: Bool = false,
        constant: Bool = false, codes: ((Int) -> Int)? = nil, scales: (Float, Float, Float)? = nil, seed: UInt64,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        var rng = SplitMix64(seed: seed)
        let depth = adjX ? xs[xs.count - 2] : xs[xs.count - 1]
        let sx = scales?.0 ?? Float.random(in: 1e-5 ... 1e-4, using: &rng)
        let sy = scales?.1 ?? Float.random(in: 1e-5 ... 1e-3, using: &rng)
        let so =
            scales?.2 ?? sx * sy * Float(max(depth, 1)).squareRoot() * 4e8 * Float.random(in: 0.5 ... 2, using: &rng)
        let yRange = rhs == .int8 ? -128 ... 127 : -32768 ... 32767
        let x = Operand(
            shape: xs, type: .int16,
            codes: (0 ..< xs.reduce(1, *)).map { codes?($0) ?? Int.random(in: -32768 ... 32767, using: &rng) },
            quantization: QTest.quantization([sx], [0]))
        let yCodes = (0 ..< ys.reduce(1, *)).map { i in
            codes.map { min(max($0(i), yRange.lowerBound), yRange.upperBound) } ?? Int.random(in: yRange, using: &rng)
        }
        let y = Operand(
            shape: ys, type: rhs, codes: yCodes, quantization: QTest.quantization([sy], [0]), constant: constant)
        let (acc, shape) = Self.sums(x, y, adjX: adjX, adjY: adjY, zx: 0, zy: 0)
        // TFLite's 64-bit MultiplyByQuantizedMultiplier, written out.
        let (mantissa, exponent) = FixedPoint.quantizeMultiplier(Double(sx * sy) / Double(so))
        let reduced = mantissa < 0x7FFF_0000 ? (Int64(mantissa) + (1 << 15)) >> 16 : 0x7FFF
        let shift = Int64(15 - exponent)
        let expected = acc.map { a -> Int in
            let scaled = Int32(truncatingIfNeeded: (a * reduced + (1 << (shift - 1))) >> shift)
            return min(max(Int(scaled), -32768), 32767)
        }
        let g = Self.graph(x, y, output: .int16, QTest.quantization([so], [0]), adjX: adjX, adjY: adjY)
        try Self.expectOutputs(
            g, x, y, type: .int16, expected: expected, shape: shape,
            "int16 \(xs) x \(rhs) \(ys) adj \(adjX) \(adjY) constant \(constant)", sourceLocation: sourceLocation)
    }

    @Test func int16AdjointsBroadcastAndOddSizes() throws {
        var seed: UInt64 = 100
        for rhs in [ElementType.int16, .int8] {
            for constant in [false, true] {
                for adjX in [false, true] {
                    for adjY in [false, true] {
                        let xs = adjX ? [2, 7, 5] : [2, 5, 7]
                        let ys = adjY ? [2, 13, 7] : [2, 7, 13]
                        try checkInt16(xs, ys, rhs: rhs, adjX: adjX, adjY: adjY, constant: constant, seed: seed)
                        seed += 1
                    }
                }
                try checkInt16([2, 1, 3, 7], [3, 7, 13], rhs: rhs, constant: constant, seed: seed)
                try checkInt16(
                    [2, 3, 1, 2, 4], [3, 5, 3, 4], rhs: rhs, adjY: true, constant: constant, seed: seed + 1)
                try checkInt16([1, 40, 70], [1, 70, 130], rhs: rhs, constant: constant, seed: seed + 2) // tiles
                seed += 3
            }
        }
    }

    /// Depths past one GEMM call's 256 (the vector levels sum them in chunks), with every
    /// code at an extreme too.
    @Test func int16LongDepths() throws {
        for rhs in [ElementType.int16, .int8] {
            try checkInt16([1, 5, 600], [1, 600, 20], rhs: rhs, seed: 300)
            try checkInt16([2, 513, 3], [2, 9, 513], rhs: rhs, adjX: true, adjY: true, constant: true, seed: 301)
            let s: Float = 1.0 / 32768
            try checkInt16(
                [1, 2, 700], [1, 700, 17], rhs: rhs, constant: true, codes: { $0 % 3 == 0 ? 32767 : -32768 },
                scales: (s, s, 700.0 / 30000), seed: 302)
        }
    }

    /// Sums past `Int32`: eight products of -32768 · -32768 are 2^33 (8.0 in real terms,
    /// code 16000 at the output scale 8 / 16000; 0 if the sum wrapped in `Int32`).
    @Test func int16AccumulatesInInt64() throws {
        let s: Float = 1.0 / 32768
        try checkInt16([1, 3, 8], [1, 8, 2], codes: { _ in -32768 }, scales: (s, s, 8.0 / 16000), seed: 200)
        try checkInt16([1, 3, 8], [1, 8, 2], codes: { $0 % 2 == 0 ? 32767 : -32768 }, seed: 201)
    }

    /// A depth of 0 sums nothing: every output is the requantized 0, its zero point (int8)
    /// or 0; an empty output runs and writes nothing. At every level, constant RHS or not.
    @Test func emptyDepthsAndOutputs() throws {
        for constant in [false, true] {
            try checkInt8([2, 3, 0], [2, 0, 9], constant: constant, seed: 500)
            try checkInt8([2, 0, 4], [2, 4, 9], constant: constant, seed: 501)
            try checkInt16([2, 3, 0], [2, 0, 9], constant: constant, seed: 502)
            try checkInt16([2, 3, 0], [2, 0, 9], rhs: .int8, constant: constant, seed: 503)
        }
    }

    /// The RHS packing writes what `GemmS16Layout.pack` writes for the same values, for
    /// both group sizes (x86-64's depth pairs, aarch64's single depths), split or not,
    /// with `adj_y` or not, from a depth inside the matrix.
    @Test func packedPanelsMatchTheLayout() {
        var rng = SplitMix64(seed: 400)
        for (n, k) in [(13, 9), (16, 8), (3, 1), (40, 300)] {
            for adjY in [false, true] {
                let g = BatchMatMulGeometry(
                    m: 1, n: n, k: k, adjointX: false, adjointY: adjY, xColumns: k, yColumns: adjY ? k : n,
                    xMatrixSize: k, yMatrixSize: n * k, yMatrices: 1,
                    broadcast: BatchBroadcast(batch: [], x: [], y: [], count: 1))
                let codes = (0 ..< n * k).map { _ in Int16.random(in: .min ... .max, using: &rng) }
                let (d0, depths) = k > 256 ? (256, k - 256) : (0, k)
                for split in [false, true] {
                    for group in [1, 2] {
                        let zy: Int32 = split ? 0 : 5
                        let columns = split ? 2 * n : n
                        let count = GemmS16Layout.packedCount(n: columns, k: depths) ?? 0
                        var expected = [Int16](repeating: 0, count: count)
                        var got = [Int16](repeating: -1, count: count)
                        codes.withUnsafeBufferPointer { c in
                            guard let matrix = c.baseAddress else { return }
                            expected.withUnsafeMutableBufferPointer { out in
                                guard let out = out.baseAddress else { return }
                                GemmS16Layout.pack(n: columns, k: depths, group: group, into: out) { j, d in
                                    let v = Int32(g.rhs(matrix, depth: d0 + d, column: split ? j / 2 : j)) - zy
                                    return Int16(truncatingIfNeeded: !split ? v : j % 2 == 0 ? v >> 8 : v & 0xFF)
                                }
                            }
                            got.withUnsafeMutableBufferPointer { out in
                                guard let out = out.baseAddress else { return }
                                g.packPanels(
                                    matrix, firstDepth: d0, depths: depths, zeroPoint: zy, split: split, group: group,
                                    into: out)
                            }
                        }
                        #expect(got == expected, "n \(n) k \(k) adjY \(adjY) split \(split) group \(group)")
                    }
                }
            }
        }
    }

    // MARK: - Prepare errors

    static func operand(_ shape: [Int], _ type: ElementType, _ scales: [Float] = [0.02], _ zeroPoints: [Int] = [0])
        -> Operand
    {
        Operand(
            shape: shape, type: type, codes: [Int](repeating: 0, count: shape.reduce(1, *)),
            quantization: QTest.quantization(scales, zeroPoints, axis: shape.count - 1))
    }

    static func graph(
        _ x: Operand, _ y: Operand, _ type: ElementType, scale: Float = 0.5, zeroPoint: Int = 0, adjX: Bool = false
    ) -> GraphBuilder {
        graph(x, y, output: type, QTest.quantization([scale], [zeroPoint]), adjX: adjX, adjY: false)
    }

    @Test func prepareRejectsBadIntegerOperators() {
        let (i8, i16) = (ElementType.int8, ElementType.int16)
        // Shapes, as for float.
        expectInvalid(Self.graph(Self.operand([2, 3], i8), Self.operand([4, 2], i8), i8), "inner dimensions differ")
        expectInvalid(
            Self.graph(Self.operand([2, 2, 3], i16), Self.operand([3, 3, 2], i16), i16), "do not broadcast")
        // int16 needs zero points 0 everywhere.
        expectInvalid(
            Self.graph(Self.operand([2, 3], i16, [0.02], [1]), Self.operand([3, 2], i16), i16), "zero points 0")
        expectInvalid(
            Self.graph(Self.operand([2, 3], i16), Self.operand([3, 2], i8, [0.02], [3]), i16), "zero points 0")
        expectInvalid(
            Self.graph(Self.operand([2, 3], i16), Self.operand([3, 2], i16), i16, zeroPoint: 2), "zero points 0")
        // One scale per tensor.
        expectInvalid(
            Self.graph(Self.operand([2, 3], i8), Self.operand([3, 2], i8, [0.1, 0.2], [0, 0]), i8),
            "needs one scale and one zero point")
        // A multiplier the 64-bit rescaling cannot shift.
        expectInvalid(
            Self.graph(Self.operand([2, 3], i16, [1]), Self.operand([3, 2], i16, [1]), i16, scale: 1e-6), "too large")
        expectInvalid(
            Self.graph(Self.operand([2, 3], i8), Self.operand([3, 2], i8), i8, scale: 0), "scale must be positive")
        // Type combinations LiteRT refuses, or computes into the wrong output type.
        expectUnsupportedTypes(Self.graph(Self.operand([2, 3], i8), Self.operand([3, 2], i8), i16))
        expectUnsupportedTypes(Self.graph(Self.operand([2, 3], i16), Self.operand([3, 2], i16), .int32))
        expectUnsupportedTypes(Self.graph(Self.operand([2, 3], i8), Self.operand([3, 2], i16), i16))
        expectUnsupportedTypes(Self.graph(Self.operand([2, 3], .uint8), Self.operand([3, 2], .uint8), .uint8))
    }
}
