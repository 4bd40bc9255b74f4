/// Mono audio in memory: `Float` samples at a sample rate.
///
/// This is the currency between SEKit's subsystems (see DESIGN.md, "Audio in memory").
/// Multichannel files are reduced to mono when read, unless the caller asks for the
/// channels separately, in which case it gets one `AudioBuffer` per channel.
public struct AudioBuffer: Sendable, Equatable {
    /// Samples, nominally in [-1, 1] (full scale).
    public var samples: [Float]
    /// Sample rate in Hz.
    public var sampleRate: Int

    public init(samples: [Float], sampleRate: Int) {
        self.samples = samples
        self.sampleRate = sampleRate
    }

    /// Number of samples (frames).
    public var count: Int { samples.count }

    /// Duration in seconds.
    public var durationSeconds: Double {
        sampleRate > 0 ? Double(samples.count) / Double(sampleRate) : 0
    }
}
