import Foundation

/// The library tests' names for the project and the fixtures (``TestProject``, in SEKitTestSupport).
enum Fixtures {
    /// The package root (the folder holding Package.swift).
    static var projectRoot: URL { TestProject.root }
    /// The fixtures folder (`datasets/fixtures`, or `$SEKIT_FIXTURES`).
    static var root: URL { TestProject.fixtures }
    /// A fixture file, e.g. `Fixtures.url("speech/arctic_a0007.wav")`.
    static func url(_ relativePath: String) -> URL { TestProject.fixture(relativePath) }
    /// A file of the reference tier (`$SEKIT_REFERENCE_AUDIO`), e.g. `Fixtures.reference("speech.wav")`.
    static func reference(_ name: String) -> URL { TestProject.reference(name) }
}
