import Foundation
import Testing
import TensorFlowLite
import TFLiteModel

/// A user kernel registered through the public custom-operator API: `y = k · x²`, with
/// `k` read from the operator's FlexBuffers options; negative inputs are refused at run
/// time with the kernel's own error.
struct ScaledSquare: CustomOperator {
    enum Failure: Error, CustomStringConvertible {
        case notFloat(String)
        case negativeInput(Int)
        var description: String {
            switch self {
            case .notFloat(let type): "expects float32, got \(type)"
            case .negativeInput(let i): "input element \(i) is negative"
            }
        }
    }

    func prepare(_ context: inout CustomOperatorPrepareContext) throws -> any CustomOperatorKernel {
        let type = try context.inputType(0)
        guard type == .float32 else { throw Failure.notFloat("\(type)") }
        let factor = try context.flexBufferOptions().doubleValue ?? 1
        try context.setOutputShape(0, try context.inputShape(0))
        return Kernel(factor: Float(factor))
    }

    struct Kernel: CustomOperatorKernel {
        let factor: Float
        func eval(_ context: CustomOperatorEvalContext) throws {
            let x = try context.input(0, as: Float.self)
            let y = try context.output(0, as: Float.self)
            for i in 0 ..< x.count {
                guard x[i] >= 0 else { throw Failure.negativeInput(i) }
                y[i] = factor * x[i] * x[i]
            }
        }
    }
}

/// Reads the options as raw bytes and tries to view its float output as `Int32`.
struct WrongTypeAccess: CustomOperator {
    struct Kernel: CustomOperatorKernel {
        func eval(_ context: CustomOperatorEvalContext) throws {
            _ = try context.output(0, as: Int32.self)
        }
    }
    func prepare(_ context: inout CustomOperatorPrepareContext) throws -> any CustomOperatorKernel { Kernel() }
}

/// Writes one element past its output (and reads one past its input) after filling it.
struct OutOfRangeAccess: CustomOperator {
    struct Kernel: CustomOperatorKernel {
        func eval(_ context: CustomOperatorEvalContext) throws {
            let x = try context.input(0, as: Float.self)
            let y = try context.output(0, as: Float.self)
            y.fill(with: 7)
            y[y.count] = x[x.count]
            y[-1] = 1
        }
    }
    func prepare(_ context: inout CustomOperatorPrepareContext) throws -> any CustomOperatorKernel { Kernel() }
}

@Suite struct CustomOperatorTests {
    /// FlexBuffers for the root integer 3: value byte, packed type (int, 1-byte), root width.
    static let optionsThree: [UInt8] = [3, 1 << 2, 1]

    /// One `CUSTOM:<name>` operator from a `[2, 3]` float input to a same-shaped output.
    static func model(name: String = "ScaledSquare", type: ElementType = .float32, options: [UInt8] = optionsThree)
        -> Model
    {
        let bytes = ModelBytes(options)
        let tensors = [
            ModelTensor(index: 0, name: "x", type: type, shape: [2, 3]),
            ModelTensor(index: 1, name: "y", type: .float32, shape: [2, 3]),
        ]
        let code = OperatorCode(builtin: .custom, customName: name)
        let op = Operator(
            index: 0, code: code, inputs: [0], outputs: [1],
            customOptions: ByteView(storage: bytes, offset: 0, count: options.count))
        let subgraph = Subgraph(name: "main", tensors: tensors, inputs: [0], outputs: [1], operators: [op])
        return Model(
            bytes: bytes, version: 3, modelDescription: nil, operatorCodes: [code],
            subgraphs: [subgraph], signatures: [], metadata: [])
    }

    static func options(_ name: String = "ScaledSquare", _ kernel: some CustomOperator = ScaledSquare())
        -> Interpreter.Options
    {
        var options = Interpreter.Options()
        options.isErrorLoggingEnabled = false
        options.registerCustomOperator(name, kernel)
        return options
    }

    static func run(_ interpreter: Interpreter, _ x: [Float]) throws -> [Float] {
        try interpreter.allocateTensors()
        try interpreter.copy(x.withUnsafeBufferPointer { Data(buffer: $0) }, toInputAt: 0)
        try interpreter.invoke()
        return try [Float](interpreter.output(at: 0))
    }

    @Test func registeredKernelComputesOutputs() throws {
        let interpreter = try Interpreter(model: Self.model(), options: Self.options())
        let x: [Float] = [0, 1, 2, 0.5, 10, 3]
        #expect(try Self.run(interpreter, x) == x.map { 3 * $0 * $0 })
        #expect(try interpreter.output(at: 0).shape == [2, 3])
    }

    @Test func kernelErrorAtInvokeNamesTheOperator() throws {
        let interpreter = try Interpreter(model: Self.model(), options: Self.options())
        #expect(
            throws: InterpreterError.customOperatorFailed(
                name: "ScaledSquare", operatorIndex: 0,
                reason: "input element 4 is negative")
        ) {
            _ = try Self.run(interpreter, [0, 1, 2, 3, -1, 5])
        }
    }

    @Test func kernelErrorAtPrepareNamesTheOperator() {
        #expect(
            throws: InterpreterError.customOperatorFailed(
                name: "ScaledSquare", operatorIndex: 0,
                reason: "expects float32, got int32")
        ) {
            try Interpreter(model: Self.model(type: .int32), options: Self.options())
        }
    }

    @Test func malformedOptionsAreATypedError() {
        #expect(
            throws: InterpreterError.customOperatorFailed(
                name: "ScaledSquare", operatorIndex: 0,
                reason: "custom options: root: byte width 7 in the last byte is not 1, 2, 4 or 8")
        ) {
            try Interpreter(model: Self.model(options: [1, 2, 7]), options: Self.options())
        }
    }

    @Test func viewsOfTheWrongTypeAreRefused() throws {
        let interpreter = try Interpreter(model: Self.model(), options: Self.options("ScaledSquare", WrongTypeAccess()))
        #expect(
            throws: InterpreterError.customOperatorFailed(
                name: "ScaledSquare", operatorIndex: 0,
                reason: "output 0 has type FLOAT32, not int32")
        ) {
            _ = try Self.run(interpreter, [1, 2, 3, 4, 5, 6])
        }
    }

    @Test func accessOutsideAViewFailsTheInvocationAndTouchesNothing() throws {
        let interpreter = try Interpreter(
            model: Self.model(), options: Self.options("ScaledSquare", OutOfRangeAccess()))
        #expect(
            throws: InterpreterError.customOperatorFailed(
                name: "ScaledSquare", operatorIndex: 0, reason: "the kernel read input 0 at index 6, outside 0..<6")
        ) {
            _ = try Self.run(interpreter, [1, 2, 3, 4, 5, 6])
        }
        // The writes inside the view landed; the ones outside were dropped.
        #expect(try [Float](interpreter.output(at: 0)) == [Float](repeating: 7, count: 6))
    }

    @Test func unregisteredCustomOperatorIsRefusedWithHowToRegister() {
        #expect(
            throws: InterpreterError.tensorFlowLiteError(
                "Failed to create the interpreter. Encountered unresolved custom op: ScaledSquare: operator 0 is the custom operator 'ScaledSquare', which this runtime has no kernel for; register one for the name 'ScaledSquare' (Interpreter.Options.registerCustomOperator)"
            )
        ) {
            try Interpreter(model: Self.model())
        }
        // Registering another name does not help.
        #expect(throws: InterpreterError.self) {
            try Interpreter(model: Self.model(), options: Self.options("Cube"))
        }
    }

    @Test func registrationsCompareByIdentity() {
        let a = Self.options()
        #expect(a == a)
        #expect(a != Self.options())
        #expect(a.customOperatorNames == ["ScaledSquare"])
    }
}
