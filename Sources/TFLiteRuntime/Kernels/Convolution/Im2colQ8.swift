/// im2col for the exact 8-bit GEMMs: each output pixel's receptive field as one row of the
/// GEMM's element type `E` (centered codes `x - zx` as `Int16`, or offset bytes), in filter
/// order `(ky, kx, channel)`, with `zero` for taps in the padding.
extension Conv2DGeometry {
    /// Writes the receptive fields of output pixels `first ..< first + count` (flattened
    /// `(b, oy, ox)`, one group holding every channel) as rows `rowStride` elements apart;
    /// a row's elements past `kh·kw·inC` (the GEMM's depth padding) are set to `fill`.
    ///
    /// The walk is ``walkPatchRows(first:count:rowStride:into:border:run:)``: interior
    /// filter rows are converted by `shortRun(source, destination, count)`, a conversion
    /// made for runs as short as a 3×3×3 stem's 9 codes, where a general loop and per-pixel
    /// coordinate arithmetic cost more than the conversion. Border pixels go through
    /// ``im2colRow(_:pixel:firstChannel:channels:_:into:zero:center:)`` with `convert`.
    @inline(__always)
    func gatherIntegerPatches<T: Quantized8, E>(
        first: Int, count: Int, from x: UnsafePointer<T>, into col: UnsafeMutablePointer<E>, rowStride: Int,
        zero: E, fill: E, convert: (UnsafePointer<T>, Int, UnsafeMutablePointer<E>) -> Void,
        shortRun: (UnsafePointer<T>, UnsafeMutablePointer<E>, Int) -> Void
    ) {
        guard count > 0 else { return }
        walkPatchRows(
            first: first, count: count, rowStride: rowStride, into: col,
            border: { b, oy, ox, row in
                im2colRow(
                    self, pixel: (b * outH + oy) * outW + ox, firstChannel: 0, channels: inC, x, into: row,
                    zero: zero, center: convert)
            },
            run: { source, row, length in
                if let source { shortRun(x + source, row, length) } else { row.update(repeating: zero, count: length) }
            })
        // At most three elements (the depth is padded to 2 or 4): stores, not memset calls.
        let patch = kh * kw * inC
        for r in 0 ..< count {
            for i in patch ..< Swift.max(patch, rowStride) { col[r * rowStride + i] = fill }
        }
    }
}

/// Runs `block(i)` over eight-element blocks of a short run of `count`, the last block
/// ending exactly at `count` and so possibly rewriting elements already written (with the
/// same values): a run of 9 costs two blocks and no scalar loop. Below eight, `scalar(i)`
/// for each element.
@inline(__always)
func forEachShortRunBlock(count: Int, block: (Int) -> Void, scalar: (Int) -> Void) {
    if count >= 8 {
        var i = 0
        while i &+ 8 <= count {
            block(i)
            i &+= 8
        }
        if i < count { block(count &- 8) }
    } else {
        for i in 0 ..< count { scalar(i) }
    }
}

/// `dst[i] = src[i] - zero` as `Int16` for a short run of 8-bit codes.
@inline(__always)
func centerShortRun<T: Quantized8>(
    from src: UnsafePointer<T>, to dst: UnsafeMutablePointer<Int16>, count: Int, zero: Int16
) {
    forEachShortRunBlock(
        count: count,
        block: { i in
            let wide = T.widen8S16(src + i) &- SIMD8(repeating: zero)
            UnsafeMutableRawPointer(dst + i).storeBytes(of: wide, as: SIMD8<Int16>.self)
        },
        scalar: { i in dst[i] = Int16(truncatingIfNeeded: src[i]) &- zero })
}

/// `dst[i] = src[i] ^ flip` for a short run of bytes: the byte GEMM's rows, where int8
/// codes become `x + 128` (`flip` 0x80) and uint8 codes stay (`flip` 0).
@inline(__always)
func flipShortRun(from src: UnsafePointer<UInt8>, to dst: UnsafeMutablePointer<UInt8>, count: Int, flip: UInt8) {
    forEachShortRunBlock(
        count: count,
        block: { i in
            let bytes = UnsafeRawPointer(src + i).loadUnaligned(as: SIMD8<UInt8>.self) ^ SIMD8(repeating: flip)
            UnsafeMutableRawPointer(dst + i).storeBytes(of: bytes, as: SIMD8<UInt8>.self)
        },
        scalar: { i in dst[i] = src[i] ^ flip })
}
