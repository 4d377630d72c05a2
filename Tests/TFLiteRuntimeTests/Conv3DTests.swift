import Foundation
import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// CONV_3D and CONV_3D_TRANSPOSE against plain loops, at every kernel level the CPU runs
/// (BLAS at the portable level, the packed GEMM microkernels above it).
@Suite struct Conv3DTests {
    struct Spec {
        var input: [Int] // N, D, H, W, C
        var kernel: (Int, Int, Int)
        var outC: Int
        var strides = (1, 1, 1)
        var dilations = (1, 1, 1)
        var padding = Padding.same
        var activation = FusedActivation.none
        var bias = true
        var constantFilter = true

        var options: Conv3DOptions {
            Conv3DOptions(
                padding: padding, strideDepth: strides.0, strideHeight: strides.1, strideWidth: strides.2,
                activation: activation, dilationDepth: dilations.0, dilationHeight: dilations.1,
                dilationWidth: dilations.2)
        }
    }

    static func axes(_ s: Spec, _ input: [Int]) -> [(out: Int, pad: Int)] {
        let k = [s.kernel.0, s.kernel.1, s.kernel.2], st = [s.strides.0, s.strides.1, s.strides.2]
        let d = [s.dilations.0, s.dilations.1, s.dilations.2]
        return (0 ..< 3).map {
            referenceAxis(
                input: input[$0 + 1], filter: k[$0], stride: st[$0], dilation: d[$0], same: s.padding == .same)
        }
    }

    /// Direct CONV_3D over NDHWC / DHWIO.
    static func reference(_ s: Spec, x: [Float], w: [Float], b: [Float]) -> [Float] {
        let (n, id, ih, iw, ic) = (s.input[0], s.input[1], s.input[2], s.input[3], s.input[4])
        let a = axes(s, s.input)
        var y: [Float] = []
        for bi in 0 ..< n {
            for oz in 0 ..< a[0].out {
                for oy in 0 ..< a[1].out {
                    for ox in 0 ..< a[2].out {
                        for oc in 0 ..< s.outC {
                            var acc: Float = s.bias ? b[oc] : 0
                            for fz in 0 ..< s.kernel.0 {
                                let z = oz * s.strides.0 - a[0].pad + fz * s.dilations.0
                                for fy in 0 ..< s.kernel.1 {
                                    let yy = oy * s.strides.1 - a[1].pad + fy * s.dilations.1
                                    for fx in 0 ..< s.kernel.2 {
                                        let xx = ox * s.strides.2 - a[2].pad + fx * s.dilations.2
                                        guard z >= 0, z < id, yy >= 0, yy < ih, xx >= 0, xx < iw else { continue }
                                        for c in 0 ..< ic {
                                            let xv = x[(((bi * id + z) * ih + yy) * iw + xx) * ic + c]
                                            let wv = w[
                                                (((fz * s.kernel.1 + fy) * s.kernel.2 + fx) * ic + c) * s.outC + oc]
                                            acc += xv * wv
                                        }
                                    }
                                }
                            }
                            y.append(referenceClamp(acc, s.activation))
                        }
                    }
                }
            }
        }
        return y
    }

    func run(_ s: Spec, level: KernelLevel, threads: Int) throws -> (got: [Float], want: [Float]) {
        let ic = s.input[4]
        let x = seededFloats(s.input.reduce(1, *), seed: 1)
        let w = seededFloats(s.kernel.0 * s.kernel.1 * s.kernel.2 * ic * s.outC, seed: 2)
        let b = seededFloats(s.outC, seed: 3)
        var g = GraphBuilder()
        let xi = g.input(s.input, .float32)
        let wShape = [s.kernel.0, s.kernel.1, s.kernel.2, ic, s.outC]
        let wi = s.constantFilter ? g.constant(w, shape: wShape) : g.input(wShape, .float32)
        var ins = [xi, wi]
        if s.bias { ins.append(g.constant(b, shape: [s.outC])) }
        let a = Self.axes(s, s.input)
        let y = g.tensor([s.input[0], a[0].out, a[1].out, a[2].out, s.outC], .float32)
        g.op(.conv3D, inputs: ins, outputs: [y], options: .conv3D(s.options))
        g.output(y)
        let engine = try g.engine(threads: threads, level: level)
        try engine.allocate()
        try engine.setInput(0, x)
        if !s.constantFilter { try engine.setInput(1, w) }
        try engine.invoke()
        return (try engine.output(0, as: Float.self), Self.reference(s, x: x, w: w, b: b))
    }

    static let specs: [Spec] = [
        Spec(input: [1, 4, 5, 6, 3], kernel: (3, 3, 3), outC: 8),
        Spec(
            input: [2, 5, 4, 6, 2], kernel: (2, 3, 2), outC: 20, strides: (2, 1, 2), padding: .valid, activation: .relu),
        Spec(
            input: [1, 6, 5, 5, 3], kernel: (3, 2, 3), outC: 5, dilations: (2, 1, 2), activation: .relu6, bias: false),
        Spec(input: [1, 3, 4, 5, 7], kernel: (1, 1, 1), outC: 16, padding: .valid),
        Spec(input: [1, 4, 4, 4, 2], kernel: (2, 2, 2), outC: 9, constantFilter: false),
    ]

    @Test(arguments: 0 ..< specs.count)
    func conv3DMatchesDirectLoops(_ index: Int) throws {
        for level in QTest.levels {
            for threads in [1, 2] {
                let (got, want) = try run(Self.specs[index], level: level, threads: threads)
                expectClose(got, want, "spec \(index) at \(level), \(threads) threads")
            }
        }
    }

    /// Direct CONV_3D_TRANSPOSE: each input voxel scatters into the output.
    static func transposeReference(
        input: [Int], kernel: (Int, Int, Int), outShape: [Int], strides: (Int, Int, Int), dilations: (Int, Int, Int),
        pads: [Int], x: [Float], w: [Float], b: [Float]?
    ) -> [Float] {
        let (n, id, ih, iw, ic) = (input[0], input[1], input[2], input[3], input[4])
        let (od, oh, ow, oc) = (outShape[1], outShape[2], outShape[3], outShape[4])
        var y = [Float](repeating: 0, count: outShape.reduce(1, *))
        for bi in 0 ..< n {
            for z in 0 ..< id {
                for yy in 0 ..< ih {
                    for xx in 0 ..< iw {
                        for fz in 0 ..< kernel.0 {
                            let tz = z * strides.0 - pads[0] + fz * dilations.0
                            for fy in 0 ..< kernel.1 {
                                let ty = yy * strides.1 - pads[1] + fy * dilations.1
                                for fx in 0 ..< kernel.2 {
                                    let tx = xx * strides.2 - pads[2] + fx * dilations.2
                                    guard tz >= 0, tz < od, ty >= 0, ty < oh, tx >= 0, tx < ow else { continue }
                                    for o in 0 ..< oc {
                                        var acc: Float = 0
                                        for c in 0 ..< ic {
                                            acc +=
                                                x[(((bi * id + z) * ih + yy) * iw + xx) * ic + c]
                                                * w[(((fz * kernel.1 + fy) * kernel.2 + fx) * oc + o) * ic + c]
                                        }
                                        y[(((bi * od + tz) * oh + ty) * ow + tx) * oc + o] += acc
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        if let b { for i in y.indices { y[i] += b[i % oc] } }
        return y
    }

    @Test func conv3DTransposeMatchesScatterLoops() throws {
        // (input, kernel, output spatial, outC, strides, dilations, padding)
        let cases: [([Int], (Int, Int, Int), [Int], Int, (Int, Int, Int), (Int, Int, Int), Padding)] = [
            ([1, 3, 4, 5, 4], (3, 3, 3), [6, 8, 10], 8, (2, 2, 2), (1, 1, 1), .same),
            ([2, 3, 3, 4, 3], (2, 3, 2), [4, 5, 5], 17, (1, 1, 1), (1, 1, 1), .valid),
            ([1, 4, 5, 4, 2], (3, 2, 3), [4, 5, 4], 6, (1, 1, 1), (2, 1, 2), .same),
            ([1, 3, 3, 3, 4], (3, 3, 3), [5, 6, 5], 9, (2, 2, 2), (1, 1, 1), .same),
        ]
        for (input, kernel, spatial, oc, strides, dilations, padding) in cases {
            let outShape = [input[0]] + spatial + [oc]
            let x = seededFloats(input.reduce(1, *), seed: 4)
            let w = seededFloats(kernel.0 * kernel.1 * kernel.2 * oc * input[4], seed: 5)
            let b = seededFloats(oc, seed: 6)
            let k = [kernel.0, kernel.1, kernel.2], st = [strides.0, strides.1, strides.2]
            let d = [dilations.0, dilations.1, dilations.2]
            let pads = (0 ..< 3).map {
                referenceAxis(
                    input: spatial[$0], filter: k[$0], stride: st[$0], dilation: d[$0], same: padding == .same
                )
                .pad
            }
            let want = Self.transposeReference(
                input: input, kernel: kernel, outShape: outShape, strides: strides, dilations: dilations, pads: pads,
                x: x, w: w, b: b)
            for level in QTest.levels {
                var g = GraphBuilder()
                let s = g.constant(outShape.map { Int32($0) }, shape: [5])
                let wi = g.constant(w, shape: [kernel.0, kernel.1, kernel.2, oc, input[4]])
                let xi = g.input(input, .float32)
                let bi = g.constant(b, shape: [oc])
                let y = g.tensor(outShape, .float32)
                g.op(
                    .conv3DTranspose, inputs: [s, wi, xi, bi], outputs: [y],
                    options: .conv3D(
                        Conv3DOptions(
                            padding: padding, strideDepth: strides.0, strideHeight: strides.1, strideWidth: strides.2,
                            dilationDepth: dilations.0, dilationHeight: dilations.1, dilationWidth: dilations.2)))
                g.output(y)
                for threads in [1, 2] {
                    let engine = try g.engine(threads: threads, level: level)
                    try engine.allocate()
                    try engine.setInput(0, x)
                    try engine.invoke()
                    expectClose(try engine.output(0, as: Float.self), want, "\(input) at \(level)")
                }
            }
        }
    }

    @Test func conv3DTransposeTakesAnOutputShapeComputedAtRunTime() throws {
        let w = seededFloats(8 * 2 * 3, seed: 7)
        let x = seededFloats(27 * 3, seed: 8)
        func run(_ outShape: [Int32], dynamic: Bool) throws -> (values: [Float], shape: [Int]) {
            var g = GraphBuilder()
            let s = dynamic ? g.input([5], .int32) : g.constant(outShape, shape: [5])
            let wi = g.constant(w, shape: [2, 2, 2, 2, 3])
            let xi = g.input([1, 3, 3, 3, 3], .float32)
            let y = g.tensor([1, 1, 1, 1, 2], .float32)
            g.op(
                .conv3DTranspose, inputs: [s, wi, xi], outputs: [y],
                options: .conv3D(Conv3DOptions(padding: .same, strideDepth: 2, strideHeight: 2, strideWidth: 2)))
            g.output(y)
            let engine = try g.engine()
            try engine.allocate()
            if dynamic {
                try engine.setInput(0, outShape)
                try engine.setInput(1, x)
            } else {
                try engine.setInput(0, x)
            }
            try engine.invoke()
            return (try engine.output(0, as: Float.self), engine.outputShape(0))
        }
        // SAME with stride 2 maps both 5 and 6 onto 3.
        for out: [Int32] in [[1, 5, 6, 5, 2], [1, 6, 6, 6, 2]] {
            let dynamic = try run(out, dynamic: true)
            #expect(dynamic.shape == out.map(Int.init))
            #expect(dynamic.values == (try run(out, dynamic: false)).values)
        }
        #expect(throws: RuntimeError.self) { try run([1, 7, 6, 6, 2], dynamic: true) }
    }

    func conv3DGraph(input: [Int], filter: [Int], options: Conv3DOptions, type: ElementType = .float32) -> GraphBuilder
    {
        var g = GraphBuilder()
        let x = g.input(input, type)
        let w = g.constant([Float](repeating: 0.5, count: filter.reduce(1, *)), shape: filter)
        let y = g.tensor([1], type)
        g.op(.conv3D, inputs: [x, w], outputs: [y], options: .conv3D(options))
        g.output(y)
        return g
    }

    @Test func badGeometriesAreTypedErrors() {
        let plain = Conv3DOptions(padding: .same, strideDepth: 1, strideHeight: 1, strideWidth: 1)
        expectInvalid(conv3DGraph(input: [1, 4, 4, 3], filter: [1, 1, 1, 3, 2], options: plain), "rank 5")
        expectInvalid(conv3DGraph(input: [1, 4, 4, 4, 3], filter: [1, 1, 1, 2, 2], options: plain), "input channels")
        var huge = plain
        huge.dilationDepth = Int(Int32.max)
        expectInvalid(conv3DGraph(input: [1, 4, 4, 4, 3], filter: [3, 1, 1, 3, 2], options: huge), "overflows")
        var zero = plain
        zero.strideHeight = 0
        expectInvalid(conv3DGraph(input: [1, 4, 4, 4, 3], filter: [1, 1, 1, 3, 2], options: zero), "must be positive")
        var valid = plain
        valid.padding = .valid
        expectInvalid(conv3DGraph(input: [1, 2, 4, 4, 3], filter: [3, 1, 1, 3, 2], options: valid), "empty")
        expectUnsupportedTypes(
            conv3DGraph(input: [1, 4, 4, 4, 3], filter: [1, 1, 1, 3, 2], options: plain, type: .int8))

        // CONV_3D_TRANSPOSE: an output shape that does not map back onto the input.
        var g = GraphBuilder()
        let s = g.constant([Int32(1), 5, 5, 5, 2], shape: [5])
        let w = g.constant([Float](repeating: 1, count: 8 * 2 * 3), shape: [2, 2, 2, 2, 3])
        let x = g.input([1, 3, 3, 3, 3], .float32)
        let y = g.tensor([1, 5, 5, 5, 2], .float32)
        g.op(
            .conv3DTranspose, inputs: [s, w, x], outputs: [y],
            options: .conv3D(Conv3DOptions(padding: .valid, strideDepth: 1, strideHeight: 1, strideWidth: 1)))
        g.output(y)
        expectInvalid(g, "does not match the input")

    }
}
