/// The shape and tiling shared by the CONV_2D kernels on a level's integer GEMM
/// (``Conv2DQ8GemmS16``, ``Conv2DQ8GemmU8S8``), and their loop: per tile and group, fill
/// the im2col rows in the GEMM's element type, multiply by the packed filter, requantize.
/// The kernels differ in the rows' element type, the padding of the depth, and the GEMM.
struct IntegerConvPlan: Sendable {
    let geometry: Conv2DGeometry
    let groups: Int, groupInC: Int, groupOutC: Int
    /// `kh·kw·Cg`, and the same rounded up to the GEMM's depth step: the im2col row stride.
    let patch: Int, paddedPatch: Int
    /// `Int32` sums per tile row: `groupOutC`, plus any extra columns the GEMM computes.
    let sumsStride: Int
    let tiles: GemmTiles

    /// Plans the tiles of `g`'s output pixels; `paddedDepth` rounds a patch up to the
    /// GEMM's step, and the GEMM writes `extraColumns` more sums per row than there are
    /// output channels. The GEMM's rows take at most the Float rows' bytes the tiles plan for.
    init(
        _ context: inout PrepareContext, geometry g: Conv2DGeometry, groups: Int, paddedDepth: (Int) -> Int,
        extraColumns: Int = 0
    ) throws(KernelError) {
        geometry = g
        self.groups = groups
        groupInC = g.inC / groups
        groupOutC = g.outC / groups
        patch = try ConvCheck.product([g.kh, g.kw, groupInC], "CONV_2D patch")
        paddedPatch = paddedDepth(patch)
        sumsStride = groupOutC + extraColumns
        tiles = try GemmTiles(&context, pixels: g.outputPixels, patch: patch, outChannels: sumsStride, op: "CONV_2D")
    }

    /// The `[outC, patch]` filter codes, checked to be all there.
    func filter<T>(_ constant: ConstantBytes, as _: T.Type) throws(KernelError) -> UnsafeBufferPointer<T> {
        let weights = constant.typed(T.self)
        let needed = try ConvCheck.product([geometry.outC, patch], "CONV_2D filter")
        guard weights.count >= needed else {
            throw .invalid("the filter holds \(weights.count) values; \(geometry.outC) x \(patch) needed")
        }
        return weights
    }

    /// Runs the convolution: for each tile and group, the rows `paddedPatch` apart are the
    /// receptive fields converted by `convert` (taps in the padding: `zero`; depths past
    /// the patch: `fill`; with one group, interior filter rows by `shortRun`, see
    /// ``Conv2DGeometry/gatherIntegerPatches(first:count:from:into:rowStride:zero:fill:convert:shortRun:)``), `gemm(rows, group, a, sums, out)` either writes the tile's `Int32` sums
    /// (`sumsStride` a row, the first `groupOutC` the channels') for `requantizer` to store,
    /// and returns false, or stores the group's codes at `out` itself (rows `outC` apart)
    /// and returns true. A 1x1 stride-1 unpadded convolution with no depth padding converts the tile's
    /// input pixels in one call.
    @inline(__always)
    func run<T: Quantized8, E>(
        _ context: EvalContext, x: UnsafePointer<T>, y: UnsafeMutablePointer<T>, bias: UnsafePointer<Int32>?,
        requantizer: Requantizer, zero: E, fill: E,
        convert: (UnsafePointer<T>, Int, UnsafeMutablePointer<E>) -> Void,
        shortRun: (UnsafePointer<T>, UnsafeMutablePointer<E>, Int) -> Void,
        gemm: (
            _ rows: Int, _ group: Int, _ a: UnsafePointer<E>, _ sums: UnsafeMutablePointer<Int32>,
            _ out: UnsafeMutablePointer<T>
        ) -> Bool
    ) {
        let g = geometry, outC = g.outC, kp = paddedPatch
        let pointwise =
            groups == 1 && g.kh == 1 && g.kw == 1 && g.strideH == 1 && g.strideW == 1
            && g.padTop == 0 && g.padLeft == 0 && g.outH == g.inH && g.outW == g.inW && patch == kp
        tiles.forEach(context) { tile in
            let p0 = tile.first, rows = tile.count
            let columns = UnsafeMutableRawPointer(tile.columns).assumingMemoryBound(to: E.self)
            for group in 0 ..< groups {
                if pointwise {
                    convert(x + p0 * g.inC, rows * g.inC, columns)
                } else if groups == 1 {
                    g.gatherIntegerPatches(
                        first: p0, count: rows, from: x, into: columns, rowStride: kp, zero: zero, fill: fill,
                        convert: convert, shortRun: shortRun)
                } else {
                    for r in 0 ..< rows {
                        let row = columns + r * kp
                        im2colRow(
                            g, pixel: p0 + r, firstChannel: group * groupInC, channels: groupInC, x, into: row,
                            zero: zero, center: convert)
                        for d in patch ..< kp { row[d] = fill }
                    }
                }
                let out = y + p0 * outC + group * groupOutC
                guard !gemm(rows, group, columns, tile.sums, out) else { continue }
                requantizer.storeRows(
                    tile.sums, rows: rows, count: groupOutC, accStride: sumsStride,
                    firstChannel: group * groupOutC, bias: bias, into: out, outStride: outC)
            }
        }
    }
}
