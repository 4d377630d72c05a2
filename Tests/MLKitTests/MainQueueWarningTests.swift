import Foundation
import Testing

@testable import MLKit

/// A completion bound for the main queue of a program that never runs it is announced once
/// on standard error (`MainQueueWatch`), and still runs when the program drains the main
/// queue; a program that runs its main queue sees no warning. The programs are
/// `MainQueueProbe` (Tests/Support/MainQueueProbe) in child processes, with the warning due
/// after 0.5 s instead of 3.
@Suite struct MainQueueWarningTests {
    static let warningStart = "swift-tflite: warning: a completion handler has waited"

    @Test func aBlockedMainThreadIsWarnedOnceAndItsCompletionsStillRun() throws {
        let run = try Probe.run("blocked")
        #expect(run.status == 0, "\(run.stderr)")
        // Two completions waited; one warning, then both ran when the main queue did.
        #expect(run.stderr.components(separatedBy: Self.warningStart).count - 1 == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix(Self.warningStart + " 0.5 s to run on the main queue"), "\(run.stderr)")
        #expect(run.stdout == "completed\ncompleted\n")
    }

    @Test func aProgramRunningTheMainQueueIsNotWarned() throws {
        let run = try Probe.run("drained")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == "completed\ncompleted\n")
    }

    @Test func theWarningCanBeTurnedOff() throws {
        let run = try Probe.run("blocked", warningSeconds: "0")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == "completed\ncompleted\n")
    }

    /// The cause and all three ways out, in one line.
    @Test func theWarningNamesTheCauseAndTheFixes() {
        let text = MainQueueWatch.warning(after: 3)
        #expect(text.hasPrefix(Self.warningStart + " 3 s to run on the main queue, which this program is not running"))
        for fix in [
            "dispatchMain()", "RunLoop.main.run()", "ModelInterpreter.defaultCompletionQueue", "completionQueue",
            "try await interpreter.run(inputs:options:)", "TFLITE_MAIN_QUEUE_WARNING_SECONDS=0",
        ] {
            #expect(text.contains(fix), "\(fix)")
        }
        #expect(text.filter { $0 == "\n" }.count == 1 && text.hasSuffix("\n"))
    }

    /// On Linux each `DispatchQueue.main` is a new object, so the watch recognizes the main
    /// queue by a mark on it, not by identity.
    @Test func theMainQueueIsRecognizedWhateverObjectStandsForIt() {
        #expect(MainQueueWatch.isMainQueue(DispatchQueue.main))
        #expect(MainQueueWatch.isMainQueue(.main))
        #expect(!MainQueueWatch.isMainQueue(DispatchQueue(label: "test.not-main")))
        #expect(!MainQueueWatch.isMainQueue(.global()))
    }
}

/// Runs `MainQueueProbe`, built next to the test bundle.
enum Probe {
    struct Run {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The directory of the package's built products.
    static func productsDirectory() throws -> URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        throw Failure(description: "no .xctest bundle is loaded")
        #else
        return Bundle.main.bundleURL
        #endif
    }

    static func run(_ mode: String, warningSeconds: String = "0.5") throws -> Run {
        let probe = try productsDirectory().appendingPathComponent("MainQueueProbe")
        guard FileManager.default.isExecutableFile(atPath: probe.path) else {
            throw Failure(description: "\(probe.path) is missing: build it with `swift build --build-tests`")
        }
        let process = Process()
        process.executableURL = probe
        process.arguments = [mode, MLKitFixtures.model("mobilenet_float")]
        var environment = ProcessInfo.processInfo.environment
        environment["TFLITE_MAIN_QUEUE_WARNING_SECONDS"] = warningSeconds
        environment["PROBE_BLOCK_SECONDS"] = "1.5"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // A few seconds normally; a hang (the bug this guards against) is killed.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "MainQueueProbe \(mode) did not exit within 60 s")
        }
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return Run(status: process.terminationStatus, stdout: stdout, stderr: stderr)
    }
}
