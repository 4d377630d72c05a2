import TFLiteModel

/// Where each stored value of a sparse constant goes in the dense tensor (TFLite's
/// `SparsityParameters`, as its format converter reads them).
///
/// The dense shape has rank `r`; `blockMap` (k entries, strictly increasing dimensions)
/// splits those dimensions into blocks, giving `r + k` *expanded* dimensions: dimension
/// `d` becomes `shape[d] / blockSize` blocks, and expanded dimension `r + j` is the
/// position inside a block of `blockMap[j]`. The stored data walks `r + k` *levels*;
/// level `l` iterates expanded dimension `traversalOrder[l]`:
/// - a DENSE level visits every position `0 ..< denseSize`;
/// - a SPARSE_CSR level visits `indices[segments[p] ..< segments[p + 1]]`, where `p` is the
///   position reached in the level above (its flattened position for a dense parent, or
///   the index into the parent's `indices` for a sparse one).
/// Each complete path is one stored value, in order. The first `r` levels are the block
/// dimensions, the last `k` the in-block positions (always DENSE); the size of block `j`
/// is the `denseSize` of the level that iterates expanded dimension `r + j`.
/// Destination: `orig[d] = block[d] · blockSize + inBlock` for blocked dimensions,
/// flattened row-major over the dense shape.
///
/// Unlike TFLite's converter, everything is validated: the permutation, block sizes
/// that divide their dimension, dense sizes that match the shape, segment arrays that
/// start at 0, never decrease, end at the index count and have one entry per parent
/// position plus one, indices inside their dimension, and exactly one stored value per path.
enum SparseScatterMap {
    /// Deep enough for rank-8 tensors with a block on every dimension.
    static let maxLevels = 16

    /// The flat destination index of every stored value, in storage order.
    static func build(shape: [Int], sparsity s: Sparsity, valueCount: Int) throws(KernelError) -> [Int] {
        let rank = shape.count
        let blocks = s.blockMap.count
        let levels = rank + blocks
        guard levels <= maxLevels else {
            throw .invalid("sparsity has \(levels) levels; at most \(maxLevels) are supported")
        }
        guard s.traversalOrder.count == levels else {
            throw .invalid(
                "traversal_order has \(s.traversalOrder.count) entries, expected rank \(rank) + \(blocks) block dimensions"
            )
        }
        guard s.dimensions.count == levels else {
            throw .invalid("dim_metadata has \(s.dimensions.count) entries, expected \(levels)")
        }
        guard s.traversalOrder[..<rank].sorted() == Array(0 ..< rank),
            s.traversalOrder[rank...].sorted() == Array(rank ..< levels)
        else {
            throw .invalid(
                "traversal_order \(s.traversalOrder) must list the \(rank) tensor dimensions, then the \(blocks) block dimensions"
            )
        }
        for (j, d) in s.blockMap.enumerated() {
            guard d >= 0, d < rank, j == 0 || d > s.blockMap[j - 1] else {
                throw .invalid("block_map \(s.blockMap) must hold increasing dimensions below rank \(rank)")
            }
        }
        // Block sizes and the sizes of the expanded dimensions.
        var expanded = shape
        var blockSizes: [Int] = []
        for (j, d) in s.blockMap.enumerated() {
            // The permutation check above guarantees this level exists.
            let level = s.traversalOrder.firstIndex(of: rank + j) ?? rank + j
            let meta = s.dimensions[level]
            guard meta.format == .dense else { throw .invalid("block level \(level) must be DENSE") }
            let size = meta.denseSize
            guard size > 0, shape[d] % size == 0 else {
                throw .invalid("block size \(size) does not divide dimension \(d) of size \(shape[d])")
            }
            blockSizes.append(size)
            expanded[d] = shape[d] / size
        }
        expanded += blockSizes
        // Check every level against its dimension and count the positions it reaches.
        var positions = 1
        for l in 0 ..< levels {
            let size = expanded[s.traversalOrder[l]]
            let meta = s.dimensions[l]
            switch meta.format {
            case .dense:
                guard meta.denseSize == size else {
                    throw .invalid(
                        "level \(l) is DENSE with size \(meta.denseSize), but its dimension has size \(size)")
                }
                let (p, o) = positions.multipliedReportingOverflow(by: size)
                guard !o, p <= Int(Int32.max) else { throw .invalid("sparse tensor has too many positions") }
                positions = p
            case .sparseCSR:
                let segments = meta.arraySegments, indices = meta.arrayIndices
                guard segments.count == positions + 1 else {
                    throw .invalid("level \(l) has \(segments.count) segments, expected \(positions + 1)")
                }
                guard segments.first == 0, segments.last == indices.count else {
                    throw .invalid("level \(l): segments must run from 0 to the \(indices.count) indices")
                }
                for p in 1 ..< segments.count where segments[p] < segments[p - 1] {
                    throw .invalid("level \(l): segments decrease at position \(p)")
                }
                for i in indices where i < 0 || i >= size {
                    throw .invalid("level \(l): index \(i) is outside its dimension of size \(size)")
                }
                positions = indices.count
            }
        }
        guard positions == valueCount else {
            throw .invalid("sparsity describes \(positions) stored values, but the tensor holds \(valueCount)")
        }
        var walker = Walker(shape: shape, sparsity: s, blockSizes: blockSizes, levels: levels, rank: rank)
        walker.destinations.reserveCapacity(valueCount)
        walker.visit(level: 0, parent: 0)
        return walker.destinations
    }

    /// Depth-first walk over the levels (depth ≤ `maxLevels`), in storage order.
    private struct Walker {
        let shape: [Int]
        let sparsity: Sparsity
        let blockSizes: [Int]
        let levels: Int
        let rank: Int
        var path: [Int]
        var destinations: [Int] = []

        init(shape: [Int], sparsity: Sparsity, blockSizes: [Int], levels: Int, rank: Int) {
            self.shape = shape; self.sparsity = sparsity; self.blockSizes = blockSizes
            self.levels = levels; self.rank = rank
            path = [Int](repeating: 0, count: levels)
        }

        mutating func visit(level: Int, parent: Int) {
            if level == levels {
                destinations.append(flatIndex())
                return
            }
            let meta = sparsity.dimensions[level]
            switch meta.format {
            case .dense:
                for i in 0 ..< meta.denseSize {
                    path[level] = i
                    visit(level: level + 1, parent: parent * meta.denseSize + i)
                }
            case .sparseCSR:
                for k in meta.arraySegments[parent] ..< meta.arraySegments[parent + 1] {
                    path[level] = meta.arrayIndices[k]
                    visit(level: level + 1, parent: k)
                }
            }
        }

        func flatIndex() -> Int {
            var original = [Int](repeating: 0, count: rank)
            for l in 0 ..< rank { original[sparsity.traversalOrder[l]] = path[l] }
            for l in rank ..< levels {
                let j = sparsity.traversalOrder[l] - rank
                let d = sparsity.blockMap[j]
                original[d] = original[d] * blockSizes[j] + path[l]
            }
            var flat = 0
            for d in 0 ..< rank { flat = flat * shape[d] + original[d] }
            return flat
        }
    }
}
