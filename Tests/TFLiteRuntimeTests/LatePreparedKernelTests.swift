import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Operators whose preparation needs a value computed at run time (a slice's begin, a
/// reshape's shape, a range's start, reduction axes) are prepared at invoke with that
/// value, once per distinct value (``LatePreparedKernel``).
@Suite struct LatePreparedKernelTests {
    /// SLICE of a [6] input with its begin fed at run time: each invoke slices where told,
    /// and a begin seen before reuses its preparation.
    @Test func sliceBeginKnownAtInvoke() throws {
        var g = GraphBuilder()
        let x = g.input([6], .float32)
        let b = g.input([1], .int32)
        let s = g.constant([Int32(2)], shape: [1])
        let y = g.tensor([2], .float32)
        g.op(.slice, inputs: [x, b, s], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [0, 1, 2, 3, 4, 5] as [Float])
        for (begin, expected) in [(0, [0, 1]), (3, [3, 4]), (0, [0, 1]), (4, [4, 5])] as [(Int32, [Float])] {
            try engine.setInput(1, [begin])
            try engine.invoke()
            #expect(try engine.output(0, as: Float.self) == expected, "begin \(begin)")
        }
        // A begin past the end is the kernel's own prepare error, now raised at invoke.
        try engine.setInput(1, [Int32(5)])
        #expect(throws: RuntimeError.self) { try engine.invoke() }
    }

    /// RESHAPE to a shape fed at run time: the output takes it, and what follows is
    /// prepared for it.
    @Test func reshapeToRunTimeShape() throws {
        var g = GraphBuilder()
        let x = g.input([2, 3], .float32)
        let shape = g.input([2], .int32)
        let y = g.tensor([], .float32)
        let z = g.tensor([], .float32)
        let w = g.constant([Float](repeating: 1, count: 1), shape: [1])
        g.op(.reshape, inputs: [x, shape], outputs: [y])
        g.op(.add, inputs: [y, w], outputs: [z], options: .add(activation: .none, potScaleInt16: true))
        g.output(z)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [0, 1, 2, 3, 4, 5] as [Float])
        for target in [[3, 2], [1, 6], [6, 1]] as [[Int32]] {
            try engine.setInput(1, target)
            try engine.invoke()
            #expect(engine.tensors[z].shape == target.map(Int.init))
            #expect(try engine.output(0, as: Float.self) == [1, 2, 3, 4, 5, 6])
        }
        try engine.setInput(1, [4, 2] as [Int32])
        #expect(throws: RuntimeError.self) { try engine.invoke() }
    }

    /// MEAN over axes fed at run time.
    @Test func reductionAxesKnownAtInvoke() throws {
        var g = GraphBuilder()
        let x = g.input([2, 3], .float32)
        let axes = g.input([1], .int32)
        let y = g.tensor([], .float32)
        g.op(.mean, inputs: [x, axes], outputs: [y], options: .reducer(keepDims: false))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3, 4, 5, 6] as [Float])
        try engine.setInput(1, [Int32(0)])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [2.5, 3.5, 4.5])
        try engine.setInput(1, [Int32(1)])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [2, 5])
    }

    /// RANGE with a start fed at run time: the output's length follows it.
    @Test func rangeStartKnownAtInvoke() throws {
        var g = GraphBuilder()
        let start = g.input([], .int32)
        let limit = g.constant([Int32(5)], shape: [])
        let delta = g.constant([Int32(1)], shape: [])
        let y = g.tensor([], .int32)
        g.op(.range, inputs: [start, limit, delta], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        for (s, expected) in [(2, [2, 3, 4]), (0, [0, 1, 2, 3, 4]), (5, [])] as [(Int32, [Int32])] {
            try engine.setInput(0, [s])
            try engine.invoke()
            #expect(try engine.output(0, as: Int32.self) == expected, "start \(s)")
        }
    }

    /// PAD with run-time paddings, SPLIT with a run-time axis and EXPAND_DIMS with a
    /// run-time axis, each against the same operator with constant parameters.
    @Test func paddingsAndAxesKnownAtInvoke() throws {
        var g = GraphBuilder()
        let x = g.input([2, 2], .float32)
        let paddings = g.input([2, 2], .int32)
        let axis = g.input([], .int32)
        let padded = g.tensor([], .float32)
        let halves = [g.tensor([], .float32), g.tensor([], .float32)]
        let expanded = g.tensor([], .float32)
        g.op(.pad, inputs: [x, paddings], outputs: [padded])
        g.op(.split, inputs: [axis, x], outputs: halves, options: .split(numSplits: 2))
        g.op(.expandDims, inputs: [x, axis], outputs: [expanded])
        g.output(padded)
        g.output(halves[0])
        g.output(expanded)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3, 4] as [Float])
        try engine.setInput(1, [1, 0, 0, 1] as [Int32])
        try engine.setInput(2, [Int32(1)])
        try engine.invoke()
        #expect(try engine.output(0, as: Float.self) == [0, 0, 0, 1, 2, 0, 3, 4, 0])
        #expect(engine.tensors[padded].shape == [3, 3])
        #expect(try engine.output(1, as: Float.self) == [1, 3])
        #expect(engine.tensors[expanded].shape == [2, 1, 2])
        try engine.setInput(2, [Int32(0)])
        try engine.invoke()
        #expect(try engine.output(1, as: Float.self) == [1, 2])
        #expect(engine.tensors[expanded].shape == [1, 2, 2])
    }
}
