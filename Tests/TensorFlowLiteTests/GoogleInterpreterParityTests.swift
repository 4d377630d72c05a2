import Foundation
import Testing
@testable import TensorFlowLite

// The behaviours TensorFlowLiteSwift's own unit tests (tensorflow/tensorflow,
// tensorflow/lite/swift/Tests) assert, checked against this package on the same models,
// rebuilt from TensorFlow's JSON dumps (scripts/fixtures/tensorflowliteswift_models.py).
// Expected values are LiteRT's: the fixture script checks each against LiteRT's reference
// kernels before writing the models.
//
// Not applicable here: the part of MetalDelegateTests that runs `multi_add` on a Metal GPU
// (testInitInterpreterWithDelegate, testInitInterpreterWithOptionsAndDelegate). Those
// tests skip themselves without a Metal device; there is no GPU delegate off Apple, so
// the delegate is accepted and ignored. What they assert about the interpreter (the
// delegate is kept, options nil or not) is checked in GoogleDelegateParityTests, and the
// model then runs on the CPU. ModelTests' `cModel` (TensorFlow Lite's C model pointer)
// has no counterpart: there is no C library; its loading cases are checked on ``Model``.

/// `add.bin`: y = (x + x) + x on float32, the input resizable from [1, 8, 8, 3].
enum AddModel {
    static let path = Fixtures.google("add")
    static let shape: Tensor.Shape = [2]
    static let inputData = [Float32(1), 3].withUnsafeBufferPointer { Data(buffer: $0) }
    static let outputData = [Float32(3), 9].withUnsafeBufferPointer { Data(buffer: $0) }
    static let inputTensor = Tensor(name: "input", dataType: .float32, shape: shape, data: inputData)
    static let outputTensor = Tensor(name: "output", dataType: .float32, shape: shape, data: outputData)
}

/// `add_quantized.bin`: the same graph on uint8, its middle tensor untyped in the file.
enum AddQuantizedModel {
    static let path = Fixtures.google("add_quantized")
    static let shape: Tensor.Shape = [2]
    static let quantization = QuantizationParameters(scale: 0.003922, zeroPoint: 0)
    static let inputTensor = Tensor(
        name: "input", dataType: .uInt8, shape: shape, data: Data([1, 3]),
        quantizationParameters: quantization)
    static let outputTensor = Tensor(
        name: "output", dataType: .uInt8, shape: shape, data: Data([3, 9]),
        quantizationParameters: quantization)
}

@Suite struct GoogleInterpreterParityTests {
    /// Resizes input 0 to `shape`, allocates and copies `data`, as Google's set-up does.
    static func prepared(_ path: String, shape: Tensor.Shape, data: Data) throws -> Interpreter {
        let interpreter = try Interpreter(modelPath: path)
        try interpreter.resizeInput(at: 0, to: shape)
        try interpreter.allocateTensors()
        try interpreter.copy(data, toInputAt: 0)
        return interpreter
    }

    @Test func createsFromAValidPathOrData() throws {
        _ = try Interpreter(modelPath: AddModel.path)
        _ = try Interpreter(modelData: Data(contentsOf: URL(fileURLWithPath: AddModel.path)))
    }

    @Test func invalidPathFailsToLoad() {
        #expect(throws: InterpreterError.failedToLoadModel) { try Interpreter(modelPath: "/invalid/path") }
    }

    @Test func keepsOptionsAndNoDelegates() throws {
        var options = Interpreter.Options()
        options.threadCount = 2
        let fromPath = try Interpreter(modelPath: AddQuantizedModel.path, options: options)
        #expect(fromPath.options == options)
        #expect(fromPath.delegates == nil)
        let fromData = try Interpreter(
            modelData: Data(contentsOf: URL(fileURLWithPath: AddQuantizedModel.path)),
            options: options)
        #expect(fromData.options != nil)
        #expect(fromData.delegates == nil)
    }

    @Test func countsInputsAndOutputs() throws {
        let interpreter = try Interpreter(modelPath: AddModel.path)
        #expect(interpreter.inputTensorCount == 1)
        #expect(interpreter.outputTensorCount == 1)
    }

    @Test func invokesOnlyAfterAllocation() throws {
        let interpreter = try Interpreter(modelPath: AddModel.path)
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.invoke() }
        try interpreter.allocateTensors()
        try interpreter.invoke()
    }

    @Test func inputTensorIsTheCopiedSnapshot() throws {
        let interpreter = try Self.prepared(AddModel.path, shape: AddModel.shape, data: AddModel.inputData)
        #expect(try interpreter.input(at: 0) == AddModel.inputTensor)
    }

    @Test func quantizedInputTensorCarriesItsParameters() throws {
        let interpreter = try Self.prepared(AddQuantizedModel.path, shape: AddQuantizedModel.shape, data: Data([1, 3]))
        #expect(try interpreter.input(at: 0) == AddQuantizedModel.inputTensor)
    }

    @Test func outputTensorHoldsTheSum() throws {
        let interpreter = try Self.prepared(AddModel.path, shape: AddModel.shape, data: AddModel.inputData)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        #expect(output == AddModel.outputTensor)
        #expect(try [Float32](output) == [3, 9])
    }

    /// The middle tensor has no type in the file (FLOAT32 by the schema's default) but
    /// uint8 quantization; ADD gives it its operands' type at prepare, as TFLite does.
    @Test func quantizedOutputTensorHoldsRawCodes() throws {
        let interpreter = try Self.prepared(AddQuantizedModel.path, shape: AddQuantizedModel.shape, data: Data([1, 3]))
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        #expect(output == AddQuantizedModel.outputTensor)
        #expect([UInt8](output.data) == [3, 9])
    }

    @Test func indexesPastTheEndThrowInvalidIndex() throws {
        let interpreter = try Interpreter(modelPath: AddModel.path)
        let invalid = InterpreterError.invalidTensorIndex(index: 1, maxIndex: 0)
        #expect(throws: invalid) { try interpreter.resizeInput(at: 1, to: [2, 2, 3]) }
        #expect(throws: invalid) { try interpreter.copy(AddModel.inputData, toInputAt: 1) }
        try interpreter.allocateTensors()
        #expect(throws: invalid) { try interpreter.input(at: 1) }
        try interpreter.invoke()
        #expect(throws: invalid) { try interpreter.output(at: 1) }
    }

    @Test func tensorsBeforeAllocationThrow() throws {
        let interpreter = try Interpreter(modelPath: AddModel.path)
        #expect(throws: InterpreterError.allocateTensorsRequired) { try interpreter.input(at: 0) }
        #expect(throws: InterpreterError.invokeInterpreterRequired) { try interpreter.output(at: 0) }
    }

    @Test func resizesAndAllocates() throws {
        let interpreter = try Interpreter(modelPath: AddModel.path)
        try interpreter.resizeInput(at: 0, to: [2, 2, 3])
        try interpreter.allocateTensors()
        #expect(try interpreter.input(at: 0).shape == [2, 2, 3])
    }

    @Test func copyReturnsTheInputAndChecksTheByteCount() throws {
        let interpreter = try Interpreter(modelPath: AddModel.path)
        try interpreter.resizeInput(at: 0, to: AddModel.shape)
        try interpreter.allocateTensors()
        #expect(try interpreter.copy(AddModel.inputData, toInputAt: 0).data == AddModel.inputData)
        let short = Data(count: AddModel.inputData.count - 1)
        #expect(throws: InterpreterError.invalidTensorDataCount(provided: 7, required: 8)) {
            try interpreter.copy(short, toInputAt: 0)
        }
    }

    @Test func allocatesTensors() throws {
        try Interpreter(modelPath: AddModel.path).allocateTensors()
    }
}

@Suite struct GoogleOptionsParityTests {
    @Test func defaults() {
        let options = Interpreter.Options()
        #expect(options.threadCount == nil)
        #expect(!options.isXNNPackEnabled)
    }

    @Test func customValuesAndEquality() {
        var a = Interpreter.Options()
        var b = Interpreter.Options()
        #expect(a == b)
        a.threadCount = 2
        b.threadCount = 2
        #expect(a == b)
        b.threadCount = 3
        #expect(a != b)
        b.threadCount = 2
        b.isXNNPackEnabled = true
        #expect(b.isXNNPackEnabled)
        #expect(a != b)
        a.isXNNPackEnabled = true
        #expect(a == b)
    }
}

@Suite struct GoogleRuntimeParityTests {
    @Test func versionIsSemantic() {
        let pattern = #"^(\d+)\.(\d+)\.(\d+)([+-][-.0-9A-Za-z]+)?$"#
        #expect(Runtime.version.range(of: pattern, options: .regularExpression) != nil)
    }

    /// ModelTests, on ``Model``: a file or its bytes load; an empty or invalid path does not.
    @Test func modelLoadsFromPathOrData() throws {
        _ = try Model(contentsOfFile: AddModel.path)
        _ = try Model(data: Data(contentsOf: URL(fileURLWithPath: AddModel.path)))
        #expect(throws: (any Error).self) { try Model(contentsOfFile: "") }
        #expect(throws: (any Error).self) { try Model(contentsOfFile: "invalid/path") }
    }
}

/// TensorTests, TensorShapeTests and QuantizationParametersTests.
@Suite struct GoogleValueTypeParityTests {
    @Test func tensorKeepsItsFieldsAndComparesByValue() {
        let data = Data("Tensor".utf8)
        let q = QuantizationParameters(scale: 0.5, zeroPoint: 1)
        let a = Tensor(name: "Tensor", dataType: .uInt8, shape: [2, 2, 3], data: data, quantizationParameters: q)
        #expect(a.name == "Tensor" && a.dataType == .uInt8 && a.shape == [2, 2, 3])
        #expect(a.data == data && a.quantizationParameters == q)
        #expect(a == Tensor(name: "Tensor", dataType: .uInt8, shape: [2, 2, 3], data: data, quantizationParameters: q))
        #expect(
            a != Tensor(name: "Tensor2", dataType: .uInt8, shape: [2, 2, 3], data: data, quantizationParameters: q))
    }

    @Test func shapeFromArrayElementsOrLiteral() {
        for shape in [Tensor.Shape([2, 2, 3]), Tensor.Shape(2, 2, 3), [2, 2, 3] as Tensor.Shape] {
            #expect(shape.rank == 3)
            #expect(shape.dimensions == [2, 2, 3])
        }
        #expect(Tensor.Shape(2, 2, 3) != [2, 2, 4])
    }

    @Test func quantizationParametersCompareByValue() {
        let a = QuantizationParameters(scale: 0.5, zeroPoint: 1)
        #expect(a.scale == 0.5 && a.zeroPoint == 1)
        #expect(a == QuantizationParameters(scale: 0.5, zeroPoint: 1))
        #expect(a != QuantizationParameters(scale: 0.4, zeroPoint: 1))
    }
}
