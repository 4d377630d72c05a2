import Benchmark
import TFLiteModel
import TFLiteRuntime

// int8 twins of the float convolution benchmarks, quantized as TF2 full-integer
// conversion does: int8 activations (zero point -128), per-channel symmetric int8
// weights, int32 biases with scale input·weight.

private let inputScale: Float = 0.02, outputScale: Float = 0.05

private func activationQuantization(_ scale: Float) -> Quantization {
    Quantization(scales: [scale], zeroPoints: [-128])
}

/// Per-channel weight scales along `axis` and the matching int32 bias.
private func weightsAndBias(_ g: inout BenchGraph, shape: [Int], axis: Int) -> (Int, Int) {
    let channels = shape[axis]
    let scales = (0 ..< channels).map { Float(0.002 + 0.0001 * Double($0 % 7)) }
    let weights = g.randomInt8Constant(
        shape,
        quantization: Quantization(
            scales: scales, zeroPoints: [Int64](repeating: 0, count: channels),
            quantizedDimension: axis))
    let biasValues = (0 ..< channels).map { Int32(($0 * 37) % 2001) - 1000 }
    let bias = g.int32Constant(
        biasValues, shape: [channels],
        quantization: Quantization(
            scales: scales.map { $0 * inputScale },
            zeroPoints: [Int64](repeating: 0, count: channels)))
    return (weights, bias)
}

func registerQuantized(threads: Int) {
    let convs: [(String, Int, Int, Int, Int, Int, Int)] = [
        ("int8 conv 3x3/2 224x224x3->32 (v1,v2 stem)", 224, 224, 3, 32, 3, 2),
        ("int8 conv 1x1 112x112 32->64 (v1)", 112, 112, 32, 64, 1, 1),
        ("int8 conv 1x1 56x56 128->128 (v1)", 56, 56, 128, 128, 1, 1),
        ("int8 conv 1x1 14x14 512->512 (v1, x5)", 14, 14, 512, 512, 1, 1),
        ("int8 conv 1x1 7x7 1024->1024 (v1)", 7, 7, 1024, 1024, 1, 1),
        ("int8 conv 1x1 112x112 16->96 (v2 expand)", 112, 112, 16, 96, 1, 1),
    ]
    for (name, h, w, inC, outC, k, s) in convs {
        register(name, threads: threads) { g in
            let x = g.input([1, h, w, inC], .int8, quantization: activationQuantization(inputScale))
            let (weights, bias) = weightsAndBias(&g, shape: [outC, k, k, inC], axis: 0)
            let y = g.tensor(
                [1, (h + s - 1) / s, (w + s - 1) / s, outC], .int8, quantization: activationQuantization(outputScale))
            g.op(
                .conv2D, [x, weights, bias], [y],
                .conv2D(Conv2DOptions(padding: .same, strideWidth: s, strideHeight: s, activation: .relu6)))
            g.output(y)
        }
    }
    let depthwise: [(String, Int, Int, Int, Int)] = [
        ("int8 dw 3x3/1 112x112x32 (v1,v2)", 112, 112, 32, 1),
        ("int8 dw 3x3/2 112x112x64 (v1)", 112, 112, 64, 2),
        ("int8 dw 3x3/1 56x56x128 (v1)", 56, 56, 128, 1),
        ("int8 dw 3x3/1 14x14x512 (v1, x5)", 14, 14, 512, 1),
    ]
    for (name, h, w, c, s) in depthwise {
        register(name, threads: threads) { g in
            let x = g.input([1, h, w, c], .int8, quantization: activationQuantization(inputScale))
            let (weights, bias) = weightsAndBias(&g, shape: [1, 3, 3, c], axis: 3)
            let y = g.tensor(
                [1, (h + s - 1) / s, (w + s - 1) / s, c], .int8, quantization: activationQuantization(outputScale))
            g.op(
                .depthwiseConv2D, [x, weights, bias], [y],
                .depthwiseConv2D(
                    DepthwiseConv2DOptions(
                        padding: .same, strideWidth: s, strideHeight: s,
                        depthMultiplier: 1, activation: .relu6)))
            g.output(y)
        }
    }
    register("int8 fc 1x1280->1000 (v2 logits)", threads: threads) { g in
        let x = g.input([1, 1280], .int8, quantization: activationQuantization(inputScale))
        let (weights, bias) = weightsAndBias(&g, shape: [1000, 1280], axis: 0)
        let y = g.tensor([1, 1000], .int8, quantization: activationQuantization(outputScale))
        g.op(.fullyConnected, [x, weights, bias], [y], .fullyConnected(FullyConnectedOptions(activation: .none)))
        g.output(y)
    }
}

// Legacy uint8 twins (TF1 quantization-aware training): uint8 activations and weights,
// asymmetric and per tensor, int32 biases with scale input·weight.

private let uint8Activation = Quantization(scales: [0.02], zeroPoints: [128])
private let uint8Output = Quantization(scales: [0.05], zeroPoints: [120])

private func uint8WeightsAndBias(_ g: inout BenchGraph, shape: [Int], channels: Int) -> (Int, Int) {
    let weights = g.randomUInt8Constant(shape, quantization: Quantization(scales: [0.003], zeroPoints: [131]))
    let biasValues = (0 ..< channels).map { Int32(($0 * 37) % 2001) - 1000 }
    let bias = g.int32Constant(
        biasValues, shape: [channels], quantization: Quantization(scales: [0.003 * 0.02], zeroPoints: [0]))
    return (weights, bias)
}

func registerLegacyUInt8(threads: Int) {
    let convs: [(String, Int, Int, Int, Int)] = [
        ("uint8 conv 1x1 112x112 32->64 (v1)", 112, 112, 32, 64),
        ("uint8 conv 1x1 56x56 128->128 (v1)", 56, 56, 128, 128),
        ("uint8 conv 1x1 14x14 512->512 (v1, x5)", 14, 14, 512, 512),
    ]
    for (name, h, w, inC, outC) in convs {
        register(name, threads: threads) { g in
            let x = g.input([1, h, w, inC], .uint8, quantization: uint8Activation)
            let (weights, bias) = uint8WeightsAndBias(&g, shape: [outC, 1, 1, inC], channels: outC)
            let y = g.tensor([1, h, w, outC], .uint8, quantization: uint8Output)
            g.op(
                .conv2D, [x, weights, bias], [y],
                .conv2D(Conv2DOptions(padding: .same, strideWidth: 1, strideHeight: 1, activation: .relu6)))
            g.output(y)
        }
    }
    let depthwise: [(String, Int, Int, Int, Int)] = [
        ("uint8 dw 3x3/1 112x112x32 (v1,v2)", 112, 112, 32, 1),
        ("uint8 dw 3x3/1 56x56x128 (v1)", 56, 56, 128, 1),
    ]
    for (name, h, w, c, s) in depthwise {
        register(name, threads: threads) { g in
            let x = g.input([1, h, w, c], .uint8, quantization: uint8Activation)
            let (weights, bias) = uint8WeightsAndBias(&g, shape: [1, 3, 3, c], channels: c)
            let y = g.tensor([1, (h + s - 1) / s, (w + s - 1) / s, c], .uint8, quantization: uint8Output)
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
