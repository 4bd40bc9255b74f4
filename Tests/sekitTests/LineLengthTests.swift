import Foundation
import Testing

/// Lines are at most 140 characters (`.swift-format`'s `lineLength`). Files written before the
/// limit was checked keep at most the long lines `scripts/dev/long-lines-baseline.txt` lists for
/// them, so no file gets worse and every new file keeps the limit.
@Suite struct LineLengthTests {
    static let limit = 140

    /// Long-line counts per file of the baseline.
    static func baseline() throws -> [String: Int] {
        let text = try String(contentsOf: TestProject.root.appendingPathComponent("scripts/dev/long-lines-baseline.txt"), encoding: .utf8)
        var counts: [String: Int] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", maxSplits: 1)
            if fields.count == 2, let count = Int(fields[0]) { counts[String(fields[1])] = count }
        }
        return counts
    }

    /// The Swift files under `Sources/` and `Tests/`, relative to the project root.
    static func swiftFiles() throws -> [String] {
        var files: [String] = []
        for top in ["Sources", "Tests"] {
            let root = TestProject.root.appendingPathComponent(top)
            guard let walker = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in walker where path.hasSuffix(".swift") { files.append("\(top)/\(path)") }
        }
        return files.sorted()
    }

    @Test func noFileHasMoreLongLinesThanItsBaseline() throws {
        let baseline = try Self.baseline()
        let files = try Self.swiftFiles()
        #expect(files.count > 300, "only \(files.count) Swift files found")
        var worse: [String] = []
        for file in files {
            let text = try String(contentsOf: TestProject.root.appendingPathComponent(file), encoding: .utf8)
            let long = text.split(separator: "\n", omittingEmptySubsequences: false).filter { $0.count > Self.limit }.count
            if long > baseline[file, default: 0] {
                worse.append("\(file): \(long) lines over \(Self.limit) characters (allowed: \(baseline[file, default: 0]))")
            }
        }
        #expect(worse.isEmpty, "wrap these lines:\n\(worse.joined(separator: "\n"))")
    }
}
