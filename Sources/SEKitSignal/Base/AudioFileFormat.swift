/// File formats SEKit writes.
public enum AudioFileFormat: String, Sendable, CaseIterable, Codable {
    /// WAV, 16-bit signed PCM (the corpus default).
    case wavPCM16 = "wav-pcm16"
    /// WAV, 24-bit signed PCM.
    case wavPCM24 = "wav-pcm24"
    /// WAV, 32-bit IEEE float.
    case wavFloat32 = "wav-float32"
    /// FLAC, 16-bit.
    case flac16 = "flac-16"
    /// FLAC, 24-bit.
    case flac24 = "flac-24"

    /// Bits per sample of the integer formats (nil for float).
    var integerBits: Int? {
        switch self {
        case .wavPCM16, .flac16: 16
        case .wavPCM24, .flac24: 24
        case .wavFloat32: nil
        }
    }
}
