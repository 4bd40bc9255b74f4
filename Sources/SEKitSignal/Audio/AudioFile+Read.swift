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
        try read(AudioLocation(url), channel: channel, sampleRate: sampleRate)
    }

    /// ``read(at:channel:sampleRate:)`` of a location: a file, or a member of an archive read in place.
    public static func read(_ location: AudioLocation, channel: ChannelPolicy = .average, sampleRate: Int? = nil) throws -> AudioBuffer {
        if let sampleRate {
            let info = try AudioFile.info(location)
            if info.sampleRate != sampleRate { return try readResampling(location, channel: channel, to: sampleRate) }
        }
        let channels = try readChannels(location)
        var mono: [Float]
        switch channel {
        case .pick(let c):
            guard c >= 0 && c < channels.count else {
                throw AudioError.channelOutOfRange(path: location.name, channel: c, channels: channels.count)
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
    public static func readChannels(at url: URL) throws -> [AudioBuffer] { try readChannels(AudioLocation(url)) }

    /// ``readChannels(at:)`` of a location.
    public static func readChannels(_ location: AudioLocation) throws -> [AudioBuffer] {
        let reader = try SndfileReader(location: location)
        let frames = reader.frames
        let channelCount = reader.channels
        guard frames > 0 else { throw AudioError.zeroLength(path: location.name) }
        guard channelCount > 0 else { throw AudioError.unreadable(path: location.name, reason: "header declares 0 channels") }
        // Uninitialised: the reader fills it, so every page is touched once (a zero fill first
        // would double the page-fault cost of hour-long files).
        var read = 0
        let interleaved = [Float](unsafeUninitializedCapacity: frames * channelCount) { buffer, count in
            read = reader.readFrames(into: buffer.baseAddress!, frames: frames)
            for i in (read * channelCount)..<(frames * channelCount) { buffer[i] = 0 }
            count = frames * channelCount
        }
        guard read == frames else {
            if read == 0 { throw AudioError.zeroLength(path: location.name) }
            throw AudioError.truncated(path: location.name, expectedFrames: frames, readFrames: read)
        }
        if let bad = firstNonFinite(interleaved) {
            throw AudioError.nonFiniteSamples(path: location.name, sampleIndex: bad / channelCount)
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

    /// Index of the first NaN or infinite sample: one vectorised pass (x·0 is 0 for every finite
    /// x, NaN otherwise), then a search only when there is one.
    static func firstNonFinite(_ samples: [Float]) -> Int? {
        samples.withUnsafeBufferPointer { firstNonFinite($0) }
    }

    /// ``firstNonFinite(_:)`` of a buffer (a block being read, without copying it).
    static func firstNonFinite(_ p: UnsafeBufferPointer<Float>) -> Int? {
        var sum = SIMD8<Float>()
        var i = 0
        let raw = UnsafeRawBufferPointer(p)
        while i + 8 <= p.count {
            sum += raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) * 0
            i += 8
        }
        var tail: Float = 0
        while i < p.count { tail += p[i] * 0; i += 1 }
        return (sum.sum() + tail).isFinite ? nil : p.firstIndex { !$0.isFinite }
    }

    /// Reads and resamples block by block (libsoxr streaming), so a long file is never held at its
    /// own rate: memory is the output plus one block. Same output as reading then
    /// ``Resampler/resample(_:to:quality:)`` with the high-quality recipe, `round(n·new/old)` samples.
    static func readResampling(_ location: AudioLocation, channel: ChannelPolicy, to sampleRate: Int) throws -> AudioBuffer {
        guard sampleRate > 0 else {
            throw AudioError.invalidParameter(name: "sampleRate", value: "\(sampleRate)", reason: "must be positive")
        }
        let reader = try SndfileReader(location: location)
        let frames = reader.frames, channels = reader.channels
        guard frames > 0 else { throw AudioError.zeroLength(path: location.name) }
        if case .pick(let c) = channel, c < 0 || c >= channels {
            throw AudioError.channelOutOfRange(path: location.name, channel: c, channels: channels)
        }
        let outputCount = Int((Double(frames) * Double(sampleRate) / Double(reader.sampleRate)).rounded())
        let stream: SoxrStream
        do {
            stream = try SoxrStream(inputRate: Double(reader.sampleRate), outputRate: Double(sampleRate),
                                    recipe: sekit_soxr_hq_value, expectedOutput: outputCount)
        } catch {
            throw AudioError.invalidParameter(name: "sampleRate", value: "\(reader.sampleRate)->\(sampleRate)",
                                              reason: "libsoxr: \(error.message)")
        }
        let blockFrames = 1 << 16
        var interleaved = [Float](repeating: 0, count: blockFrames * channels)
        var mono = [Float](repeating: 0, count: blockFrames)
        var position = 0
        while position < frames {
            let want = min(blockFrames, frames - position)
            let got = interleaved.withUnsafeMutableBufferPointer { reader.readFrames(into: $0.baseAddress!, frames: want) }
            if got == 0 { break }
            let bad: Int? = interleaved.withUnsafeBufferPointer { src in
                mono.withUnsafeMutableBufferPointer { dst in
                    switch channel {
                    case .pick(let c):
                        for i in 0..<got { dst[i] = src[i * channels + c] }
                    case .average where channels == 1:
                        for i in 0..<got { dst[i] = src[i] }
                    case .average:
                        let scale = 1 / Float(channels)
                        for i in 0..<got {
                            var v: Float = 0
                            for c in 0..<channels { v += src[i * channels + c] }
                            dst[i] = v * scale
                        }
                    }
                    // A sum is non-finite iff some sample is: one cheap pass, then locate.
                    var sum: Float = 0
                    for i in 0..<got { sum += dst[i] * 0 }
                    return sum.isFinite ? nil : (0..<got).first { !dst[$0].isFinite }
                }
            }
            if let bad { throw AudioError.nonFiniteSamples(path: location.name, sampleIndex: position + bad) }
            do {
                try mono.withUnsafeBufferPointer { (p) throws(SoxrResampler.SoxrFailure) in
                    try stream.process(UnsafeBufferPointer(rebasing: p[0..<got]))
                }
            } catch {
                throw AudioError.invalidParameter(name: "sampleRate", value: "\(sampleRate)", reason: "libsoxr: \(error.message)")
            }
            position += got
        }
        guard position > 0 else { throw AudioError.zeroLength(path: location.name) }
        do { try stream.process(nil) } catch {
            throw AudioError.invalidParameter(name: "sampleRate", value: "\(sampleRate)", reason: "libsoxr: \(error.message)")
        }
        let wanted = Int((Double(position) * Double(sampleRate) / Double(reader.sampleRate)).rounded())
        var samples = stream.output
        if samples.count > wanted { samples.removeLast(samples.count - wanted) }
        while samples.count < wanted { samples.append(0) }
        return AudioBuffer(samples: samples, sampleRate: sampleRate)
    }
}
