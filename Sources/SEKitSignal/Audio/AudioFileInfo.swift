import Foundation

/// What a file's header says, without decoding its samples.
public struct AudioFileInfo: Sendable, Equatable, Codable {
    /// The file's path as given.
    public var path: String
    /// Container format, e.g. "WAV (Microsoft)", "FLAC (Free Lossless Audio Codec)".
    public var format: String
    /// Sample encoding, e.g. "Signed 16 bit PCM", "32 bit float".
    public var encoding: String
    /// Sample rate in Hz.
    public var sampleRate: Int
    /// Channel count.
    public var channels: Int
    /// Frames (samples per channel).
    public var frames: Int

    /// Duration in seconds.
    public var durationSeconds: Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}

/// Reading audio files through libsndfile.
public enum AudioFile {
    /// Reads the header of the file at `url` (`sf_open`, `sf_command(SFC_GET_FORMAT_INFO)`).
    /// - Throws: ``AudioError`` naming the file: missing, empty, unreadable/corrupt/unsupported.
    public static func info(at url: URL) throws(AudioError) -> AudioFileInfo { try info(AudioLocation(url)) }

    /// ``info(at:)`` of a location (a file, or a member of an archive); `path` is its name.
    public static func info(_ location: AudioLocation) throws(AudioError) -> AudioFileInfo {
        let reader = try SndfileReader(location: location)
        return AudioFileInfo(
            path: location.name,
            format: reader.containerName,
            encoding: reader.encodingName,
            sampleRate: reader.sampleRate,
            channels: reader.channels,
            frames: reader.frames
        )
    }
}
