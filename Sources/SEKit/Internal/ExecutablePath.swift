import Foundation

/// Programs SEKit runs, found as a shell finds them.
enum ExecutablePath {
    /// A command name without a slash: the first executable of that name in `$PATH`'s folders; the name
    /// itself (then reported as missing by the caller) when none. A path is taken as given.
    static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        guard !name.contains("/") else { return URL(fileURLWithPath: name) }
        for folder in (environment["PATH"] ?? "").split(separator: ":") where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return URL(fileURLWithPath: name)
    }
}
