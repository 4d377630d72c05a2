import Foundation
import Testing

@testable import TensorFlowLite

/// Strings through the public API: `copy([String], toInputAt:)`, `[String](tensor)`,
/// `[Data](tensor)`, raw layouts, and their errors.
@Suite struct StringTensorAPITests {
    static let skipGram = Fixtures.root.appendingPathComponent("Fixtures/conformance/SKIP_GRAM/n2_skip0/model.tflite")
        .path

    static func interpreter() throws -> Interpreter {
        var options = Interpreter.Options()
        options.isErrorLoggingEnabled = false
        let interpreter = try Interpreter(modelPath: skipGram, options: options)
        try interpreter.allocateTensors()
        return interpreter
    }

    @Test func stringsInAndOut() throws {
        let interpreter = try Self.interpreter()
        let input = try interpreter.copy(["one two three"], toInputAt: 0)
        #expect(input.dataType == .string && input.shape == [1])
        #expect(try [String](input) == ["one two three"])
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        #expect(output.dataType == .string && output.shape == [2])
        #expect(try [String](output) == ["one two", "two three"])
        #expect(try [Data](output) == [Data("one two".utf8), Data("two three".utf8)])
        // The raw layout round-trips through copy(Data).
        try interpreter.copy(try #require(Tensor.stringData(["a b"])), toInputAt: 0)
        try interpreter.invoke()
        #expect(try [String](interpreter.output(at: 0)) == ["a b"])
    }

    @Test func bytesThatAreNotUTF8() throws {
        let interpreter = try Self.interpreter()
        try interpreter.copy([Data([0xFF, 0x20, 0x41])], toInputAt: 0)
        try interpreter.invoke()
        let output = try interpreter.output(at: 0)
        #expect(try [Data](output) == [Data([0xFF, 0x20, 0x41])])
        #expect(throws: InterpreterError.invalidTensorDataType) { try [String](output) }
        #expect(throws: InterpreterError.invalidTensorDataType) { try [Float](output) }
    }

    @Test func wrongCountsAndMalformedLayoutsAreErrors() throws {
        let interpreter = try Self.interpreter()
        #expect(throws: InterpreterError.invalidTensorDataCount(provided: 2, required: 1)) {
            try interpreter.copy(["a", "b"], toInputAt: 0)
        }
        var layout = try #require(Tensor.stringData(["abc"]))
        layout[8] = 99 // the end offset past the buffer
        do {
            try interpreter.copy(layout, toInputAt: 0)
            Issue.record("accepted a malformed layout")
        } catch InterpreterError.tensorFlowLiteError(let message) {
            #expect(message.contains("offset 1 is 99"), "\(message)")
        }
        #expect(throws: InterpreterError.self) { try interpreter.copy(Data([1, 2]), toInputAt: 0) }
    }

    @Test func resizedStringInput() throws {
        let interpreter = try Self.interpreter()
        try interpreter.resizeInput(at: 0, to: [2])
        try interpreter.allocateTensors()
        try interpreter.copy(["x y", "ignored"], toInputAt: 0)
        try interpreter.invoke()
        #expect(try [String](interpreter.output(at: 0)) == ["x y"]) // SKIP_GRAM reads the first string
    }
}
