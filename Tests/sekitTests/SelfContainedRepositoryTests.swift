import Foundation
import Testing

/// A clone is the whole product: no test, script or benchmark reads a folder beside the clone
/// (`../shared`), except the one lookup of the reference tier in `scripts/test.sh`, which sets
/// `SEKIT_REFERENCE_AUDIO` (datasets/fixtures/SOURCES.md says why those recordings stay outside).
@Suite struct SelfContainedRepositoryTests {
    /// What names the folder beside the clone, however it is spelt.
    static let patterns = ["../shared", "shared/fixtures", "\"shared\", \"fixtures\"", "'shared', 'fixtures'",
                           "appendingPathComponent(\"shared"]
    /// The files allowed to name it, and the number of lines each may do so on.
    static let allowed = ["scripts/test.sh": 3, "Tests/sekitTests/SelfContainedRepositoryTests.swift": 4]
    /// Where tests, scripts and benchmarks live.
    static let folders = ["Tests", "scripts", "experiments", "datasets", ".ci"]
    static let suffixes = [".swift", ".sh", ".py", ".yaml", ".yml", ".toml", ".txt", ""]

    static func files() -> [String] {
        var files: [String] = []
        for top in folders {
            let root = TestProject.root.appendingPathComponent(top)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in walker {
                let name = (path as NSString).lastPathComponent
                if path.contains("__pycache__") || path.contains(".egg-info") || path.hasPrefix("demo/generated") { continue }
                guard suffixes.contains(where: { $0.isEmpty ? !name.contains(".") : name.hasSuffix($0) }) else { continue }
                var isFolder: ObjCBool = false
                let full = root.appendingPathComponent(path).path
                if FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue {
                    files.append("\(top)/\(path)")
                }
            }
        }
        return files.sorted()
    }

    @Test func noTestScriptOrBenchmarkReadsTheFolderBesideTheClone() throws {
        let files = Self.files()
        #expect(files.count > 300, "only \(files.count) files found")
        #expect(files.contains("scripts/test.sh") && files.contains(".ci/run"))
        var offenders: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: TestProject.root.appendingPathComponent(file), encoding: .utf8) else { continue }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .filter { _, line in Self.patterns.contains { line.contains($0) } }
            if lines.count > Self.allowed[file, default: 0] {
                offenders += lines.map { "\(file):\($0.offset + 1): \($0.element.trimmingCharacters(in: .whitespaces))" }
            }
        }
        #expect(offenders.isEmpty, "outside the reference tier:\n\(offenders.joined(separator: "\n"))")
    }

    /// The check is live: it finds a reference written the way the tests used to.
    @Test func theCheckFindsAReference() {
        let line = #"let folder = root.deletingLastPathComponent().appendingPathComponent("shared/fixtures")"#
        #expect(Self.patterns.contains { line.contains($0) })
    }
}
