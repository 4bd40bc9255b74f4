import Foundation

/// Which channel(s) of a multichannel file to keep.
public enum ChannelPolicy: Sendable, Equatable {
    /// Average all channels to mono (the default).
    case average
    /// Keep one channel (0-based).
    case pick(Int)
}

extension AudioFile {
    /// Reads a whole file as mono `Float` samples (`sf_readf_float`; libsndfile scales integer PCM
    /// to [-1, 1) by 1/2^(bits−1)).
    /// - Parameters:
    ///   - channel: averaging to mono (default) or one channel.
    ///   - sampleRate: resample to this rate (Hz) with libsoxr's high-quality recipe; nil keeps the file's rate.
    /// - Throws: ``AudioError`` naming the file: missing, empty, unreadable, zero-length,
    ///   truncated, non-finite samples, channel out of range.
    public static func read(at url: URL, channel: ChannelPolicy = .average, sampleRate: Int? = nil) throws -> AudioBuffer {
        let channels = try readChannels(at: url)
        var mono: [Float]
        switch channel {
        case .pick(let c):
            guard c >= 0 && c < channels.count else {
                throw AudioError.channelOutOfRange(path: url.path, channel: c, channels: channels.count)
            }
            mono = channels[c].samples
        case .average:
            if channels.count == 1 {
                mono = channels[0].samples
            } else {
                let n = channels[0].count
                let scale = 1 / Float(channels.count)
                mono = [Float](repeating: 0, count: n)
                for ch in channels { for i in 0..<n { mono[i] += ch.samples[i] } }
                for i in 0..<n { mono[i] *= scale }
            }
        }
        let buffer = AudioBuffer(samples: mono, sampleRate: channels[0].sampleRate)
        if let sampleRate, sampleRate != buffer.sampleRate {
            return try Resampler.resample(buffer, to: sampleRate)
        }
        return buffer
    }

    /// Reads every channel of a file, one ``AudioBuffer`` per channel.
    /// - Throws: as ``read(at:channel:sampleRate:)``.
    public static func readChannels(at url: URL) throws -> [AudioBuffer] {
        let reader = try SndfileReader(path: url.path)
        let frames = reader.frames
        let channelCount = reader.channels
        guard frames > 0 else { throw AudioError.zeroLength(path: url.path) }
        guard channelCount > 0 else { throw AudioError.unreadable(path: url.path, reason: "header declares 0 channels") }
        var interleaved = [Float](repeating: 0, count: frames * channelCount)
        let read = interleaved.withUnsafeMutableBufferPointer { reader.readFrames(into: $0.baseAddress!, frames: frames) }
        guard read == frames else {
            if read == 0 { throw AudioError.zeroLength(path: url.path) }
            throw AudioError.truncated(path: url.path, expectedFrames: frames, readFrames: read)
        }
        if let bad = interleaved.firstIndex(where: { !$0.isFinite }) {
            throw AudioError.nonFiniteSamples(path: url.path, sampleIndex: bad / channelCount)
        }
        if channelCount == 1 { return [AudioBuffer(samples: interleaved, sampleRate: reader.sampleRate)] }
        return (0..<channelCount).map { c in
            let samples = [Float](unsafeUninitializedCapacity: frames) { out, count in
                interleaved.withUnsafeBufferPointer { src in
                    for i in 0..<frames { out[i] = src[i * channelCount + c] }
                }
                count = frames
            }
            return AudioBuffer(samples: samples, sampleRate: reader.sampleRate)
        }
    }
}
