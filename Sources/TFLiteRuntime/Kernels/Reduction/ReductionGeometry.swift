/// How a reduction walks its input, decided at prepare from the shape and the axes.
///
/// Dimensions of size 1 are dropped and neighbouring dimensions that are both reduced
/// or both kept are merged, leaving alternating groups. The common layouts get their
/// own loops: reducing the innermost group (`[K, R]`: row sums, the last axis) and
/// reducing a middle group (`[K1, R, K2]`: MEAN over H and W of NHWC, i.e. global
/// average pooling, vectorized over the channels). Anything else walks the reduced
/// groups with an odometer for each output element.
struct ReductionGeometry: Sendable {
    enum Layout: Sendable {
        /// Nothing is reduced (no axes, or only axes of size 1): `y = f(x)` elementwise.
        case elementwise(count: Int)
        /// The input is empty: every output element is the reduction of nothing.
        case empty(count: Int)
        /// `[outer, reduced]`, reduced contiguous.
        case inner(outer: Int, reduced: Int)
        /// `[outer, reduced, inner]`.
        case middle(outer: Int, reduced: Int, inner: Int)
        /// Alternating groups; sizes and input element strides, outermost first.
        case general(kept: [Group], reduced: [Group])
    }

    struct Group: Hashable, Sendable {
        var size: Int
        var stride: Int
    }

    /// Most groups of one kind the general layout iterates.
    static let maxGroups = 8

    let layout: Layout
    let outputShape: [Int]
    let outputCount: Int
    /// Input elements reduced into each output element.
    let reducedCount: Int

    /// `axes` must be normalized (in `0 ..< shape.count`); duplicates are allowed.
    init(shape: [Int], axes: [Int], keepDims: Bool) throws(KernelError) {
        let rank = shape.count
        var isReduced = [Bool](repeating: false, count: rank)
        for a in axes { isReduced[a] = true }
        var out: [Int] = []
        for d in 0 ..< rank {
            if !isReduced[d] { out.append(shape[d]) } else if keepDims { out.append(1) }
        }
        guard let inputCount = Shape.elementCount(shape), let outputCount = Shape.elementCount(out) else {
            throw .invalid("input shape \(shape) is too large")
        }
        outputShape = out
        self.outputCount = outputCount
        guard inputCount > 0 else {
            // Also keeps the products below (whose factors exclude the 0) from overflowing.
            layout = .empty(count: outputCount)
            reducedCount = 0
            return
        }
        reducedCount = inputCount / outputCount
        var groups: [(size: Int, reduced: Bool)] = []
        for d in 0 ..< rank where shape[d] != 1 {
            if let last = groups.indices.last, groups[last].reduced == isReduced[d] {
                groups[last].size *= shape[d] // divides inputCount: no overflow
            } else {
                groups.append((shape[d], isReduced[d]))
            }
        }
        let pattern = groups.map(\.reduced)
        switch pattern {
        case [], [false]:
            layout = .elementwise(count: inputCount)
        case [true]:
            layout = .inner(outer: 1, reduced: groups[0].size)
        case [false, true]:
            layout = .inner(outer: groups[0].size, reduced: groups[1].size)
        case [true, false]:
            layout = .middle(outer: 1, reduced: groups[0].size, inner: groups[1].size)
        case [false, true, false]:
            layout = .middle(outer: groups[0].size, reduced: groups[1].size, inner: groups[2].size)
        default:
            var kept: [Group] = [], reduced: [Group] = []
            var stride = 1
            for g in groups.reversed() {
                if g.reduced {
                    reduced.insert(Group(size: g.size, stride: stride), at: 0)
                } else {
                    kept.insert(Group(size: g.size, stride: stride), at: 0)
                }
                stride *= g.size
            }
            guard kept.count <= Self.maxGroups, reduced.count <= Self.maxGroups else {
                throw .invalid("reducing axes \(axes) of shape \(shape) alternates too often")
            }
            layout = .general(kept: kept, reduced: reduced)
        }
    }
}
