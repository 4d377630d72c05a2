#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TFLiteModel

/// MULTINOMIAL: `num_samples` class indices per row of float32 logits `[batch, classes]`,
/// drawn with probabilities `softmax(row)`, as int64 or int32 `[batch, num_samples]`.
///
/// TFLite's sampling, reproduced exactly (spec/random.md): each invoke samples from a copy
/// of the operator's Philox stream and then advances the stream itself by
/// `batch · roundUp4(num_samples) · 512` blocks. A row's unnormalized distribution is the
/// running sum, in double, of `exp(logit - max)` over the finite logits (a non-finite
/// logit adds nothing); each sample takes two words `(hi, lo)` of the copy (four words a
/// block, leftovers carried into the next row), `t = unitDouble(hi, lo) · total`, and
/// returns the first class whose running sum exceeds `t`.
enum Multinomial {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let logits = try context.input(0)
        let samples = try context.input(1)
        let output = try context.output(0)
        guard logits.type == .float32, samples.type == .int32 else { throw context.unsupportedTypes() }
        guard output.type == .int64 || output.type == .int32 else { throw context.unsupportedTypes() }
        guard logits.rank == 2 else { throw .invalid("logits must have rank 2, found shape \(logits.shape)") }
        guard samples.rank == 0 else {
            throw .invalid("the sample count (input 1) must be a scalar, found shape \(samples.shape)")
        }
        let (batch, classes) = (logits.shape[0], logits.shape[1])
        guard classes > 0 else { throw .invalid("logits have no classes: shape \(logits.shape)") }
        let cdfBytes = try ConvCheck.product([classes, MemoryLayout<Double>.stride], "MULTINOMIAL")
        let kernel = MultinomialKernel(
            logits: logits.index, samples: samples.index, output: output.index, batch: batch, classes: classes,
            wide: output.type == .int64, cdf: context.requestScratch(bytes: cdfBytes),
            stream: try PhiloxStream.seeded(context.op.options))
        guard let count = samples.constant?.array(Int32.self).first else {
            return MultinomialDynamic(kernel: kernel)
        }
        guard count >= 0 else { throw .invalid("the sample count \(count) is negative") }
        try context.setOutputShape(0, [batch, Int(count)])
        context.declareWork([batch, Int(count), Int.bitWidth - classes.leadingZeroBitCount])
        return kernel
    }
}

struct MultinomialKernel: StatefulKernel {
    let logits: Int, samples: Int, output: Int
    let batch: Int, classes: Int
    /// int64 output (else int32).
    let wide: Bool
    /// Scratch slot of one row's running sums.
    let cdf: Int
    let stream: PhiloxStream

    func eval(_ context: EvalContext) throws(KernelError) {
        let count = Int(context.pointer(samples, as: Int32.self).pointee)
        guard count >= 0 else { throw .invalid("the sample count \(count) is negative") }
        var copy = stream.generator
        // TFLite's skip count, in its unsigned 64-bit arithmetic.
        let rounded = UInt64(count + 3) / 4 * 4
        stream.generator.skip(UInt64(batch) &* rounded &* 512)
        let x = UnsafePointer(context.pointer(logits, as: Float.self))
        let sums = context.scratch(cdf, as: Double.self)
        var words = SIMD4<UInt32>()
        var used = 4
        for row in 0 ..< batch {
            let logitsRow = x + row * classes
            var largest = -Float.greatestFiniteMagnitude
            for i in 0 ..< classes where logitsRow[i].isFinite { largest = Swift.max(largest, logitsRow[i]) }
            let shift = Double(largest)
            var total = 0.0
            for i in 0 ..< classes {
                if logitsRow[i].isFinite { total += exp(Double(logitsRow[i]) - shift) }
                sums[i] = total
            }
            for j in 0 ..< count {
                if used == 4 {
                    words = copy.next()
                    used = 0
                }
                let target = RandomBits.unitDouble(words[used], words[used + 1]) * total
                used += 2
                let index = Self.firstAbove(target, sums, classes)
                if wide {
                    context.pointer(output, as: Int64.self)[row * count + j] = Int64(index)
                } else {
                    context.pointer(output, as: Int32.self)[row * count + j] = Int32(index)
                }
            }
        }
    }

    /// The first `i` with `sums[i] > target` (`count` if none), by bisection over the
    /// non-decreasing sums.
    @inline(__always)
    static func firstAbove(_ target: Double, _ sums: UnsafePointer<Double>, _ count: Int) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if sums[mid] > target { high = mid } else { low = mid + 1 }
        }
        return low
    }
}

/// MULTINOMIAL whose sample count is computed at run time.
struct MultinomialDynamic: DynamicShapeKernel, StatefulKernel {
    let kernel: MultinomialKernel

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        let count = Int(context.pointer(kernel.samples, as: Int32.self).pointee)
        guard count >= 0 else { throw .invalid("the sample count \(count) is negative") }
        let shape = [kernel.batch, count]
        guard Shape.byteCount(shape, elementSize: kernel.wide ? 8 : 4) != nil else {
            throw .invalid("output shape \(shape) is too large")
        }
        return [shape]
    }

    func eval(_ context: EvalContext) throws(KernelError) { try kernel.eval(context) }
}
