/// Plans one arena for all tensors whose lifetimes are known, so that tensors that are
/// never alive at the same time share memory.
///
/// A request lives from step `first` through step `last` (inclusive). Requests are
/// placed in order of decreasing size (ties: earlier `first`, then request order), each
/// into the smallest gap between already-placed requests whose lifetimes overlap it —
/// best fit — or past the end when no gap is large enough. Offsets and sizes are rounded
/// up to `alignment`, so every tensor starts on a 64-byte boundary.
package struct ArenaPlanner {
    package struct Request: Hashable, Sendable {
        package var size: Int
        package var first: Int
        package var last: Int
        package init(size: Int, first: Int, last: Int) {
            self.size = size; self.first = first; self.last = last
        }
    }

    package struct Plan: Hashable, Sendable {
        /// Offset of each request, in request order.
        package var offsets: [Int]
        /// Total arena size in bytes.
        package var size: Int
    }

    package static let alignment = 64

    /// Returns nil if the arena size would overflow `Int`.
    package static func plan(_ requests: [Request]) -> Plan? {
        var alignedSizes: [Int] = []
        alignedSizes.reserveCapacity(requests.count)
        for r in requests {
            guard let s = roundUp(r.size) else { return nil }
            alignedSizes.append(s)
        }
        let order = requests.indices.sorted { a, b in
            if alignedSizes[a] != alignedSizes[b] { return alignedSizes[a] > alignedSizes[b] }
            if requests[a].first != requests[b].first { return requests[a].first < requests[b].first }
            return a < b
        }
        var offsets = [Int](repeating: 0, count: requests.count)
        // Placed requests sorted by offset: (offset, size, first, last).
        var placed: [(offset: Int, size: Int, first: Int, last: Int)] = []
        var total = 0
        for i in order {
            let r = requests[i]
            let size = alignedSizes[i]
            var best: Int?
            var bestGap = Int.max
            var cursor = 0
            for p in placed where p.first <= r.last && r.first <= p.last {
                if p.offset >= cursor {
                    let gap = p.offset - cursor
                    if gap >= size && gap < bestGap {
                        best = cursor
                        bestGap = gap
                    }
                }
                cursor = Swift.max(cursor, p.offset + p.size)
            }
            let offset = best ?? cursor
            offsets[i] = offset
            let (end, overflow) = offset.addingReportingOverflow(size)
            if overflow { return nil }
            total = Swift.max(total, end)
            let entry = (offset: offset, size: size, first: r.first, last: r.last)
            let position = placed.firstIndex { $0.offset > offset } ?? placed.count
            placed.insert(entry, at: position)
        }
        return Plan(offsets: offsets, size: total)
    }

    static func roundUp(_ n: Int) -> Int? {
        guard n >= 0 else { return nil }
        let (s, o) = n.addingReportingOverflow(alignment - 1)
        return o ? nil : s / alignment * alignment
    }
}
