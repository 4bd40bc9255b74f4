import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `catalog merge` into a new catalogue on a full disk (a 1 MiB tmpfs): an error naming the
/// output, exit 1, and no temporary file left behind.
@Suite(.serialized, .enabled(if: TestEnvironment.sqliteAvailable, "needs sqlite3"))
struct CatalogMergeFullDiskTests {
    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func aMergeOntoAFullDiskLeavesNoTemporaryFile() throws {
        guard let disk = FileSystemFailureTests.mountTmpfs(size: "1m") else {
            Issue.record("root but mount(2) of a tmpfs was refused here; the full-disk case could not be checked")
            return
        }
        defer { FileSystemFailureTests.unmount(disk) }
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        // An input of about 4 MB: one imported file, then 20,000 more source rows.
        try folder.writeWAV("noise/n.wav")
        let input = folder.path("input.sqlite")
        let imported = try SEKitBinary.run(["catalog", "import", "--kind", "noise", "--corpus", "n", folder.path("noise"),
                                            "--catalog", input])
        try #require(imported.status == 0, "\(imported.stderr)")
        let columns = try folder.sqlite(input, "SELECT group_concat(name, ',') FROM pragma_table_info('sources')")
        let values = columns.split(separator: ",").map { $0 == "id" ? "id || '-' || k" : ($0 == "path" ? "path || '-' || k" : String($0)) }
        _ = try folder.sqlite(input, """
            WITH RECURSIVE n(k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM n WHERE k < 20000)
            INSERT INTO sources (\(columns)) SELECT \(values.joined(separator: ", ")) FROM sources, n
            """)
        let out = disk.appendingPathComponent("merged.sqlite").path
        let result = try SEKitBinary.run(["catalog", "merge", out, input])
        #expect(result.status == 1, "exit \(result.status): \(result.stdout) \(result.stderr.suffix(400))")
        #expect(result.stderr.contains("merging into \(out) failed") && result.stderr.contains("full"), "\(result.stderr.suffix(400))")
        let left = try FileManager.default.contentsOfDirectory(atPath: disk.path)
        #expect(left.isEmpty, "left behind on the full disk: \(left)")
    }
}
