import Foundation
import SEKitTestSupport
import Testing

/// SQL has one home (issue 41): `Sources/SEKitCatalog`, the only target that imports GRDB. The files
/// of other targets that still do are listed here until their queries move into the catalogue as
/// named requests; the list only shrinks (a file that stops importing GRDB must leave it, and a
/// file not listed may not start).
struct SQLHomeTests {
    /// Files outside `Sources/SEKitCatalog` that still import GRDB (their SQL moves next).
    static let stillImportingGRDB: Set<String> = [
        "Sources/SEKit/Runs/Catalog+FoldShards.swift",
        "Sources/SEKit/Runs/ShardFold.swift",
        "Sources/SEKit/Runs/ShardFolding.swift",
        "Sources/SEKit/Scoring/RecordedScores+Read.swift",
        "Sources/SEKit/Scoring/RecordedScores.swift",
    ]

    @Test func onlyTheCatalogueTargetImportsGRDB() throws {
        let root = TestProject.root
        var importing: Set<String> = []
        let sources = root.appendingPathComponent("Sources")
        let walker = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let url as URL in walker where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            guard text.split(separator: "\n").contains(where: { $0.hasPrefix("import GRDB") || $0.hasPrefix("@_exported import GRDB") })
            else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if !relative.hasPrefix("Sources/SEKitCatalog/") { importing.insert(relative) }
        }
        #expect(importing.subtracting(Self.stillImportingGRDB).isEmpty,
                "these files import GRDB outside Sources/SEKitCatalog: \(importing.subtracting(Self.stillImportingGRDB).sorted())")
        #expect(Self.stillImportingGRDB.subtracting(importing).isEmpty,
                "no longer import GRDB, remove them from the list: \(Self.stillImportingGRDB.subtracting(importing).sorted())")
    }
}
