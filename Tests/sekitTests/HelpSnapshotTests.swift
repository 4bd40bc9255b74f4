import Foundation
import Testing

/// `sekit <command> --help` for every command and subcommand, compared with the committed snapshot
/// `HelpSnapshots/<command words joined by ->.txt`. Help is part of the CLI's contract: a change to
/// an option shows here. After a deliberate change, run the suite with `SEKIT_UPDATE_SNAPSHOTS=1`
/// to rewrite the snapshots, and review the diff.
@Suite struct HelpSnapshotTests {
    /// Every command path, the root first (keep in step with the subcommand lists).
    static let commands: [[String]] = [
        [], ["catalog"], ["catalog", "analyze"], ["catalog", "check"], ["catalog", "clips"], ["catalog", "import"],
        ["catalog", "merge"], ["catalog", "stats"], ["enhance"], ["features"], ["features", "export"], ["features", "merge"],
        ["info"], ["mix"], ["noise"], ["plot"], ["report"], ["runs"], ["runs", "best"], ["runs", "diff"],
        ["runs", "export"], ["runs", "leaderboard"], ["runs", "list"], ["runs", "show"],
        ["runs", "start"], ["runs", "log"], ["runs", "artifact"], ["runs", "finish"],
        ["runs", "rename"], ["runs", "delete"],
        ["features", "check"], ["export"], ["export", "lhotse"],
        ["score"], ["synthesize"],
        ["listen"], ["listen", "make"], ["listen", "import"], ["listen", "show"], ["listen", "correlate"],
    ]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("HelpSnapshots")
    static var updating: Bool { ProcessInfo.processInfo.environment["SEKIT_UPDATE_SNAPSHOTS"] == "1" }

    static func snapshotURL(_ command: [String]) -> URL {
        folder.appendingPathComponent((command.isEmpty ? "sekit" : command.joined(separator: "-")) + ".txt")
    }

    @Test(arguments: commands)
    func helpMatchesSnapshot(_ command: [String]) throws {
        // A fixed width: argument-parser wraps help at $COLUMNS (else the terminal's width, or 80).
        let result = try SEKitBinary.run(command + ["--help"], environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "sekit \(command.joined(separator: " ")) --help: \(result.stderr)")
        let url = Self.snapshotURL(command)
        if Self.updating {
            try FileManager.default.createDirectory(at: Self.folder, withIntermediateDirectories: true)
            try Data(result.stdout.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("no snapshot \(url.path); run with SEKIT_UPDATE_SNAPSHOTS=1 to write it")
            return
        }
        if let diff = Self.lineDiff(expected: expected, actual: result.stdout) {
            let name = command.joined(separator: " ")
            Issue.record("sekit \(name) --help differs from \(url.lastPathComponent) (SEKIT_UPDATE_SNAPSHOTS=1 rewrites it):\n\(diff)")
        }
    }

    @Test func everySnapshotBelongsToACommand() throws {
        let known = Set(Self.commands.map { Self.snapshotURL($0).lastPathComponent })
        let present = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter { $0.hasSuffix(".txt") }
        #expect(Set(present).subtracting(known).isEmpty, "snapshots of no command: \(Set(present).subtracting(known).sorted())")
    }

    /// The differing lines as `-expected` / `+actual` with line numbers, or nil when equal.
    static func lineDiff(expected: String, actual: String) -> String? {
        guard expected != actual else { return nil }
        let old = expected.components(separatedBy: "\n"), new = actual.components(separatedBy: "\n")
        var lines: [String] = []
        for index in 0..<max(old.count, new.count) {
            let a = index < old.count ? old[index] : nil, b = index < new.count ? new[index] : nil
            guard a != b else { continue }
            if let a { lines.append("\(index + 1) -\(a)") }
            if let b { lines.append("\(index + 1) +\(b)") }
        }
        return lines.joined(separator: "\n")
    }
}
