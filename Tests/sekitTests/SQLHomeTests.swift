import Foundation
import SEKitTestSupport
import Testing

/// SQL has one home (issue 41): `Sources/SEKitCatalog`, the only target that imports GRDB. The
/// package manifest gives GRDB to no other target, but SwiftPM lets a target import a module its
/// dependencies build (it is on the search path), so the manifest alone does not keep GRDB out.
struct SQLHomeTests {
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
        #expect(importing.isEmpty, "these files import GRDB outside Sources/SEKitCatalog: \(importing.sorted())")
    }
}
