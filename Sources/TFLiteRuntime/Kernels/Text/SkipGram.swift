import TFLiteModel

/// SKIP_GRAM: the word grams of the first string of a STRING tensor, as a STRING vector.
///
/// Words are the runs of the string's bytes between ASCII whitespace, found as LiteRT finds
/// them (a quirk included: a word is dropped when the string starts with whitespace and the
/// word is the first). A gram is words `w[p0] w[p1] ...` with `p0 < p1 < ...` and at most
/// `maxSkipSize` words skipped between neighbours, joined by single spaces; grams have
/// `ngramSize` words, or 1 to `ngramSize` with `includeAllNgrams`. They come in LiteRT's
/// order: a depth-first walk over the word positions in which a gram is written after
/// every gram that extends it (spec/text-ops.md). A string with fewer words than
/// `ngramSize` gives no grams. The count depends on the string, so the output's shape is
/// known only at invoke.
enum SkipGramKernel {
    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 1)
        guard case .skipGram(let ngram, let maxSkip, let includeAll) = context.op.options else {
            throw .invalid("missing SkipGramOptions")
        }
        let input = try context.input(0)
        guard input.type == .string, try context.output(0).type == .string else { throw context.unsupportedTypes() }
        guard input.elementCount >= 1 else {
            throw .invalid("its input has shape \(input.shape); it reads the input's first string")
        }
        guard let interpreterState = context.interpreterState else { throw .invalid("no interpreter interpreterState") }
        return SkipGram(
            input: input.index, output: try context.outputIndex(0), ngramSize: ngram, maxSkipSize: maxSkip,
            includeAllNgrams: includeAll, interpreterState: interpreterState)
    }
}

final class SkipGram: DynamicShapeKernel {
    let input: Int
    let output: Int
    let ngramSize: Int
    let maxSkipSize: Int
    let includeAllNgrams: Bool
    let interpreterState: InterpreterState
    /// The grams `outputShapes` made, which `eval` writes.
    private var pending: StringTensorBuilder?

    init(
        input: Int, output: Int, ngramSize: Int, maxSkipSize: Int, includeAllNgrams: Bool,
        interpreterState: InterpreterState
    ) {
        self.input = input
        self.output = output
        self.ngramSize = ngramSize
        self.maxSkipSize = maxSkipSize
        self.includeAllNgrams = includeAllNgrams
        self.interpreterState = interpreterState
    }

    func outputShapes(_ context: EvalContext) throws(KernelError) -> [[Int]] {
        let grams = try makeGrams(context.strings(input)[0])
        pending = grams
        return [[grams.count]]
    }

    func eval(_ context: EvalContext) throws(KernelError) {
        guard let grams = pending else { throw .invalid("the grams were not computed for this invoke") }
        pending = nil
        try context.setStrings(output, grams)
    }

    /// ASCII whitespace as C's `isspace` sees it.
    @inline(__always) static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    /// The words of `text`, as byte ranges: a word ends at each whitespace byte after the
    /// first byte, and is kept when it is not empty and does not start with whitespace;
    /// the bytes after the last whitespace are a word when there are any.
    static func words(_ text: UnsafeRawBufferPointer) -> [Range<Int>] {
        var words: [Range<Int>] = []
        var start = 0
        var i = 1
        while i < text.count {
            if isSpace(text[i]) {
                if i > start, !isSpace(text[start]) { words.append(start ..< i) }
                start = i + 1
            }
            i += 1
        }
        if text.count > start { words.append(start ..< text.count) }
        return words
    }

    func makeGrams(_ text: UnsafeRawBufferPointer) throws(KernelError) -> StringTensorBuilder {
        var grams = StringTensorBuilder()
        let words = Self.words(text)
        let n = words.count
        guard ngramSize >= 1, n >= ngramSize else { return grams }
        // positions[d]: the word at depth d of the current gram, or for the depth being
        // extended, the last word tried there. The walk starts with word 0 at depth 0.
        var positions = [Int](repeating: 0, count: ngramSize)
        var depth = 1
        var steps = 0
        let limit = interpreterState.options.memoryBudget
        var parts: [UnsafeRawBufferPointer] = []
        while depth >= 0 {
            steps += 1
            if steps & 0xFFFF == 0 {
                try interpreterState.charge(1 << 16)
                guard grams.payloadCount <= limit else {
                    throw .invalid("its grams pass the memory budget of \(limit) bytes")
                }
            }
            let canExtend =
                depth < ngramSize && positions[depth] + 1 < n
                && (depth == 0 || positions[depth] - positions[depth - 1] <= maxSkipSize)
            if canExtend {
                positions[depth] += 1
                depth += 1
                if depth < ngramSize { positions[depth] = positions[depth - 1] }
                continue
            }
            if depth > 0, includeAllNgrams ? depth <= ngramSize : depth == ngramSize {
                parts.removeAll(keepingCapacity: true)
                for d in 0 ..< depth {
                    let range = words[positions[d]]
                    parts.append(UnsafeRawBufferPointer(rebasing: text[range]))
                }
                grams.appendJoined(parts, separator: 0x20)
            }
            depth -= 1
        }
        return grams
    }
}
