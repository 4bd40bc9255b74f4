import Foundation

/// WAV files written byte by byte (a 44-byte canonical header), independently of SEKit's own
/// writer, so that tests of the reader and of the commands do not depend on the code under test.
public enum TestWAV {
    /// Writes 16-bit PCM samples (interleaved when `channels` > 1), creating the folder.
    public static func writePCM16(_ samples: [Int16], channels: Int = 1, sampleRate: Int, to url: URL) throws {
        var payload = Data(capacity: samples.count * 2)
        for sample in samples { withUnsafeBytes(of: sample.littleEndian) { payload.append(contentsOf: $0) } }
        try write(payload, formatTag: 1, bitsPerSample: 16, channels: channels, sampleRate: sampleRate, to: url)
    }

    /// Writes 32-bit float samples (interleaved when `channels` > 1), creating the folder.
    public static func writeFloat32(_ samples: [Float], channels: Int = 1, sampleRate: Int, to url: URL) throws {
        var payload = Data(capacity: samples.count * 4)
        for sample in samples { withUnsafeBytes(of: sample.bitPattern.littleEndian) { payload.append(contentsOf: $0) } }
        try write(payload, formatTag: 3, bitsPerSample: 32, channels: channels, sampleRate: sampleRate, to: url)
    }

    /// A sine of `frequencyHz` at amplitude 8000 (of 32767), `seconds` long, as 16-bit samples.
    public static func sine(seconds: Double, sampleRate: Int, frequencyHz: Double = 440) -> [Int16] {
        (0..<Int(seconds * Double(sampleRate))).map { Int16(8000 * sin(2 * Double.pi * frequencyHz * Double($0) / Double(sampleRate))) }
    }

    private static func write(_ payload: Data, formatTag: UInt16, bitsPerSample: Int, channels: Int, sampleRate: Int, to url: URL) throws {
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        let frameBytes = channels * bitsPerSample / 8
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + payload.count)); data.append(contentsOf: Array("WAVE".utf8))
        data.append(contentsOf: Array("fmt ".utf8)); u32(16); u16(formatTag); u16(UInt16(channels)); u32(UInt32(sampleRate))
        u32(UInt32(sampleRate * frameBytes)); u16(UInt16(frameBytes)); u16(UInt16(bitsPerSample))
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(payload.count))
        data.append(payload)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
    }
}
