/// im2col for float convolutions: each output pixel's receptive field laid out as one row
/// of `kh·kw·Cg` floats in filter order `(ky, kx, channel)`, zeros for taps in the padding.
extension Conv2DGeometry {
    /// Writes the receptive fields of output pixels `first ..< first + count` (flattened
    /// `(b, oy, ox)`) one after another, `kh·kw·inC` floats each, for one group.
    ///
    /// The pixels are walked by ``walkPatchRows(first:count:rowStride:into:border:run:)``;
    /// interior filter rows are copied with a copy specialized for short runs: a 3×3×3
    /// stem's runs are 9 floats, where a general copy loop and per-pixel coordinate
    /// arithmetic cost more than the copy. Border pixels go through
    /// ``gatherPatch(b:oy:ox:group:groups:groupInC:from:into:)``.
    func gatherPatches(first: Int, count: Int, from x: UnsafePointer<Float>, into col: UnsafeMutablePointer<Float>) {
        let patch = kh * kw * inC
        walkPatchRows(
            first: first, count: count, rowStride: patch, into: col,
            border: { b, oy, ox, row in
                gatherPatch(b: b, oy: oy, ox: ox, group: 0, groups: 1, groupInC: inC, from: x, into: row)
            },
            run: { source, row, length in
                if let source {
                    copyShortFloats(from: x + source, to: row, count: length)
                } else {
                    row.update(repeating: 0, count: length)
                }
            })
    }

    /// Output columns whose window lies inside the input horizontally (dilation 1):
    /// `ox·strideW - padLeft ≥ 0` and `ox·strideW - padLeft + kw ≤ inW`.
    var interiorColumns: Range<Int> {
        let lower = (padLeft + strideW - 1) / strideW
        let room = inW - kw + padLeft
        guard room >= 0 else { return 0 ..< 0 }
        let upper = Swift.min(outW, room / strideW + 1)
        return lower < upper ? lower ..< upper : 0 ..< 0
    }

    /// The walk every im2col here shares: the rows of output pixels `first ..< first +
    /// count` (flattened `(b, oy, ox)`, one group), `rowStride` elements apart from `col`,
    /// one output row at a time and with no division per pixel.
    ///
    /// A border pixel's row is written by `border(b, oy, ox, row)`. For the interior
    /// pixels of an output row (window inside the input horizontally, dilation 1), each
    /// filter row is one contiguous run of `kw·inC` input elements, whose input row is fixed
    /// along the output row and whose start moves `strideW·inC` per pixel; `run(source,
    /// destination, length)` writes it from input offset `source`, or zeros when the filter
    /// row lies in the vertical padding (`source` nil).
    @inline(__always)
    func walkPatchRows<E>(
        first: Int, count: Int, rowStride: Int, into col: UnsafeMutablePointer<E>,
        border: (_ b: Int, _ oy: Int, _ ox: Int, _ row: UnsafeMutablePointer<E>) -> Void,
        run: (_ source: Int?, _ destination: UnsafeMutablePointer<E>, _ length: Int) -> Void
    ) {
        guard count > 0, outW > 0, outH > 0 else { return }
        let perImage = outH * outW
        let interior = dilationW == 1 ? interiorColumns : 0 ..< 0
        let rowLength = kw &* inC, step = strideW &* inC
        var pixel = first
        var dst = col
        let end = first + count
        while pixel < end {
            let b = pixel / perImage, oy = (pixel % perImage) / outW, start = pixel % outW
            let stop = Swift.min(outW, start + (end - pixel))
            let lo = Swift.min(Swift.max(start, interior.lowerBound), stop)
            let hi = Swift.max(Swift.min(stop, interior.upperBound), lo)
            for ox in start ..< lo {
                border(b, oy, ox, dst)
                dst += rowStride
            }
            if lo < hi {
                let iy0 = oy &* strideH &- padTop
                let firstColumn = (lo &* strideW &- padLeft) &* inC
                for ky in 0 ..< kh {
                    let iy = iy0 &+ ky &* dilationH
                    let inside = iy >= 0 && iy < inH
                    var source = (b &* inH &+ iy) &* inW &* inC &+ firstColumn
                    var d = dst + (ky &* rowLength)
                    for _ in lo ..< hi {
                        run(inside ? source : nil, d, rowLength)
                        source &+= step
                        d += rowStride
                    }
                }
                dst += (hi - lo) * rowStride
            }
            for ox in hi ..< stop {
                border(b, oy, ox, dst)
                dst += rowStride
            }
            pixel += stop - start
        }
    }

    /// Writes the receptive field of output pixel `pixel` (flattened `(b, oy, ox)`) of an
    /// NHWC float image for group `group` (of `groups`, `groupInC` channels each) as
    /// `kh·kw·groupInC` floats ordered `(ky, kx, channel)`, zeros for taps in the padding.
    @inline(__always)
    func gatherPatch(
        pixel: Int, group: Int, groups: Int, groupInC: Int,
        from x: UnsafePointer<Float>, into col: UnsafeMutablePointer<Float>
    ) {
        let perImage = outH * outW
        gatherPatch(
            b: pixel / perImage, oy: (pixel % perImage) / outW, ox: pixel % outW, group: group,
            groups: groups, groupInC: groupInC, from: x, into: col)
    }

    /// The receptive field of the output pixel at image `b`, row `oy`, column `ox`.
    @inline(__always)
    func gatherPatch(
        b: Int, oy: Int, ox: Int, group: Int, groups: Int, groupInC: Int,
        from x: UnsafePointer<Float>, into col: UnsafeMutablePointer<Float>
    ) {
        let g = self
        let iy0 = oy * g.strideH - g.padTop
        let ix0 = ox * g.strideW - g.padLeft
        let rowLength = g.kw * groupInC
        // With one group and no horizontal dilation, the in-image taps of a filter row are
        // one contiguous run of the input row.
        let contiguous = groups == 1 && g.dilationW == 1
        for ky in 0 ..< g.kh {
            let dst = col + ky * rowLength
            let iy = iy0 + ky * g.dilationH
            guard iy >= 0, iy < g.inH else {
                dst.update(repeating: 0, count: rowLength)
                continue
            }
            let src = x + ((b * g.inH + iy) * g.inW) * g.inC + group * groupInC
            if contiguous {
                let kx0 = Swift.max(0, -ix0)
                let kx1 = Swift.min(g.kw, g.inW - ix0)
                guard kx1 > kx0 else {
                    dst.update(repeating: 0, count: rowLength)
                    continue
                }
                dst.update(repeating: 0, count: kx0 * groupInC)
                (dst + kx0 * groupInC).update(from: src + (ix0 + kx0) * g.inC, count: (kx1 - kx0) * groupInC)
                (dst + kx1 * groupInC).update(repeating: 0, count: (g.kw - kx1) * groupInC)
            } else {
                for kx in 0 ..< g.kw {
                    let ix = ix0 + kx * g.dilationW
                    let d = dst + kx * groupInC
                    if ix >= 0, ix < g.inW {
                        d.update(from: src + ix * g.inC, count: groupInC)
                    } else {
                        d.update(repeating: 0, count: groupInC)
                    }
                }
            }
        }
    }
}

/// Copies `count` floats between buffers that do not overlap, for the short runs im2col
/// copies. Eight-lane blocks, then one last block that ends exactly at `count` and may
/// rewrite floats already copied (the same values), so a run of 9 or 15 floats costs two
/// block copies and no scalar loop; below eight, the same with four lanes.
@inline(__always)
func copyShortFloats(from src: UnsafePointer<Float>, to dst: UnsafeMutablePointer<Float>, count: Int) {
    @inline(__always) func block<V: SIMD>(_ type: V.Type, _ i: Int) where V.Scalar == Float {
        UnsafeMutableRawPointer(dst + i).storeBytes(of: UnsafeRawPointer(src + i).loadUnaligned(as: V.self), as: V.self)
    }
    if count >= 8 {
        var i = 0
        while i &+ 8 <= count {
            block(SIMD8<Float>.self, i)
            i &+= 8
        }
        if i < count { block(SIMD8<Float>.self, count &- 8) }
    } else if count >= 4 {
        block(SIMD4<Float>.self, 0)
        block(SIMD4<Float>.self, count &- 4)
    } else {
        for i in 0 ..< count { dst[i] = src[i] }
    }
}
