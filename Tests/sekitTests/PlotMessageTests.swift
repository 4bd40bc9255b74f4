import Foundation
import Testing

/// `sekit plot` names an unreadable file once in its error (it said `X: X: cannot read audio`).
@Suite struct PlotMessageTests {
    @Test func anUnreadableFileIsNamedOnce() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        let junk = folder.path("junk.wav")
        try Data("RIFF garbage, not audio".utf8).write(to: URL(fileURLWithPath: junk))
        let result = try SEKitBinary.run(["plot", junk, "--out", folder.path("figure.png")])
        #expect(result.status != 0)
        #expect(result.stderr.components(separatedBy: junk).count == 2, "\(result.stderr)")
        #expect(result.stderr.contains("cannot read audio"), "\(result.stderr)")
    }
}
