import TFLiteModel

/// DYNAMIC_UPDATE_SLICE: the operand (input 0) with the block `update` (input 1) written
/// over it at `start_indices` (input 2, INT32 or INT64, one per dimension, read at run
/// time). A transformer's key-value cache writes each step's keys this way.
///
/// Each start index is clamped to `0 ... operand_dim − update_dim`, so the block always
/// lies inside the operand (XLA's rule, as in TFLite). An update as large as the operand
/// replaces it. Any fixed-size type; bytes are copied, so quantized codes are kept.
///
/// The cost is the copy of the operand into the output plus the block. When the engine
/// gives the output the operand's memory (spec/runtime.md, "In-place operators"), only
/// the block is written.
enum DynamicUpdateSliceKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 3, outputs: 1)
        let operand = try context.input(0)
        let update = try context.input(1)
        let starts = try context.input(2)
        try context.deriveOutputType(0, operand.type)
        let output = try context.output(0)
        let size = try ShapeSupport.elementSize(operand, context)
        guard update.type == operand.type, starts.type == .int32 || starts.type == .int64 else {
            throw context.unsupportedTypes()
        }
        guard update.rank == operand.rank else {
            throw .invalid("the update has rank \(update.rank); it must have the operand's rank \(operand.rank)")
        }
        for d in 0 ..< operand.rank where update.shape[d] > operand.shape[d] {
            throw .invalid(
                "the update \(update.shape) is larger than the operand \(operand.shape) along dimension \(d)")
        }
        guard starts.shape == [operand.rank] else {
            throw .invalid(
                "start_indices has shape \(starts.shape); it must be [\(operand.rank)], one index per dimension")
        }
        try ShapeSupport.requireRank(operand.shape, role: "the operand")
        try context.setOutputShape(0, operand.shape)
        context.allowOutputToShareInput(0)
        // Trailing dimensions the update spans in full merge into one contiguous row.
        var rowStart = operand.rank
        while rowStart > 0, update.shape[rowStart - 1] == operand.shape[rowStart - 1] { rowStart -= 1 }
        if rowStart > 0 { rowStart -= 1 }
        let strides = ShapeSupport.strides(operand.shape)
        return DynamicUpdateSlice(
            operand: operand.index, update: update.index, starts: starts.index, output: output.index,
            wideStarts: starts.type == .int64, elementSize: size, operandShape: operand.shape,
            updateShape: update.shape, operandStrides: operand.elementCount > 0 ? strides : strides.map { _ in 0 },
            operandBytes: operand.elementCount * size, updateCount: update.elementCount,
            rowAxis: rowStart,
            rowBytes: try ShapeSupport.product(update.shape[rowStart...], role: "the update's rows") * size)
    }
}

struct DynamicUpdateSlice: PreparedKernel {
    let operand: Int
    let update: Int
    let starts: Int
    let output: Int
    let wideStarts: Bool
    let elementSize: Int
    let operandShape: [Int]
    let updateShape: [Int]
    /// Row-major element strides of the operand.
    let operandStrides: [Int]
    let operandBytes: Int
    let updateCount: Int
    /// The axis from which the update's trailing dimensions form one contiguous row of
    /// `rowBytes` in both the update and the operand; the axes before it are walked.
    let rowAxis: Int
    let rowBytes: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        let x = UnsafeRawPointer(context.raw(operand))
        let u = UnsafeRawPointer(context.raw(update))
        let y = context.raw(output)
        if updateCount * elementSize == operandBytes {
            // The update covers the whole operand (also when both are empty).
            if operandBytes > 0 { y.copyMemory(from: u, byteCount: operandBytes) }
            return
        }
        if UnsafeRawPointer(y) != x {
            let bytes = operandBytes
            context.parallel.forEachChunk(bytes, minimumChunk: 1 << 16) { range in
                (y + range.lowerBound).copyMemory(from: x + range.lowerBound, byteCount: range.count)
            }
        }
        guard updateCount > 0 else { return }
        let s = UnsafeRawPointer(context.raw(starts))
        // The block's first element: clamped starts times the operand's strides.
        var base = 0
        for d in 0 ..< operandShape.count {
            let raw =
                wideStarts
                ? s.load(fromByteOffset: 8 * d, as: Int64.self) : Int64(s.load(fromByteOffset: 4 * d, as: Int32.self))
            let limit = Int64(operandShape[d] - updateShape[d])
            base += Int(Swift.min(Swift.max(raw, 0), limit)) * operandStrides[d]
        }
        let target = y + base * elementSize
        guard rowAxis > 0 else {
            target.copyMemory(from: u, byteCount: rowBytes)
            return
        }
        // An odometer over the update's dimensions before `rowAxis`, one row per step.
        var index = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &index) { raw in
            let idx = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Int.self)
            var source = u
            var offset = 0
            let last = rowAxis - 1
            while true {
                (target + offset * elementSize).copyMemory(from: source, byteCount: rowBytes)
                source += rowBytes
                var d = last
                while d >= 0 {
                    idx[d] += 1
                    offset += operandStrides[d]
                    if idx[d] < updateShape[d] { break }
                    offset -= operandStrides[d] * updateShape[d]
                    idx[d] = 0
                    d -= 1
                }
                if d < 0 { return }
            }
        }
    }
}
