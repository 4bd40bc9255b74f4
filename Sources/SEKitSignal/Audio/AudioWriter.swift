import Foundation

/// Sample format of the WAV files SEKit writes for corpora and resyntheses (`--format pcm16|float32`).
public enum WAVSampleFormat: String, Sendable, Codable, CaseIterable {
    case pcm16, float32

    /// The file format written.
    public var fileFormat: AudioFileFormat { self == .pcm16 ? .wavPCM16 : .wavFloat32 }
}

/// What a write did.
public struct WriteReport: Sendable, Equatable {
    /// Samples that were beyond full scale and were clipped (integer formats only).
    public var clippedSamples: Int
    /// Bytes in the written file.
    public var bytes: Int
}

/// Writes audio files atomically (temporary name in the same folder, then rename).
public enum AudioWriter {
    /// Writes `buffer` to `url` in `format`.
    ///
    /// WAV PCM16 and float32 are encoded in memory (44-byte header) and written with one
    /// `write(2)`, the fast path for corpora of many small clips; PCM24 and FLAC go through
    /// libsndfile (`sf_open`, `sf_writef_int`). Integer formats round to the nearest step and clip
    /// at full scale (see ``PCM16``); the count of clipped samples is reported, never wrapped.
    /// - Throws: ``AudioError/writeFailed(path:reason:)`` or ``AudioError/invalidParameter(name:value:reason:)``
    ///   for a non-finite sample or a bad sample rate.
    @discardableResult
    public static func write(_ buffer: AudioBuffer, to url: URL, format: AudioFileFormat = .wavPCM16) throws -> WriteReport {
        guard buffer.sampleRate > 0 else {
            throw AudioError.invalidParameter(name: "sampleRate", value: "\(buffer.sampleRate)", reason: "must be positive (\(url.path))")
        }
        if !buffer.samples.withUnsafeBufferPointer(PCM16.allFinite), let bad = buffer.samples.firstIndex(where: { !$0.isFinite }) {
            throw AudioError.invalidParameter(name: "samples", value: "sample \(bad)",
                                              reason: "NaN or infinite; not written to \(url.path)")
        }
        switch format {
        case .wavPCM16, .wavFloat32:
            let (data, clipped) = WAVEncoding.encode(buffer, float: format == .wavFloat32)
            do { try AtomicFile.write(data, to: url) } catch {
                throw AudioError.writeFailed(path: url.path, reason: FilePaths.reason(error, at: url.path))
            }
            return WriteReport(clippedSamples: clipped, bytes: data.count)
        case .wavPCM24, .flac16, .flac24:
            let bits = format.integerBits!
            let scale = Float(1 << (bits - 1))
            let maxCode = Int32((1 << (bits - 1)) - 1), minCode = -Int32(1 << (bits - 1))
            var clipped = 0
            let codes = buffer.samples.map { v -> Int32 in
                let q = (v * scale).rounded()
                if q > Float(maxCode) { clipped += 1; return maxCode << (32 - bits) }
                if q < Float(minCode) { clipped += 1; return minCode << (32 - bits) }
                return Int32(q) << (32 - bits)
            }
            let temporary = AtomicFile.temporaryURL(for: url)
            do {
                try SndfileWriter.write(codes, sampleRate: buffer.sampleRate, format: format, to: temporary.path)
                try AtomicFile.commit(temporary, to: url)
            } catch let error as AudioError {
                try? FileManager.default.removeItem(at: temporary)
                throw AudioError.writeFailed(path: url.path, reason: error.description)
            } catch {
                throw AudioError.writeFailed(path: url.path, reason: FilePaths.reason(error, at: url.path))
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
            return WriteReport(clippedSamples: clipped, bytes: bytes)
        }
    }
}

/// Canonical 44-byte-header WAV encoding (RIFF, `fmt ` chunk of 16 bytes, `data`).
extension AudioWriter {
    /// Writes 16-bit codes as a mono PCM16 WAV, atomically (the fast path for audio already
    /// quantised, e.g. mixed stems: no rounding or clipping left to do).
    /// - Throws: ``AudioError/writeFailed(path:reason:)``, ``AudioError/invalidParameter(name:value:reason:)`` for a bad rate.
    @discardableResult
    public static func writePCM16(codes: [Int16], sampleRate: Int, to url: URL) throws -> WriteReport {
        try writePCM16(codes: codes, sampleRate: sampleRate, toPath: url.path)
    }

    /// Writes samples as a mono float32 WAV at `path`, atomically, header and samples written as
    /// they are (no encoding or copy: the mixer's float32 stems).
    /// - Throws: ``AudioError/writeFailed(path:reason:)``, ``AudioError/invalidParameter(name:value:reason:)``
    ///   for a bad rate or a non-finite sample.
    @discardableResult
    public static func writeFloat32(samples: [Float], sampleRate: Int, toPath path: String) throws -> WriteReport {
        if !samples.withUnsafeBufferPointer(PCM16.allFinite), let bad = samples.firstIndex(where: { !$0.isFinite }) {
            throw AudioError.invalidParameter(name: "samples", value: "sample \(bad)", reason: "NaN or infinite; not written to \(path)")
        }
        return try writeRaw(samples, float: true, sampleRate: sampleRate, toPath: path)
    }

    /// ``writePCM16(codes:sampleRate:to:)`` for a file-system path (no URL work: a mix writes
    /// three files per clip).
    @discardableResult
    public static func writePCM16(codes: [Int16], sampleRate: Int, toPath path: String) throws -> WriteReport {
        try writeRaw(codes, float: false, sampleRate: sampleRate, toPath: path)
    }

    /// The 44-byte header of the mono PCM16 or float32 WAV of `frames` frames that
    /// ``writePCM16(codes:sampleRate:toPath:)`` and ``writeFloat32(samples:sampleRate:toPath:)``
    /// write before the samples (an archive member holds the same bytes as the file).
    package static func wavHeader(frames: Int, sampleRate: Int, float: Bool) -> Data {
        WAVEncoding.header(frames: frames, sampleRate: sampleRate, float: float)
    }

    /// The 44-byte header and `samples`' bytes (little-endian hosts: they are the file's bytes),
    /// written atomically without joining them first.
    private static func writeRaw<Sample>(_ samples: [Sample], float: Bool, sampleRate: Int, toPath path: String) throws -> WriteReport {
        guard sampleRate > 0 else {
            throw AudioError.invalidParameter(name: "sampleRate", value: "\(sampleRate)", reason: "must be positive (\(path))")
        }
        let header = WAVEncoding.header(frames: samples.count, sampleRate: sampleRate, float: float)
        do {
            try header.withUnsafeBytes { h in try samples.withUnsafeBytes { try AtomicFile.write(parts: [h, $0], toPath: path) } }
        } catch {
            throw AudioError.writeFailed(path: path, reason: FilePaths.reason(error, at: path))
        }
        return WriteReport(clippedSamples: 0, bytes: header.count + samples.count * MemoryLayout<Sample>.stride)
    }
}

enum WAVEncoding {
    /// The 44-byte header of a mono PCM16 (format tag 1) or float32 (tag 3) WAV of `frames` frames.
    /// `capacity`: bytes to reserve (the whole file when the samples are appended after).
    static func header(frames: Int, sampleRate: Int, float: Bool, capacity: Int = 44) -> Data {
        var data = Data(capacity: capacity)
        let bytesPerSample = float ? 4 : 2
        func put32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func put16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); put32(UInt32(36 + frames * bytesPerSample))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); put32(16); put16(float ? 3 : 1); put16(1)
        put32(UInt32(sampleRate)); put32(UInt32(sampleRate * bytesPerSample)); put16(UInt16(bytesPerSample))
        put16(UInt16(bytesPerSample * 8))
        data.append(contentsOf: Array("data".utf8)); put32(UInt32(frames * bytesPerSample))
        return data
    }

    /// Encodes mono PCM16 (format tag 1) or float32 (format tag 3). Returns the bytes and the
    /// number of clipped samples (PCM16 only).
    static func encode(_ buffer: AudioBuffer, float: Bool) -> (Data, Int) {
        let n = buffer.samples.count
        let dataBytes = n * (float ? 4 : 2)
        var data = header(frames: n, sampleRate: buffer.sampleRate, float: float, capacity: 44 + dataBytes)
        data.count = 44 + dataBytes
        var clipped = 0
        data.withUnsafeMutableBytes { raw in
            let p = raw.baseAddress! + 44
            buffer.samples.withUnsafeBufferPointer { samples in
                if float {
                    p.copyMemory(from: samples.baseAddress!, byteCount: dataBytes)  // little-endian hosts
                } else {
                    // Little-endian hosts: the codes are the file's bytes.
                    clipped = PCM16.encode(samples, into: p.bindMemory(to: Int16.self, capacity: n))
                }
            }
        }
        return (data, clipped)
    }
}
