import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct ReductionTests {
    enum Kind: CaseIterable { case mean, sum, max }

    static func code(_ kind: Kind) -> BuiltinOperator {
        switch kind {
        case .mean: return .mean
        case .sum: return .sum
        case .max: return .reduceMax
        }
    }

    func run(
        _ kind: Kind, _ x: [Float], shape: [Int], axes: [Int32], axesShape: [Int]? = nil, keepDims: Bool,
        threads: Int = 1
    ) throws -> (shape: [Int], values: [Float]) {
        var g = GraphBuilder()
        let input = g.input(shape, .float32)
        let a = g.constant(axes, shape: axesShape ?? [axes.count])
        let y = g.tensor([], .float32)
        g.op(Self.code(kind), inputs: [input, a], outputs: [y], options: .reducer(keepDims: keepDims))
        g.output(y)
        let engine = try g.engine(threads: threads)
        try engine.allocate()
        try engine.setInput(0, x)
        try engine.invoke()
        return (engine.outputShape(0), try engine.output(0, as: Float.self))
    }

    /// Accumulates the input in row-major order into its output element, as TFLite's
    /// reference reduction does.
    static func naive(_ kind: Kind, _ x: [Float], shape: [Int], axes: [Int32], keepDims: Bool) -> (
        shape: [Int], values: [Float]
    ) {
        let rank = shape.count
        let reduced = Set(axes.map { Int($0) < 0 ? Int($0) + rank : Int($0) })
        let keptDims = (0 ..< rank).filter { !reduced.contains($0) }
        let outShape = keepDims ? (0 ..< rank).map { reduced.contains($0) ? 1 : shape[$0] } : keptDims.map { shape[$0] }
        let keptShape = keptDims.map { shape[$0] }
        let keptStrides = rowMajorStrides(keptShape)
        let outCount = keptShape.reduce(1, *)
        var acc = [Float](repeating: kind == .max ? -.greatestFiniteMagnitude : 0, count: outCount)
        for flat in 0 ..< x.count {
            let idx = unflatten(flat, shape)
            var o = 0
            for (k, d) in keptDims.enumerated() { o += idx[d] * keptStrides[k] }
            acc[o] = kind == .max ? (acc[o] > x[flat] ? acc[o] : x[flat]) : acc[o] + x[flat]
        }
        if kind == .mean, outCount > 0, x.count > 0 {
            let n = Float(x.count / outCount)
            acc = acc.map { $0 / n }
        }
        return (outShape, acc)
    }

    static let cases: [(shape: [Int], axes: [Int32])] = [
        ([2, 3, 4], [2]), // last axis: contiguous rows
        ([2, 3, 4], [-1, 0]), // general, negative axis
        ([2, 5, 7, 19], [1, 2]), // NHWC global average pool: middle layout
        ([6, 9], [0]), // leading axis: middle layout without outer
        ([2, 3, 4, 5], [0, 2]), // alternating: general
        ([2, 3, 4, 5, 2], [1, 3]), // general with two kept groups inside
        ([3, 1, 4], [1]), // size-1 axis: nothing reduced
        ([3, 4], []), // no axes
        ([2, 3], [1, 1, -1]), // duplicates
        ([4, 3, 2], [0, 1, 2]), // everything: scalar output
        ([5], [0]),
        ([2, 0, 3], [1]), // empty reduction
        ([0, 3], [1]), // empty output
    ]

    /// MAX exactly; SUM and MEAN within float rounding of the left-to-right sums (a
    /// last-axis row is summed in eight partial sums), at the corpus's float tolerance
    /// (1e-5 · max(1, max |want|) over the output).
    static func agree(_ kind: Kind, _ got: [Float], _ want: [Float]) -> Bool {
        guard got.count == want.count else { return false }
        if kind == .max { return got == want }
        let tolerance = 1e-5 * Swift.max(1, want.map { abs($0) }.max() ?? 0)
        return zip(got, want).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test(arguments: Kind.allCases)
    func matchesNaiveReference(kind: Kind) throws {
        var random = TestRandom(seed: 17)
        for (shape, axes) in Self.cases {
            let x = random.floats(shape.reduce(1, *))
            for keepDims in [false, true] {
                let want = Self.naive(kind, x, shape: shape, axes: axes, keepDims: keepDims)
                let got = try run(kind, x, shape: shape, axes: axes, keepDims: keepDims)
                #expect(got.shape == want.shape, "\(kind) \(shape) \(axes) keep \(keepDims)")
                #expect(Self.agree(kind, got.values, want.values), "\(kind) \(shape) \(axes) keep \(keepDims)")
            }
        }
    }

    @Test func goldensFromTensorFlow() throws {
        // r = sin(arange(24).reshape(2, 3, 4) * 0.37 - 3.1) * 5 in float32 (TensorFlow 2.21).
        let r: [Float] = [
            -0.20790380239486694, -2.000347137451172, -3.5220541954040527, -4.5670671463012695, -4.993948459625244,
            -4.744922637939453, -3.853694200515747, -2.440885066986084, -0.6977149248123169, 1.1398876905441284,
            2.8232131004333496, 4.124429225921631, 4.867423057556152, 4.951633930206299, 4.365664005279541,
            3.1888225078582764, 1.5803890228271484, -0.24194249510765076, -2.0315282344818115, -3.5461580753326416,
            -4.580830097198486, -4.995508670806885, -4.734068393707275, -3.8318941593170166,
        ]
        // tf.reduce_mean(r, axis=[-1, 0], keepdims=True)
        let mean = try run(.mean, r, shape: [2, 3, 4], axes: [-1, 0], keepDims: true)
        #expect(mean.shape == [1, 3, 1])
        expectNear(mean.values, [0.884521484375, -2.534086227416992, -1.3440607786178589], tolerance: 1e-6)
        // tf.reduce_sum(r, axis=[1])
        let sum = try run(.sum, r, shape: [2, 3, 4], axes: [1], keepDims: false)
        #expect(sum.shape == [2, 4])
        expectNear(
            sum.values,
            [
                -5.899567127227783, -5.605381965637207, -4.552535533905029, -2.8835229873657227, 1.8669819831848145,
                -0.28581714630126953, -2.399932622909546, -4.189229965209961,
            ], tolerance: 1e-6)
        // tf.reduce_max(r, axis=[-2], keepdims=True)
        let max = try run(.max, r, shape: [2, 3, 4], axes: [-2], keepDims: true)
        #expect(max.shape == [2, 1, 4])
        #expect(
            max.values == [
                -0.20790380239486694, 1.1398876905441284, 2.8232131004333496, 4.124429225921631, 4.867423057556152,
                4.951633930206299, 4.365664005279541, 3.1888225078582764,
            ])
        // tf.reduce_mean(r, axis=[0, 1, 2]); a scalar axes tensor also works.
        let all = try run(.mean, r, shape: [2, 3, 4], axes: [0, 1, 2], keepDims: false)
        #expect(all.shape == [])
        expectNear(all.values, [-0.9978752136230469], tolerance: 1e-6)
        let scalarAxis = try run(.sum, r, shape: [2, 3, 4], axes: [1], axesShape: [], keepDims: false)
        #expect(scalarAxis.values == sum.values)
    }

    @Test(arguments: Kind.allCases)
    func threadCountDoesNotChangeResults(kind: Kind) throws {
        var random = TestRandom(seed: 23)
        let shapes: [([Int], [Int32])] = [
            ([4, 50, 40, 13], [1, 2]), ([300, 200], [1]), ([300, 200], [0]), ([20, 30, 10, 9], [0, 2]),
        ]
        for (shape, axes) in shapes {
            let x = random.floats(shape.reduce(1, *))
            let one = try run(kind, x, shape: shape, axes: axes, keepDims: false, threads: 1)
            let two = try run(kind, x, shape: shape, axes: axes, keepDims: false, threads: 2)
            #expect(one.values == two.values, "\(kind) \(shape) \(axes)")
            #expect(
                Self.agree(kind, one.values, Self.naive(kind, x, shape: shape, axes: axes, keepDims: false).values),
                "\(kind) \(shape) \(axes)")
        }
    }

    @Test func prepareErrors() throws {
        func prepare(
            _ x: ([Int], ElementType), axes: [Int32]?, axesType: ElementType = .int32, out: ElementType = .float32,
            options: BuiltinOptions = .reducer(keepDims: false)
        ) -> String? {
            errorDescription {
                var g = GraphBuilder()
                let input = g.input(x.0, x.1)
                let a =
                    axes.map {
                        axesType == .int32
                            ? g.constant($0, shape: [$0.count])
                            : g.constant($0.map(Int64.init), shape: [$0.count], .int64)
                    }
                    ?? g.input([1], .int32)
                let y = g.tensor([], out)
                g.op(.mean, inputs: [input, a], outputs: [y], options: options)
                g.output(y)
                _ = try g.engine()
            }
        }
        #expect(
            prepare(([2, 3], .float32), axes: [2]) == "operator 0 (MEAN): axis 2 is out of range for an input of rank 2"
        )
        #expect(
            prepare(([2, 3], .float32), axes: [-3])
                == "operator 0 (MEAN): axis -3 is out of range for an input of rank 2")
        #expect(
            prepare(([2, 3], .float32), axes: [1], axesType: .int64)
                == "operator 0 (MEAN) does not support the types inputs (FLOAT32, INT64) -> outputs (FLOAT32)")
        #expect(
            prepare(([2, 3], .int8), axes: [1], out: .int8)
                == "operator 0 (MEAN): input (tensor 0, INT8) has no quantization parameters")
        #expect(
            prepare(([2, 3], .float32), axes: [1], options: .softmax(beta: 1))
                == "operator 0 (MEAN): unexpected options softmax(beta: 1.0)")
    }
}
