import Foundation

/// Runs the built `sekit` binary (the real CLI) and captures its output.
public enum SEKitBinary {
    /// The binary built beside the test bundle.
    public static var url: URL {
        // The test bundle lives next to the built products.
        let products = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidate = products.appendingPathComponent("sekit")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        return Bundle.main.bundleURL.appendingPathComponent("sekit")
    }

    /// What a run printed and its exit status.
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        public init(status: Int32, stdout: String, stderr: String) { self.status = status; self.stdout = stdout; self.stderr = stderr }
    }

    /// Runs the binary with `arguments`; with a `launcher` (`["/usr/bin/setpriv", ...]`), through it.
    /// `environment` is added to the test process's own, or with `inheritEnvironment: false` is the
    /// whole environment; `executable` runs another program (a copy of the binary, a script) instead.
    public static func run(_ arguments: [String], environment: [String: String] = [:], currentDirectory: URL? = nil,
                    launcher: [String] = [], executable: URL? = nil, inheritEnvironment: Bool = true) throws -> Result {
        let program = executable ?? url
        let process = Process()
        process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? program
        process.arguments = launcher.isEmpty ? arguments : launcher.dropFirst() + [program.path] + arguments
        var env = inheritEnvironment ? ProcessInfo.processInfo.environment : [:]
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let (o, e) = try SubprocessTimings.timing(executable.map(\.lastPathComponent) ?? "sekit " + (arguments.first ?? "")) {
            try process.run()
            let o = out.fileHandleForReading.readDataToEndOfFile()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (o, e)
        }
        return Result(status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e,
                                                                                                                    as: UTF8.self))
    }
}
