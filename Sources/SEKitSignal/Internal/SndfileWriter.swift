import CSndfile
import Foundation

/// Writing through libsndfile (`sf_open` with `SFM_WRITE`, `sf_writef_int`, `sf_close`).
enum SndfileWriter {
    /// Writes mono 32-bit integer codes (full-scale int32, libsndfile keeps the top bits).
    static func write(_ codes: [Int32], sampleRate: Int, format: AudioFileFormat, to path: String) throws(AudioError) {
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        switch format {
        case .wavPCM16: info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        case .wavPCM24: info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_24)
        case .wavFloat32: info.format = Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT)
        case .flac16: info.format = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case .flac24: info.format = Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_24)
        }
        guard sf_format_check(&info) != 0 else {
            throw .writeFailed(path: path, reason: "libsndfile does not support \(format.rawValue) at \(sampleRate) Hz")
        }
        guard let handle = sf_open(path, Int32(SFM_WRITE), &info) else {
            throw .writeFailed(path: path, reason: String(cString: sf_strerror(nil)))
        }
        let written = codes.withUnsafeBufferPointer { sf_writef_int(handle, $0.baseAddress, sf_count_t(codes.count)) }
        let reason = written == codes.count ? nil : String(cString: sf_strerror(handle))
        let closed = sf_close(handle)
        if let reason { throw .writeFailed(path: path, reason: reason) }
        if closed != 0 { throw .writeFailed(path: path, reason: "sf_close failed (\(closed))") }
    }
}
