import TFLiteModel

/// `Normalize` (TFLite's Smart Reply operator): the first string of a STRING tensor,
/// lowercased and cleaned the way the Smart Reply model was trained on, between `<S> ` and
/// ` <E>`, as a one-string STRING tensor. Each step is spelled out in spec/text-ops.md;
/// they work on bytes, treating only ASCII specially, as LiteRT's regular expressions do on
/// UTF-8 text.
enum NormalizeKernel {
    static let customName = "Normalize"

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        let input = try context.input(0)
        guard input.type == .string, try context.output(0).type == .string else { throw context.unsupportedTypes() }
        guard input.elementCount >= 1 else {
            throw .invalid("its input has shape \(input.shape); it reads the input's first string")
        }
        try context.setStringOutputShape(0, [1])
        return Normalize(input: input.index, output: try context.outputIndex(0))
    }
}

struct Normalize: PreparedKernel {
    let input: Int
    let output: Int

    func eval(_ context: EvalContext) throws(KernelError) {
        var result = StringTensorBuilder()
        result.append(TextNormalization.normalize(Array(context.strings(input)[0])))
        try context.setStrings(output, result)
    }
}

/// The steps of `Normalize`, each a function of bytes to bytes.
enum TextNormalization {
    /// Longest text kept before the end token; longer text is cut and gets none.
    static let maxBytes = 300

    static func normalize(_ text: [UInt8]) -> [UInt8] {
        var s = stripAsciiWhitespace(text.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
        s = s.filter { !".*()\"".utf8.contains($0) }
        s = joinContractions(s)
        for (suffix, replacement) in expansions {
            s = expandSuffix(s, suffix: Array(suffix.utf8), with: Array(replacement.utf8))
        }
        s = replaceAll(s, Array("i'm".utf8), with: Array("i am".utf8))
        s = collapseRuns(s, of: UInt8(ascii: "?"))
        s = collapseRuns(s, of: UInt8(ascii: "!"))
        s = spaceMarks(s)
        s = stripEdges(s)
        s = stripAsciiWhitespace(s)
        if s.count <= maxBytes {
            s += Array(" <E>".utf8)
        } else {
            s = Array(s.prefix(maxBytes))
        }
        return Array("<S> ".utf8) + s
    }

    /// ASCII whitespace (space, \t, \n, \v, \f, \r), which the first and last trims remove.
    static func isAsciiSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    /// Whitespace of the regular expressions (`\s`: space, \t, \n, \f, \r; not \v).
    static func isPatternSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D }

    static func stripAsciiWhitespace(_ s: [UInt8]) -> [UInt8] {
        guard let first = s.firstIndex(where: { !isAsciiSpace($0) }),
            let last = s.lastIndex(where: { !isAsciiSpace($0) })
        else { return [] }
        return Array(s[first ... last])
    }

    /// Contraction endings, in the order the pattern lists them.
    static let contractions: [[UInt8]] = ["'t", "'nt", "n't", "'d", "'ll", "'s", "'m", "'ve", "'re"].map {
        Array($0.utf8)
    }

    /// The contraction ending that `s` has at `at`, if any (at most one can match).
    static func contraction(in s: [UInt8], at: Int) -> [UInt8]? {
        contractions.first { c in at + c.count <= s.count && s[at ..< at + c.count].elementsEqual(c) }
    }

    /// Removes the whitespace before a contraction ending (`do n't` → `don't`) when the
    /// ending is followed by whitespace or one of `,;:/` (which the match takes along, so a
    /// second ending right after it stays apart), or ends the text.
    static func joinContractions(_ s: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < s.count {
            if isPatternSpace(s[i]), let c = contraction(in: s, at: i + 1) {
                let next = i + 1 + c.count
                if next < s.count, isPatternSpace(s[next]) || ",;:/".utf8.contains(s[next]) {
                    out += c
                    out.append(s[next])
                    i = next + 1
                    continue
                }
            }
            out.append(s[i])
            i += 1
        }
        // At the very end, the first place where whitespace, an ending and the end meet.
        for i in out.indices where isPatternSpace(out[i]) {
            if let c = contraction(in: out, at: i + 1), i + 1 + c.count == out.count {
                out.remove(at: i)
                break
            }
        }
        return out
    }

    /// The expansions, in the byte order of their patterns (the order LiteRT applies them).
    static let expansions: [(String, String)] = [
        ("'ll", " will"), ("'nt", " not"), ("'re", " are"), ("'ve", " have"), ("n't", " not"),
    ]

    /// In each run of non-whitespace bytes, replaces the last `suffix` that has at least one
    /// byte of the run before it with `replacement` (`([^\s]+)'ll` → `\1 will`: the greedy
    /// group reaches the last occurrence, and the match takes the run's start).
    static func expandSuffix(_ s: [UInt8], suffix: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            if isPatternSpace(s[i]) {
                out.append(s[i])
                i += 1
                continue
            }
            var end = i
            while end < s.count, !isPatternSpace(s[end]) { end += 1 }
            var hit: Int? = nil
            var q = end - suffix.count
            while q >= i + 1 {
                if s[q ..< q + suffix.count].elementsEqual(suffix) {
                    hit = q
                    break
                }
                q -= 1
            }
            if let hit {
                out += s[i ..< hit]
                out += replacement
                out += s[(hit + suffix.count) ..< end]
            } else {
                out += s[i ..< end]
            }
            i = end
        }
        return out
    }

    /// Replaces every occurrence of `pattern`, left to right, without overlaps.
    static func replaceAll(_ s: [UInt8], _ pattern: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        while i < s.count {
            if i + pattern.count <= s.count, s[i ..< i + pattern.count].elementsEqual(pattern) {
                out += replacement
                i += pattern.count
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return out
    }

    /// Runs of `mark` become one.
    static func collapseRuns(_ s: [UInt8], of mark: UInt8) -> [UInt8] {
        var out: [UInt8] = []
        for b in s where !(b == mark && out.last == mark) { out.append(b) }
        return out
    }

    static func isMark(_ b: UInt8) -> Bool { b == UInt8(ascii: "?") || b == UInt8(ascii: "!") }

    /// Sets question and exclamation marks apart: text followed by a mark becomes
    /// `text mark ` (`([^?!]+)([?!])` → `\1 \2 `), then two marks in a row get a space
    /// between them (`([?!])([?!])` → `\1 \2`, pairs taken left to right).
    static func spaceMarks(_ s: [UInt8]) -> [UInt8] {
        var spaced: [UInt8] = []
        var i = 0
        while i < s.count {
            if isMark(s[i]) {
                spaced.append(s[i])
                i += 1
                continue
            }
            var end = i
            while end < s.count, !isMark(s[end]) { end += 1 }
            spaced += s[i ..< end]
            if end < s.count {
                spaced.append(0x20)
                spaced.append(s[end])
                spaced.append(0x20)
                i = end + 1
            } else {
                i = end
            }
        }
        var out: [UInt8] = []
        i = 0
        while i < spaced.count {
            if i + 1 < spaced.count, isMark(spaced[i]), isMark(spaced[i + 1]) {
                out += [spaced[i], 0x20, spaced[i + 1]]
                i += 2
            } else {
                out.append(spaced[i])
                i += 1
            }
        }
        return out
    }

    /// Removes the longest suffix, then the longest prefix, made of whitespace and `,:;-&'"`.
    static func stripEdges(_ s: [UInt8]) -> [UInt8] {
        func edge(_ b: UInt8) -> Bool { isPatternSpace(b) || ",:;-&'\"".utf8.contains(b) }
        var out = s
        while let last = out.last, edge(last) { out.removeLast() }
        let start = out.firstIndex { !edge($0) } ?? out.count
        return Array(out[start...])
    }
}
