import Foundation
import NumPy
import TensorFlowLite
import TFLiteConformance

extension Subcommand {
    /// `tflite run MODEL --input FILE.npy [--input ...] [--output-dir DIR] [--threads N] [--requantization MODE] [--kernel-level LEVEL]`.
    public static let run = Subcommand(
        name: "run",
        summary: "Run a model on .npy inputs and write its outputs as .npy files",
        discussion: """
        Give one --input per model input, in the model's input order. A .npy whose shape
        differs from the model's input resizes that input (when the graph allows it); its
        dtype must equal the input's type. Writes DIR/output_<i>.npy for each output i.
        """,
        arguments: ArgumentSpec(
            positionals: [.init("MODEL", help: "Path of a .tflite file")],
            options: [
                .init("input", short: "i", valueName: "FILE.npy", help: "An input array (repeat for each input)"),
                .init("output-dir", short: "o", valueName: "DIR", help: "Where to write output_<i>.npy (default: .)"),
                .init("threads", valueName: "N", help: "Interpreter threads (default 1)"),
                .requantization,
                .kernelLevel,
            ]
        )
    ) { args, console in
        guard let path = args.positional("MODEL") else { throw UsageError.missingArgument("MODEL") }
        var options = Interpreter.Options()
        options.threadCount = try args.intValue("threads", in: 1 ... 256) ?? 1
        options.requantization = try args.interpreterRequantization()
        options.kernelLevel = try args.interpreterKernelLevel()
        let interpreter = try Interpreter(modelPath: path, options: options)
        let files = args.values("input")
        guard files.count == interpreter.inputTensorCount else {
            throw ToolError("the model has \(interpreter.inputTensorCount) input(s); give exactly that many --input files (got \(files.count))")
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
                throw ToolError("input \(i) ('\(tensor.name)') has type \(tensor.dataType), but \(files[i]) holds \(array.dtype.descr)")
            }
            if tensor.shape.dimensions != array.shape {
                do { try interpreter.resizeInput(at: i, to: Tensor.Shape(array.shape)) } catch {
                    throw ToolError("input \(i) ('\(tensor.name)') has shape \(tensor.shape.dimensions) and cannot take \(files[i])'s shape \(array.shape)")
                }
                resized = true
            }
        }
        if resized { try interpreter.allocateTensors() }
        for (i, array) in arrays.enumerated() { try interpreter.copy(Data(array.data), toInputAt: i) }
        try interpreter.invoke()
        let directory = URL(fileURLWithPath: args.value("output-dir") ?? ".")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for i in 0 ..< interpreter.outputTensorCount {
            let tensor = try interpreter.output(at: i)
            let array = try NPYArray(dtype: NPYDType(tensor.dataType), shape: tensor.shape.dimensions, data: [UInt8](tensor.data))
            let url = directory.appendingPathComponent("output_\(i).npy")
            try array.write(to: url)
            console.out("output \(i) '\(tensor.name)' \(tensor.dataType) \(tensor.shape.dimensions) → \(url.path)  \(summary(array))\n")
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
