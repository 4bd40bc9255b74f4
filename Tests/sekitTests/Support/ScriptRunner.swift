import Foundation

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
        try process.run()
        let printed = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? said.close()
        return Result(status: process.terminationStatus, stdout: String(decoding: printed, as: UTF8.self),
                      stderr: String(decoding: (try? Data(contentsOf: log)) ?? Data(), as: UTF8.self))
    }
}
