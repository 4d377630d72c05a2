import ArgumentParser
import Foundation
import NumPy
import TensorFlowLite
import TFLiteConformance

/// `tflite run MODEL --input FILE.npy [--input ...] [--output-dir DIR] [--invokes K] [--signature NAME] [--threads N] [--requantization MODE] [--kernel-level LEVEL]`.
struct RunCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a model on .npy inputs and write its outputs as .npy files",
        discussion: """
            Give one --input per model input, in the model's input order. A .npy whose shape \
            differs from the model's input resizes that input (when the graph allows it); its \
            dtype must equal the input's type. Writes DIR/output_<i>.npy for each output i. \
            A string input takes a unicode (<U) or bytes (|S) array; a string output is written \
            as <U, or as |S when some string is not UTF-8.

            With --invokes K the model runs K times on one interpreter, keeping its state \
            (recurrent layers' state, variables) from one invoke to the next, as a streaming \
            app calls it: give the inputs step by step (all of invoke 0's in input order, then \
            invoke 1's, ...); invoke k's outputs go to DIR/invoke<k>/output_<i>.npy. \
            With --signature NAME the signature's subgraph runs instead of the main one, its \
            inputs and outputs in that subgraph's order.
            """
    )

    @Argument(
        help: ArgumentHelp("Path of a .tflite file", valueName: "model"), completion: .file(extensions: ["tflite"]))
    var path: String
    @Option(
        name: [.customShort("i"), .customLong("input")],
        help: ArgumentHelp("An input array (repeat for each input, and for each invoke)", valueName: "file.npy"),
        completion: .file(extensions: ["npy"]))
    var files: [String] = []
    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp("Where to write output_<i>.npy (default: .)", valueName: "dir"),
        completion: .directory)
    var outputDir: String?
    @Option(
        help: ArgumentHelp("Invokes of one interpreter, its state carried between them", valueName: "k"),
        transform: value(in: 1 ... 1_000_000))
    var invokes: Int?
    @Option(help: ArgumentHelp("Run this signature (SignatureDef key) instead of the main subgraph", valueName: "name"))
    var signature: String?
    @Option(help: ArgumentHelp("Interpreter threads (default 1)", valueName: "n"), transform: value(in: 1 ... 256))
    var threads = 1
    @OptionGroup var engineArguments: EngineArguments

    func run(console: Console) async throws -> Int32 {
        var options = Interpreter.Options()
        options.threadCount = threads
        options.requantization = engineArguments.interpreterRequantization
        options.kernelLevel = engineArguments.interpreterKernelLevel
        let interpreter = try Interpreter(modelPath: path, options: options)
        let target = try RunTarget(interpreter, signature: signature)
        let steps = invokes ?? 1
        guard files.count == target.inputCount * steps else {
            let per = invokes == nil ? "" : " for each of the \(steps) invokes"
            throw ToolError(
                "the model has \(target.inputCount) input(s); give exactly that many --input files\(per) (got \(files.count))"
            )
        }
        try target.allocate()
        let arrays = try files.map { file throws -> NPYArray in
            do { return try NPYArray(contentsOf: URL(fileURLWithPath: file)) } catch {
                throw ToolError("input file \(file): \(error)")
            }
        }
        let root = URL(fileURLWithPath: outputDir ?? ".")
        for step in 0 ..< steps {
            let first = step * target.inputCount
            try feed(target, Array(arrays[first ..< first + target.inputCount]), files: Array(files[first...]))
            try target.invoke()
            let directory = invokes == nil ? root : root.appendingPathComponent("invoke\(step)")
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for i in 0 ..< target.outputCount {
                let tensor = try target.output(i)
                let array = try NPYArray(tensor)
                let url = directory.appendingPathComponent("output_\(i).npy")
                try array.write(to: url)
                let at = invokes == nil ? "" : "invoke \(step) "
                console.out(
                    "\(at)output \(i) '\(tensor.name)' \(tensor.dataType) \(tensor.shape.dimensions) → \(url.path)  \(Self.summary(array))\n"
                )
            }
        }
        return ExitCode.success
    }

    /// Checks one invoke's arrays against the inputs, resizes inputs whose shapes differ,
    /// and copies the arrays in.
    private func feed(_ target: RunTarget, _ arrays: [NPYArray], files: [String]) throws {
        var resized = false
        for (i, array) in arrays.enumerated() {
            let tensor = try target.input(i)
            let matches = tensor.dataType == .string ? array.dtype.isString : array.dtype == NPYDType(tensor.dataType)
            guard matches else {
                throw ToolError(
                    "input \(i) ('\(tensor.name)') has type \(tensor.dataType), but \(files[i]) holds \(array.dtype.descr)"
                )
            }
            if tensor.shape.dimensions != array.shape {
                do { try target.resize(i, to: array.shape) } catch {
                    throw ToolError(
                        "input \(i) ('\(tensor.name)') has shape \(tensor.shape.dimensions) and cannot take \(files[i])'s shape \(array.shape)"
                    )
                }
                resized = true
            }
        }
        if resized { try target.allocate() }
        for (i, array) in arrays.enumerated() { try target.copy(array.tensorData(), to: i) }
    }

    /// min / max / mean and the first values, for a glance at an output.
    static func summary(_ array: NPYArray) -> String {
        if array.dtype.isString {
            let strings = (try? array.strings()) ?? []
            let head = strings.prefix(3).map { "\"\($0)\"" }.joined(separator: ", ")
            return "\(array.elementCount) strings [\(head)\(array.elementCount > 3 ? ", …" : "")]"
        }
        let v = array.floatValues()
        guard let lo = v.min(), let hi = v.max() else { return "(empty)" }
        let mean = v.reduce(0, +) / Float(v.count)
        let head = v.prefix(5).map { "\($0)" }.joined(separator: ", ")
        return "min \(lo) max \(hi) mean \(mean) [\(head)\(v.count > 5 ? ", …" : "")]"
    }
}
