import Foundation
import Testing

/// Symbolic links in inputs are followed everywhere a folder is walked (issue 26, item 9): a
/// symlinked input folder, and symlinked files and sub-folders inside one, for `mix`, `enhance`
/// and `catalog import`; a link loop is reported and not followed.
@Suite(.serialized) struct SymlinkedInputTests {
    /// `real/speech/{a,b}.wav`, `extra/c.wav` (linked as `real/speech/more`), `loose/d.wav` (linked
    /// as `real/speech/d.wav`), `real/noise/n.wav`; `links/speech` and `links/noise` link to the real folders.
    func makeLinkedFolders(_ folder: CatalogCLIFolder) throws {
        let fm = FileManager.default
        try folder.writeWAV("real/speech/a.wav", frames: 16_000, seed: 1)
        try folder.writeWAV("real/speech/b.wav", frames: 16_000, seed: 2)
        try folder.writeWAV("extra/c.wav", frames: 16_000, seed: 3)
        try folder.writeWAV("loose/d.wav", frames: 16_000, seed: 4)
        try folder.writeWAV("real/noise/n.wav", frames: 24_000, seed: 9)
        try fm.createSymbolicLink(atPath: folder.path("real/speech/more"), withDestinationPath: folder.path("extra"))
        try fm.createSymbolicLink(atPath: folder.path("real/speech/d.wav"), withDestinationPath: folder.path("loose/d.wav"))
        try fm.createDirectory(atPath: folder.path("links"), withIntermediateDirectories: true)
        try fm.createSymbolicLink(atPath: folder.path("links/speech"), withDestinationPath: folder.path("real/speech"))
        try fm.createSymbolicLink(atPath: folder.path("links/noise"), withDestinationPath: folder.path("real/noise"))
    }

    @Test func mixEnhanceAndImportFollowLinks() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try makeLinkedFolders(folder)
        let mix = try SEKitBinary.run(["mix", "--speech", folder.path("links/speech"), "--noise", folder.path("links/noise"),
                                       "--count", "20", "--seconds", "0.5", "--out", folder.path("corpus"), "--no-catalog"])
        #expect(mix.status == 0, "\(mix.stderr)")
        let manifest = (try? String(contentsOfFile: folder.path("corpus/manifest.jsonl"), encoding: .utf8)) ?? ""
        #expect(manifest.contains("more/c.wav") && manifest.contains("speech/d.wav"), "every linked source is drawn from")

        let enhance = try SEKitBinary.run(["enhance", "--method", "wiener", "--input", folder.path("links/speech"),
                                           "--out", folder.path("enhanced"), "--no-catalog"])
        #expect(enhance.status == 0 && enhance.stdout.contains("4 clips"), "\(enhance.stdout)\(enhance.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("enhanced/more/c.wav")))
        #expect(FileManager.default.fileExists(atPath: folder.path("enhanced/d.wav")))

        let imported = try SEKitBinary.run(["catalog", "import", "--catalog", folder.path("c.sqlite"), "--kind", "speech",
                                            "--corpus", "t", folder.path("links/speech")])
        #expect(imported.status == 0 && imported.stdout.contains("4 added"), "\(imported.stdout)\(imported.stderr)")
    }

    @Test func aLinkLoopIsReportedNotFollowed() throws {
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        try makeLinkedFolders(folder)
        try FileManager.default.createSymbolicLink(atPath: folder.path("real/speech/again"),
                                                   withDestinationPath: folder.path("real/speech"))
        let mix = try SEKitBinary.run(["mix", "--speech", folder.path("links/speech"), "--noise", folder.path("links/noise"),
                                       "--count", "4", "--seconds", "0.5", "--out", folder.path("corpus"), "--no-catalog"])
        #expect(mix.status == 0, "\(mix.stderr)")
        #expect(mix.stderr.contains("again") && mix.stderr.contains("loop"), "\(mix.stderr)")
        let imported = try SEKitBinary.run(["catalog", "import", "--catalog", folder.path("c.sqlite"), "--kind", "speech",
                                            "--corpus", "t", folder.path("links/speech")])
        #expect(imported.stdout.contains("4 added") && imported.stderr.contains("again") && imported.stderr.contains("loop"),
                "\(imported.stdout)\(imported.stderr)")
    }
}
