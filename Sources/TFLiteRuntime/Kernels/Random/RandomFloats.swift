#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteModel

/// RANDOM_UNIFORM and RANDOM_STANDARD_NORMAL: float32 tensors of the shape given by input 0
/// (an int32 vector), filled from the operator's Philox stream (``PhiloxStream``).
///
/// Each Philox block (four words) gives four outputs in order; the words left over from
/// the last block of an invoke are dropped, so an invoke of `n` outputs uses `⌈n / 4⌉`
/// blocks. Uniform: ``RandomBits/unitFloat(_:)`` of each word, in `[0, 1)`. Normal: the
/// Box-Muller transform of each pair of words `(u, v)` → `(r·sin θ, r·cos θ)` with
/// `r = sqrt(-2 ln max(u, 1e-7))` and `θ = 2π·v` (spec/random.md).
enum RandomFloats {
    enum Distribution: Sendable { case uniform, normal }

    static func prepare(_ distribution: Distribution) -> KernelPrepare {
        return { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
            try context.expectCounts(inputs: 1, outputs: 1)
            let shapeTensor = try context.input(0)
            let output = try context.output(0)
            guard shapeTensor.type == .int32, shapeTensor.rank == 1 else {
                throw .invalid(
                    "the shape (input 0) must be an int32 vector, found \(shapeTensor.type) \(shapeTensor.shape)")
            }
            guard output.type == .float32 else { throw context.unsupportedTypes() }
            let stream = try PhiloxStream.seeded(context.op.options)
            if let constant = shapeTensor.constant, let base = constant.bytes.baseAddress {
                let shape = try readShapeVector(base, count: shapeTensor.elementCount, wide: false)
                try context.setOutputShape(0, shape)
                return RandomFloatsKernel(
                    output: output.index, count: shape.reduce(1, *), distribution: distribution, stream: stream)
            }
            return RandomFloatsDynamic(
                kernel: RandomFloatsKernel(output: output.index, count: 0, distribution: distribution, stream: stream),
                shapeTensor: shapeTensor.index, rank: shapeTensor.elementCount,
                outputElementSize: 4)
        }
    }
}

struct RandomFloatsKernel: StatefulKernel {
    let output: Int
    /// Output elements when the shape is known at prepare (unused by ``RandomFloatsDynamic``).
    let count: Int
    let distribution: RandomFloats.Distribution
    let stream: PhiloxStream

    /// Blocks per parallel chunk below which one thread does all.
    static let minimumBlocks = 1 << 12

    func eval(_ context: EvalContext) throws(KernelError) {
        fill(context, count: count)
    }

    func fill(_ context: EvalContext, count: Int) {
        let y = context.pointer(output, as: Float.self)
        let start = stream.generator
        let blocks = (count + 3) / 4
        let distribution = self.distribution
        context.parallel.forEachChunk(blocks, minimumChunk: Self.minimumBlocks) { range in
            var generator = start
            generator.skip(UInt64(range.lowerBound))
            for block in range {
                let words = generator.next()
                let first = block * 4
                let n = Swift.min(4, count - first)
                var values = SIMD4<Float>()
                switch distribution {
                case .uniform:
                    for j in 0 ..< 4 { values[j] = RandomBits.unitFloat(words[j]) }
                case .normal:
                    (values[0], values[1]) = Self.boxMuller(words[0], words[1])
                    (values[2], values[3]) = Self.boxMuller(words[2], words[3])
                }
                for j in 0 ..< n { y[first + j] = values[j] }
            }
        }
        stream.generator.skip(UInt64(blocks))
    }

    /// Two standard normal values from two uniform words, in single precision as
    /// TensorFlow computes them (the angle `2π·v` is formed in double and rounded).
    @inline(__always)
    static func boxMuller(_ x0: UInt32, _ x1: UInt32) -> (Float, Float) {
        let u = Swift.max(RandomBits.unitFloat(x0), 1.0e-7)
        let angle = Float(2.0 * Double.pi * Double(RandomBits.unitFloat(x1)))
        let radius = sqrtf(-2.0 * logf(u))
        return (sinf(angle) * radius, cosf(angle) * radius)
    }
}

/// RANDOM_UNIFORM / RANDOM_STANDARD_NORMAL whose shape input is computed at run time.
struct RandomFloatsDynamic: DynamicShapeKernel, StatefulKernel {
    let kernel: RandomFloatsKernel
    let shapeTensor: Int
    let rank: Int
    let outputElementSize: Int

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        let shape = try readShapeVector(UnsafeRawPointer(context.raw(shapeTensor)), count: rank, wide: false)
        guard Shape.byteCount(shape, elementSize: outputElementSize) != nil else {
            throw .invalid("output shape \(shape) is too large")
        }
        return [shape]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        // `outputShapes` validated these values for this invoke: their product is the count.
        let raw = UnsafeRawPointer(context.raw(shapeTensor))
        var count = 1
        for i in 0 ..< rank { count &*= Int(raw.load(fromByteOffset: 4 * i, as: Int32.self)) }
        kernel.fill(context, count: count)
    }
}
