import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct AudioFileInfoTests {
    @Test(.needsFixtures)
    func readsFixtureHeader() throws {
        let info = try AudioFile.info(at: Fixtures.url("speech/arctic_a0009.wav"))
        #expect(info.sampleRate == 16000)
        #expect(info.channels == 1)
        #expect(info.frames == 80000)
        #expect(info.format.contains("WAV"))
        #expect(info.encoding.lowercased().contains("16"))
        let room = try AudioFile.info(at: Fixtures.url("rir/small_room.wav"))
        #expect(room.sampleRate == 44100 && room.channels == 2 && room.frames == 42996)
    }

    /// The reference tier's Loizou pair is 32-bit float WAV.
    @Test(.referenceTier)
    func readsFloatHeader() throws {
        let info = try AudioFile.info(at: Fixtures.reference("1_speech_16000_Hz.wav"))
        #expect(info.sampleRate == 16000 && info.channels == 1 && info.frames == 159680)
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
