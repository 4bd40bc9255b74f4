import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct AudioFileInfoTests {
    @Test(.enabled(if: Fixtures.available, "needs ../shared/fixtures"))
    func readsFixtureHeader() throws {
        let info = try AudioFile.info(at: Fixtures.url("metrics/1_speech_16000_Hz.wav"))
        #expect(info.sampleRate == 16000)
        #expect(info.channels == 1)
        #expect(info.frames == 159680)
        #expect(info.format.contains("WAV"))
        #expect(info.encoding.lowercased().contains("float"))
    }

    @Test func missingAndEmptyFilesAreNamed() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        #expect(throws: AudioError.fileNotFound(path: folder.file("nope.wav").path)) {
            try AudioFile.info(at: folder.file("nope.wav"))
        }
        FileManager.default.createFile(atPath: folder.file("empty.wav").path, contents: Data())
        #expect(throws: AudioError.emptyFile(path: folder.file("empty.wav").path)) {
            try AudioFile.info(at: folder.file("empty.wav"))
        }
        FileManager.default.createFile(atPath: folder.file("junk.wav").path, contents: Data("RIFF garbage not audio".utf8))
        do {
            _ = try AudioFile.info(at: folder.file("junk.wav"))
            Issue.record("junk file was accepted")
        } catch {
            #expect(error.code == "unreadable")
            #expect(error.description.contains("junk.wav"))
        }
    }
}
