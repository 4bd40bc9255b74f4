import Foundation

/// The library tests' names for the project and the fixtures (``TestProject``, in SEKitTestSupport).
enum Fixtures {
    /// The package root (the folder holding Package.swift).
    static var projectRoot: URL { TestProject.root }
    /// The fixtures folder.
    static var root: URL { TestProject.fixtures }
    /// Whether the fixtures folder is present.
    static var present: Bool { TestProject.fixturesPresent }
    /// Whether tests that need the fixtures run (always under CI).
    static var available: Bool { TestProject.fixturesRequired }
    /// A fixture file, e.g. `Fixtures.url("speech/arctic_a0007.wav")`.
    static func url(_ relativePath: String) -> URL { TestProject.fixture(relativePath) }
}
