import Microkernels
import TFLiteModel

/// BATCH_MATMUL: `z[..., i, j] = Σ_k op(x)[..., i, k] · op(y)[..., k, j]`, where `op`
/// transposes the last two dimensions when `adj_x` / `adj_y` is set, and the leading
/// (batch) dimensions broadcast NumPy-style (aligned right, each pair equal or 1).
///
/// Both inputs have rank 2...5, as in TFLite. Absent options mean no adjoints.
/// float32; hybrid float32 LHS with a constant int8 RHS (``BatchMatMulHybrid``); int8 by
/// int8 to int8 or int32 (``BatchMatMulS8``); int16 by int16 or int8 to int16
/// (``BatchMatMulS16``).
enum BatchMatMul {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 2, outputs: 1)
        let options: BatchMatMulOptions
        switch context.op.options {
        case .batchMatMul(let o): options = o
        case .none: options = BatchMatMulOptions(adjointX: false, adjointY: false)
        default: throw .invalid("expected BatchMatMulOptions, found \(context.op.options)")
        }
        let x = try context.input(0)
        let y = try context.input(1)
        let output = try context.output(0)
        guard (2 ... 5).contains(x.rank), (2 ... 5).contains(y.rank) else {
            throw .invalid("inputs must have rank 2 to 5, found shapes \(x.shape) and \(y.shape)")
        }
        let (xr, xc) = (x.shape[x.rank - 2], x.shape[x.rank - 1])
        let (yr, yc) = (y.shape[y.rank - 2], y.shape[y.rank - 1])
        let (m, k) = options.adjointX ? (xc, xr) : (xr, xc)
        let (k2, n) = options.adjointY ? (yc, yr) : (yr, yc)
        guard k == k2 else {
            throw .invalid(
                "inner dimensions differ: \(x.shape)\(options.adjointX ? " (adjoint)" : "") and \(y.shape)\(options.adjointY ? " (adjoint)" : "")"
            )
        }
        let batchRank = Swift.max(x.rank, y.rank) - 2
        let xBatch = [Int](repeating: 1, count: batchRank - (x.rank - 2)) + x.shape.dropLast(2)
        let yBatch = [Int](repeating: 1, count: batchRank - (y.rank - 2)) + y.shape.dropLast(2)
        var batch: [Int] = []
        for (a, b) in zip(xBatch, yBatch) {
            guard a == b || a == 1 || b == 1 else {
                throw .invalid("batch dimensions of \(x.shape) and \(y.shape) do not broadcast")
            }
            batch.append(a == 1 ? b : a)
        }
        try context.setOutputShape(0, batch + [m, n])
        context.declareWork(batch + [m, n, k])
        let hybrid = x.type == .float32 && y.type == .int8
        let integer = x.type == .int8 && y.type == .int8 || x.type == .int16 && (y.type == .int16 || y.type == .int8)
        guard hybrid || integer || (x.type == .float32 && y.type == .float32 && output.type == .float32) else {
            throw context.unsupportedTypes()
        }
        try ConvCheck.blasSizes([m, n, k, xc, yc], "BATCH_MATMUL")

        let (matrixSize, overflow) = m.multipliedReportingOverflow(by: n)
        // setOutputShape proved that batch · m · n fits; an empty output has no matrices.
        let broadcast = BatchBroadcast(
            batch: batch, x: xBatch, y: yBatch,
            count: !overflow && matrixSize > 0 ? batch.reduce(1, *) : 0)
        if hybrid {
            return try BatchMatMulHybrid.make(
                &context, options: options, x: x, y: y, output: output, m: m, n: n, k: k,
                broadcast: broadcast)
        }
        // The operands' bytes bound every matrix size (rank 2 or more was checked).
        let geometry = BatchMatMulGeometry(
            m: m, n: n, k: k, adjointX: options.adjointX, adjointY: options.adjointY, xColumns: xc,
            yColumns: yc, xMatrixSize: xr * xc, yMatrixSize: yr * yc,
            yMatrices: yr * yc == 0 ? 0 : y.elementCount / (yr * yc), broadcast: broadcast)
        if integer {
            if x.type == .int8 {
                return try BatchMatMulS8.make(&context, geometry, x: x, y: y, output: output)
            }
            return try BatchMatMulS16.make(&context, geometry, x: x, y: y, output: output)
        }
        if let packed = try BatchMatMulF32Packed.make(
            &context, x: x.index, y: y.index, output: output.index, geometry: geometry)
        {
            return packed
        }
        return BatchMatMulF32(
            x: x.index, y: y.index, output: output.index, m: m, n: n, k: k,
            adjointX: options.adjointX, adjointY: options.adjointY,
            lda: xc, ldb: yc, xMatrixSize: xr * xc, yMatrixSize: yr * yc, broadcast: broadcast)
    }
}

/// Which LHS and RHS matrices output matrix `i` multiplies, the batch dimensions
/// broadcast. Computed per matrix (`O(rank)`), not tabulated: tables sized by the output's
/// batch were built at prepare, before the memory budget was checked, up to four times the
/// bytes of an output that could never be planned (RELIABILITY.md finding 15).
struct BatchBroadcast: Sendable {
    /// Output, LHS and RHS batch dimensions (aligned, each LHS/RHS size equal or 1).
    let batch: [Int], x: [Int], y: [Int]
    /// Output matrices (0 for an empty output).
    let count: Int

    @inline(__always)
    func matrices(_ i: Int) -> (x: Int, y: Int) {
        var rest = i, xIndex = 0, yIndex = 0, xScale = 1, yScale = 1
        for d in Swift.stride(from: batch.count - 1, through: 0, by: -1) {
            let index = rest % batch[d]
            rest /= batch[d]
            if x[d] != 1 { xIndex += index * xScale }
            if y[d] != 1 { yIndex += index * yScale }
            xScale *= x[d]
            yScale *= y[d]
        }
        return (xIndex, yIndex)
    }
}

/// The matrices of a BATCH_MATMUL: output matrix `i` is `op(x)` (`m × k`) times
/// `op(y)` (`k × n`) of the LHS and RHS matrices ``BatchBroadcast/matrices(_:)`` names.
struct BatchMatMulGeometry: Sendable {
    let m: Int, n: Int, k: Int
    let adjointX: Bool, adjointY: Bool
    /// Row lengths of the stored (untransposed) LHS and RHS matrices.
    let xColumns: Int, yColumns: Int
    /// Elements of one stored LHS and RHS matrix.
    let xMatrixSize: Int, yMatrixSize: Int
    /// RHS matrices in the tensor.
    let yMatrices: Int
    let broadcast: BatchBroadcast

    /// `op(y)[d, j]` of the stored RHS matrix at `matrix`.
    @inline(__always)
    func rhs<T>(_ matrix: UnsafePointer<T>, depth d: Int, column j: Int) -> T {
        adjointY ? matrix[j * yColumns + d] : matrix[d * yColumns + j]
    }

    /// Depths `d0 ..< d0 + depths` of the RHS matrix at `matrix` as the 16-bit GEMM's B
    /// (``GemmS16Layout``, `group` depths per group): the columns of `op(y)` less `zy`, or
    /// when `split`, two columns per column `j`, `2j` holding `v >> 8` and `2j + 1` holding
    /// `v & 255` of its codes `v`. What `GemmS16Layout.pack` writes for those values, in
    /// loops over the stored rows rather than a call per packed element.
    func packPanels<T: FixedWidthInteger & SignedInteger>(
        _ matrix: UnsafePointer<T>, firstDepth d0: Int, depths: Int, zeroPoint zy: Int32, split: Bool, group: Int,
        into out: UnsafeMutablePointer<Int16>
    ) {
        let width = GemmS16Layout.panelWidth
        let columns = split ? 2 * n : n
        let kp = GemmS16Layout.paddedDepth(depths)
        let panelSize = width * kp
        out.update(repeating: 0, count: (columns + width - 1) / width * panelSize)
        for d in 0 ..< depths {
            // Where depth d of GEMM column c lands: panel c / width, slot (q·width + c % width)·group + r.
            let lane = (d / group) * width * group + d % group
            let row = out + lane
            @inline(__always) func put(_ c: Int, _ v: Int32) {
                row[(c / width) * panelSize + (c % width) * group] = Int16(truncatingIfNeeded: v)
            }
            if adjointY {
                let source = matrix + d0 + d
                for j in 0 ..< n {
                    let v = Int32(truncatingIfNeeded: source[j * yColumns]) &- zy
                    if split {
                        put(2 * j, v &>> 8)
                        put(2 * j + 1, v & 0xFF)
                    } else {
                        put(j, v)
                    }
                }
            } else {
                let source = matrix + (d0 + d) * yColumns
                for j in 0 ..< n {
                    let v = Int32(truncatingIfNeeded: source[j]) &- zy
                    if split {
                        put(2 * j, v &>> 8)
                        put(2 * j + 1, v & 0xFF)
                    } else {
                        put(j, v)
                    }
                }
            }
        }
    }
}
