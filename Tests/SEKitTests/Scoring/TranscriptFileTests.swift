import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `--transcripts FILE.tsv` as ``TranscriptFile`` reads it: keys by clip id or without the extension,
/// comments and blank lines skipped, CRLF endings, a clip with no line or several lines unavailable
/// with the reason, a malformed line an error naming the file and the line.
@Suite struct TranscriptFileTests {
    func file(_ text: String, in folder: TemporaryFolder) throws -> URL {
        let url = folder.file("transcripts.tsv")
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func linesAreFoundByClipIDOrStemAndProblemsAreNamed() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let text = "# clip\ttext\ns1-0000001\tAsk her to bring these things.\r\n\nsub/b.wav\t Hello there \nc\tone\nc\ttwo\n"
        let url = try file(text, in: folder)
        let transcripts = try TranscriptFile(url: url)
        #expect(transcripts.transcript(of: "s1-0000001") == .text("Ask her to bring these things."))
        #expect(transcripts.transcript(of: "sub/b.wav") == .text("Hello there"))
        #expect(transcripts.transcript(of: "c.wav") == .unavailable(reason: "\(url.path) has 2 lines for c (lines 5, 6)"))
        #expect(transcripts.transcript(of: "d.wav") == .unavailable(reason: "\(url.path) has no line for d.wav"))
        #expect(transcripts.sha256.count == 64)
    }

    @Test func aLineWithoutATabIsAnErrorNamingTheFile() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = try file("a\tfine\nb has no tab\n", in: folder)
        let reason = "line 2 has no tab: each line is KEY<TAB>TEXT (clip id or relative path, then the words)"
        #expect(throws: ScoreError.invalidOption(name: "--transcripts", value: url.path, reason: reason)) {
            try TranscriptFile(url: url)
        }
        #expect(throws: ScoreError.self) { try TranscriptFile(url: folder.file("missing.tsv")) }
    }
}
