import Foundation

/// Facts about where the CLI tests run.
enum TestEnvironment {
    /// True when `CI` is set (CI runs `.ci/run` with `CI=true`): tests that need the fixtures or a
    /// system tool run and fail when it is missing, never skip quietly.
    static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !value.isEmpty && value != "0" && value != "false"
    }

    /// `/usr/bin/sqlite3` (installed by scripts/setup.sh); required under CI.
    static var sqliteAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") || isCI }
}
