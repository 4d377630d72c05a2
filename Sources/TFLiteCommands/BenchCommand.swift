import ArgumentParser
import Foundation
import NumPy
import TFLiteModel
import TFLiteRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `tflite bench MODEL [--threads N] [--runs N] [--warmup N] [--json] [--profile] [--requantization MODE] [--kernel-level LEVEL]`.
struct BenchCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time model load and inference (use a release build: swift run -c release)",
        discussion: """
            Load time covers reading the file, validating it, preparing every operator and \
            planning memory (everything before the first invoke). Inputs are filled with \
            seeded pseudo-random values. Latencies are wall-clock per invoke; state the model \
            keeps (recurrent layers' state, variables) carries from one invoke to the next, as \
            a streaming app calls it. The tensor arena counts the subgraphs that control-flow \
            operators run. With --profile, also prints the time spent per operator type and \
            per operator (mean over the runs).
            """
    )

    @Argument(
        help: ArgumentHelp("Path of a .tflite file", valueName: "model"), completion: .file(extensions: ["tflite"]))
    var path: String
    @Option(help: ArgumentHelp("Threads (default 1)", valueName: "n"), transform: value(in: 1 ... 256))
    var threads = 1
    @Option(
        name: [.customShort("n"), .long], help: ArgumentHelp("Timed invocations (default 50)", valueName: "n"),
        transform: value(in: 1 ... 1_000_000))
    var runs = 50
    @Option(
        help: ArgumentHelp("Untimed invocations first (default 5)", valueName: "n"),
        transform: value(in: 0 ... 1_000_000))
    var warmup = 5
    @Flag(help: "Print one JSON object")
    var json = false
    @Flag(help: "Print time per operator type and per operator")
    var profile = false
    @Option(
        help: ArgumentHelp(
            "Time this signature's subgraph (SignatureDef key) instead of the main one", valueName: "name"))
    var signature: String?
    @Option(
        name: [.customShort("i"), .customLong("input")],
        help: ArgumentHelp(
            "An input array, in the subgraph's input order (repeat for each input; default: seeded random values)",
            valueName: "file.npy"),
        completion: .file(extensions: ["npy"]))
    var files: [String] = []
    @OptionGroup var engineArguments: EngineArguments

    func run(console: Console) async throws -> Int32 {
        let clock = ContinuousClock()

        let baselineRSS = currentResidentBytes()
        let loadStart = clock.now
        let model = try Model(contentsOfFile: path)
        let decoded = clock.now
        var options = EngineOptions()
        options.threadCount = threads
        options.requantization = engineArguments.requantization
        options.kernelLevel = engineArguments.kernelLevel
        var subgraph = 0
        if let signature {
            guard let found = model.signatures.first(where: { $0.key == signature }) else {
                let keys = model.signatures.map { "'\($0.key)'" }.joined(separator: ", ")
                throw ToolError("the model has no signature '\(signature)'; its signatures are [\(keys)]")
            }
            subgraph = found.subgraphIndex
        }
        let engine = try Engine(model: model, subgraphIndex: subgraph, options: options)
        let arrays = try readInputs(engine)
        let prepared = clock.now
        try engine.allocate()
        let loadSeconds = seconds(clock.now - loadStart)
        let loadParts = (
            decode: seconds(decoded - loadStart), prepare: seconds(prepared - decoded),
            allocate: seconds(clock.now - prepared)
        )

        if arrays.isEmpty {
            fillInputs(engine)
        } else {
            for (t, array) in zip(engine.inputs, arrays) {
                engine.buffer(forTensor: t)?.copyBytes(from: array.data)
            }
        }
        let firstStart = clock.now
        try engine.invoke()
        let firstSeconds = seconds(clock.now - firstStart)
        for _ in 0 ..< warmup { try engine.invoke() }

        var latencies: [Double] = []
        var perOperator: [Int: Double] = [:]
        for _ in 0 ..< runs {
            let start = clock.now
            if profile {
                for (op, s) in try engine.invokeProfiled() { perOperator[op, default: 0] += s }
            } else {
                try engine.invoke()
            }
            latencies.append(seconds(clock.now - start))
        }
        latencies.sort()
        let stats = BenchStats(
            loadMs: loadSeconds * 1e3,
            loadPartsMs: (loadParts.decode * 1e3, loadParts.prepare * 1e3, loadParts.allocate * 1e3),
            firstInvokeMs: firstSeconds * 1e3,
            medianMs: percentile(latencies, 0.5) * 1e3, p90Ms: percentile(latencies, 0.9) * 1e3,
            minMs: (latencies.first ?? 0) * 1e3, peakRSS: peakResidentBytes(), baselineRSS: baselineRSS,
            runs: runs, threads: threads, arenaBytes: engine.totalArenaBytes,
            kernelLevel: engine.kernelLevel.description, blasCore: blasCoreName())
        if json {
            console.out(stats.json.serialized())
        } else {
            console.out(stats.text + "\n")
        }
        if profile {
            console.out(
                profileText(model: model, perOperator: perOperator, fused: engine.fusedOperators, runs: runs) + "\n")
        }
        return ExitCode.success
    }
}

extension BenchCommand {
    /// The `--input` arrays, checked against the engine's inputs (type; a shape that
    /// differs resizes the input).
    func readInputs(_ engine: Engine) throws -> [NPYArray] {
        guard !files.isEmpty else { return [] }
        guard files.count == engine.inputs.count else {
            throw ToolError(
                "the subgraph has \(engine.inputs.count) input(s); give exactly that many --input files (got \(files.count))"
            )
        }
        return try zip(files, engine.inputs).enumerated().map { i, pair throws -> NPYArray in
            let (file, t) = pair
            let array: NPYArray
            do { array = try NPYArray(contentsOf: URL(fileURLWithPath: file)) } catch {
                throw ToolError("input file \(file): \(error)")
            }
            let tensor = engine.tensors[t]
            guard let type = NPYDType(tensor.type), array.dtype == type else {
                throw ToolError(
                    "input \(i) ('\(tensor.name)') has type \(tensor.type), but \(file) holds \(array.dtype.descr)")
            }
            if array.shape != tensor.shape { try engine.resizeInput(i, to: array.shape) }
            return array
        }
    }
}

struct BenchStats {
    var loadMs: Double
    /// Reading and validating the file, creating the engine (preparing every operator,
    /// folding constants), planning and allocating the arena.
    var loadPartsMs: (decode: Double, prepare: Double, allocate: Double)
    var firstInvokeMs, medianMs, p90Ms, minMs: Double
    var peakRSS: Int
    /// Resident memory before the model was loaded (runtime, libraries): `peakRSS` minus
    /// this is what the model cost.
    var baselineRSS: Int
    var runs, threads, arenaBytes: Int
    /// The kernel level the engine ran, and the BLAS library's kernel family.
    var kernelLevel: String
    var blasCore: String

    var json: JSONValue {
        .object([
            "load_ms": .float(Float(loadMs)), "decode_ms": .float(Float(loadPartsMs.decode)),
            "prepare_ms": .float(Float(loadPartsMs.prepare)), "allocate_ms": .float(Float(loadPartsMs.allocate)),
            "first_invoke_ms": .float(Float(firstInvokeMs)),
            "median_ms": .float(Float(medianMs)), "p90_ms": .float(Float(p90Ms)), "min_ms": .float(Float(minMs)),
            "peak_rss_bytes": .int(peakRSS), "baseline_rss_bytes": .int(baselineRSS), "runs": .int(runs),
            "threads": .int(threads), "arena_bytes": .int(arenaBytes),
            "kernel_level": .string(kernelLevel), "host_kernel_level": .string(KernelLevel.host.description),
            "blas_core": .string(blasCore),
        ])
    }

    var text: String {
        func ms(_ x: Double) -> String { String(format: "%.3f ms", x) }
        return """
            threads \(threads), \(runs) runs
            kernels                        \(kernelLevel) (this CPU: \(KernelLevel.host)\(KernelLevel.cpuHasAVX512VNNI ? ", has AVX-512 VNNI" : "")); BLAS core \(blasCore)
            load (file → ready to invoke)  \(ms(loadMs)) (decode \(ms(loadPartsMs.decode)), prepare \(ms(loadPartsMs.prepare)), allocate \(ms(loadPartsMs.allocate)))
            first invoke                   \(ms(firstInvokeMs))
            median                         \(ms(medianMs))
            p90                            \(ms(p90Ms))
            min                            \(ms(minMs))
            peak RSS                       \(peakRSS / 1024) KiB (\(baselineRSS / 1024) KiB before loading the model)
            tensor arena                   \(arenaBytes / 1024) KiB
            """
    }
}

/// Seeded pseudo-random inputs: floats in [-1, 1), integers over their whole range.
func fillInputs(_ engine: Engine) {
    var state: UInt64 = 0x5EED
    for t in engine.inputs {
        guard let buffer = engine.buffer(forTensor: t) else { continue }
        let type = engine.tensors[t].type
        if type == .float32 {
            let floats = buffer.bindMemory(to: Float.self)
            for i in floats.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                floats[i] = Float(Int64(state >> 40)) / Float(1 << 23) - 1
            }
        } else {
            for i in buffer.indices {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                buffer[i] = UInt8(truncatingIfNeeded: state >> 56)
            }
        }
    }
}

func seconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return 0 }
    let i = min(sorted.count - 1, max(0, Int((Double(sorted.count - 1) * p).rounded())))
    return sorted[i]
}

/// Peak resident set size of this process, in bytes.
/// Resident memory now (Linux `/proc/self/statm`; 0 where unavailable).
func currentResidentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}

func peakResidentBytes() -> Int {
    var usage = rusage()
    #if canImport(Darwin)
    guard getrusage(RUSAGE_SELF, &usage) == 0 else { return 0 }
    return Int(usage.ru_maxrss)
    #else
    guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
    return Int(usage.ru_maxrss) * 1024
    #endif
}

/// Mean time per operator type and per operator, largest first.
/// The profile tables: time per operator type and per operator, an operator that ran
/// inside another's step (`fused`, keyed by that step's operator) named with it.
func profileText(model: Model, perOperator: [Int: Double], fused: [Int: Int] = [:], runs: Int) -> String {
    let ops = model.mainSubgraph.operators
    func typeName(_ i: Int) -> String {
        guard let j = fused[i], j >= 0, j < ops.count else { return ops[i].code.name }
        return ops[i].code.name + " + " + ops[j].code.name
    }
    func name(_ i: Int) -> String {
        guard let j = fused[i], j >= 0, j < ops.count else { return "#\(i) \(ops[i].code.name)" }
        return "#\(i) \(ops[i].code.name) + #\(j) \(ops[j].code.name)"
    }
    var byType: [String: Double] = [:]
    for (i, s) in perOperator where i >= 0 && i < ops.count { byType[typeName(i), default: 0] += s }
    let total = perOperator.values.reduce(0, +)
    func row(_ name: String, _ s: Double) -> String {
        let share = total > 0 ? s / total * 100 : 0
        let padded = name.count < 40 ? name + String(repeating: " ", count: 40 - name.count) : name
        return "  " + padded + String(format: " %9.3f ms  %5.1f%%", s / Double(runs) * 1e3, share)
    }
    var lines = ["", "Time per operator type (mean per invoke):"]
    for (name, s) in byType.sorted(by: { $0.value > $1.value }) { lines.append(row(name, s)) }
    lines.append("")
    lines.append("Time per operator (mean per invoke):")
    for (i, s) in perOperator.sorted(by: { $0.value > $1.value }) where i >= 0 && i < ops.count {
        lines.append(row(name(i), s))
    }
    return lines.joined(separator: "\n")
}

extension NPYDType {
    /// The `.npy` element type of a tensor of `type`, nil for types `.npy` files here do
    /// not hold (strings, resources).
    init?(_ type: ElementType) {
        switch type {
        case .float16: self = .float16
        case .float32: self = .float32
        case .float64: self = .float64
        case .uint8: self = .uint8
        case .int8: self = .int8
        case .int16: self = .int16
        case .uint16: self = .uint16
        case .int32: self = .int32
        case .uint32: self = .uint32
        case .int64: self = .int64
        case .uint64: self = .uint64
        case .bool: self = .bool
        case .complex64: self = .complex64
        default: return nil
        }
    }
}
