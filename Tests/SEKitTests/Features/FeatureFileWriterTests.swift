import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct FeatureFileWriterTests {
    @Test func roundTripThroughReader() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("features.h5")
        let clips = FeatureFileSample.clips(count: 12)
        let statistics = try FeatureFileSample.write(clips, to: url, chunkFrames: 16)

        let reader = try FeatureFileReader(url: url)
        #expect(reader.streams.map(\.name) == ["clean", "irm", "noisy"])
        let total = clips.map(\.numFrames).reduce(0, +)
        for stream in reader.streams {
            #expect(stream.bins == 9)
            #expect(stream.totalFrames == total)
            #expect(stream.dtype == .float32)
            #expect(stream.chunkFrames == 16)
            #expect(stream.compression == .none)
            #expect(!stream.shuffle)
        }
        #expect(reader.clips.map(\.clipID) == clips.map(\.clipID))
        var offset = 0
        for (entry, clip) in zip(reader.clips, clips) {
            #expect(entry.offset == offset)
            #expect(entry.numFrames == clip.numFrames)
            #expect(entry.split == clip.split)
            #expect(entry.snrDB == clip.snrDB)
            offset += clip.numFrames
            for stream in FeatureFileSample.streams {
                #expect(try reader.frames(stream: stream.name, clipID: clip.clipID) == clip.frames[stream.name]!)
            }
        }
        // A range spanning clip (and chunk) boundaries is the concatenation of the clips' rows.
        let joined = clips.flatMap { $0.frames["noisy"]! }
        #expect(try reader.frames(stream: "noisy", range: 5..<60) == Array(joined[5 * 9..<60 * 9]))

        #expect(reader.attributes["n_fft"] == .int(16))
        #expect(reader.attributes["window"] == .string("hann"))
        #expect(reader.attributes["exponent"] == .double(0.3))
        #expect(reader.attributes["sample_rate"] == .int(16000))
        #expect(reader.attributes["format_version"] == .int(FeatureFileLayout.formatVersion))
        #expect(reader.attributes["sekit_version"] == .string(SEKitVersion.string))
        #expect(reader.attributes["frame_convention"] == .string(FeatureFileSample.metadata.frameConvention))
        #expect(reader.attributes["mix_run_id"] == .string("mix-run-1"))
        #expect(reader.attributes["features_run_id"] == .string("features-run-1"))
        #expect(reader.attributes["streams"] == .string("noisy,clean,irm"))

        #expect(try reader.statisticsStreams() == ["clean", "irm", "noisy"])
        let stored = try reader.statistics(stream: "noisy")
        #expect(stored.mean == statistics["noisy"]!.mean)
        #expect(stored.standardDeviation == statistics["noisy"]!.standardDeviation)
        #expect(stored.count == clips.filter { $0.split == "train" }.map(\.numFrames).reduce(0, +))
        #expect(stored.split == "train")

        #expect(throws: FeatureFileError.clipNotFound(path: url.path, clipID: "nope")) { try reader.clip(id: "nope") }
        #expect(throws: FeatureFileError.unknownStream(path: url.path, stream: "psm")) { try reader.frames(stream: "psm", range: 0..<1) }
        #expect(throws: FeatureFileError.frameRangeOutOfBounds(path: url.path, stream: "noisy", lowerBound: total - 1,
                                                               upperBound: total + 1, totalFrames: total)) {
            try reader.frames(stream: "noisy", range: (total - 1)..<(total + 1))
        }
    }

    @Test func float16AndGzip() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("half.h5")
        let clips = FeatureFileSample.clips(count: 8)
        let statistics = try FeatureFileSample.write(clips, to: url, dtype: .float16, compression: .gzip(level: 6))
        let reader = try FeatureFileReader(url: url)
        let noisy = try reader.stream("noisy")
        #expect(noisy.dtype == .float16)
        #expect(noisy.compression == .gzip(level: 6))
        #expect(noisy.shuffle)
        #expect(noisy.chunkFrames == FeatureFileLayout.chunkFrames(bins: 9, dtype: .float16))
        for clip in clips {
            let stored = try reader.frames(stream: "noisy", clipID: clip.clipID)
            let expected = clip.frames["noisy"]!.map { Float(Float16($0)) }
            #expect(stored == expected)
            // float16 keeps 11 significant bits: relative error at most 2^-11.
            for (value, original) in zip(stored, clip.frames["noisy"]!) where original > 1e-3 {
                #expect(abs(value - original) <= original * 0x1p-11)
            }
        }
        // Statistics describe the stored (rounded) values.
        #expect(try reader.statistics(stream: "noisy").mean == statistics["noisy"]!.mean)
    }

    @Test func gzipShrinksCompressibleData() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let clips = (0..<4).map { index in
            FeatureFileSample.Clip(clipID: "c\(index)", split: "train", snrDB: 0, frames: Dictionary(uniqueKeysWithValues:
                FeatureFileSample.streams.map { ($0.name, (0..<2000 * 9).map { Float($0 % 9) * 0.25 }) }))
        }
        try FeatureFileSample.write(clips, to: folder.file("plain.h5"))
        try FeatureFileSample.write(clips, to: folder.file("gzip.h5"), compression: .gzip(level: 1))
        let plain = try FileManager.default.attributesOfItem(atPath: folder.file("plain.h5").path)[.size] as! Int
        let gzip = try FileManager.default.attributesOfItem(atPath: folder.file("gzip.h5").path)[.size] as! Int
        #expect(plain > 4 * 3 * 2000 * 9 * 4)
        #expect(gzip * 10 < plain)
        #expect(try FeatureFileReader(url: folder.file("gzip.h5")).frames(stream: "irm", clipID: "c2") == clips[2].frames["irm"]!)
    }

    @Test func sameClipsGiveSameBytes() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let clips = FeatureFileSample.clips(count: 6)
        try FeatureFileSample.write(clips, to: folder.file("a.h5"), compression: .gzip(level: 3))
        try FeatureFileSample.write(clips, to: folder.file("b.h5"), compression: .gzip(level: 3))
        #expect(try Data(contentsOf: folder.file("a.h5")) == Data(contentsOf: folder.file("b.h5")))
    }

    @Test func temporaryFileUntilFinish() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("features.h5")
        let clip = FeatureFileSample.clips(count: 1)[0]
        do {
            let writer = try FeatureFileWriter(url: url, streams: FeatureFileSample.streams, metadata: FeatureFileSample.metadata)
            try writer.append(clipID: clip.clipID, split: clip.split, snrDB: clip.snrDB, frames: clip.frames)
            #expect(FileManager.default.fileExists(atPath: writer.temporaryURL.path))
            #expect(writer.temporaryURL.deletingLastPathComponent() == url.deletingLastPathComponent())
            #expect(writer.temporaryURL.lastPathComponent.hasPrefix(".features.h5.tmp-"))
            #expect(!FileManager.default.fileExists(atPath: url.path))
        }
        // Dropped without finish: nothing under the final name, no temporary file left.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)

        // Zero clips: refused, nothing left behind.
        let empty = try FeatureFileWriter(url: url, streams: FeatureFileSample.streams, metadata: FeatureFileSample.metadata)
        #expect(throws: FeatureFileError.noClips(path: url.path)) { try empty.finish() }
        #expect(throws: FeatureFileError.writerClosed(path: url.path)) {
            try empty.append(clipID: clip.clipID, split: clip.split, snrDB: nil, frames: clip.frames)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)

        // Existing output refused up front, replaced with overwrite.
        try FeatureFileSample.write([clip], to: url)
        #expect(throws: FeatureFileError.outputExists(path: url.path)) { try FeatureFileSample.write([clip], to: url) }
        let replacement = FeatureFileSample.clips(count: 3, seed: 99)
        try FeatureFileSample.write(replacement, to: url, overwrite: true)
        #expect(try FeatureFileReader(url: url).clips.count == 3)

        // A file that appears under the final name while writing is not clobbered.
        let late = folder.file("late.h5")
        let writer = try FeatureFileWriter(url: late, streams: FeatureFileSample.streams, metadata: FeatureFileSample.metadata)
        try writer.append(clipID: clip.clipID, split: clip.split, snrDB: clip.snrDB, frames: clip.frames)
        _ = FileManager.default.createFile(atPath: late.path, contents: Data("someone else's".utf8))
        #expect(throws: FeatureFileError.outputExists(path: late.path)) { try writer.finish() }
        #expect(try String(contentsOf: late, encoding: .utf8) == "someone else's")
        #expect(!FileManager.default.fileExists(atPath: writer.temporaryURL.path))
    }

    @Test func badInputIsRefusedAndWriterStaysUsable() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("features.h5")
        let path = url.path
        let writer = try FeatureFileWriter(url: url, streams: FeatureFileSample.streams, dtype: .float16,
                                           metadata: FeatureFileSample.metadata)
        let good = FeatureFileSample.clips(count: 2)
        try writer.append(clipID: good[0].clipID, split: "train", snrDB: 0, frames: good[0].frames)

        var frames = good[1].frames
        frames["noisy"]!.removeLast()
        #expect(throws: FeatureFileError.shapeMismatch(path: path, stream: "noisy", clipID: "x", values: frames["noisy"]!.count, bins: 9)) {
            try writer.append(clipID: "x", split: "train", snrDB: 0, frames: frames)
        }
        frames = good[1].frames
        frames["clean"]!.removeLast(9)
        #expect(throws: FeatureFileError.frameCountMismatch(path: path, clipID: "x", stream: "clean",
                                                            expectedFrames: good[1].numFrames, frames: good[1].numFrames - 1)) {
            try writer.append(clipID: "x", split: "train", snrDB: 0, frames: frames)
        }
        frames = good[1].frames
        frames["psm"] = frames["irm"]
        #expect(throws: FeatureFileError.unknownStream(path: path, stream: "psm")) {
            try writer.append(clipID: "x", split: "train", snrDB: 0, frames: frames)
        }
        frames = good[1].frames
        frames["irm"] = nil
        #expect(throws: FeatureFileError.missingStream(path: path, stream: "irm", clipID: "x")) {
            try writer.append(clipID: "x", split: "train", snrDB: 0, frames: frames)
        }
        frames = good[1].frames
        frames["clean"]![2 * 9 + 4] = .nan
        #expect(throws: FeatureFileError.nonFiniteValue(path: path, stream: "clean", clipID: "x", frame: 2, bin: 4)) {
            try writer.append(clipID: "x", split: "train", snrDB: 0, frames: frames)
        }
        frames["clean"]![2 * 9 + 4] = -.infinity
        #expect(throws: FeatureFileError.nonFiniteValue(path: path, stream: "clean", clipID: "x", frame: 2, bin: 4)) {
            try writer.append(clipID: "x", split: "train", snrDB: 0, frames: frames)
        }
        frames = good[1].frames
        frames["noisy"]![1 * 9 + 8] = 70000
        #expect(throws: FeatureFileError.float16Overflow(path: path, stream: "noisy", clipID: "x", frame: 1, bin: 8, value: 70000)) {
            try writer.append(clipID: "x", split: "train", snrDB: 0, frames: frames)
        }
        frames["noisy"]![1 * 9 + 8] = 65504 // float16's largest finite value is fine
        try writer.append(clipID: "x", split: "train", snrDB: 0, frames: frames)
        #expect(throws: FeatureFileError.duplicateClip(path: path, clipID: "x")) {
            try writer.append(clipID: "x", split: "train", snrDB: 0, frames: frames)
        }
        #expect(throws: FeatureFileError.emptyClip(path: path, clipID: "y")) {
            try writer.append(clipID: "y", split: "train", snrDB: 0, frames: ["noisy": [], "clean": [], "irm": []])
        }
        #expect(throws: FeatureFileError.statisticsMismatch(path: path, stream: "noisy", reason: "4 bins, stream has 9")) {
            try writer.finish(statistics: ["noisy": FeatureStatistics(bins: 4)])
        }
        try writer.finish()
        let reader = try FeatureFileReader(url: url)
        #expect(reader.clips.map(\.clipID) == [good[0].clipID, "x"])
        #expect(try reader.frames(stream: "noisy", clipID: "x")[1 * 9 + 8] == 65504)
        #expect(throws: FeatureFileError.statisticsMismatch(path: path, stream: "noisy", reason: "no statistics stored")) {
            try reader.statistics(stream: "noisy")
        }
    }

    @Test func badParametersAreNamed() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("f.h5")
        let metadata = FeatureFileSample.metadata
        #expect(throws: FeatureFileError.self) { try FeatureFileWriter(url: url, streams: [], metadata: metadata) }
        #expect(throws: FeatureFileError.self) { try FeatureFileWriter(url: url, streams: [StreamSpec("index", bins: 3)],
                                                                       metadata: metadata) }
        #expect(throws: FeatureFileError.self) { try FeatureFileWriter(url: url, streams: [StreamSpec("a/b", bins: 3)],
                                                                       metadata: metadata) }
        #expect(throws: FeatureFileError.self) { try FeatureFileWriter(url: url, streams: [StreamSpec("noisy", bins: 0)],
                                                                       metadata: metadata) }
        #expect(throws: FeatureFileError.self) {
            try FeatureFileWriter(url: url, streams: [StreamSpec("noisy", bins: 3), StreamSpec("noisy", bins: 3)], metadata: metadata)
        }
        #expect(throws: FeatureFileError.self) {
            try FeatureFileWriter(url: url, streams: [StreamSpec("noisy", bins: 3)], compression: .gzip(level: 12), metadata: metadata)
        }
        #expect(throws: FeatureFileError.invalidParameter(name: "attribute", value: "'sample_rate'",
                                                          reason: "empty or reserved for the writer")) {
            try FeatureFileWriter(url: url, streams: [StreamSpec("noisy", bins: 3)], metadata: metadata, attributes: ["sample_rate": 8000])
        }
        let missingFolder = folder.file("no/such/folder/f.h5")
        #expect(throws: FeatureFileError.fileSystem(path: folder.file("no/such/folder").path, operation: "create feature file",
                                                    reason: "folder does not exist")) {
            try FeatureFileWriter(url: missingFolder, streams: [StreamSpec("noisy", bins: 3)], metadata: metadata)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)

        #expect(try FeatureCompression(parsing: "gzip") == .gzip(level: FeatureCompression.defaultGzipLevel))
        #expect(try FeatureCompression(parsing: "gzip:9") == .gzip(level: 9))
        #expect(try FeatureCompression(parsing: "none") == FeatureCompression.none)
        #expect(throws: FeatureFileError.invalidParameter(name: "compression", value: "gzip:0", reason: "gzip level must be 1...9")) {
            try FeatureCompression(parsing: "gzip:0")
        }
        #expect(throws: FeatureFileError.self) { try FeatureCompression(parsing: "lzf") }
    }

    @Test func readerRejectsMissingAndForeignFiles() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        #expect(throws: FeatureFileError.fileNotFound(path: folder.file("none.h5").path)) {
            try FeatureFileReader(url: folder.file("none.h5"))
        }
        let junk = folder.file("junk.h5")
        _ = FileManager.default.createFile(atPath: junk.path, contents: Data("not hdf5 at all".utf8))
        do {
            _ = try FeatureFileReader(url: junk)
            Issue.record("junk accepted")
        } catch {
            #expect(error.code == "hdf5")
            #expect(error.description.contains("junk.h5"))
            #expect(error.description.contains("H5Fopen"))
        }
    }

    @Test func chunkSizeFollowsTheByteTarget() {
        #expect(FeatureFileLayout.chunkFrames(bins: 257, dtype: .float32) == 510)
        #expect(FeatureFileLayout.chunkFrames(bins: 257, dtype: .float16) == 1020)
        #expect(FeatureFileLayout.chunkFrames(bins: 1, dtype: .float16) == 65536)
        #expect(FeatureFileLayout.chunkFrames(bins: 1_000_000, dtype: .float32) == 1)
    }
}
