import Foundation
@testable import SEKit
import SEKitTestSupport
import Testing

/// SEKit's ustar writer and reader (issue 31): deterministic bytes, members found where they are,
/// a WAV member read in place equal to the file, and damaged archives refused with named errors.
@Suite struct TarArchiveTests {
    func write(_ url: URL, _ members: [(String, Data)]) throws {
        let writer = try TarWriter(url: url)
        for (name, data) in members {
            try data.withUnsafeBytes { try writer.append(try TarWriter.member(name: name, parts: [$0])) }
        }
        try writer.finish()
    }

    @Test func writtenArchivesAreDeterministicAndIndexed() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let members = [("a.json", Data("{}".utf8)), ("b.bin", Data(repeating: 7, count: 1000)), ("c.txt", Data())]
        try write(folder.file("one.tar"), members)
        try write(folder.file("two.tar"), members)
        let bytes = try Data(contentsOf: folder.file("one.tar"))
        #expect(bytes == (try Data(contentsOf: folder.file("two.tar"))))
        #expect(bytes.count == 512 * (1 + 1) + 512 * (1 + 2) + 512 + 1024)
        let index = try TarIndex(path: folder.file("one.tar").path)
        #expect(index.members.map(\.name) == ["a.json", "b.bin", "c.txt"])
        let b = try #require(index.byName["b.bin"])
        #expect(bytes[b.bytes] == Data(repeating: 7, count: 1000))
        #expect(try !FileManager.default.contentsOfDirectory(atPath: folder.url.path).contains { $0.contains(".tmp-") })
    }

    @Test func aWAVMemberReadsAsItsFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        let codes = (0..<4000).map { Int16(truncatingIfNeeded: $0 * 97) }
        try AudioWriter.writePCM16(codes: codes, sampleRate: 16_000, toPath: folder.file("x.wav").path)
        let wav = try Data(contentsOf: folder.file("x.wav"))
        try write(folder.file("s.tar"), [("x.json", Data("{}".utf8)), ("x.noisy.wav", wav)])
        let member = try #require(try TarIndex(path: folder.file("s.tar").path).byName["x.noisy.wav"])
        let location = AudioLocation(member: "x.noisy.wav", of: folder.file("s.tar").path, bytes: member.bytes)
        let inPlace = try AudioFile.read(location).samples, fromFile = try AudioFile.read(at: folder.file("x.wav")).samples
        #expect(inPlace.count == 4000 && inPlace == fromFile)
        #expect(try AudioFile.info(location).frames == 4000)
        // A range cut short: libsndfile reads no further than it (and takes fewer frames, which is
        // why MixCorpusAudio checks a member's length against its WAV header).
        let short = AudioLocation(member: "x.noisy.wav", of: folder.file("s.tar").path,
                                  bytes: member.bytes.lowerBound..<(member.bytes.upperBound - 1000))
        #expect(try AudioFile.read(short).samples.count == 3500)
    }

    @Test func damagedArchivesAreRefusedByName() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanup() }
        try write(folder.file("s.tar"), [("a.bin", Data(repeating: 1, count: 3000)), ("b.bin", Data(repeating: 2, count: 10))])
        let bytes = try Data(contentsOf: folder.file("s.tar"))
        try bytes.prefix(2000).write(to: folder.file("cut.tar"))
        var corrupt = bytes
        corrupt[512 * 7 + 3] ^= 0xFF   // the second header (after 1 header + 6 blocks of data)
        try corrupt.write(to: folder.file("corrupt.tar"))
        try bytes.prefix(bytes.count - 1024).write(to: folder.file("noend.tar"))
        for (name, words) in [("cut.tar", "truncated tar: member a.bin"), ("corrupt.tar", "fails its checksum (after member a.bin)"),
                              ("noend.tar", "without an end-of-archive block")] {
            #expect {
                _ = try TarIndex(path: folder.file(name).path)
            } throws: { error in
                "\(error)".contains(name) && "\(error)".contains(words)
            }
        }
    }
}
