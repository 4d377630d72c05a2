/// Greedy non-maximum suppression over decoded boxes, working only in scratch buffers.
///
/// One pass (`select`): keep the candidates whose score is `>= scoreThreshold`, order them
/// by score, highest first, ties by lower index (a stable sort, as TFLite uses), then walk
/// that order: take the next candidate still active and deactivate every later active one
/// whose IoU with it is strictly greater than `iouThreshold`; stop after `limit` picks.
struct NonMaxSuppression {
    let boxes: UnsafePointer<Float>
    let count: Int
    let scoreThreshold: Float
    let iouThreshold: Float
    let kept: UnsafeMutablePointer<Int32>
    let sortTemporary: UnsafeMutablePointer<Int32>
    let active: UnsafeMutablePointer<UInt8>
    let selected: UnsafeMutablePointer<Int32>

    /// Picks up to `limit` of the `count` candidates scored by `scores`; their indices,
    /// best first, are in `selected[0 ..< result]`.
    func select(scores: UnsafePointer<Float>, limit: Int) -> Int {
        var keptCount = 0
        for i in 0 ..< count where scores[i] >= scoreThreshold {
            kept[keptCount] = Int32(truncatingIfNeeded: i)
            keptCount += 1
        }
        // Kept scores are never NaN (NaN fails `>=`), so this order is total.
        Self.sortByScore(kept, keptCount, scores: scores, temporary: sortTemporary)
        let outputLimit = Swift.min(keptCount, limit)
        active.update(repeating: 1, count: keptCount)
        var activeCount = keptCount
        var picked = 0
        for i in 0 ..< keptCount {
            if activeCount == 0 || picked >= outputLimit { break }
            guard active[i] == 1 else { continue }
            let chosen = Int(kept[i])
            selected[picked] = kept[i]
            picked += 1
            active[i] = 0
            activeCount -= 1
            for j in (i + 1) ..< keptCount where active[j] == 1 {
                if intersectionOverUnion(chosen, Int(kept[j])) > iouThreshold {
                    active[j] = 0
                    activeCount -= 1
                }
            }
        }
        return picked
    }

    /// IoU of boxes `i` and `j` in Float; 0 when either has no positive area.
    @inline(__always)
    func intersectionOverUnion(_ i: Int, _ j: Int) -> Float {
        let a = boxes + 4 * i, b = boxes + 4 * j
        let areaA = (a[2] - a[0]) * (a[3] - a[1])
        let areaB = (b[2] - b[0]) * (b[3] - b[1])
        if areaA <= 0 || areaB <= 0 { return 0 }
        let top = Swift.max(a[0], b[0]), left = Swift.max(a[1], b[1])
        let bottom = Swift.min(a[2], b[2]), right = Swift.min(a[3], b[3])
        let intersection = Swift.max(bottom - top, 0) * Swift.max(right - left, 0)
        return intersection / (areaA + areaB - intersection)
    }

    /// Bottom-up merge sort of `indices[0 ..< n]`: higher score first, then lower index.
    static func sortByScore(
        _ indices: UnsafeMutablePointer<Int32>, _ n: Int, scores: UnsafePointer<Float>,
        temporary: UnsafeMutablePointer<Int32>
    ) {
        @inline(__always) func before(_ a: Int32, _ b: Int32) -> Bool {
            let sa = scores[Int(a)], sb = scores[Int(b)]
            return sa > sb || (sa == sb && a < b)
        }
        var source = indices, target = temporary
        var width = 1
        while width < n {
            var start = 0
            while start < n {
                let middle = Swift.min(start + width, n), end = Swift.min(start + 2 * width, n)
                var l = start, r = middle, o = start
                while l < middle && r < end {
                    if before(source[r], source[l]) {
                        target[o] = source[r]; r += 1
                    } else {
                        target[o] = source[l]; l += 1
                    }
                    o += 1
                }
                while l < middle { target[o] = source[l]; l += 1; o += 1 }
                while r < end { target[o] = source[r]; r += 1; o += 1 }
                start = end
            }
            swap(&source, &target)
            width *= 2
        }
        if source != indices { indices.update(from: source, count: n) }
    }

    // MARK: - Multi-class strategies

    /// Fast NMS: rank anchors by their best class, one suppression pass, then each chosen
    /// anchor reports its top `K` classes at slots `max_classes_per_detection · i + k`.
    static func fast(
        _ nms: NonMaxSuppression, _ g: DetectionGeometry, scores: UnsafePointer<Float>,
        candidates: UnsafeMutablePointer<Float>, topClasses: UnsafeMutablePointer<Int32>,
        classTaken: UnsafeMutablePointer<UInt8>, decoded: UnsafePointer<Float>, out: DetectionOutputs,
        parallel: Parallel
    ) {
        let k = g.classesPerAnchor
        if k == 1 {
            topClassOfEachAnchor(g, scores: scores, candidates: candidates, topClasses: topClasses, parallel: parallel)
        } else {
            topClassesOfEachAnchor(
                g, scores: scores, candidates: candidates, topClasses: topClasses, classTaken: classTaken)
        }
        let picked = nms.select(scores: UnsafePointer(candidates), limit: g.options.maxDetections)
        for i in 0 ..< picked {
            let a = Int(nms.selected[i])
            let row = scores + a * g.columns + g.labelOffset
            for p in 0 ..< k {
                let c = topClasses[a * k + p]
                out.write(
                    slot: g.options.maxClassesPerDetection * i + p, box: decoded + 4 * a, classIndex: c,
                    score: row[Int(c)])
            }
        }
        out.count[0] = Float(picked)
    }

    /// Each anchor's arg-max class (the first on ties) and its score, for
    /// `max_classes_per_detection` 1, anchors split over the threads. The running maximum
    /// starts at the first class and moves only on a strictly greater score, so a NaN
    /// first score stays the pick and later NaNs never are: the same picks as one pass of
    /// ``topClassesOfEachAnchor``, whose taken-class test and re-read of the best score for
    /// every class cost SSD MobileNet v2's 1917 anchors × 90 classes 0.3 ms.
    private static func topClassOfEachAnchor(
        _ g: DetectionGeometry, scores: UnsafePointer<Float>, candidates: UnsafeMutablePointer<Float>,
        topClasses: UnsafeMutablePointer<Int32>, parallel: Parallel
    ) {
        let classes = g.options.numClasses, columns = g.columns, offset = g.labelOffset
        parallel.forEachChunk(g.anchors, cost: classes) { anchors in
            for a in anchors {
                let row = scores + a * columns + offset
                var best = 0, top = row[0]
                var c = 1
                while c < classes {
                    let v = row[c]
                    if v > top { (best, top) = (c, v) }
                    c += 1
                }
                topClasses[a] = Int32(truncatingIfNeeded: best)
                candidates[a] = top
            }
        }
    }

    /// Each anchor's top `k` classes: `k` selection passes, each taking the highest untaken
    /// score, the first on ties; the anchor's candidate score is its first pick's.
    private static func topClassesOfEachAnchor(
        _ g: DetectionGeometry, scores: UnsafePointer<Float>, candidates: UnsafeMutablePointer<Float>,
        topClasses: UnsafeMutablePointer<Int32>, classTaken: UnsafeMutablePointer<UInt8>
    ) {
        let k = g.classesPerAnchor, classes = g.options.numClasses
        classTaken.update(repeating: 0, count: classes)
        for a in 0 ..< g.anchors {
            let row = scores + a * g.columns + g.labelOffset
            let top = topClasses + a * k
            for p in 0 ..< k {
                var best = -1
                for c in 0 ..< classes where classTaken[c] == 0 {
                    if best < 0 || row[c] > row[best] { best = c }
                }
                classTaken[best] = 1
                top[p] = Int32(truncatingIfNeeded: best)
            }
            for p in 0 ..< k { classTaken[Int(top[p])] = 0 }
            candidates[a] = row[Int(top[0])]
        }
    }

    /// Regular NMS: a suppression pass per class (up to `detections_per_class` each), merged
    /// into a running list of the best `max_detections`, ties kept in list order (lower
    /// class, then lower anchor).
    static func regular(
        _ nms: NonMaxSuppression, _ g: DetectionGeometry, scores: UnsafePointer<Float>,
        candidates: UnsafeMutablePointer<Float>, merged: MergedDetections,
        decoded: UnsafePointer<Float>, out: DetectionOutputs
    ) {
        var listCount = 0
        for c in 0 ..< g.options.numClasses {
            let column = scores + g.labelOffset + c
            for a in 0 ..< g.anchors { candidates[a] = column[a * g.columns] }
            let picked = nms.select(scores: UnsafePointer(candidates), limit: g.options.detectionsPerClass)
            // Picks arrive best first, so the list and the new run are both sorted.
            for i in 0 ..< picked {
                let a = nms.selected[i]
                merged.anchor[listCount + i] = a
                merged.classIndex[listCount + i] = Int32(truncatingIfNeeded: c)
                merged.score[listCount + i] = candidates[Int(a)]
            }
            listCount = merged.mergeRuns(listCount, picked, keep: g.options.maxDetections)
        }
        for i in 0 ..< listCount {
            out.write(
                slot: i, box: decoded + 4 * Int(merged.anchor[i]), classIndex: merged.classIndex[i],
                score: merged.score[i])
        }
        out.count[0] = Float(listCount)
    }
}

/// Regular NMS's running list (first `capacity` entries) and a merge area (the next `capacity`).
struct MergedDetections {
    let anchor: UnsafeMutablePointer<Int32>
    let classIndex: UnsafeMutablePointer<Int32>
    let score: UnsafeMutablePointer<Float>
    let capacity: Int

    /// Merges the sorted runs `[0, first)` and `[first, first + second)` by score (the first
    /// run wins ties), keeps the best `keep`, and returns how many remain.
    func mergeRuns(_ first: Int, _ second: Int, keep: Int) -> Int {
        let total = Swift.min(first + second, keep)
        var l = 0, r = first, o = 0
        let end = first + second
        while o < total {
            let takeRight = r < end && (l >= first || score[r] > score[l])
            let s = takeRight ? r : l
            anchor[capacity + o] = anchor[s]
            classIndex[capacity + o] = classIndex[s]
            score[capacity + o] = score[s]
            if takeRight { r += 1 } else { l += 1 }
            o += 1
        }
        anchor.update(from: anchor + capacity, count: total)
        classIndex.update(from: classIndex + capacity, count: total)
        score.update(from: score + capacity, count: total)
        return total
    }
}
