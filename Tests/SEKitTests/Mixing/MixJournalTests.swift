import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct MixJournalTests {
    static func record(_ index: Int, clipID: String? = nil) -> MixManifestRecord {
        let id = clipID ?? String(format: "clip-%06d", index)
        return MixManifestRecord(
            clipID: id, index: index, split: index % 3 == 0 ? "test" : "train",
            noisy: "noisy/\(id).wav", clean: "clean/\(id).wav", noise: "noise/\(id).wav",
            sampleRate: 16_000, numSamples: 64_000, durationSeconds: 4,
            speechSources: [.init(path: "speech/p1/a.wav", offset: 100 * index, length: 64_000, position: 0, speaker: "p1")],
            noiseSources: [.init(path: "noise/babble.wav", offset: 7 * index, snrDB: 5, gain: 0.25)],
            rir: nil, target: "dry", snrMode: "global", snrDBRequested: 5, snrDBRealised: 5.0001,
            levelMode: "rms", levelDBFS: -26, levelDBFSRealised: -26.02, speechGain: 0.5, clippingScale: 1,
            clippedSamples: 0, lowpassHz: nil, seed: UInt64(index) &* 0x9E37_79B9)
    }

    /// Appends `records` through a journal opened on `url`.
    static func append(_ records: [MixManifestRecord], to url: URL) throws {
        let journal = try MixJournal(url: url)
        for record in records { try journal.append(line: try journal.line(for: record)) }
    }

    @Test func newJournalIsCreatedEmpty() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("journal.jsonl")
        let journal = try MixJournal(url: url)
        #expect(journal.records.isEmpty && journal.lines.isEmpty)
        #expect(FileManager.default.fileExists(atPath: url.path))
    }

    /// Lines appended are read back on reopening, in order, with their exact bytes; a line is
    /// sorted-key JSON ending in a newline, so a journal line is a manifest line.
    @Test func appendedRecordsAreReadBack() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("journal.jsonl")
        let records = (0..<5).map { Self.record($0) }
        try Self.append(records, to: url)
        let reopened = try MixJournal(url: url)
        #expect(reopened.records == records)
        let line = try reopened.line(for: records[2])
        #expect(line.last == UInt8(ascii: "\n") && line.dropLast().contains(UInt8(ascii: "\n")) == false)
        #expect(reopened.lines[2] == line)
        #expect(line == (try MixManifestRecord.encoder().encode(records[2])) + [UInt8(ascii: "\n")])
        // Appending after reopening continues the file.
        try reopened.append(line: try reopened.line(for: Self.record(5)))
        #expect(try MixJournal(url: url).records.map(\.index) == [0, 1, 2, 3, 4, 5])
        #expect(try MixManifestRecord.read(url) == records + [Self.record(5)])
    }

    /// A run killed mid-line leaves a torn last line: it is ignored (that clip is made again),
    /// cut off so the next line starts clean, and the journal stays readable as a manifest.
    @Test func tornLastLineIsIgnoredAndCut() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("journal.jsonl")
        try Self.append([Self.record(0), Self.record(1)], to: url)
        let intact = try Data(contentsOf: url)
        let third = try MixJournal(url: url).line(for: Self.record(2))
        for cut in [1, third.count / 2, third.count - 1] {   // down to a complete object without its newline
            try (intact + third.prefix(cut)).write(to: url)
            let journal = try MixJournal(url: url)
            #expect(journal.records.map(\.index) == [0, 1], "cut at \(cut)")
            #expect(try Data(contentsOf: url) == intact, "cut at \(cut): the torn tail is removed")
        }
        try Self.append([Self.record(2)], to: url)
        #expect(try MixJournal(url: url).records.map(\.index) == [0, 1, 2])
        #expect(try MixManifestRecord.read(url).map(\.index) == [0, 1, 2])
    }

    /// A line that is not a record is skipped, not fatal; a clip journalled twice counts once (the first).
    @Test func badLinesAreSkippedAndDuplicatesCountOnce() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("journal.jsonl")
        try Self.append([Self.record(0)], to: url)
        var data = try Data(contentsOf: url)
        data += Data("{\"not\": \"a record\"}\n\n".utf8)
        var again = Self.record(1, clipID: Self.record(0).clipID)
        again.split = "valid"
        data += try MixManifestRecord.encoder().encode(again) + [UInt8(ascii: "\n")]
        data += try MixManifestRecord.encoder().encode(Self.record(2)) + [UInt8(ascii: "\n")]
        try data.write(to: url)
        let journal = try MixJournal(url: url)
        #expect(journal.records == [Self.record(0), Self.record(2)])
        #expect(try Data(contentsOf: url) == data, "complete lines are kept as they are")
    }
}
