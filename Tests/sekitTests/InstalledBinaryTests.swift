import Foundation
import Testing

/// A `sekit` copied out of the build tree (as `scripts/install.sh` does) runs PESQ from another
/// folder: its Python worker is built in, and the interpreter is found beside the binary.
@Suite(.serialized, .needsFixtures, .enabled(if: PaperMetrics.pythonRequired, "needs SEKIT_PYTHON (run scripts/test.sh)"))
struct InstalledBinaryTests {
    /// The project's interpreter with the worker's packages.
    static var python: String {
        ProcessInfo.processInfo.environment["SEKIT_PYTHON"]
            ?? GoldenCorpus.projectRoot.appendingPathComponent(".build/venv/bin/python").path
    }

    /// Runs `binary` in `folder` with exactly `environment` (no SEKIT_* variables of the test run).
    static func run(_ binary: URL, _ arguments: [String], in folder: URL, environment: [String: String]) throws -> SEKitBinary.Result {
        try SEKitBinary.run(arguments, environment: environment, currentDirectory: folder, executable: binary, inheritEnvironment: false)
    }

    /// PREFIX/bin/sekit (a copy of the built binary) and PREFIX/share/sekit/venv/bin/python (a
    /// wrapper that runs the project's interpreter, standing in for the environment install.sh makes).
    static func install(into prefix: URL) throws -> URL {
        let bin = prefix.appendingPathComponent("bin"), venvBin = prefix.appendingPathComponent("share/sekit/venv/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: venvBin, withIntermediateDirectories: true)
        let binary = bin.appendingPathComponent("sekit")
        try FileManager.default.copyItem(at: SEKitBinary.url, to: binary)
        let wrapper = venvBin.appendingPathComponent("python")
        try "#!/bin/sh\nexec '\(python)' \"$@\"\n".write(to: wrapper, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrapper.path)
        return binary
    }

    @Test func aCopiedBinaryScoresPESQFromAnotherFolder() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let binary = try Self.install(into: folder.url.appendingPathComponent("prefix"))
        let work = folder.url.appendingPathComponent("elsewhere"), cache = folder.url.appendingPathComponent("cache")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let fixtures = GoldenCorpus.fixtures
        for (name, file) in [("clean", "speech/vctk_p287_002.wav"), ("enhanced", "noisy/vctk_p287_002.wav")] {
            try FileManager.default.createDirectory(at: work.appendingPathComponent(name), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(file), to: work.appendingPathComponent("\(name)/utt.wav"))
        }
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path("home"), "XDG_CACHE_HOME": cache.path]
        let scored = try Self.run(binary, ["score", "--reference", "clean", "--enhanced", "enhanced", "--metrics", "pesq_wb",
                                           "--format", "csv", "--no-catalog"], in: work, environment: environment)
        #expect(scored.status == 0, "\(scored.stderr)")
        let row = try #require(scored.stdout.split(separator: "\n").dropFirst().first)
        let header = scored.stdout.split(separator: "\n")[0].split(separator: ",")
        let column = try #require(header.firstIndex(of: "pesq_wb"))
        let value = try #require(Double(row.split(separator: ",", omittingEmptySubsequences: false)[column]))
        // The `pesq` package (the ITU-T reference code) called directly on the same pair.
        let direct = try PythonScript.run(Self.python, """
            import sys, soundfile, pesq
            a, _ = soundfile.read(sys.argv[1]); b, _ = soundfile.read(sys.argv[2])
            print(repr(pesq.pesq(16000, a, b, 'wb')))
            """, arguments: [work.appendingPathComponent("clean/utt.wav").path, work.appendingPathComponent("enhanced/utt.wav").path])
        let expected = try #require(Double(direct.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(direct.stderr)")
        #expect(abs(value - expected) < 5e-7, "pesq_wb \(value), the package \(expected)")
        // The worker ran from the cache folder, written from the copy built into the binary.
        let cached = try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("sekit").path)
        #expect(cached.contains { $0.hasPrefix("sekit_metric_worker-") && $0.hasSuffix(".py") }, "\(cached)")
    }

    @Test func withoutAnEnvironmentTheErrorSaysWhatToInstall() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let bin = folder.url.appendingPathComponent("bare/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let binary = bin.appendingPathComponent("sekit")
        try FileManager.default.copyItem(at: SEKitBinary.url, to: binary)
        let metrics = GoldenCorpus.fixtures.appendingPathComponent("noisy")
        let environment = ["PATH": "/usr/bin:/bin", "HOME": folder.path("home"), "SEKIT_VENV": folder.path("no-venv")]
        let scored = try Self.run(binary, ["score", "--reference", metrics.path, "--enhanced", metrics.path, "--metrics", "pesq_wb",
                                           "--no-catalog"], in: folder.url, environment: environment)
        #expect(scored.status != 0)
        #expect(scored.stderr.contains("pesq==0.0.4") && scored.stderr.contains(folder.path("no-venv/bin/python")), "\(scored.stderr)")
    }

    /// `scripts/install.sh PREFIX` installs the binary and a Python environment of the worker's
    /// packages where the binary finds it (pip's cache keeps repeated installs short).
    @Test func installScriptMakesAWorkingInstallation() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let prefix = folder.url.appendingPathComponent("prefix")
        let script = GoldenCorpus.projectRoot.appendingPathComponent("scripts/install.sh")
        var environment = ProcessInfo.processInfo.environment
        environment["SEKIT_BIN"] = SEKitBinary.url.path
        environment["SEKIT_VENV"] = nil
        let installed = try Self.run(script, [prefix.path], in: folder.url, environment: environment)
        #expect(installed.status == 0, "\(installed.stderr)")
        let metrics = GoldenCorpus.fixtures.appendingPathComponent("noisy")
        let bare = ["PATH": "/usr/bin:/bin", "HOME": folder.path("home")]
        let scored = try Self.run(prefix.appendingPathComponent("bin/sekit"), ["score", "--reference", metrics.path, "--enhanced",
                                                                               metrics.path,
                                  "--metrics", "pesq_wb", "--format", "csv", "--no-catalog", "--allow-failures"], in: folder.url,
                                          environment: bare)
        #expect(scored.status == 0, "\(scored.stderr)")
        #expect(scored.stdout.contains("vctk_p287_002.wav"), "\(scored.stdout)")
    }
}
