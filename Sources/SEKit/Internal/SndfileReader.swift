import CSndfile
import Foundation

/// An open libsndfile handle for reading (`sf_open` with `SFM_READ`), closed in `deinit` (`sf_close`).
final class SndfileReader {
    let path: String
    let info: SF_INFO
    private let handle: OpaquePointer

    /// Opens `path` for reading; checks existence and size first so the error says why.
    init(path: String) throws(AudioError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .fileNotFound(path: path)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if size == 0 { throw .emptyFile(path: path) }
        var info = SF_INFO()
        guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
            throw .unreadable(path: path, reason: String(cString: sf_strerror(nil)))
        }
        self.handle = handle
        self.info = info
    }

    deinit { sf_close(handle) }

    var frames: Int { Int(info.frames) }
    var sampleRate: Int { Int(info.samplerate) }
    var channels: Int { Int(info.channels) }
    var format: Int32 { info.format }
    /// Name of the container (e.g. "WAV (Microsoft)") and of the sample encoding (e.g. "Signed 16 bit PCM").
    var containerName: String { Self.formatName(info.format & Int32(SF_FORMAT_TYPEMASK)) }
    var encodingName: String { Self.formatName(info.format & Int32(SF_FORMAT_SUBMASK)) }

    /// Reads up to `frames` interleaved frames as Float (`sf_readf_float`); returns the frames read.
    func readFrames(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        Int(sf_readf_float(handle, buffer, sf_count_t(frames)))
    }

    /// libsndfile's name for a major or minor format code (`SFC_GET_FORMAT_INFO`), e.g. "WAV (Microsoft)", "Signed 16 bit PCM".
    static func formatName(_ code: Int32) -> String {
        var formatInfo = SF_FORMAT_INFO()
        formatInfo.format = code
        let status = sf_command(nil, Int32(SFC_GET_FORMAT_INFO), &formatInfo, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
        guard status == 0, let name = formatInfo.name else { return String(format: "0x%04x", code) }
        return String(cString: name)
    }
}
