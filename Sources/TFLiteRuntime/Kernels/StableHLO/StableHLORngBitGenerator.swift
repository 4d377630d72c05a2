import TFLiteModel

/// STABLEHLO_RNG_BIT_GENERATOR: random bits from an explicit generator state, and the
/// state to use next (spec/random.md).
///
/// Input 0 is the state (uint64 `[2]`, or `[3]` for Philox); output 0 the new state (the
/// input's shape), output 1 the bits (int32, uint32, int64 or uint64, a 64-bit element
/// taking two 32-bit words, low word first). `algorithm`: Threefry-2×32 (state: key,
/// counter; two words a block) or Philox-4×32-10, also the default (state: key, counter
/// words 0-1, and with `[3]` counter words 2-3, else the key again; four words a block).
/// Blocks fill the output in order, the counter's low 64 bits counting up from the
/// state's; the new state is the key and that counter (a `[3]` state keeps its third word).
enum StableHLORngBitGenerator {
    enum Algorithm: Sendable { case philox, threefry }

    static let prepare: KernelPrepare = { (context: inout PrepareContext) throws(KernelError) -> any PreparedKernel in
        try context.expectCounts(inputs: 1, outputs: 2)
        guard case .stablehloRngBitGenerator(let code) = context.op.options2 else {
            throw .invalid("StablehloRngBitGeneratorOptions are missing")
        }
        let state = try context.input(0)
        let newState = try context.output(0)
        let bits = try context.output(1)
        guard state.type == .uint64, newState.type == .uint64 else { throw context.unsupportedTypes() }
        let wordsPerElement: Int
        switch bits.type {
        case .int32, .uint32: wordsPerElement = 1
        case .int64, .uint64: wordsPerElement = 2
        default: throw context.unsupportedTypes()
        }
        guard state.rank == 1 else { throw .invalid("the state must be a vector, found shape \(state.shape)") }
        let algorithm: Algorithm
        switch code {
        case 0, 1:
            guard state.shape == [2] || state.shape == [3] else {
                throw .invalid("a Philox state holds 2 or 3 values, found shape \(state.shape)")
            }
            algorithm = .philox
        case 2:
            guard state.shape == [2] else {
                throw .invalid("a Threefry state holds 2 values, found shape \(state.shape)")
            }
            algorithm = .threefry
        default: throw .invalid("unknown RNG algorithm \(code)")
        }
        try context.setOutputShape(0, state.shape)
        // The bits output keeps the model's shape.
        try context.setOutputShape(1, bits.shape)
        let (words, overflow) = bits.elementCount.multipliedReportingOverflow(by: wordsPerElement)
        guard !overflow else { throw .invalid("output shape \(bits.shape) is too large") }
        return RngBitGeneratorKernel(
            state: state.index, newState: newState.index, bits: bits.index, words: words,
            stateWords: 2 * state.elementCount, algorithm: algorithm)
    }
}

struct RngBitGeneratorKernel: PreparedKernel {
    let state: Int, newState: Int, bits: Int
    /// 32-bit words of the bits output.
    let words: Int
    /// 32-bit words of the state (4 or 6).
    let stateWords: Int
    let algorithm: StableHLORngBitGenerator.Algorithm

    func eval(_ context: EvalContext) throws(KernelError) {
        let s = context.pointer(state, as: UInt32.self)
        let key = SIMD2(s[0], s[1])
        var low = SIMD2(s[2], s[3])
        let high = stateWords == 6 ? SIMD2(s[4], s[5]) : key
        let y = context.pointer(bits, as: UInt32.self)
        let next = context.pointer(newState, as: UInt32.self)
        for i in 0 ..< stateWords { next[i] = s[i] }
        var i = 0
        while i < words {
            switch algorithm {
            case .philox:
                let block = Philox4x32.block(counter: SIMD4(low[0], low[1], high[0], high[1]), key: key)
                for j in 0 ..< Swift.min(4, words - i) { y[i + j] = block[j] }
                i += 4
            case .threefry:
                let block = Threefry2x32.block(counter: low, key: key)
                for j in 0 ..< Swift.min(2, words - i) { y[i + j] = block[j] }
                i += 2
            }
            low[0] &+= 1
            if low[0] == 0 { low[1] &+= 1 }
        }
        next[0] = key[0]
        next[1] = key[1]
        next[2] = low[0]
        next[3] = low[1]
    }
}

/// Threefry-2×32 with 20 rounds (Salmon et al., SC 2011): a 64-bit counter mixed by
/// add-rotate-xor rounds, the key (and its parity word) injected every four rounds.
enum Threefry2x32 {
    static let rotations: [[UInt32]] = [[13, 15, 26, 6], [17, 29, 16, 24]]

    static func block(counter: SIMD2<UInt32>, key: SIMD2<UInt32>) -> SIMD2<UInt32> {
        let k = [key[0], key[1], key[0] ^ key[1] ^ 0x1BD1_1BDA]
        var x0 = counter[0] &+ k[0], x1 = counter[1] &+ k[1]
        for injection in 1 ... 5 {
            for r in rotations[(injection - 1) % 2] {
                x0 &+= x1
                x1 = (x1 << r) | (x1 >> (32 - r))
                x1 ^= x0
            }
            x0 &+= k[injection % 3]
            x1 &+= k[(injection + 1) % 3] &+ UInt32(injection)
        }
        return SIMD2(x0, x1)
    }
}
