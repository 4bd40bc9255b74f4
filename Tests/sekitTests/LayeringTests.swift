import Foundation
import SEKitTestSupport
import Testing

/// Dependencies between the folders of `Sources/SEKit` and `Sources/SEKitSignal` point down
/// (ARCHITECTURE.md, "Layers"): the pairs of folders that name each other's types are exactly those
/// `scripts/dev/layers-baseline.txt` lists, so no new cycle appears and a broken one stays broken.
@Suite(.enabled(if: SystemPython.path != nil || TestEnvironment.isCI, "needs python3 (scripts/setup.sh installs it)"))
struct LayeringTests {
    @Test func noFolderPairNamesEachOtherBeyondTheBaseline() throws {
        let python = try #require(SystemPython.path, "python3 is missing")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["scripts/dev/layers.py", "--check"]
        process.currentDirectoryURL = TestProject.root
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(printed.contains("folder pairs that name each other"), "\(printed)")
        #expect(process.terminationStatus == 0, "\(printed)")
    }
}

/// The system's python3, which runs the project's scripts.
enum SystemPython {
    static let path = ["/usr/bin/python3", "/usr/local/bin/python3"].first { FileManager.default.isExecutableFile(atPath: $0) }
}
