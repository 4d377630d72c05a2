import Testing
import TFLiteModel
@testable import TFLiteRuntime

@Suite struct StridedSliceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let input: [Int], begin: [Int32], end: [Int32], strides: [Int32]
        let options: StridedSliceOptions
        let shape: [Int]
        let values: [Float]
        init(
            _ name: String, _ input: [Int], _ begin: [Int32], _ end: [Int32], _ strides: [Int32],
            begin beginMask: Int32, end endMask: Int32, ellipsis: Int32, newAxis: Int32, shrink: Int32,
            shape: [Int], values: [Float]
        ) {
            self.name = name; self.input = input; self.begin = begin; self.end = end; self.strides = strides
            options = StridedSliceOptions(
                beginMask: beginMask, endMask: endMask, ellipsisMask: ellipsis,
                newAxisMask: newAxis, shrinkAxisMask: shrink)
            self.shape = shape; self.values = values
        }
        var testDescription: String { name }
    }

    /// Goldens from `tf.strided_slice` (TensorFlow 2.21) on `arange(n).reshape(input)`.
    static let goldens: [Case] = [
        .init(
            "basic2D", [3, 4], [0, 1], [3, 3], [1, 1], begin: 0, end: 0, ellipsis: 0, newAxis: 0, shrink: 0,
            shape: [3, 2], values: [1, 2, 5, 6, 9, 10]),
        .init(
            "reverseAllNegativeEnd", [5], [-1], [-6], [-1], begin: 0, end: 0, ellipsis: 0, newAxis: 0, shrink: 0,
            shape: [5], values: [4, 3, 2, 1, 0]),
        .init(
            "negativeStrideStep2", [5], [4], [0], [-2], begin: 0, end: 0, ellipsis: 0, newAxis: 0, shrink: 0,
            shape: [2], values: [4, 2]),
        .init(
            "shrinkFirstStrided", [3, 4, 5], [1, 0, 0], [2, 4, 5], [1, 2, 3], begin: 0, end: 0, ellipsis: 0, newAxis: 0,
            shrink: 1,
            shape: [2, 2], values: [20, 23, 30, 33]),
        .init(
            "mixedMasksNegativeStride", [2, 3, 4], [1, -2, 0], [2, 0, 3], [1, -1, 2], begin: 1, end: 2, ellipsis: 0,
            newAxis: 0, shrink: 0,
            shape: [2, 2, 2], values: [4, 6, 0, 2, 16, 18, 12, 14]),
        .init(
            "ellipsisLeading", [2, 3, 4], [0, 1], [0, 3], [1, 1], begin: 0, end: 0, ellipsis: 1, newAxis: 0, shrink: 0,
            shape: [2, 3, 2], values: [1, 2, 5, 6, 9, 10, 13, 14, 17, 18, 21, 22]),
        .init(
            "newAxisAndShrink", [2, 3], [0, 0, 1], [0, 0, 2], [1, 1, 1], begin: 2, end: 2, ellipsis: 0, newAxis: 1,
            shrink: 4,
            shape: [1, 2], values: [1, 4]),
        .init(
            "ellipsisThenNewAxis", [2, 3, 4], [0, 0, 0], [1, 0, 0], [1, 1, 1], begin: 0, end: 0, ellipsis: 2,
            newAxis: 4, shrink: 1,
            shape: [3, 4, 1], values: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]),
        .init(
            "clampPastBothEnds", [4], [-10], [10], [1], begin: 0, end: 0, ellipsis: 0, newAxis: 0, shrink: 0,
            shape: [4], values: [0, 1, 2, 3]),
        .init(
            "clampReversed", [4], [10], [-10], [-1], begin: 0, end: 0, ellipsis: 0, newAxis: 0, shrink: 0,
            shape: [4], values: [3, 2, 1, 0]),
        .init(
            "shrinkNegativeIndex", [3, 4], [-1, 0], [0, 4], [1, 1], begin: 0, end: 0, ellipsis: 0, newAxis: 0,
            shrink: 1,
            shape: [4], values: [8, 9, 10, 11]),
        .init(
            "emptyRange", [4], [3], [1], [1], begin: 0, end: 0, ellipsis: 0, newAxis: 0, shrink: 0,
            shape: [0], values: []),
        .init(
            "partialSpec", [2, 3, 4], [1], [2], [1], begin: 0, end: 0, ellipsis: 0, newAxis: 0, shrink: 0,
            shape: [1, 3, 4], values: [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23]),
        .init(
            "fiveDInnerStride", [2, 2, 2, 2, 3], [0, 1, 0, 1, 0], [2, 2, 2, 2, 3], [1, 1, 1, 1, 2], begin: 0, end: 0,
            ellipsis: 0, newAxis: 0, shrink: 0,
            shape: [2, 1, 2, 1, 2], values: [15, 17, 21, 23, 39, 41, 45, 47]),
        .init(
            "maskedNegativeStride", [6], [0], [0], [-2], begin: 1, end: 1, ellipsis: 0, newAxis: 0, shrink: 0,
            shape: [3], values: [5, 3, 1]),
        .init(
            "shrinkEllipsisStride", [2, 3, 4, 5], [1, 0, 0], [2, 0, 5], [1, 1, 2], begin: 4, end: 4, ellipsis: 2,
            newAxis: 0, shrink: 1,
            shape: [3, 4, 3],
            values: [
                60, 62, 64, 65, 67, 69, 70, 72, 74, 75, 77, 79, 80, 82, 84, 85, 87, 89, 90, 92, 94, 95, 97, 99, 100,
                102, 104, 105, 107, 109, 110, 112, 114, 115, 117, 119,
            ]),
        .init(
            "newAxisMiddle", [2, 3], [0, 0, 0], [2, 0, 3], [1, 1, -1], begin: 4, end: 4, ellipsis: 0, newAxis: 2,
            shrink: 0,
            shape: [2, 1, 3], values: [2, 1, 0, 5, 4, 3]),
        .init(
            "reverseRowsShrinkColumn", [3, 4], [2, 3], [0, 4], [-1, 1], begin: 0, end: 0, ellipsis: 0, newAxis: 0,
            shrink: 2,
            shape: [2], values: [11, 7]),
        .init(
            "largeStrideNegative", [7, 2], [6, 0], [-8, 2], [-3, 1], begin: 0, end: 0, ellipsis: 0, newAxis: 0,
            shrink: 0,
            shape: [3, 2], values: [12, 13, 6, 7, 0, 1]),
    ]

    private func graph(
        _ input: [Int], _ begin: [Int32], _ end: [Int32], _ strides: [Int32], _ options: StridedSliceOptions,
        type: ElementType = .float32
    ) -> GraphBuilder {
        var g = GraphBuilder()
        let x = g.input(input, type)
        let b = g.constant(begin, shape: [begin.count])
        let e = g.constant(end, shape: [end.count])
        let s = g.constant(strides, shape: [strides.count])
        let y = g.tensor([], type)
        g.op(.stridedSlice, inputs: [x, b, e, s], outputs: [y], options: .stridedSlice(options))
        g.output(y)
        return g
    }

    @Test(arguments: goldens)
    func matchesTensorFlow(_ c: Case) throws {
        let n = c.input.reduce(1, *)
        let (shape, values) = try ShapeTest.run(
            graph(c.input, c.begin, c.end, c.strides, c.options),
            input: ShapeTest.iota(n, as: Float.self), as: Float.self)
        #expect(shape == c.shape)
        #expect(values == c.values)
    }

    @Test(arguments: goldens)
    func int16MatchesTheSameGoldens(_ c: Case) throws {
        let n = c.input.reduce(1, *)
        let (_, values) = try ShapeTest.run(
            graph(c.input, c.begin, c.end, c.strides, c.options, type: .int16),
            input: ShapeTest.iota(n, as: Int16.self), as: Int16.self)
        #expect(values == c.values.map { Int16($0) })
    }

    @Test func offsetSliceTakesEndAsLength() throws {
        // offset: stop = begin + end, so end is the slice length.
        let options = StridedSliceOptions(offset: true)
        let (shape, values) = try ShapeTest.run(
            graph([3, 4], [1, 1], [2, 3], [1, 1], options), input: ShapeTest.iota(12, as: Float.self), as: Float.self)
        #expect(shape == [2, 3])
        #expect(values == [5, 6, 7, 9, 10, 11])
        let (stepShape, stepValues) = try ShapeTest.run(
            graph([8], [1], [5], [2], options), input: ShapeTest.iota(8, as: Float.self), as: Float.self)
        #expect(stepShape == [3])
        #expect(stepValues == [1, 3, 5])
    }

    @Test func prepareErrors() {
        ShapeTest.expectPrepareError(graph([4], [0], [4], [0], StridedSliceOptions()), "the stride for axis 0 is 0")
        ShapeTest.expectPrepareError(graph([4], [0, 0], [4], [1], StridedSliceOptions()), "must have the same length")
        ShapeTest.expectPrepareError(
            graph([4], [5], [6], [1], StridedSliceOptions(shrinkAxisMask: 1)), "selects no element")
        ShapeTest.expectPrepareError(graph([4], [0, 0], [1, 1], [1, 1], StridedSliceOptions()), "only 1 axes")
        ShapeTest.expectPrepareError(
            graph([2, 3], [0, 0], [1, 1], [1, 1], StridedSliceOptions(ellipsisMask: 3)), "more than one ellipsis")
        ShapeTest.expectPrepareError(
            graph([2, 3], [0], [1], [1], StridedSliceOptions(newAxisMask: 2)), "marks entries past")
        ShapeTest.expectPrepareError(graph([8], [6], [4], [1], StridedSliceOptions(offset: true)), "run outside")
    }
}
