/// im2col for the exact 8-bit GEMM on 16-bit operands: each output pixel's receptive field
/// as one row of centered codes `x - zx` (`Int16`, exact), in filter order
/// `(ky, kx, channel)`, 0 for taps in the padding (what TFLite's skipping them amounts to).
extension Conv2DGeometry {
    /// Writes the receptive fields of output pixels `first ..< first + count` (flattened
    /// `(b, oy, ox)`, one group holding every channel) as rows `rowStride` codes apart; a
    /// row's codes past `kh·kw·inC` (the GEMM's even-depth padding) are set to 0.
    ///
    /// The walk is ``walkPatchRows(first:count:rowStride:into:border:run:)``; the interior
    /// pixels' filter rows are converted as one contiguous run each with a conversion
    /// specialized for short runs (a 3×3×3 stem's are 9 codes). Border pixels go through
    /// ``im2colRow(_:pixel:firstChannel:channels:_:into:center:)``.
    func gatherCenteredPatches<T: Quantized8>(
        first: Int, count: Int, from x: UnsafePointer<T>, zeroPoint zx: Int32,
        into col: UnsafeMutablePointer<Int16>, rowStride: Int
    ) {
        guard count > 0 else { return }
        let z = Int16(truncatingIfNeeded: zx)
        walkPatchRows(
            first: first, count: count, rowStride: rowStride, into: col,
            border: { b, oy, ox, row in
                im2colRow(
                    self, pixel: (b * outH + oy) * outW + ox, firstChannel: 0, channels: inC, x, into: row,
                    center: { centerCodes($0, count: $1, zeroPoint: zx, into: $2) })
            },
            run: { source, row, length in
                if let source {
                    centerShortRun(from: x + source, to: row, count: length, zero: z)
                } else {
                    row.update(repeating: 0, count: length)
                }
            })
        let patch = kh * kw * inC
        // At most one code (the depth is padded to even): a store, not a memset call.
        for r in 0 ..< count {
            for i in patch ..< Swift.max(patch, rowStride) { col[r * rowStride + i] = 0 }
        }
    }
}

/// `dst[i] = src[i] - zero` as `Int16` for a short run of 8-bit codes: eight-lane blocks,
/// then one last block ending exactly at `count` that may rewrite codes already written
/// (with the same values), so a run of 9 costs two blocks and no scalar loop.
@inline(__always)
func centerShortRun<T: Quantized8>(
    from src: UnsafePointer<T>, to dst: UnsafeMutablePointer<Int16>, count: Int, zero: Int16
) {
    @inline(__always) func block(_ i: Int) {
        let wide = T.widen8S16(src + i) &- SIMD8(repeating: zero)
        UnsafeMutableRawPointer(dst + i).storeBytes(of: wide, as: SIMD8<Int16>.self)
    }
    if count >= 8 {
        var i = 0
        while i &+ 8 <= count {
            block(i)
            i &+= 8
        }
        if i < count { block(count &- 8) }
    } else {
        for i in 0 ..< count { dst[i] = Int16(truncatingIfNeeded: src[i]) &- zero }
    }
}
