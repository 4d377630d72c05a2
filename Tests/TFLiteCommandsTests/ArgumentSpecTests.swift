import Testing
@testable import TFLiteCommands

@Suite struct ArgumentSpecTests {
    let spec = ArgumentSpec(
        positionals: [.init("MODEL", help: "m"), .init("EXTRA", help: "e", isOptional: true)],
        options: [.init("json", help: "j"), .init("threads", short: "t", valueName: "N", help: "t"),
                  .init("input", valueName: "NAME=FILE", help: "i")]
    )

    @Test func flagsOptionsAndPositionalsInAnyOrder() throws {
        let p = try spec.parse(["--threads", "4", "m.tflite", "--json", "--input=a=x.npy", "--input", "b=y.npy", "extra"])
        #expect(p.positional("MODEL") == "m.tflite")
        #expect(p.positional("EXTRA") == "extra")
        #expect(p.flag("json"))
        #expect(try p.intValue("threads", in: 1 ... 64) == 4)
        #expect(p.values("input") == ["a=x.npy", "b=y.npy"])
        #expect(p.value("input") == "b=y.npy")
    }

    @Test func shortOptionsAndDoubleDash() throws {
        let p = try spec.parse(["-t", "2", "--", "--json"])
        #expect(p.value("threads") == "2")
        #expect(p.positional("MODEL") == "--json")
        #expect(!p.flag("json"))
        #expect(p.positional("EXTRA") == nil)
        #expect(try spec.parse(["-"]).positional("MODEL") == "-")
    }

    @Test func errors() {
        #expect(throws: UsageError.missingArgument("MODEL")) { try spec.parse(["--json"]) }
        #expect(throws: UsageError.unknownOption("--jsn")) { try spec.parse(["m", "--jsn"]) }
        #expect(throws: UsageError.unknownOption("-x")) { try spec.parse(["m", "-x"]) }
        #expect(throws: UsageError.unknownOption("-tt")) { try spec.parse(["m", "-tt"]) }
        #expect(throws: UsageError.missingValue(option: "--threads")) { try spec.parse(["m", "--threads"]) }
        #expect(throws: UsageError.flagTakesNoValue(option: "--json")) { try spec.parse(["m", "--json=1"]) }
        #expect(throws: UsageError.unexpectedArgument("c")) { try spec.parse(["a", "b", "c"]) }
        #expect(throws: UsageError.invalidValue(option: "--threads", value: "many", expected: "an integer in 1...64")) {
            try spec.parse(["m", "--threads", "many"]).intValue("threads", in: 1 ... 64)
        }
        #expect(throws: UsageError.invalidValue(option: "--threads", value: "0", expected: "an integer in 1...64")) {
            try spec.parse(["m", "--threads=0"]).intValue("threads", in: 1 ... 64)
        }
    }

    @Test func synopsis() {
        #expect(spec.synopsis == "MODEL [EXTRA] [--json] [--threads N] [--input NAME=FILE]")
    }
}
