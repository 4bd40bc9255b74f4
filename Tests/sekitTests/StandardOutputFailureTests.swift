import Foundation
import Testing

/// Issue 26 item 3: a command whose standard output cannot be written says so on standard error and
/// exits 1 (a full device), or ends quietly as a command killed by SIGPIPE does (a closed pipe with
/// SIGPIPE ignored); it never crashes or exits 0 with its output lost.
@Suite struct StandardOutputFailureTests {
    /// Runs `sekit arguments` through bash with SIGPIPE ignored and standard output redirected by `redirect`
    /// (`> /dev/full`, or `| true` for a reader that has gone); the status is sekit's own.
    static func run(_ arguments: [String], redirect: String) throws -> SEKitBinary.Result {
        let script = "trap '' PIPE; \"$0\" \"$@\" \(redirect); exit ${PIPESTATUS[0]}"
        // The launcher's arguments come before the binary's path, which bash takes as $0.
        return try SEKitBinary.run(arguments, launcher: ["/bin/bash", "-c", script])
    }

    func catalogWithRuns(_ folder: CatalogCLIFolder) throws -> String {
        try folder.writeWAV("in/a.wav")
        let catalog = folder.path("catalog.sqlite")
        let imported = try SEKitBinary.run(["catalog", "import", folder.path("in"), "--kind", "speech", "--corpus", "t",
                                            "--catalog", catalog])
        #expect(imported.status == 0, "\(imported.stderr)")
        return catalog
    }

    @Test func aFullDeviceIsAnErrorForListingsAndInfo() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try catalogWithRuns(folder)
        for arguments in [["runs", "list", "--catalog", catalog], ["runs", "list", "--format", "json", "--catalog", catalog],
                          ["info", folder.path("in/a.wav")], ["info", "--format", "json", folder.path("in/a.wav")], ["--help"]] {
            let result = try Self.run(arguments, redirect: "> /dev/full")
            #expect(result.status == 1, "\(arguments): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("cannot write to standard output: No space left on device"), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(result.stderr)")
        }
    }

    @Test func aClosedPipeEndsQuietly() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let catalog = try catalogWithRuns(folder)
        for arguments in [["runs", "list", "--catalog", catalog], ["info", folder.path("in/a.wav")]] {
            let result = try Self.run(arguments, redirect: "| true")
            // 141 = 128 + SIGPIPE, what the shell reports for a command the signal ended.
            #expect(result.status == 141, "\(arguments): exit \(result.status) \(result.stderr)")
            #expect(result.stderr.isEmpty, "\(arguments): \(result.stderr)")
        }
    }
}
