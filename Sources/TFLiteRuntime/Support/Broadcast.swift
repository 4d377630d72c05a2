/// NumPy-style broadcasting of two operands, precomputed at prepare for fast iteration.
///
/// Shapes are aligned at their last dimension (the shorter one is padded with leading
/// 1s); per dimension the sizes must be equal or one of them 1, and the output takes the
/// size that is not 1. `[2, 1, 3]` with `[4, 1]` gives `[2, 4, 3]`.
///
/// For iteration, output dimensions of size 1 are dropped and neighbouring dimensions in
/// which each operand is either read in full or repeated (stride 0) in the same way are
/// merged. Same shapes become one dimension, a scalar operand one dimension with stride
/// 0, `[N, C] + [C]` two dimensions, so the innermost run is as long as possible.
package struct Broadcast: Hashable, Sendable {
    /// Most merged dimensions the iterator handles (TFLite broadcasts up to rank 6).
    package static let maxRank = 6

    package let outputShape: [Int]
    /// Number of output elements.
    package let elementCount: Int
    /// Merged dimensions, outermost first; never empty (a single 1 for scalar outputs).
    let dims: [Int]
    /// Element strides of each operand for each merged dimension (0 where repeated).
    let stridesA: [Int]
    let stridesB: [Int]

    /// The broadcast output shape of `a` and `b`.
    package static func shape(_ a: [Int], _ b: [Int]) throws(KernelError) -> [Int] {
        let rank = Swift.max(a.count, b.count)
        var out = [Int](repeating: 1, count: rank)
        for i in 0 ..< rank {
            let da = i < rank - a.count ? 1 : a[i - (rank - a.count)]
            let db = i < rank - b.count ? 1 : b[i - (rank - b.count)]
            guard da >= 0, db >= 0, da == db || da == 1 || db == 1 else {
                throw .invalid("shapes \(a) and \(b) cannot be broadcast together")
            }
            out[i] = da == 1 ? db : da
        }
        return out
    }

    package init(_ a: [Int], _ b: [Int]) throws(KernelError) {
        let out = try Self.shape(a, b)
        guard let count = Shape.elementCount(out) else {
            throw .invalid("broadcast shape \(out) is too large")
        }
        self.outputShape = out
        self.elementCount = count
        guard count > 0 else {
            // Nothing to iterate; also keeps the products below from overflowing.
            (dims, stridesA, stridesB) = ([0], [0], [0])
            return
        }
        let rank = out.count
        // Merge from the innermost dimension outwards, tracking whether each operand
        // repeats (its size is 1 where the output's is not).
        var dims: [Int] = []
        var repeatsA: [Bool] = []
        var repeatsB: [Bool] = []
        for i in stride(from: rank - 1, through: 0, by: -1) where out[i] != 1 {
            let ra = i < rank - a.count || a[i - (rank - a.count)] == 1
            let rb = i < rank - b.count || b[i - (rank - b.count)] == 1
            if let last = dims.indices.last, repeatsA[last] == ra, repeatsB[last] == rb {
                // No overflow: the product divides `count`, which is not 0.
                dims[last] *= out[i]
            } else {
                dims.append(out[i]); repeatsA.append(ra); repeatsB.append(rb)
            }
        }
        if dims.isEmpty { dims = [1]; repeatsA = [true]; repeatsB = [true] }
        guard dims.count <= Self.maxRank else {
            throw .invalid(
                "broadcasting \(a) with \(b) needs \(dims.count) dimensions; at most \(Self.maxRank) are supported")
        }
        var sa: [Int] = [], sb: [Int] = []
        var accA = 1, accB = 1
        for (d, size) in dims.enumerated() {
            sa.append(repeatsA[d] ? 0 : accA)
            sb.append(repeatsB[d] ? 0 : accB)
            if !repeatsA[d] { accA *= size }
            if !repeatsB[d] { accB *= size }
        }
        self.dims = dims.reversed()
        self.stridesA = sa.reversed()
        self.stridesB = sb.reversed()
    }

    /// True when both operands are read contiguously, element for element.
    package var isElementwise: Bool { dims.count == 1 && stridesA[0] == 1 && stridesB[0] == 1 }

    /// Strides (0 or 1) of the operands along the innermost merged dimension, the same
    /// for every run.
    package var innerStrides: (a: Int, b: Int) { (stridesA[dims.count - 1], stridesB[dims.count - 1]) }

    /// The broadcast as `rows` rows of `columns` outputs when it merges to two dimensions
    /// (one operand a per-channel vector, or one code per row): row `r` of the output reads
    /// `a` from `r·rowA` and `b` from `r·rowB`, then every ``innerStrides``. Nil otherwise.
    package var rows: (rows: Int, columns: Int, rowA: Int, rowB: Int)? {
        dims.count == 2 ? (dims[0], dims[1], stridesA[0], stridesB[0]) : nil
    }

    /// Calls `body(output, a, b, n)` for consecutive runs covering the output elements
    /// `range` in order: output elements `output ..< output + n` read operand elements
    /// `a + k * innerStrides.a` and `b + k * innerStrides.b`. A run never crosses a row
    /// of the innermost merged dimension. Does not allocate.
    @inline(__always)
    package func forEachRun(in range: Range<Int>, _ body: (_ output: Int, _ a: Int, _ b: Int, _ n: Int) -> Void) {
        guard !range.isEmpty else { return }
        var index = (0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &index) { raw in
            let idx = raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Int.self)
            dims.withUnsafeBufferPointer { dims in
                stridesA.withUnsafeBufferPointer { stridesA in
                    stridesB.withUnsafeBufferPointer { stridesB in
                        let inner = dims.count - 1
                        let n = dims[inner], sa = stridesA[inner], sb = stridesB[inner]
                        var pos = range.lowerBound
                        var column = pos % n
                        var row = pos / n
                        var rowA = 0, rowB = 0
                        for d in stride(from: inner - 1, through: 0, by: -1) {
                            idx[d] = row % dims[d]
                            row /= dims[d]
                            rowA += idx[d] * stridesA[d]
                            rowB += idx[d] * stridesB[d]
                        }
                        while true {
                            let count = Swift.min(n - column, range.upperBound - pos)
                            body(pos, rowA + column * sa, rowB + column * sb, count)
                            pos += count
                            if pos >= range.upperBound { return }
                            column = 0
                            // Next row: odometer over the outer merged dimensions (the
                            // range ends before it could run out).
                            _ = advanceOdometer(idx, axes: inner, size: { dims[$0] }) { d, wrapped in
                                let steps = wrapped ? 1 - dims[d] : 1
                                rowA += steps * stridesA[d]
                                rowB += steps * stridesB[d]
                            }
                        }
                    }
                }
            }
        }
    }
}
