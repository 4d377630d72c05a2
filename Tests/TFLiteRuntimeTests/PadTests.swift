import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct PadTests {
    private func padGraph(
        _ shape: [Int], _ paddings: [Int32], type: ElementType = .float32, quantization: Quantization? = nil,
        value: (any Sendable, Quantization?)? = nil, wide: Bool = false
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(shape, type, quantization: quantization)
        let p =
            wide
            ? g.constant(paddings.map(Int64.init), shape: [shape.count, 2], .int64)
            : g.constant(paddings, shape: [shape.count, 2])
        let y = g.tensor([], type, quantization: quantization)
        if let (v, q) = value {
            let c: Int
            switch v {
            case let f as Float: c = g.constant([f], shape: [], type, quantization: q)
            case let i as Int8: c = g.constant([i], shape: [1], type, quantization: q)
            default: c = g.constant([0] as [Float], shape: [])
            }
            g.op(.padv2, inputs: [x, p, c], outputs: [y])
        } else {
            g.op(.pad, inputs: [x, p], outputs: [y])
        }
        g.output(y)
        return g
    }

    /// Large enough that the fill and the copy are split over threads: every thread count
    /// gives the one-thread bytes, for channel padding (one merged outer axis) and for
    /// padding of every axis.
    @Test func padSplitOverThreadsMatchesOneThread() throws {
        let shape = [1, 64, 64, 24]
        let input = (0 ..< shape.reduce(1, *)).map { Float($0 % 251) - 100 }
        for pads: [Int32] in [[0, 0, 0, 0, 0, 0, 0, 24], [1, 0, 2, 3, 1, 1, 0, 5]] {
            let single = try ShapeTest.run(padGraph(shape, pads), input: input, as: Float.self)
            for threads in [2, 3] {
                let split = try ShapeTest.run(padGraph(shape, pads), input: input, as: Float.self, threads: threads)
                #expect(
                    split.shape == single.shape && split.values == single.values, "pads \(pads), \(threads) threads")
            }
        }
    }

    @Test func padFloatWithZeros() throws {
        let (shape, values) = try ShapeTest.run(
            padGraph([2, 2], [1, 0, 0, 2]), input: [1, 2, 3, 4] as [Float], as: Float.self)
        #expect(shape == [3, 4])
        #expect(values == [0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0])
    }

    @Test func padQuantizedUsesOutputZeroPoint() throws {
        let q = Quantization(scales: [0.1], zeroPoints: [-5])
        let (shape, values) = try ShapeTest.run(
            padGraph([3], [2, 1], type: .int8, quantization: q, wide: true), input: [7, 8, 9] as [Int8], as: Int8.self)
        #expect(shape == [6])
        #expect(values == [-5, -5, 7, 8, 9, -5])
        let u = Quantization(scales: [0.1], zeroPoints: [128])
        let r = try ShapeTest.run(
            padGraph([1], [1, 1], type: .uint8, quantization: u), input: [200] as [UInt8], as: UInt8.self)
        #expect(r.values == [128, 200, 128])
    }

    @Test func padV2GoldenFromTensorFlow() throws {
        // tf.pad(arange(6).reshape(2, 3), [[1, 0], [2, 1]], constant_values=9)
        let (shape, values) = try ShapeTest.run(
            padGraph([2, 3], [1, 0, 2, 1], value: (Float(9), nil)), input: ShapeTest.iota(6, as: Float.self),
            as: Float.self)
        #expect(shape == [3, 6])
        #expect(values == [9, 9, 9, 9, 9, 9, 9, 9, 0, 1, 2, 9, 9, 9, 3, 4, 5, 9])
    }

    /// Every axis padded, and the last axis alone (the one-pass path), at 1 and 3 threads.
    @Test(arguments: [[0, 1, 2, 0, 1, 1, 3, 2], [0, 0, 0, 0, 0, 0, 3, 2]], [1, 3])
    func padFourDMatchesNaiveReference(pads: [Int], threads: Int) throws {
        let shape = [2, 1, 3, 2]
        var out: [Int] = []
        for axis in 0 ..< 4 { out.append(shape[axis] + pads[2 * axis] + pads[2 * axis + 1]) }
        let (outShape, values) = try ShapeTest.run(
            padGraph(shape, pads.map(Int32.init), type: .int32),
            input: ShapeTest.iota(12, as: Int32.self).map { $0 + 1 }, as: Int32.self, threads: threads)
        #expect(outShape == out)
        let expected = (0 ..< out.reduce(1, *)).map { flat -> Int32 in
            let o = ShapeTest.unravel(flat, out)
            let i = o.indices.map { o[$0] - pads[2 * $0] }
            guard i.indices.allSatisfy({ i[$0] >= 0 && i[$0] < shape[$0] }) else { return 0 }
            return Int32(ShapeTest.ravel(i, shape) + 1)
        }
        #expect(values == expected)
    }

    @Test func padErrors() {
        ShapeTest.expectPrepareError(padGraph([2], [-1, 0]), "must not be negative")
        var g = GraphBuilder()
        let x = g.input([2, 2], .float32)
        let p = g.constant([1, 1] as [Int32], shape: [1, 2])
        let y = g.tensor([], .float32)
        g.op(.pad, inputs: [x, p], outputs: [y])
        g.output(y)
        ShapeTest.expectPrepareError(g, "paddings must have shape [2, 2], found [1, 2]")
        let q1 = Quantization(scales: [0.1], zeroPoints: [0])
        ShapeTest.expectPrepareError(
            padGraph(
                [2], [1, 1], type: .int8, quantization: q1,
                value: (Int8(3), Quantization(scales: [0.2], zeroPoints: [0]))),
            "must be quantized like the output")
    }

    // MARK: - MIRROR_PAD

    private func mirrorGraph(_ shape: [Int], _ paddings: [Int32], mode: Int8, type: ElementType = .float32)
        -> GraphBuilder
    {
        var g = GraphBuilder()
        let x = g.input(shape, type)
        let p = g.constant(paddings, shape: [shape.count, 2])
        let y = g.tensor([], type)
        g.op(.mirrorPad, inputs: [x, p], outputs: [y], options: .mirrorPad(mode: mode))
        g.output(y)
        return g
    }

    @Test func mirrorPadGoldensFromTensorFlow() throws {
        let input: [Float] = ShapeTest.iota(12)
        let reflect = try ShapeTest.run(mirrorGraph([3, 4], [2, 1, 3, 2], mode: 0), input: input, as: Float.self)
        #expect(reflect.shape == [6, 9])
        #expect(
            reflect.values == [
                11, 10, 9, 8, 9, 10, 11, 10, 9, 7, 6, 5, 4, 5, 6, 7, 6, 5, 3, 2, 1, 0, 1, 2, 3, 2, 1,
                7, 6, 5, 4, 5, 6, 7, 6, 5, 11, 10, 9, 8, 9, 10, 11, 10, 9, 7, 6, 5, 4, 5, 6, 7, 6, 5,
            ])
        let symmetric = try ShapeTest.run(mirrorGraph([3, 4], [1, 3, 0, 4], mode: 1), input: input, as: Float.self)
        #expect(symmetric.shape == [7, 8])
        #expect(
            symmetric.values == [
                0, 1, 2, 3, 3, 2, 1, 0, 0, 1, 2, 3, 3, 2, 1, 0, 4, 5, 6, 7, 7, 6, 5, 4, 8, 9, 10, 11, 11, 10, 9, 8,
                8, 9, 10, 11, 11, 10, 9, 8, 4, 5, 6, 7, 7, 6, 5, 4, 0, 1, 2, 3, 3, 2, 1, 0,
            ])
    }

    /// Random shapes (rank 0 to 5, some SYMMETRIC ones empty), paddings up to each mode's limit and
    /// elements of 1, 2, 4 and 8 bytes (so units of many sizes), against an index-by-index
    /// reference.
    @Test(arguments: [(ElementType.uint8, 1), (.int16, 2), (.float32, 4), (.int64, 8)])
    func mirrorPadMatchesAnIndexByIndexReference(type: ElementType, size: Int) throws {
        var rng = SplitMix64(seed: UInt64(size))
        for trial in 0 ..< 60 {
            let reflect = trial % 2 == 0
            let rank = Int.random(in: 0 ... 5, using: &rng)
            var shape = (0 ..< rank).map { _ in Int.random(in: 1 ... 4, using: &rng) }
            if rank > 0, trial % 3 == 0 { shape[Int.random(in: 0 ..< rank, using: &rng)] = trial % 6 == 3 ? 0 : 3 }
            let pads: [(Int, Int)] = shape.map { n in
                let limit = Swift.max(reflect ? n - 1 : n, 0)
                return Bool.random(using: &rng)
                    ? (0, 0) : (Int.random(in: 0 ... limit, using: &rng), Int.random(in: 0 ... limit, using: &rng))
            }
            let outShape = zip(shape, pads).map { $0 + $1.0 + $1.1 }
            let count = shape.reduce(1, *)
            let input = (0 ..< count * size).map { _ in UInt8.random(in: 0 ... 255, using: &rng) }
            let g = mirrorGraph(shape, pads.flatMap { [Int32($0.0), Int32($0.1)] }, mode: reflect ? 0 : 1, type: type)
            let got = try ShapeTest.run(g, input: input, as: UInt8.self)
            var expected: [UInt8] = []
            for flat in 0 ..< outShape.reduce(1, *) {
                let source = zip(ShapeTest.unravel(flat, outShape), zip(shape, pads)).map { o, axis in
                    let (n, (before, _)) = axis
                    let i = o - before
                    return i < 0 ? (reflect ? -i : -i - 1) : i >= n ? (reflect ? 2 * n - 2 - i : 2 * n - 1 - i) : i
                }
                let at = ShapeTest.ravel(source, shape) * size
                expected += input[at ..< at + size]
            }
            #expect(got.shape == outShape)
            #expect(got.values == expected, "shape \(shape), paddings \(pads), \(reflect ? "REFLECT" : "SYMMETRIC")")
        }
    }

    @Test func mirrorPadErrors() {
        ShapeTest.expectPrepareError(mirrorGraph([3], [3, 0], mode: 0), "exceeds 2, the most REFLECT allows")
        ShapeTest.expectPrepareError(mirrorGraph([3], [0, 4], mode: 1), "exceeds 3, the most SYMMETRIC allows")
        ShapeTest.expectPrepareError(mirrorGraph([3], [0, 1], mode: 2), "unknown mirror pad mode 2")
    }
}
