import CSndfile
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An open libsndfile handle for reading (`sf_open` with `SFM_READ`), closed in `deinit` (`sf_close`).
final class SndfileReader {
    let path: String
    let info: SF_INFO
    private let handle: OpaquePointer
    /// The byte range read through virtual I/O, kept alive as long as the handle.
    private let region: FileRegionIO?

    /// Opens a location: a whole file (``init(path:)``) or a byte range of one (virtual I/O over
    /// the range, so a member of an archive is read in place and never past its end).
    convenience init(location: AudioLocation) throws(AudioError) {
        guard let bytes = location.bytes else { try self.init(path: location.path); return }
        if bytes.isEmpty { throw .emptyFile(path: location.name) }
        let region = try FileRegionIO(path: location.path, bytes: bytes, name: location.name)
        var info = SF_INFO()
        var io = FileRegionIO.callbacks
        let user = Unmanaged.passUnretained(region).toOpaque()
        let opened = withExtendedLifetime(region) { sf_open_virtual(&io, Int32(SFM_READ), &info, user) }
        guard let handle = opened else {
            throw .unreadable(path: location.name, reason: String(cString: sf_strerror(nil)))
        }
        self.init(name: location.name, handle: handle, info: info, region: region)
    }

    private init(name: String, handle: OpaquePointer, info: SF_INFO, region: FileRegionIO?) {
        self.path = name; self.handle = handle; self.info = info; self.region = region
    }

    /// Opens `path` for reading; checks existence and size first so the error says why.
    init(path: String) throws(AudioError) {
        self.path = path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            if (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
                throw .unreadable(path: path, reason: "dangling or looping symbolic link")
            }
            throw .fileNotFound(path: path)
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if size == 0 { throw .emptyFile(path: path) }
        var info = SF_INFO()
        let container = Self.knownContainer(path)
        // A file with no container header is handed by libsndfile to its MPEG decoder, which
        // prints "Note: Illegal Audio-MPEG-Header ..." on stderr: keep that chatter out of ours.
        let opened = container ? sf_open(path, Int32(SFM_READ), &info)
                               : Self.withStandardErrorSilenced { sf_open(path, Int32(SFM_READ), &info) }
        guard let handle = opened else {
            let detail = String(cString: sf_strerror(nil))
            throw .unreadable(path: path, reason: container ? detail : "not a recognised audio file (libsndfile: \(detail))")
        }
        self.handle = handle
        self.info = info
        self.region = nil
    }

    /// Whether the file starts like a container libsndfile reads by its header (RIFF/RF64 WAV,
    /// FLAC, Ogg, AIFF, CAF, AU, W64), rather than raw MPEG frames or something else.
    static func knownContainer(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
        guard head.count == 4, let magic = String(bytes: head, encoding: .isoLatin1) else { return false }
        return ["RIFF", "RIFX", "RF64", "fLaC", "OggS", "FORM", "caff", ".snd", "riff"].contains(magic)
    }

    private static let standardErrorLock = NSLock()

    /// Runs `body` with file descriptor 2 pointed at /dev/null (serialised: the descriptor is
    /// process-wide), then restores it. (The C decoders write to stderr unbuffered.)
    static func withStandardErrorSilenced<T>(_ body: () -> T) -> T {
        standardErrorLock.lock()
        defer { standardErrorLock.unlock() }
        let saved = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY)
        guard saved >= 0, null >= 0 else {
            if saved >= 0 { close(saved) }
            if null >= 0 { close(null) }
            return body()
        }
        dup2(null, STDERR_FILENO)
        close(null)
        defer {
            dup2(saved, STDERR_FILENO)
            close(saved)
        }
        return body()
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
