import TFLiteModel

/// SPACE_TO_BATCH_ND and BATCH_TO_SPACE_ND over an input `[B, s₁…s_M, rest…]` with a
/// constant `block_shape` `[b₁…b_M]` (input 1) and constant `[M, 2]` paddings or crops
/// (input 2), all int32 or int64.
///
/// SPACE_TO_BATCH_ND pads each spatial dimension k with `p_k⁰` before and `p_k¹` after
/// (`s_k + p_k⁰ + p_k¹` must be a multiple of `b_k`), then moves every block offset
/// `(o₁…o_M)` into its own group of batches: output batch `(ravel(o)) · B + n` holds
/// `out[·, i₁…i_M, r] = padded[n, i₁·b₁ + o₁, …, r]`. Padding is 0, or the output's
/// zero point for int8/uint8 (the value that reads as 0).
///
/// BATCH_TO_SPACE_ND undoes that without padding: it interleaves the batch groups back
/// into space, then removes `c_k⁰` elements at the start and `c_k¹` at the end of each
/// spatial dimension (the crops). The input batch must be a multiple of `Π b_k`.
///
/// Both walk the output positions in eval and copy `rest` contiguous elements at a time,
/// so prepare builds nothing sized by the (file-controlled) block shape.
enum SpaceBatchKernels {
    static let spaceToBatch: KernelPrepare = {
        (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try SpaceBatchPlan(&context, toBatch: true)
    }

    static let batchToSpace: KernelPrepare = {
        (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try SpaceBatchPlan(&context, toBatch: false)
    }
}

struct SpaceBatchPlan: PreparedKernel {
    let toBatch: Bool
    let input: Int
    let output: Int
    /// Bytes of one `rest` run.
    let runBytes: Int
    /// Batches of the unblocked side (`B`).
    let batch: Int
    let block: [Int]
    /// Paddings before (SPACE_TO_BATCH) or crops at the start (BATCH_TO_SPACE).
    let before: [Int]
    /// Spatial sizes of the blocked side (the output of SPACE_TO_BATCH, the input of
    /// BATCH_TO_SPACE) and of the unblocked side.
    let blocked: [Int]
    let space: [Int]
    /// The bytes of one padding element.
    let pad: [UInt8]
    let elementSize: Int

    init(_ context: inout PrepareContext, toBatch: Bool) throws(KernelError) {
        try context.expectCounts(inputs: 3, outputs: 1)
        let input = try context.input(0)
        let output = try context.output(0)
        let size = try ShapeSupport.sameType(input, output, context)
        guard [.float32, .int8, .uint8, .int16, .int32, .int64].contains(input.type) else {
            throw context.unsupportedTypes()
        }
        try ShapeSupport.requireSameQuantization([input], output: output)
        let block = try ShapeSupport.constantIntegers(try context.input(1), role: "block_shape")
        let m = block.count
        let margins = try ShapeSupport.constantIntegers(try context.input(2), role: toBatch ? "paddings" : "crops")
        guard m >= 1, input.rank >= m + 1, input.rank <= ShapeSupport.maxRank else {
            throw .invalid(
                "block_shape has \(m) values; the input (shape \(input.shape)) needs a batch dimension and \(m) spatial ones"
            )
        }
        guard margins.count == 2 * m else {
            throw .invalid("\(toBatch ? "paddings" : "crops") must have shape [\(m), 2], found \(margins.count) values")
        }
        guard block.allSatisfy({ $0 >= 1 }), margins.allSatisfy({ $0 >= 0 }) else {
            throw .invalid(
                "block_shape \(block) must be positive and \(toBatch ? "paddings" : "crops") \(margins) non-negative")
        }
        guard let blocks = Shape.elementCount(block) else { throw .invalid("block_shape \(block) is too large") }
        let rest = Array(input.shape[(m + 1)...])
        var outShape: [Int]
        var blockedSpace: [Int] = [], space: [Int] = []
        let n = input.shape[0]
        if toBatch {
            let (ob, o) = n.multipliedReportingOverflow(by: blocks)
            guard !o else { throw .invalid("the output batch is too large") }
            outShape = [ob]
            for k in 0 ..< m {
                let (a, o1) = input.shape[k + 1].addingReportingOverflow(margins[2 * k])
                let (padded, o2) = a.addingReportingOverflow(margins[2 * k + 1])
                guard !o1, !o2, padded % block[k] == 0 else {
                    throw .invalid(
                        "padded spatial dimension \(k) (\(input.shape[k + 1]) + \(margins[2 * k]) + \(margins[2 * k + 1])) is not a multiple of block size \(block[k])"
                    )
                }
                outShape.append(padded / block[k])
                blockedSpace.append(padded / block[k])
                space.append(input.shape[k + 1])
            }
        } else {
            guard n % blocks == 0 else {
                throw .invalid("input batch \(n) is not a multiple of the block count \(blocks)")
            }
            outShape = [n / blocks]
            for k in 0 ..< m {
                let (full, o) = input.shape[k + 1].multipliedReportingOverflow(by: block[k])
                guard !o, margins[2 * k] + margins[2 * k + 1] <= full else {
                    throw .invalid(
                        "crops \(margins[2 * k]), \(margins[2 * k + 1]) exceed spatial dimension \(k) of size \(full)")
                }
                outShape.append(full - margins[2 * k] - margins[2 * k + 1])
                blockedSpace.append(input.shape[k + 1])
                space.append(outShape.last ?? 0)
            }
        }
        outShape += rest
        try context.setOutputShape(0, outShape)
        self.toBatch = toBatch
        self.input = input.index
        self.output = output.index
        elementSize = size
        runBytes = try ShapeSupport.product(rest[...] + [size], role: "the trailing dimensions")
        batch = toBatch ? n : n / blocks
        self.block = block
        before = (0 ..< m).map { margins[2 * $0] }
        blocked = blockedSpace
        self.space = space
        let zero = toBatch && (input.type == .int8 || input.type == .uint8) ? Int(output.zeroPoint ?? 0) : 0
        // Little-endian: the zero point (only nonzero for 1-byte types) is the first byte.
        pad = [UInt8(truncatingIfNeeded: zero)] + [UInt8](repeating: 0, count: size - 1)
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        let src = UnsafeRawPointer(context.raw(input))
        let dst = context.raw(output)
        let m = block.count
        let blockedCount = blocked.reduce(1, *), spaceCount = space.reduce(1, *)
        let groups = block.reduce(1, *)
        guard runBytes > 0, blockedCount > 0, batch > 0 else { return }
        var position = [Int](repeating: 0, count: m)
        var offsets = [Int](repeating: 0, count: m)
        // The blocked side's flat order: (group, n, i₁…i_M); its space position maps to
        // unblocked coordinate i_k·b_k + o_k − before_k.
        var flat = 0
        for g in 0 ..< groups {
            var rest = g
            for k in (0 ..< m).reversed() { offsets[k] = rest % block[k]; rest /= block[k] }
            for b in 0 ..< batch {
                for k in 0 ..< m { position[k] = 0 }
                for _ in 0 ..< blockedCount {
                    var inside = true
                    var spaceIndex = 0
                    for k in 0 ..< m {
                        let c = position[k] * block[k] + offsets[k] - before[k]
                        if c < 0 || c >= space[k] { inside = false }
                        spaceIndex = spaceIndex * space[k] + c
                    }
                    let blockedAt = dst + (toBatch ? flat * runBytes : 0)
                    if toBatch {
                        if inside {
                            blockedAt.copyMemory(
                                from: src + (b * spaceCount + spaceIndex) * runBytes, byteCount: runBytes)
                        } else {
                            pad.withUnsafeBytes {
                                fillElements(
                                    blockedAt, count: runBytes / elementSize, size: elementSize,
                                    value: $0.baseAddress.unsafelyUnwrapped)
                            }
                        }
                    } else if inside {
                        (dst + (b * spaceCount + spaceIndex) * runBytes).copyMemory(
                            from: src + flat * runBytes, byteCount: runBytes)
                    }
                    flat += 1
                    var k = m - 1
                    while k >= 0 {
                        position[k] += 1
                        if position[k] < blocked[k] { break }
                        position[k] = 0
                        k -= 1
                    }
                }
            }
        }
    }
}
