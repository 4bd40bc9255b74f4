import Foundation
import SEKitTestSupport
import Testing
@testable import SEKit

/// `SEKIT_PYTHON` as a bare command name (`python3`) is found in `$PATH` as a shell finds it, not taken
/// as a file in the current folder; a path is taken as given.
struct PythonEnvironmentTests {
    @Test func aBareCommandNameIsLookedUpOnThePath() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let empty = folder.file("empty"), bin = folder.file("bin")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let interpreter = bin.appendingPathComponent("python-sekit-test")
        try Data("#!/bin/sh\n".utf8).write(to: interpreter)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: interpreter.path)

        let path = "\(empty.path):\(bin.path)"
        let found = PythonEnvironment.located(["SEKIT_PYTHON": "python-sekit-test", "PATH": path])
        #expect(found.interpreter.path == interpreter.path)
        let missing = PythonEnvironment.located(["SEKIT_PYTHON": "no-such-python", "PATH": path])
        #expect(missing.interpreter.lastPathComponent == "no-such-python")
        #expect(!FileManager.default.isExecutableFile(atPath: missing.interpreter.path))
        let given = PythonEnvironment.located(["SEKIT_PYTHON": interpreter.path, "PATH": ""])
        #expect(given.interpreter.path == interpreter.path)
    }
}
