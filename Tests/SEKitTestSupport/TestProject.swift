import Foundation

/// Where the tests run: the project's source tree, its real-audio fixtures (`datasets/fixtures`, or
/// `$SEKIT_FIXTURES`) and the reference tier (`$SEKIT_REFERENCE_AUDIO`).
///
/// The fixtures ship with the repository (`datasets/fixtures/SOURCES.md` says where each recording
/// comes from and under which licence), so every test that reads them runs on a clone with nothing
/// beside it. The reference tier holds recordings whose licence does not allow redistribution (the
/// example pair and `results.mat` of Loizou's MATLAB measures, the `pesq` repository's `speech.wav`
/// pair), with their published metric values; only the tests that compare against those values need
/// it. It is found through `SEKIT_REFERENCE_AUDIO` alone (`scripts/test.sh` sets it where CI keeps the
/// folder); without it those tests are skipped, and counted, except under CI, where they run and fail.
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

    /// The fixtures folder: `$SEKIT_FIXTURES`, else `datasets/fixtures` of this clone (standardised:
    /// no `..` in paths that outputs record).
    public static let fixtures: URL = {
        if let env = ProcessInfo.processInfo.environment["SEKIT_FIXTURES"], !env.isEmpty {
            return URL(fileURLWithPath: env).standardizedFileURL
        }
        return root.appendingPathComponent("datasets/fixtures").standardizedFileURL
    }()

    /// Every file the fixtures hold, relative to the folder, as listed in the clone's
    /// `datasets/fixtures/SHA256SUMS` (a folder named by `SEKIT_FIXTURES` must hold the same files).
    public static let fixtureFiles: [String] = {
        let list = root.appendingPathComponent("datasets/fixtures/SHA256SUMS")
        guard let text = try? String(contentsOf: list, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            line.split(separator: " ", maxSplits: 1).last.map { String($0.drop { $0 == " " || $0 == "*" }) }
        }
    }()

    /// The listed fixture files missing from ``fixtures`` (all of them when the folder is missing).
    public static let missingFixtures: [String] = {
        if fixtureFiles.isEmpty { return ["SHA256SUMS (the list of fixtures, in the clone's datasets/fixtures)"] }
        return fixtureFiles.filter { !FileManager.default.fileExists(atPath: fixtures.appendingPathComponent($0).path) }
    }()

    /// Whether every listed fixture file is there. When it is not, the suites that read the fixtures
    /// are skipped (counted under ``fixturesSkipReason``) and `TestEnvironmentTests` fails once,
    /// naming the folder and the missing files.
    public static var fixturesComplete: Bool { missingFixtures.isEmpty }

    /// The one error an incomplete fixtures folder gives.
    public static var fixturesProblem: String {
        let shown = missingFixtures.prefix(8).joined(separator: ", ")
        let more = missingFixtures.count > 8 ? " and \(missingFixtures.count - 8) more" : ""
        return "the fixtures folder \(fixtures.path) lacks \(missingFixtures.count) of its \(fixtureFiles.count) files: "
            + "\(shown)\(more) (SEKIT_FIXTURES=\(ProcessInfo.processInfo.environment["SEKIT_FIXTURES"] ?? "unset"); "
            + "the clone's datasets/fixtures/SHA256SUMS lists them)"
    }

    /// The skip reason of the suites that need the fixtures when they are incomplete.
    public static var fixturesSkipReason: String { "fixtures incomplete (\(fixtures.path))" }

    /// A fixture file, e.g. `TestProject.fixture("speech/arctic_a0007.wav")`.
    public static func fixture(_ relativePath: String) -> URL { fixtures.appendingPathComponent(relativePath) }

    /// The reference tier's folder, `$SEKIT_REFERENCE_AUDIO`, when it is set.
    public static let referenceAudio: URL? = {
        guard let env = ProcessInfo.processInfo.environment["SEKIT_REFERENCE_AUDIO"], !env.isEmpty else { return nil }
        return URL(fileURLWithPath: env).standardizedFileURL
    }()

    /// Whether the reference tier's tests run: when `SEKIT_REFERENCE_AUDIO` is set, and always under
    /// CI, where a missing folder fails them rather than skipping them.
    public static var referenceTierRuns: Bool { referenceAudio != nil || TestEnvironment.isCI }

    /// The skip reason of the reference tier's tests: `scripts/test.sh` counts skips by this text.
    public static let referenceTierSkipReason = "reference tier (SEKIT_REFERENCE_AUDIO unset)"

    /// A file of the reference tier, e.g. `TestProject.reference("speech_bab_0dB.wav")`; under CI without
    /// the folder, a path that does not exist, so that the test fails naming it.
    public static func reference(_ name: String) -> URL {
        (referenceAudio ?? URL(fileURLWithPath: "/SEKIT_REFERENCE_AUDIO-is-unset")).appendingPathComponent(name)
    }
}

/// Facts about the machine the tests run on.
public enum TestEnvironment {
    /// True when `CI` is set (CI runs `.ci/run` with `CI=true`): tests that need the reference tier, the
    /// Python reference environment or a system tool run and fail when it is missing.
    public static var isCI: Bool {
        guard let value = ProcessInfo.processInfo.environment["CI"]?.lowercased() else { return false }
        return !value.isEmpty && value != "0" && value != "false"
    }

    /// `/usr/bin/sqlite3` (installed by scripts/setup.sh); required under CI.
    public static var sqliteAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") || isCI }
}
