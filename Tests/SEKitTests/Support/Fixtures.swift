import Foundation

/// Paths to the project and to the shared real-audio fixtures (`../shared/fixtures`
/// relative to the project root, or `$SEKIT_FIXTURES`).
enum Fixtures {
    /// The package root (the folder holding Package.swift).
    static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The fixtures folder.
    static let root: URL = {
        if let env = ProcessInfo.processInfo.environment["SEKIT_FIXTURES"] { return URL(fileURLWithPath: env) }
        return projectRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    }()

    /// Whether the fixtures folder is present.
    static var present: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path) }

    /// Whether tests that need the fixtures run: when they are present, and always under CI
    /// (`CI` set), where a missing folder must fail those tests rather than skip them quietly.
    static var available: Bool { present || TestEnvironment.isCI }

    /// A fixture file, e.g. `Fixtures.url("speech/arctic_a0007.wav")`.
    static func url(_ relativePath: String) -> URL { root.appendingPathComponent(relativePath) }
}

/// A fresh temporary folder for one test, removed by the caller with `cleanup()`.
struct TemporaryFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sekit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    func cleanup() { try? FileManager.default.removeItem(at: url) }
}

/// Facts about where the tests run.
enum TestEnvironment {
    /// True when `CI` is set (CI runs `.ci/run` with `CI=true`): tests that need the fixtures,
    /// the Python reference environment or a system tool run and fail when it is missing.
    static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !value.isEmpty && value != "0" && value != "false"
    }
}
