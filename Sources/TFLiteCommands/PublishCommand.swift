import ArgumentParser
import Foundation
import MLKit

/// `tflite publish MODEL --name NAME --version N --to DIR [--replace]`.
struct PublishCommand: ToolCommand {
    static let configuration = CommandConfiguration(
        commandName: "publish",
        abstract: "Publish a model into a model-server directory for MLKit's ModelManager",
        discussion: """
            Copies MODEL to DIR/NAME/model-vN.tflite, then atomically writes DIR/NAME/model.json \
            ({"name", "version", "size", "sha256", "file"}), the layout of spec/model-server.md. \
            Serve DIR with any static file server (python3 -m http.server --directory DIR) and \
            point TFLITE_MODEL_SERVER (or ModelManager.modelManager(source:)) at it, or use DIR \
            itself as the source. The version must be above the published one unless --replace.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "Path of a .tflite file, or of a bundle directory (manifest.json, dict.txt, model.tflite)",
            valueName: "model"), completion: .file())
    var path: String
    @Option(help: ArgumentHelp("Model name (letters, digits, '.', '_', '-')", valueName: "name"))
    var name: String
    @Option(help: ArgumentHelp("Version, a non-negative integer", valueName: "n"), transform: value(atLeast: 0))
    var version: Int
    @Option(
        name: .customLong("to"), help: ArgumentHelp("Model-server directory", valueName: "dir"), completion: .directory)
    var directory: String
    @Flag(help: "Allow a version not above the published one")
    var replace = false

    func run(console: Console) async throws -> Int32 {
        let descriptor: ModelDescriptor
        do {
            descriptor = try ModelPublisher.publish(
                modelAt: path, name: name, version: version,
                to: URL(fileURLWithPath: directory, isDirectory: true), replace: replace)
        } catch {
            throw ToolError((error as NSError).localizedDescription)
        }
        let folder = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(name)
        console.out(
            "published \(name) version \(descriptor.version): \(descriptor.size) bytes, sha256 \(descriptor.sha256)\n")
        console.out(
            "  \(folder.appendingPathComponent(descriptor.file).path)\n  \(folder.appendingPathComponent("model.json").path)\n"
        )
        return ExitCode.success
    }
}
