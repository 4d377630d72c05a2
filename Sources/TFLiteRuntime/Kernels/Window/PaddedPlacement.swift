import TFLiteModel

/// Edge and interior padding of a tensor, the arithmetic shared by DILATE and
/// STABLEHLO_PAD (spec/window-ops.md).
///
/// Per dimension of size `s`: `low` elements before, `high` after (negative values crop)
/// and `interior` between neighbours. Input element `j` lands at output position
/// `low + j·(interior + 1)` when that lies in `[0, out)`, with
/// `out = low + s + (s - 1)·interior + high`; every other output element is the padding
/// value. When any `out` would be ≤ 0, every output dimension is 0 (TFLite's rule).
struct PaddedPlacement: Hashable, Sendable {
    let outputShape: [Int]
    let elementSize: Int
    /// Input elements copied along each dimension (after cropping); nil: nothing copied.
    let extents: [Int]?
    /// Element strides of the copied elements in the input and in the output.
    let inputStrides: [Int], outputStrides: [Int]
    /// First copied element, in input and in output elements.
    let inputOffset: Int, outputOffset: Int

    var outputCount: Int { outputShape.reduce(1, *) }

    init(inputShape: [Int], low: [Int], high: [Int], interior: [Int], elementSize: Int) throws(KernelError) {
        let rank = inputShape.count
        guard low.count == rank, high.count == rank, interior.count == rank else {
            throw .invalid(
                "padding needs \(rank) values per list for an input of rank \(rank), found \(low.count), \(high.count) and \(interior.count)"
            )
        }
        self.elementSize = elementSize
        var out: [Int] = []
        for d in 0 ..< rank {
            let s = inputShape[d]
            guard interior[d] >= 0 else { throw .invalid("interior padding \(interior[d]) is negative") }
            let gaps = Swift.max(s - 1, 0)
            let (spread, o1) = gaps.multipliedReportingOverflow(by: interior[d])
            let (a, o2) = s.addingReportingOverflow(spread)
            let (b, o3) = a.addingReportingOverflow(low[d])
            let (c, o4) = b.addingReportingOverflow(high[d])
            guard !(o1 || o2 || o3 || o4), c <= Int(Int32.max) else {
                throw .invalid(
                    "padded dimension \(d) overflows: size \(s), low \(low[d]), high \(high[d]), interior \(interior[d])"
                )
            }
            out.append(c)
        }
        if out.contains(where: { $0 <= 0 }) {
            outputShape = [Int](repeating: 0, count: rank)
            (extents, inputStrides, outputStrides, inputOffset, outputOffset) = (nil, [], [], 0, 0)
            return
        }
        guard Shape.byteCount(out, elementSize: elementSize) != nil else {
            throw .invalid("padded shape \(out) is too large")
        }
        outputShape = out
        var inStride = [Int](repeating: 1, count: rank), outSize = [Int](repeating: 1, count: rank)
        for d in stride(from: rank - 2, through: 0, by: -1) {
            inStride[d] = inStride[d + 1] * inputShape[d + 1]
            outSize[d] = outSize[d + 1] * out[d + 1]
        }
        var extents: [Int] = [], outStrides: [Int] = []
        var inOffset = 0, outOffset = 0
        for d in 0 ..< rank {
            let step = interior[d] + 1
            // First input element whose position is ≥ 0, and the count whose position is < out.
            let first = low[d] >= 0 ? 0 : (-low[d] + step - 1) / step
            let beyond = out[d] - 1 - low[d] // positions j·step ≤ beyond
            let last = beyond < 0 ? -1 : Swift.min(inputShape[d] - 1, beyond / step)
            extents.append(Swift.max(0, last - first + 1))
            inOffset += first * inStride[d]
            outOffset += (low[d] + first * step) * outSize[d]
            outStrides.append(step * outSize[d])
        }
        self.extents = extents.contains(0) ? nil : extents
        inputStrides = inStride
        outputStrides = outStrides
        inputOffset = inOffset
        outputOffset = outOffset
    }

    /// Fills `output` with the element at `value`, then copies the input elements in.
    /// Rows (all dimensions but the last) are split over threads.
    func run(_ context: EvalContext, input: UnsafeRawPointer, value: UnsafeRawPointer, output: UnsafeMutableRawPointer)
    {
        let count = outputCount
        let size = elementSize
        context.parallel.forEachChunk(count, minimumChunk: 1 << 14) { range in
            fillElements(output + range.lowerBound * size, count: range.count, size: size, value: value)
        }
        guard let extents else { return }
        let rank = extents.count
        let rows = extents.dropLast().reduce(1, *)
        let inner = extents[rank - 1]
        let (inStep, outStep) = (inputStrides[rank - 1], outputStrides[rank - 1])
        context.parallel.forEachChunk(rows, cost: inner) { range in
            for row in range {
                var rest = row, inAt = inputOffset, outAt = outputOffset
                for d in stride(from: rank - 2, through: 0, by: -1) {
                    let i = rest % extents[d]
                    rest /= extents[d]
                    inAt += i * inputStrides[d]
                    outAt += i * outputStrides[d]
                }
                copyStrided(
                    from: input + inAt * size, step: inStep * size, to: output + outAt * size, step: outStep * size,
                    count: inner, size: size)
            }
        }
    }
}

/// Copies `count` elements of `size` bytes between byte strides.
@inline(__always)
func copyStrided(
    from src: UnsafeRawPointer, step inStep: Int, to dst: UnsafeMutableRawPointer, step outStep: Int, count: Int,
    size: Int
) {
    if inStep == size && outStep == size {
        dst.copyMemory(from: src, byteCount: count * size)
        return
    }
    switch size {
    case 1:
        for i in 0 ..< count {
            dst.storeBytes(
                of: src.load(fromByteOffset: i * inStep, as: UInt8.self), toByteOffset: i * outStep, as: UInt8.self)
        }
    case 2:
        for i in 0 ..< count {
            dst.storeBytes(
                of: src.loadUnaligned(fromByteOffset: i * inStep, as: UInt16.self), toByteOffset: i * outStep,
                as: UInt16.self)
        }
    case 4:
        for i in 0 ..< count {
            dst.storeBytes(
                of: src.loadUnaligned(fromByteOffset: i * inStep, as: UInt32.self), toByteOffset: i * outStep,
                as: UInt32.self)
        }
    case 8:
        for i in 0 ..< count {
            dst.storeBytes(
                of: src.loadUnaligned(fromByteOffset: i * inStep, as: UInt64.self), toByteOffset: i * outStep,
                as: UInt64.self)
        }
    default: for i in 0 ..< count { (dst + i * outStep).copyMemory(from: src + i * inStep, byteCount: size) }
    }
}
