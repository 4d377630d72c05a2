import Benchmark
import TFLiteModel
import TFLiteRuntime

// One benchmark per (kernel, shape, kernel level, thread count), named
// "<kernel> <level> t<threads>". Each runs a one-operator in-memory model through
// `Engine.invoke()`, so what is timed is exactly what a real model pays for that layer
// (kernel eval plus the engine's per-step overhead, which is tiny). Every level the host
// CPU runs is measured, so that a table shows what each level's kernels gain and how far
// each is from that level's own peak.
//
// Shapes are those of MobileNet v1 1.0 224 (v1), MobileNet v2 1.0 224 (v2) and the
// SSD MobileNet post-processing (1917 anchors, 90 classes + background).
//
// int8 and legacy uint8 CONV_2D, DEPTHWISE_CONV_2D and int8 FULLY_CONNECTED are in
// QuantizedBenchmarks.swift. Quantized kernels still to add, on the same shapes as their
// float twins: int8 AVERAGE_POOL_2D 7x7 and MEAN, int8 SOFTMAX 1x1001, int8 ADD 56x56x24
// (v2 residual), uint8 TFLite_Detection_PostProcess with 1917 anchors.

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .instructions],
        timeUnits: .microseconds,
        warmupIterations: 3,
        maxDuration: .seconds(2),
        maxIterations: 200)
    for threads in [1, 2] {
        registerConvolutions(threads: threads)
        registerDepthwise(threads: threads)
        registerPoolingAndHeads(threads: threads)
        registerDetection(threads: threads)
        registerQuantized(threads: threads)
        registerLegacyUInt8(threads: threads)
    }
}

/// Holds the engine built in `setup` (so only the selected benchmarks build models).
final class EngineSlot: @unchecked Sendable {
    var engine: Engine?
}

/// Arithmetic rate of the kernels that multiply-accumulate: 2 × the multiply-accumulates
/// the engine counts for the operator (`Engine.work`), per second, in MFLOP/s (MOP/s for
/// 8-bit kernels). Other kernels do not report it (NMS declares comparisons as its work,
/// which are not arithmetic).
let arithmeticRate = BenchmarkMetric.custom("MFLOP/s", polarity: .prefersLarger, useScalingFactor: false)

/// The kernel levels benchmarked: every one this CPU can execute (an engine would
/// silently lower a higher one, and the benchmark would then be mislabeled).
let benchmarkedLevels = KernelLevel.allCases.filter { $0 <= KernelLevel.host }

/// Registers `name` running the model `build` makes once per level in
/// ``benchmarkedLevels``, each suffixed with the level and the thread count.
func register(
    _ name: String, threads: Int, build: @escaping @Sendable (inout BenchGraph) -> Void,
    prepare: (@Sendable (Engine) -> Void)? = nil
) {
    for level in benchmarkedLevels {
        register(name, level: level, threads: threads, build: build, prepare: prepare)
    }
}

private func register(
    _ name: String, level: KernelLevel, threads: Int,
    build: @escaping @Sendable (inout BenchGraph) -> Void,
    prepare: (@Sendable (Engine) -> Void)?
) {
    let slot = EngineSlot()
    var configuration = Benchmark.defaultConfiguration
    configuration.metrics += [arithmeticRate]
    Benchmark(
        "\(name) \(level) t\(threads)", configuration: configuration,
        closure: { benchmark in
            guard let engine = slot.engine else {
                benchmark.error("\(name): the engine was not built")
                return
            }
            let clock = ContinuousClock()
            let start = clock.now
            var count = 0
            for _ in benchmark.scaledIterations {
                do {
                    try engine.invoke()
                } catch {
                    benchmark.error("\(name): \(error)")
                    return
                }
                count += 1
            }
            let elapsed = clock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            if engine.work > 0, seconds > 0, !name.hasPrefix("detection") {
                benchmark.measurement(arithmeticRate, Int(2 * Double(engine.work) * Double(count) / seconds / 1e6))
            }
        },
        setup: {
            var g = BenchGraph()
            build(&g)
            let engine = try g.engine(threads: threads, level: level)
            prepare?(engine)
            slot.engine = engine
        },
        teardown: {
            slot.engine = nil
        })
}

// MARK: - CONV_2D

/// `[1, h, w, inC]` → CONV_2D `k`x`k` stride `s`, SAME, fused `activation`, with bias.
func conv(
    _ g: inout BenchGraph, h: Int, w: Int, inC: Int, outC: Int, k: Int = 1, s: Int = 1,
    activation: FusedActivation = .relu6
) {
    let x = g.input([1, h, w, inC])
    let weights = g.randomConstant([outC, k, k, inC], scale: 0.1)
    let bias = g.randomConstant([outC], scale: 0.1)
    let oh = (h + s - 1) / s, ow = (w + s - 1) / s
    let y = g.tensor([1, oh, ow, outC])
    g.op(
        .conv2D, [x, weights, bias], [y],
        .conv2D(Conv2DOptions(padding: .same, strideWidth: s, strideHeight: s, activation: activation)))
    g.output(y)
}

func registerConvolutions(threads: Int) {
    // (name, h, w, inC, outC, k, s, activation)
    let shapes: [(String, Int, Int, Int, Int, Int, Int, FusedActivation)] = [
        ("conv 3x3/2 224x224x3->32 (v1,v2 stem)", 224, 224, 3, 32, 3, 2, .relu6),
        ("conv 1x1 112x112 32->64 (v1)", 112, 112, 32, 64, 1, 1, .relu6),
        ("conv 1x1 56x56 128->128 (v1)", 56, 56, 128, 128, 1, 1, .relu6),
        ("conv 1x1 28x28 256->256 (v1)", 28, 28, 256, 256, 1, 1, .relu6),
        ("conv 1x1 14x14 512->512 (v1, x5)", 14, 14, 512, 512, 1, 1, .relu6),
        ("conv 1x1 7x7 1024->1024 (v1)", 7, 7, 1024, 1024, 1, 1, .relu6),
        ("conv 1x1 1x1 1024->1000 (v1 logits)", 1, 1, 1024, 1000, 1, 1, .none),
        ("conv 1x1 112x112 16->96 (v2 expand)", 112, 112, 16, 96, 1, 1, .relu6),
        ("conv 1x1 56x56 144->24 (v2 project)", 56, 56, 144, 24, 1, 1, .none),
        ("conv 1x1 14x14 64->384 (v2 expand)", 14, 14, 64, 384, 1, 1, .relu6),
        ("conv 1x1 7x7 160->960 (v2 expand)", 7, 7, 160, 960, 1, 1, .relu6),
        ("conv 1x1 7x7 320->1280 (v2 head)", 7, 7, 320, 1280, 1, 1, .relu6),
    ]
    for (name, h, w, inC, outC, k, s, activation) in shapes {
        register(name, threads: threads) { g in
            conv(&g, h: h, w: w, inC: inC, outC: outC, k: k, s: s, activation: activation)
        }
    }
}

// MARK: - DEPTHWISE_CONV_2D

func registerDepthwise(threads: Int) {
    // (name, h, w, channels, stride)
    let shapes: [(String, Int, Int, Int, Int)] = [
        ("dw 3x3/1 112x112x32 (v1,v2)", 112, 112, 32, 1),
        ("dw 3x3/2 112x112x64 (v1)", 112, 112, 64, 2),
        ("dw 3x3/1 56x56x128 (v1)", 56, 56, 128, 1),
        ("dw 3x3/1 14x14x512 (v1, x5)", 14, 14, 512, 1),
        ("dw 3x3/1 7x7x1024 (v1)", 7, 7, 1024, 1),
        ("dw 3x3/2 112x112x96 (v2)", 112, 112, 96, 2),
        ("dw 3x3/1 56x56x144 (v2)", 56, 56, 144, 1),
        ("dw 3x3/1 7x7x960 (v2)", 7, 7, 960, 1),
    ]
    for (name, h, w, c, s) in shapes {
        register(name, threads: threads) { g in
            let x = g.input([1, h, w, c])
            let weights = g.randomConstant([1, 3, 3, c], scale: 0.3)
            let bias = g.randomConstant([c], scale: 0.1)
            let y = g.tensor([1, (h + s - 1) / s, (w + s - 1) / s, c])
            g.op(
                .depthwiseConv2D, [x, weights, bias], [y],
                .depthwiseConv2D(
                    DepthwiseConv2DOptions(
                        padding: .same, strideWidth: s, strideHeight: s,
                        depthMultiplier: 1, activation: .relu6)))
            g.output(y)
        }
    }
}

// MARK: - Pooling, classifier heads, elementwise

func registerPoolingAndHeads(threads: Int) {
    register("avgpool 7x7 7x7x1024 (v1)", threads: threads) { g in
        let x = g.input([1, 7, 7, 1024]), y = g.tensor([1, 1, 1, 1024])
        g.op(
            .averagePool2D, [x], [y],
            .pool2D(
                Pool2DOptions(
                    padding: .valid, strideWidth: 1, strideHeight: 1,
                    filterWidth: 7, filterHeight: 7, activation: .none)))
        g.output(y)
    }
    register("maxpool 2x2/2 64x64x48 (BlazeFace-like)", threads: threads) { g in
        let x = g.input([1, 64, 64, 48]), y = g.tensor([1, 32, 32, 48])
        g.op(
            .maxPool2D, [x], [y],
            .pool2D(
                Pool2DOptions(
                    padding: .valid, strideWidth: 2, strideHeight: 2,
                    filterWidth: 2, filterHeight: 2, activation: .none)))
        g.output(y)
    }
    register("fc 1x1280->1000 (v2 logits)", threads: threads) { g in
        let x = g.input([1, 1280])
        let weights = g.randomConstant([1000, 1280], scale: 0.05), bias = g.randomConstant([1000], scale: 0.1)
        let y = g.tensor([1, 1000])
        g.op(.fullyConnected, [x, weights, bias], [y], .fullyConnected(FullyConnectedOptions(activation: .none)))
        g.output(y)
    }
    register("softmax 1x1001", threads: threads) { g in
        let x = g.input([1, 1001]), y = g.tensor([1, 1001])
        g.op(.softmax, [x], [y], .softmax(beta: 1))
        g.output(y)
    }
    register("add 56x56x24 (v2 residual)", threads: threads) { g in
        let a = g.input([1, 56, 56, 24]), b = g.input([1, 56, 56, 24]), y = g.tensor([1, 56, 56, 24])
        g.op(.add, [a, b], [y], .add(activation: .none, potScaleInt16: true))
        g.output(y)
    }
    register("relu6 112x112x32", threads: threads) { g in
        let x = g.input([1, 112, 112, 32]), y = g.tensor([1, 112, 112, 32])
        g.op(.relu6, [x], [y])
        g.output(y)
    }
}

// MARK: - Detection post-processing

/// SSD MobileNet's TFLite_Detection_PostProcess: 1917 anchors (SSD MobileNet v1/v2 300)
/// and 2034 (SSD MobileNet v2 FPN-lite 320), 90 classes + background, fast
/// (class-agnostic) NMS, 10 detections. Scores are uniform in [0, 1).
func registerDetection(threads: Int) {
    for anchors in [1917, 2034] { registerDetection(anchors: anchors, threads: threads) }
}

func registerDetection(anchors: Int, threads: Int) {
    let columns = 91
    let options = FlexMap.encode([
        ("max_detections", .int(10)), ("max_classes_per_detection", .int(1)),
        ("nms_score_threshold", .float(1e-8)), ("nms_iou_threshold", .float(0.6)),
        ("num_classes", .int(Int64(columns - 1))),
        ("y_scale", .float(10)), ("x_scale", .float(10)), ("h_scale", .float(5)), ("w_scale", .float(5)),
        ("use_regular_nms", .bool(false)),
    ])
    register(
        "detection postprocess \(anchors)x91 fast NMS", threads: threads,
        build: { g in
            let boxes = g.input([1, anchors, 4]), scores = g.input([1, anchors, columns])
            var random = SeededFloats(seed: 0xA11C)
            var anchorValues: [Float] = []
            for _ in 0 ..< anchors {
                // (y, x, h, w): centers in [0, 1), sizes in [0.05, 0.35).
                anchorValues += [
                    random.next() * 0.5 + 0.5, random.next() * 0.5 + 0.5,
                    random.next() * 0.15 + 0.2, random.next() * 0.15 + 0.2,
                ]
            }
            let anchorTensor = g.constant(anchorValues, shape: [anchors, 4])
            let outs = [g.tensor([1, 10, 4]), g.tensor([1, 10]), g.tensor([1, 10]), g.tensor([1])]
            g.customOp("TFLite_Detection_PostProcess", [boxes, scores, anchorTensor], outs, options: options)
            for o in outs { g.output(o) }
        },
        prepare: { engine in
            // Sigmoid-like scores in [0, 1) instead of the default [-1, 1).
            guard let buffer = engine.buffer(forTensor: engine.inputs[1]) else { return }
            let floats = buffer.bindMemory(to: Float.self)
            for i in floats.indices { floats[i] = floats[i] * 0.5 + 0.5 }
        })
}
