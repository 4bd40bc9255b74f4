import Foundation

extension AudioFile {
    /// Frames read per block by ``forEachMonoBlock(at:blockFrames:_:)``: a multiple of 4 (and 8),
    /// so block-wise accumulations with interleaved lanes match whole-signal ones bit for bit.
    public static let defaultBlockFrames = 1 << 16

    /// Reads the file block by block as mono `Float` (channels averaged as ``read(at:channel:sampleRate:)``
    /// does), calling `body` with each block: memory stays at one block whatever the file's length.
    /// - Returns: the sample rate and the number of frames read.
    /// - Throws: ``AudioError`` naming the file (missing, empty, unreadable, zero-length,
    ///   truncated, non-finite samples), or what `body` throws.
    @discardableResult
    public static func forEachMonoBlock(at url: URL, blockFrames: Int = defaultBlockFrames,
                                        _ body: (UnsafeBufferPointer<Float>) throws -> Void) throws -> (sampleRate: Int, frames: Int) {
        try forEachMonoBlock(AudioLocation(url), blockFrames: blockFrames, body)
    }

    /// ``forEachMonoBlock(at:blockFrames:_:)`` of a location (a file, or a member of an archive).
    @discardableResult
    public static func forEachMonoBlock(_ location: AudioLocation, blockFrames: Int = defaultBlockFrames,
                                        _ body: (UnsafeBufferPointer<Float>) throws -> Void) throws -> (sampleRate: Int, frames: Int) {
        precondition(blockFrames > 0 && blockFrames % 8 == 0, "blockFrames must be a positive multiple of 8")
        let reader = try SndfileReader(location: location)
        let frames = reader.frames, channels = reader.channels
        guard frames > 0 else { throw AudioError.zeroLength(path: location.name) }
        guard channels > 0 else { throw AudioError.unreadable(path: location.name, reason: "header declares 0 channels") }
        var interleaved = [Float](repeating: 0, count: blockFrames * channels)
        var mono = [Float](repeating: 0, count: blockFrames)
        let scale = 1 / Float(channels)
        var done = 0
        while done < frames {
            let want = min(blockFrames, frames - done)
            let got = interleaved.withUnsafeMutableBufferPointer { reader.readFrames(into: $0.baseAddress!, frames: want) }
            guard got == want else {
                if done + got == 0 { throw AudioError.zeroLength(path: location.name) }
                throw AudioError.truncated(path: location.name, expectedFrames: frames, readFrames: done + got)
            }
            if let bad = interleaved.withUnsafeBufferPointer({ firstNonFinite(UnsafeBufferPointer(rebasing: $0[0..<(got * channels)])) }) {
                throw AudioError.nonFiniteSamples(path: location.name, sampleIndex: done + bad / channels)
            }
            if channels == 1 {
                try interleaved.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<got])) }
            } else {
                // The same arithmetic as reading the whole file: 0 + ch0 + ch1 + ..., then × 1/channels.
                for i in 0..<got {
                    var sum: Float = 0
                    for c in 0..<channels { sum += interleaved[i * channels + c] }
                    mono[i] = sum * scale
                }
                try mono.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<got])) }
            }
            done += got
        }
        return (reader.sampleRate, frames)
    }
}
