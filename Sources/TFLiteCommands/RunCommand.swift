import ArgumentParser
import Foundation
import NumPy
import TensorFlowLite
import TFLiteConformance

/// `tflite run MODEL --input FILE.npy [--input ...] [--output-dir DIR] [--threads N] [--requantization MODE] [--kernel-level LEVEL]`.
struct RunCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a model on .npy inputs and write its outputs as .npy files",
        discussion: """
            Give one --input per model input, in the model's input order. A .npy whose shape \
            differs from the model's input resizes that input (when the graph allows it); its \
            dtype must equal the input's type. Writes DIR/output_<i>.npy for each output i.
            """
    )

    @Argument(
        help: ArgumentHelp("Path of a .tflite file", valueName: "model"), completion: .file(extensions: ["tflite"]))
    var path: String
    @Option(
        name: [.customShort("i"), .customLong("input")],
        help: ArgumentHelp("An input array (repeat for each input)", valueName: "file.npy"),
        completion: .file(extensions: ["npy"]))
    var files: [String] = []
    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp("Where to write output_<i>.npy (default: .)", valueName: "dir"),
        completion: .directory)
    var outputDir: String?
    @Option(help: ArgumentHelp("Interpreter threads (default 1)", valueName: "n"), transform: value(in: 1 ... 256))
    var threads = 1
    @OptionGroup var engineArguments: EngineArguments

    func run(console: Console) async throws -> Int32 {
        var options = Interpreter.Options()
        options.threadCount = threads
        options.requantization = engineArguments.interpreterRequantization
        options.kernelLevel = engineArguments.interpreterKernelLevel
        let interpreter = try Interpreter(modelPath: path, options: options)
        guard files.count == interpreter.inputTensorCount else {
            throw ToolError(
                "the model has \(interpreter.inputTensorCount) input(s); give exactly that many --input files (got \(files.count))"
            )
        }
        try interpreter.allocateTensors()
        let arrays = try files.map { file throws -> NPYArray in
            do { return try NPYArray(contentsOf: URL(fileURLWithPath: file)) } catch {
                throw ToolError("input file \(file): \(error)")
            }
        }
        var resized = false
        for (i, array) in arrays.enumerated() {
            let tensor = try interpreter.input(at: i)
            guard array.dtype == NPYDType(tensor.dataType) else {
                throw ToolError(
                    "input \(i) ('\(tensor.name)') has type \(tensor.dataType), but \(files[i]) holds \(array.dtype.descr)"
                )
            }
            if tensor.shape.dimensions != array.shape {
                do { try interpreter.resizeInput(at: i, to: Tensor.Shape(array.shape)) } catch {
                    throw ToolError(
                        "input \(i) ('\(tensor.name)') has shape \(tensor.shape.dimensions) and cannot take \(files[i])'s shape \(array.shape)"
                    )
                }
                resized = true
            }
        }
        if resized { try interpreter.allocateTensors() }
        for (i, array) in arrays.enumerated() { try interpreter.copy(Data(array.data), toInputAt: i) }
        try interpreter.invoke()
        let directory = URL(fileURLWithPath: outputDir ?? ".")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for i in 0 ..< interpreter.outputTensorCount {
            let tensor = try interpreter.output(at: i)
            let array = try NPYArray(
                dtype: NPYDType(tensor.dataType), shape: tensor.shape.dimensions, data: [UInt8](tensor.data))
            let url = directory.appendingPathComponent("output_\(i).npy")
            try array.write(to: url)
            console.out(
                "output \(i) '\(tensor.name)' \(tensor.dataType) \(tensor.shape.dimensions) → \(url.path)  \(Self.summary(array))\n"
            )
        }
        return ExitCode.success
    }

    /// min / max / mean and the first values, for a glance at an output.
    static func summary(_ array: NPYArray) -> String {
        let v = array.floatValues()
        guard let lo = v.min(), let hi = v.max() else { return "(empty)" }
        let mean = v.reduce(0, +) / Float(v.count)
        let head = v.prefix(5).map { "\($0)" }.joined(separator: ", ")
        return "min \(lo) max \(hi) mean \(mean) [\(head)\(v.count > 5 ? ", …" : "")]"
    }
}
