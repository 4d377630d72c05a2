import Foundation
import NumPy
import TensorFlowLite

/// The distance between an output and a reference array.
public struct Distance: Sendable, Hashable {
    /// Largest absolute difference (in LSB for integer outputs).
    public var maxAbsError: Double
    /// Largest reference magnitude (scales the float tolerance).
    public var maxReference: Double
    public var isInteger: Bool
    /// Elements that differ at all, of `elements` compared.
    public var differing = 0
    public var elements = 0

    public static let zero = Distance(maxAbsError: 0, maxReference: 0, isInteger: true)
}

/// What happened when one case ran.
public struct CaseResult: Sendable {
    public let id: String
    public let op: String
    public let dtype: String
    public let tolerance: ToleranceLevel
    /// nil when the case could not run; then `error` says why.
    public let vsReference: Distance?
    public let vsOptimized: Distance?
    public let error: String?

    /// Whether the outputs are within the case's tolerance of the reference.
    public var passed: Bool {
        guard error == nil, let d = vsReference else { return false }
        if d.isInteger && tolerance == .exact { return d.maxAbsError == 0 }
        return d.maxAbsError <= tolerance.floatBound(maxReference: d.maxReference)
    }
}

/// Runs conformance cases through the public ``Interpreter`` API.
public enum ConformanceRunner {
    public static func run(
        _ testCase: ConformanceCase, threads: Int = 1,
        requantization: Interpreter.Options.Requantization = .exact
    ) -> CaseResult {
        if testCase.refusedByLiteRT { return refusal(testCase, threads: threads, requantization: requantization) }
        do {
            let results = try invoke(testCase, threads: threads, requantization: requantization)
            var reference = Distance.zero
            var optimized = Distance.zero
            for (k, (step, outputs)) in zip(testCase.steps, results).enumerated() {
                let at = testCase.steps.count > 1 ? "invoke \(k) " : ""
                guard outputs.count >= step.expected.count else {
                    throw ConformanceError.badCase(
                        testCase.id, "model has \(outputs.count) outputs, case expects \(step.expected.count)")
                }
                for (i, want) in step.expected.enumerated() {
                    let got = outputs[i]
                    let sameShape = got.shape == want.shape
                    guard sameShape || (!testCase.exactShapes && elementCount(got.shape) == want.elementCount) else {
                        throw ConformanceError.badCase(
                            testCase.id, "\(at)output \(i) has shape \(got.shape), reference has \(want.shape)")
                    }
                    reference = merge(reference, try distance(got, want))
                    optimized = merge(optimized, try distance(got, step.optimized[i] ?? want))
                }
            }
            return CaseResult(
                id: testCase.id, op: testCase.op, dtype: testCase.dtype, tolerance: testCase.tolerance,
                vsReference: reference, vsOptimized: optimized, error: nil)
        } catch {
            return CaseResult(
                id: testCase.id, op: testCase.op, dtype: testCase.dtype, tolerance: testCase.tolerance,
                vsReference: nil, vsOptimized: nil, error: "\(error)")
        }
    }

    /// A case LiteRT refuses passes (at distance zero) when loading, allocating or invoking
    /// the model fails here too.
    static func refusal(
        _ testCase: ConformanceCase, threads: Int, requantization: Interpreter.Options.Requantization
    ) -> CaseResult {
        let ran = (try? invoke(testCase, threads: threads, requantization: requantization)) != nil
        return CaseResult(
            id: testCase.id, op: testCase.op, dtype: testCase.dtype, tolerance: testCase.tolerance,
            vsReference: ran ? nil : .zero, vsOptimized: ran ? nil : .zero,
            error: ran ? "LiteRT refuses this model, but the runtime ran it" : nil)
    }

    /// Runs the model on each step's inputs, invoking one interpreter once per step (so
    /// state kept between invokes carries over), and returns every step's outputs.
    public static func invoke(
        _ testCase: ConformanceCase, threads: Int = 1,
        requantization: Interpreter.Options.Requantization = .exact
    ) throws -> [[NPYArray]] {
        var options = Interpreter.Options()
        options.threadCount = threads
        options.requantization = requantization
        options.isErrorLoggingEnabled = false
        let interpreter = try Interpreter(modelPath: testCase.modelPath, options: options)
        try interpreter.allocateTensors()
        guard let signatures = testCase.signatures else {
            return try testCase.steps.map { step in try invoke(interpreter, on: step.inputs, id: testCase.id) }
        }
        var runners: [String: SignatureRunner] = [:]
        return try zip(testCase.steps, signatures).map { step, key in
            guard let names = interpreter.model.signatureNamesInSubgraphOrder(key) else {
                throw ConformanceError.badCase(testCase.id, "the model has no signature '\(key)'")
            }
            let runner = try runners[key] ?? interpreter.signatureRunner(with: key)
            runners[key] = runner
            return try invoke(runner, names: names, on: step.inputs, id: testCase.id)
        }
    }

    /// Like ``invoke(_:on:id:)`` for a signature, inputs and outputs in its subgraph's order.
    static func invoke(
        _ runner: SignatureRunner, names: (inputs: [String], outputs: [String]), on inputs: [NPYArray], id: String
    ) throws -> [NPYArray] {
        guard inputs.count == names.inputs.count else {
            throw ConformanceError.badCase(
                id, "signature '\(runner.signatureKey)' has \(names.inputs.count) inputs, case provides \(inputs.count)"
            )
        }
        for (name, array) in zip(names.inputs, inputs)
        where try runner.input(named: name).shape.dimensions != array.shape {
            try runner.resizeInput(named: name, toShape: Tensor.Shape(array.shape))
        }
        try runner.invoke(
            with: Dictionary(zip(names.inputs, try inputs.map { try $0.tensorData() }), uniquingKeysWith: { a, _ in a })
        )
        return try names.outputs.map { name in
            return try NPYArray(runner.output(named: name))
        }
    }

    /// Copies `inputs` into the interpreter (resizing inputs whose shapes differ), invokes
    /// it, and returns every output as an array.
    static func invoke(_ interpreter: Interpreter, on inputs: [NPYArray], id: String) throws -> [NPYArray] {
        guard inputs.count == interpreter.inputTensorCount else {
            throw ConformanceError.badCase(
                id, "model has \(interpreter.inputTensorCount) inputs, case provides \(inputs.count)")
        }
        var resized = false
        for (i, array) in inputs.enumerated() where try interpreter.input(at: i).shape.dimensions != array.shape {
            try interpreter.resizeInput(at: i, to: Tensor.Shape(array.shape))
            resized = true
        }
        if resized { try interpreter.allocateTensors() }
        for (i, array) in inputs.enumerated() {
            try interpreter.copy(array.tensorData(), toInputAt: i)
        }
        try interpreter.invoke()
        return try (0 ..< interpreter.outputTensorCount).map { i in
            return try NPYArray(interpreter.output(at: i))
        }
    }

    static func elementCount(_ shape: [Int]) -> Int { shape.reduce(1, *) }

    static func distance(_ got: NPYArray, _ want: NPYArray) throws -> Distance {
        if got.dtype.isString || want.dtype.isString {
            // Strings match exactly or not at all: each differing one counts as 1.
            let a = try got.byteStrings()
            let b = try want.byteStrings()
            guard a.count == b.count else {
                throw ConformanceError.badCase("", "output has \(a.count) strings, reference has \(b.count)")
            }
            let differing = zip(a, b).filter { $0 != $1 }.count
            return Distance(
                maxAbsError: differing > 0 ? 1 : 0, maxReference: 0, isInteger: true, differing: differing,
                elements: a.count)
        }
        let integer =
            !(got.dtype == .float32 || got.dtype == .float64 || got.dtype == .float16 || got.dtype == .complex64)
        let a = try doubles(got)
        let b = try doubles(want)
        guard a.count == b.count else {
            throw ConformanceError.badCase("", "output has \(a.count) elements, reference has \(b.count)")
        }
        var maxError = 0.0
        var maxRef = 0.0
        var differing = 0
        for (x, y) in zip(a, b) {
            if x.isNaN != y.isNaN { maxError = .infinity; differing += 1; continue }
            if x.isNaN { continue }
            if x != y { differing += 1 }
            maxError = max(maxError, x == y ? 0 : abs(x - y))
            maxRef = max(maxRef, abs(y))
        }
        // 64-bit integers past 2^53 can round to the same double: compare their bits too.
        if integer, differing == 0, got.data != want.data {
            maxError = Swift.max(maxError, 1)
            differing = zip(got.data, want.data).contains { $0 != $1 } ? 1 : differing
        }
        return Distance(
            maxAbsError: maxError, maxReference: maxRef, isInteger: integer, differing: differing, elements: a.count)
    }

    static func merge(_ a: Distance, _ b: Distance) -> Distance {
        Distance(
            maxAbsError: max(a.maxAbsError, b.maxAbsError), maxReference: max(a.maxReference, b.maxReference),
            isInteger: a.isInteger && b.isInteger, differing: a.differing + b.differing,
            elements: a.elements + b.elements)
    }

    static func doubles(_ array: NPYArray) throws -> [Double] {
        switch array.dtype {
        case .float32: return try array.values(as: Float.self).map(Double.init)
        case .float64: return try array.values(as: Double.self)
        case .float16: return array.floatValues().map(Double.init)
        case .int8: return try array.values(as: Int8.self).map(Double.init)
        case .uint8: return try array.values(as: UInt8.self).map(Double.init)
        case .int16: return try array.values(as: Int16.self).map(Double.init)
        case .uint16: return try array.values(as: UInt16.self).map(Double.init)
        case .int32: return try array.values(as: Int32.self).map(Double.init)
        case .uint32: return try array.values(as: UInt32.self).map(Double.init)
        case .int64: return try array.values(as: Int64.self).map(Double.init)
        case .uint64: return try array.values(as: UInt64.self).map(Double.init)
        case .bool: return try array.values(as: Bool.self).map { $0 ? 1 : 0 }
        // Real and imaginary parts, interleaved: each is compared like a float32 value.
        case .complex64:
            return try NPYArray(dtype: .float32, shape: [array.data.count / 4], data: array.data)
                .values(as: Float.self).map(Double.init)
        case .unicode, .bytes:
            throw ConformanceError.badCase("", "string arrays have no numeric values")
        }
    }
}

extension NPYDType {
    /// The `.npy` element type holding a tensor of `type`; nil for a string tensor, whose
    /// width depends on its strings (``NPYArray/init(_:)``).
    public init?(_ type: Tensor.DataType) {
        switch type {
        case .string: return nil
        case .float32: self = .float32
        case .float64: self = .float64
        case .float16: self = .float16
        case .int8: self = .int8
        case .uInt8: self = .uint8
        case .int16: self = .int16
        case .int32: self = .int32
        case .int64: self = .int64
        case .bool: self = .bool
        case .complex64: self = .complex64
        }
    }
}

extension NPYArray {
    /// A tensor's value: its bytes for a numeric tensor; for a string tensor its strings,
    /// as `<U` when all are UTF-8, else as `|S`.
    public init(_ tensor: Tensor) throws {
        guard let dtype = NPYDType(tensor.dataType) else {
            let strings = try [Data](tensor).map { [UInt8]($0) }
            if strings.allSatisfy({ String(validating: $0, as: UTF8.self) != nil }) {
                try self.init(
                    shape: tensor.shape.dimensions, strings: strings.map { String(decoding: $0, as: UTF8.self) })
            } else {
                try self.init(shape: tensor.shape.dimensions, byteStrings: strings)
            }
            return
        }
        try self.init(dtype: dtype, shape: tensor.shape.dimensions, data: [UInt8](tensor.data))
    }

    /// The bytes to copy into a tensor: the array's data, or for a string array TFLite's
    /// layout of its strings (as UTF-8).
    public func tensorData() throws -> Data {
        guard dtype.isString else { return Data(data) }
        guard let data = Tensor.stringData(try byteStrings().map { Data($0) }) else {
            throw ConformanceError.badCase("", "the strings pass the 2 GiB a string tensor holds")
        }
        return data
    }
}
