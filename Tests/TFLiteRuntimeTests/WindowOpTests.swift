import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// DILATE, REDUCE_WINDOW, STABLEHLO_PAD and L2_POOL_2D on hand-worked values
/// (spec/window-ops.md), and their typed errors.
@Suite struct WindowOpTests {
    @Test func dilateSpreadsElementsAndFillsGaps() throws {
        var g = GraphBuilder()
        let x = g.input([2, 3], .int32)
        let d = g.constant([Int32(2), 3], shape: [2])
        let v = g.constant([Int32(-1)], shape: [])
        let y = g.tensor([3, 7], .int32)
        g.op(.dilate, inputs: [x, d, v], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3, 4, 5, 6] as [Int32])
        try engine.invoke()
        #expect(engine.outputShape(0) == [3, 7])
        #expect(
            try engine.output(0, as: Int32.self) == [
                1, -1, -1, 2, -1, -1, 3,
                -1, -1, -1, -1, -1, -1, -1,
                4, -1, -1, 5, -1, -1, 6,
            ])
    }

    @Test func dilateWithRunTimeFactors() throws {
        var g = GraphBuilder()
        let x = g.input([2, 2], .float32)
        let d = g.input([2], .int32)
        let v = g.constant([Float(9)], shape: [])
        let y = g.tensor([1, 1], .float32)
        g.op(.dilate, inputs: [x, d, v], outputs: [y])
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3, 4] as [Float])
        try engine.setInput(1, [1, 2] as [Int32])
        try engine.invoke()
        #expect(engine.outputShape(0) == [2, 3])
        #expect(try engine.output(0, as: Float.self) == [1, 9, 2, 3, 9, 4])
    }

    func reduceWindow<T>(
        _ x: [T], shape: [Int], type: ElementType, initial: T, window: [Int64], strides: [Int64], dilations: [Int64],
        function: Int32
    ) throws -> (values: [T], shape: [Int]) {
        var g = GraphBuilder()
        let xi = g.input(shape, type)
        let iv = g.constant([initial], shape: [], type)
        let w = g.constant(window, shape: [window.count], .int64)
        let s = g.constant(strides, shape: [strides.count], .int64)
        let d = g.constant(dilations, shape: [dilations.count], .int64)
        let y = g.tensor([1], type)
        g.op(.reduceWindow, inputs: [xi, iv, w, s, d], outputs: [y], options2: .reduceWindow(function: function))
        g.output(y)
        let engine = try g.engine(threads: 2)
        try engine.allocate()
        try engine.setInput(0, x)
        try engine.invoke()
        return (try engine.output(0, as: T.self), engine.outputShape(0))
    }

    @Test func reduceWindowFoldsDilatedStridedWindows() throws {
        // 1×6 input, window 2 with dilation 2, stride 1: windows (0,2), (1,3), (2,4), (3,5).
        let x: [Float] = [1, 2, 3, 4, 5, 6]
        let add = try reduceWindow(
            x, shape: [1, 6], type: .float32, initial: 10, window: [1, 2], strides: [1, 1], dilations: [1, 2],
            function: 1)
        #expect(add.shape == [1, 4])
        #expect(add.values == [14, 16, 18, 20])
        let mul = try reduceWindow(
            [2, 3, 4, 5] as [Int8], shape: [4], type: .int8, initial: 1, window: [2], strides: [2], dilations: [1],
            function: 2)
        #expect(mul.values == [6, 20])
        // int8 products wrap: 100 · 100 = 10000 ≡ 16 (mod 256).
        let wrap = try reduceWindow(
            [100, 100] as [Int8], shape: [2], type: .int8, initial: 1, window: [2], strides: [1], dilations: [1],
            function: 2)
        #expect(wrap.values == [16])
        let any = try reduceWindow(
            [0, 0, 1, 0] as [UInt8], shape: [4], type: .bool, initial: 0, window: [2], strides: [1], dilations: [1],
            function: 6)
        #expect(any.values == [0, 1, 1])
        // A window larger than the input leaves that dimension empty.
        let none = try reduceWindow(
            x, shape: [6], type: .float32, initial: 0, window: [4], strides: [1], dilations: [2], function: 4)
        #expect(none.shape == [0])
        // MINIMUM keeps TFLite's comparison: a NaN element replaces the accumulator, a NaN
        // accumulator is then replaced by the next element.
        let nan = try reduceWindow(
            [Float.nan, 3, 1], shape: [3], type: .float32, initial: 5, window: [3], strides: [1], dilations: [1],
            function: 3)
        #expect(nan.values == [1])
    }

    @Test func stablehloPadCropsAndInterleaves() throws {
        var g = GraphBuilder()
        let x = g.input([2, 3], .int16)
        let v = g.constant([Int16(0)], shape: [], .int16)
        let y = g.tensor([1], .int16)
        g.op(
            .stablehloPad, inputs: [x, v], outputs: [y],
            options2: .stablehloPad(low: [1, -1], high: [0, 1], interior: [1, 1]))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3, 4, 5, 6] as [Int16])
        try engine.invoke()
        // Rows: pad, 1st, interior, 2nd. Columns of [a 0 b 0 c] with the first dropped, one added.
        #expect(engine.outputShape(0) == [4, 5])
        #expect(
            try engine.output(0, as: Int16.self) == [
                0, 0, 0, 0, 0,
                0, 2, 0, 3, 0,
                0, 0, 0, 0, 0,
                0, 5, 0, 6, 0,
            ])
    }

    @Test func l2PoolIsRootMeanSquare() throws {
        var g = GraphBuilder()
        let x = g.input([1, 2, 3, 1], .float32)
        let y = g.tensor([1, 1, 2, 1], .float32)
        g.op(
            .l2Pool2D, inputs: [x], outputs: [y],
            options: .pool2D(
                Pool2DOptions(
                    padding: .same, strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2,
                    activation: .none)))
        g.output(y)
        let engine = try g.engine()
        try engine.allocate()
        try engine.setInput(0, [1, 2, 3, 4, 5, 6] as [Float])
        try engine.invoke()
        let got = try engine.output(0, as: Float.self)
        expectClose(got, [((1 + 4 + 16 + 25) / 4 as Float).squareRoot(), ((9 + 36) / 2 as Float).squareRoot()])
    }

    @Test func badWindowsAndPaddingsAreTypedErrors() {
        func window(_ w: [Int64], _ s: [Int64], _ d: [Int64], shape: [Int] = [4, 4], function: Int32 = 1)
            -> GraphBuilder
        {
            var g = GraphBuilder()
            let x = g.input(shape, .float32)
            let iv = g.constant([Float(0)], shape: [])
            let wi = g.constant(w, shape: [w.count], .int64)
            let si = g.constant(s, shape: [s.count], .int64)
            let di = g.constant(d, shape: [d.count], .int64)
            let y = g.tensor([1], .float32)
            g.op(.reduceWindow, inputs: [x, iv, wi, si, di], outputs: [y], options2: .reduceWindow(function: function))
            g.output(y)
            return g
        }
        expectInvalid(window([2, 2], [1, 1], [1, 0]), "out of range")
        let big = Int64(Int32.max)
        expectInvalid(
            window(
                [big, big, big, big, big, big], [1, 1, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1], shape: [1, 1, 1, 1, 1, 1]),
            "too large")
        expectInvalid(window([2, 2, 2], [1, 1, 1], [1, 1, 1]), "vector of 2 values")
        expectInvalid(window([2, 2], [1, 1], [1, 1], function: 0), "reduce_function 0")
        expectInvalid(window([1], [1], [1], shape: [1, 1, 1, 1, 1, 1, 1]), "rank 1...6")

        var d = GraphBuilder()
        let x = d.input([2, 3], .float32)
        let f = d.constant([Int32(0), 1], shape: [2])
        let v = d.constant([Float(0)], shape: [])
        let y = d.tensor([1], .float32)
        d.op(.dilate, inputs: [x, f, v], outputs: [y])
        d.output(y)
        expectInvalid(d, "must be ≥ 1")

        var o = GraphBuilder()
        let xo = o.input([2, 3], .float32)
        let fo = o.constant([Int32(Int32.max), 2], shape: [2])
        let vo = o.constant([Float(0)], shape: [])
        let yo = o.tensor([1], .float32)
        o.op(.dilate, inputs: [xo, fo, vo], outputs: [yo])
        o.output(yo)
        expectInvalid(o, "overflows")

        var p = GraphBuilder()
        let xp = p.input([2, 3], .float32)
        let vp = p.constant([Float(0)], shape: [])
        let yp = p.tensor([1], .float32)
        p.op(
            .stablehloPad, inputs: [xp, vp], outputs: [yp],
            options2: .stablehloPad(low: [0], high: [0, 0], interior: [0, 0]))
        p.output(yp)
        expectInvalid(p, "padding needs 2 values")

        var q = GraphBuilder()
        let xq = q.input([2, 3], .float32)
        let vq = q.constant([Float(0)], shape: [])
        let yq = q.tensor([1], .float32)
        q.op(
            .stablehloPad, inputs: [xq, vq], outputs: [yq],
            options2: .stablehloPad(low: [0, 0], high: [0, 0], interior: [-1, 0]))
        q.output(yq)
        expectInvalid(q, "negative")

        var l = GraphBuilder()
        let xl = l.input([1, 4, 4, 1], .int8, quantization: Quantization(scales: [0.1], zeroPoints: [0]))
        let yl = l.tensor([1, 2, 2, 1], .int8, quantization: Quantization(scales: [0.1], zeroPoints: [0]))
        l.op(
            .l2Pool2D, inputs: [xl], outputs: [yl],
            options: .pool2D(
                Pool2DOptions(
                    padding: .valid, strideWidth: 2, strideHeight: 2, filterWidth: 2, filterHeight: 2, activation: .none
                )))
        l.output(yl)
        expectUnsupportedTypes(l)
    }
}
