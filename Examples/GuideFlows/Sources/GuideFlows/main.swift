import Foundation

// A command-line stand-in for an app: the flows run on the main actor, as a view
// controller's code does, and the main run loop is serviced while they run, so
// completions and notifications delivered on the main queue arrive (an app's run loop
// does this by itself). Top-level code is on the main thread; `assumeIsolated` says so
// to the Swift 5 mode compiler as well.
let status: Int32 = MainActor.assumeIsolated {
    let repository = CommandLine.arguments.dropFirst().first ?? FileManager.default.currentDirectoryPath
    let controller = GuideViewController(repository: repository)
    controller.viewDidLoad()
    let deadline = Date().addingTimeInterval(300)
    while !controller.isFinished, Date() < deadline {
        _ = RunLoop.main.run(mode: .default, before: Date().addingTimeInterval(0.05))
    }
    if !controller.isFinished { controller.failures.append("timed out in step \(controller.currentStep)") }
    for failure in controller.failures { print("FAIL: \(failure)") }
    print(
        controller.failures.isEmpty
            ? "all guide flows passed (\(controller.passed) checks)" : "\(controller.failures.count) failures")
    return controller.failures.isEmpty ? 0 : 1
}
exit(status)
