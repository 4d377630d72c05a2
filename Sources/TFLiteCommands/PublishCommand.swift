import Foundation
import MLKit

extension Subcommand {
    /// `tflite publish MODEL --name NAME --version N --to DIR [--replace]`.
    public static let publish = Subcommand(
        name: "publish",
        summary: "Publish a model into a model-server directory for MLKit's ModelManager",
        discussion: """
        Copies MODEL to DIR/NAME/model-vN.tflite, then atomically writes DIR/NAME/model.json
        ({"name", "version", "size", "sha256", "file"}), the layout of spec/model-server.md.
        Serve DIR with any static file server (python3 -m http.server --directory DIR) and
        point TFLITE_MODEL_SERVER (or ModelManager.modelManager(source:)) at it, or use DIR
        itself as the source. The version must be above the published one unless --replace.
        """,
        arguments: ArgumentSpec(
            positionals: [.init("MODEL", help: "Path of a .tflite file, or of a bundle directory (manifest.json, dict.txt, model.tflite)")],
            options: [
                .init("name", valueName: "NAME", help: "Model name (letters, digits, '.', '_', '-')"),
                .init("version", valueName: "N", help: "Version, a non-negative integer"),
                .init("to", valueName: "DIR", help: "Model-server directory"),
                .init("replace", help: "Allow a version not above the published one"),
            ]
        )
    ) { args, console in
        guard let path = args.positional("MODEL") else { throw UsageError.missingArgument("MODEL") }
        guard let name = args.value("name") else { throw UsageError.missingArgument("--name") }
        guard let version = try args.intValue("version", in: 0 ... Int.max) else { throw UsageError.missingArgument("--version") }
        guard let directory = args.value("to") else { throw UsageError.missingArgument("--to") }
        let descriptor: ModelDescriptor
        do {
            descriptor = try ModelPublisher.publish(modelAt: path, name: name, version: version,
                                                    to: URL(fileURLWithPath: directory, isDirectory: true), replace: args.flag("replace"))
        } catch {
            throw ToolError((error as NSError).localizedDescription)
        }
        let folder = URL(fileURLWithPath: directory, isDirectory: true).appendingPathComponent(name)
        console.out("published \(name) version \(descriptor.version): \(descriptor.size) bytes, sha256 \(descriptor.sha256)\n")
        console.out("  \(folder.appendingPathComponent(descriptor.file).path)\n  \(folder.appendingPathComponent("model.json").path)\n")
        return ExitCode.success
    }
}
