import Foundation

/// Where the tests run: the project's source tree and the shared real-audio fixtures
/// (`../shared/fixtures` beside the project root, or `$SEKIT_FIXTURES`).
public enum TestProject {
    /// The package root (the folder holding Package.swift).
    public static let root: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The fixtures folder (standardised: no `..` in paths that outputs record).
    public static let fixtures: URL = {
        if let env = ProcessInfo.processInfo.environment["SEKIT_FIXTURES"] { return URL(fileURLWithPath: env).standardizedFileURL }
        return root.deletingLastPathComponent().appendingPathComponent("shared/fixtures").standardizedFileURL
    }()

    /// Whether the fixtures folder is present.
    public static var fixturesPresent: Bool { FileManager.default.fileExists(atPath: fixtures.appendingPathComponent("README.md").path) }

    /// Whether tests that need the fixtures run: when they are present, and always under CI, where a
    /// missing folder must fail those tests rather than skip them quietly.
    public static var fixturesRequired: Bool { fixturesPresent || TestEnvironment.isCI }

    /// A fixture file, e.g. `TestProject.fixture("speech/arctic_a0007.wav")`.
    public static func fixture(_ relativePath: String) -> URL { fixtures.appendingPathComponent(relativePath) }
}

/// Facts about the machine the tests run on.
public enum TestEnvironment {
    /// True when `CI` is set (CI runs `.ci/run` with `CI=true`): tests that need the fixtures, the
    /// Python reference environment or a system tool run and fail when it is missing.
    public static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !value.isEmpty && value != "0" && value != "false"
    }

    /// `/usr/bin/sqlite3` (installed by scripts/setup.sh); required under CI.
    public static var sqliteAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") || isCI }
}
