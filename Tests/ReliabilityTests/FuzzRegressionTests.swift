import Foundation
import Testing
import TFLiteFuzzing

/// Replays every input the fuzzers ever crashed or hung on (`Tests/FuzzRegressions/<target>/`,
/// committed after the bug was fixed) through the same entry points the fuzz targets call,
/// together with the seed corpora. Passing means: no trap, and (under
/// `scripts/test-asan.sh`) no sanitizer report.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Regular files in `directory` (relative to the package root), sorted; none if absent.
    static func files(in directory: String) -> [URL] {
        let url = root.appendingPathComponent(directory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { !$0.hasPrefix(".") && $0 != "README.md" }.sorted().map { url.appendingPathComponent($0) }
    }

    /// The regression inputs and seeds of `target`.
    static func inputs(for target: String) -> [URL] {
        var urls = files(in: "Tests/FuzzRegressions/\(target)")
        switch target {
        case "model-load", "model-invoke":
            urls += files(in: "Fixtures/models").filter {
                $0.pathExtension == "tflite" && !$0.lastPathComponent.hasPrefix("face_detection_full")
            }
            urls += files(in: "Fuzz/seeds/models-mediapipe")
            urls += files(in: "Fuzz/seeds/models-text")
        case "png":
            urls += files(in: "Fixtures/vision").filter { $0.pathExtension == "png" }
        case "bundle-files":
            for bundle in files(in: "Fixtures/bundles") where bundle.pathExtension.isEmpty {
                urls += files(in: "Fixtures/bundles/\(bundle.lastPathComponent)").filter {
                    ["json", "txt"].contains($0.pathExtension)
                }
            }
            urls += files(in: "Fuzz/seeds/\(target)")
        default:
            urls += files(in: "Fuzz/seeds/\(target)")
        }
        return urls
    }

    static let targetNames = FuzzEntryPoints.targets.map(\.name)

    @Test(arguments: targetNames)
    func replay(target name: String) throws {
        let target = try #require(FuzzEntryPoints.targets.first { $0.name == name })
        let urls = Self.inputs(for: name)
        #expect(!urls.isEmpty, "no inputs for \(name)")
        for url in urls {
            let bytes = try [UInt8](Data(contentsOf: url))
            let outcome = target.run(bytes)
            #expect(!outcome.isEmpty, "\(name) \(url.lastPathComponent)")
        }
    }

    /// The MediaPipe seeds load and run to the end, so the fuzzers start inside the
    /// operators' option parsing and kernels rather than at a load error.
    @Test func mediaPipeSeedsReachTheKernels() throws {
        let urls = Self.files(in: "Fuzz/seeds/models-mediapipe")
        #expect(urls.count == 7)
        for url in urls {
            let outcome = FuzzEntryPoints.modelInvoke(try [UInt8](Data(contentsOf: url)))
            #expect(outcome.hasPrefix("invoked: "), "\(url.lastPathComponent): \(outcome)")
        }
    }

    /// The text seeds run to the end twice: on their empty strings, then on the fuzz
    /// input's bytes as strings.
    @Test func textSeedsReachTheKernels() throws {
        let urls = Self.files(in: "Fuzz/seeds/models-text")
        #expect(urls.count == 4)
        for url in urls {
            let outcome = FuzzEntryPoints.modelInvoke(try [UInt8](Data(contentsOf: url)))
            #expect(
                outcome.hasPrefix("invoked: ") && outcome.hasSuffix("pattern invoked"),
                "\(url.lastPathComponent): \(outcome)")
        }
    }

    /// The seeds of the vision and bundle targets reach past the parsers: every fixture PNG
    /// decodes and is preprocessed, and each bundle file parses as what it is.
    @Test func seedsReachThePipeline() throws {
        for url in Self.files(in: "Fixtures/vision").filter({ $0.pathExtension == "png" }) {
            let outcome = FuzzEntryPoints.png(try [UInt8](Data(contentsOf: url)))
            #expect(outcome.hasPrefix("decoded: 9x7, "), "\(url.lastPathComponent): \(outcome)")
        }
        // A flipped IDAT byte fails the CRC check; the CRC-repaired copy reaches libpng.
        var corrupted = try [UInt8](Data(contentsOf: Self.root.appendingPathComponent("Fixtures/vision/rgb8.png")))
        corrupted[8 + 25 + 8 + 3] ^= 0x40
        let outcome = FuzzEntryPoints.png(corrupted)
        #expect(
            outcome.hasPrefix("rejected: corrupted PNG: CRC mismatch in chunk IDAT")
                && outcome.contains("; CRCs repaired: "), "\(outcome)")
        #expect(!outcome.contains("CRCs repaired: rejected: corrupted"), "\(outcome)")
        let bundles = Self.root.appendingPathComponent("Fixtures/bundles")
        let expectations = [
            ("digits/manifest.json", "manifest ok"), ("shapes/tflite_metadata.json", "metadata ok"),
            ("digits/dict.txt", "labels ok: 10"), ("shapes/dict.txt", "labels ok: 3"),
        ]
        for (file, expected) in expectations {
            let outcome = FuzzEntryPoints.bundleFiles(
                try [UInt8](Data(contentsOf: bundles.appendingPathComponent(file))))
            #expect(outcome.contains(expected), "\(file): \(outcome)")
        }
        let descriptor = Self.root.appendingPathComponent("Fuzz/seeds/bundle-files/descriptor.json")
        #expect(
            FuzzEntryPoints.bundleFiles(try [UInt8](Data(contentsOf: descriptor))).contains(
                "descriptor ok: v3, 9044 bytes"))
    }

    /// Every regression directory belongs to a target this build has (a directory for a
    /// target that lands later would otherwise be silently skipped).
    @Test func everyRegressionDirectoryHasATarget() {
        let dirs = Self.files(in: "Tests/FuzzRegressions").filter { url in
            var isDir: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDir) && isDir.boolValue
        }
        for dir in dirs {
            #expect(Self.targetNames.contains(dir.lastPathComponent), "no fuzz target for \(dir.lastPathComponent)")
        }
    }
}
