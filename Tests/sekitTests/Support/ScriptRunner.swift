import Foundation
import SEKitTestSupport

/// Runs one of the project's bash scripts (`scripts/...`) with extra environment variables and
/// captures what it prints.
enum ScriptRunner {
    struct Result { let status: Int32; let stdout: String; let stderr: String }

    /// Runs `script` (a path under the project root) with `arguments` under bash with `environment`
    /// added. Its stderr goes through a temporary file, so a script saying much there never blocks.
    static func run(_ script: String, arguments: [String] = [], environment: [String: String]) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [GoldenCorpus.projectRoot.appendingPathComponent(script).path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("sekit-script-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: log.path, contents: nil), let said = FileHandle(forWritingAtPath: log.path) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: log.path])
        }
        defer { try? FileManager.default.removeItem(at: log) }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = said
        let printed = try SubprocessTimings.timing("script " + URL(fileURLWithPath: script).lastPathComponent) {
            try process.run()
            let printed = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return printed
        }
        try? said.close()
        return Result(status: process.terminationStatus, stdout: String(decoding: printed, as: UTF8.self),
                      stderr: String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self))
    }

    /// Runs `scripts/stress/NAME` with the test build's binary and the fixtures, its work under `folder`
    /// (plus `environment`).
    static func stress(_ name: String, in folder: CatalogCLIFolder, environment: [String: String] = [:]) throws -> Result {
        try run("scripts/stress/\(name)", environment: [
            "SEKIT": SEKitBinary.url.path, "SEKIT_FIXTURES": GoldenCorpus.fixtures.path, "STRESS_DIR": folder.url.path,
        ].merging(environment) { _, new in new })
    }

    /// The whole numbers on the line after the line `header` of `stdout` (a stress script's summary);
    /// nil when there is no such line.
    static func figures(_ stdout: String, after header: String) -> [Int]? {
        let lines = stdout.split(separator: "\n")
        guard let index = lines.firstIndex(where: { $0 == header }), index + 1 < lines.count else { return nil }
        return lines[index + 1].split(separator: " ").compactMap { Int($0) }
    }
}
