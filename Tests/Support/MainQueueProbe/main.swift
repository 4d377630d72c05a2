// A command-line program that calls ModelInterpreter.run from its main thread without
// setting a completion queue, so its two completions are bound for the main queue; then
//
//   MainQueueProbe blocked MODEL   blocks the main thread for BLOCK seconds (a semaphore
//                                  wait that times out), then runs the main queue
//   MainQueueProbe drained MODEL   runs the main queue at once, and exits BLOCK seconds
//                                  after the completions (a warning given in between shows)
//
// It prints `completed` for each completion. MODEL is the float fixture ([1, 32, 32, 3]
// in, [1, 10] out); BLOCK is the environment's PROBE_BLOCK_SECONDS, else 1.5. MLKitTests'
// MainQueueWarningTests runs it as a child process and reads its standard error.
import Foundation
import MLKit

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("MainQueueProbe: \(message)\n".utf8))
    exit(status)
}

func main() {
    let arguments = CommandLine.arguments
    guard arguments.count == 3, arguments[1] == "blocked" || arguments[1] == "drained" else {
        fail("usage: MainQueueProbe blocked|drained MODEL.tflite", status: 2)
    }
    let block = ProcessInfo.processInfo.environment["PROBE_BLOCK_SECONDS"].flatMap(Double.init) ?? 1.5
    let interpreter = ModelInterpreter.modelInterpreter(localModel: CustomLocalModel(modelPath: arguments[2]))
    let inputs = ModelInputs()
    let options = ModelInputOutputOptions()
    do {
        try options.setInputFormat(index: 0, type: .float32, dimensions: [1, 32, 32, 3])
        try options.setOutputFormat(index: 0, type: .float32, dimensions: [1, 10])
        try inputs.addInput(Data(count: 32 * 32 * 3 * MemoryLayout<Float>.size))
    } catch {
        fail("\(error)", status: 1)
    }

    // Read the model first (the async form needs no main queue), so that the runs below
    // queue their completions well within the block.
    let loaded = DispatchSemaphore(value: 0)
    Task {
        do { _ = try await interpreter.run(inputs: inputs, options: options) } catch { fail("\(error)", status: 1) }
        loaded.signal()
    }
    loaded.wait()

    let completed = DispatchSemaphore(value: 0)
    for _ in 0 ..< 2 {
        interpreter.run(inputs: inputs, options: options) { outputs, error in
            print(outputs != nil ? "completed" : "completed with error: \(error.map { "\($0)" } ?? "none")")
            completed.signal()
        }
    }
    if arguments[1] == "blocked" {
        // What a program that waits for its completion on its main thread does: nothing
        // runs the main queue, so this times out.
        if completed.wait(timeout: .now() + block) == .success {
            fail("a completion ran on a blocked main queue", status: 1)
        }
    }
    // The completions run on the main queue from here; a thread ends the program after them.
    Thread.detachNewThread {
        completed.wait()
        completed.wait()
        if arguments[1] == "drained" { Thread.sleep(forTimeInterval: block) }
        exit(0)
    }
    dispatchMain()
}

main()
