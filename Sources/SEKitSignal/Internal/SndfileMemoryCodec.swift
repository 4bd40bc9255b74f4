import CSndfile
import Foundation

/// Encoding and decoding mono float audio in memory through libsndfile's virtual I/O
/// (`sf_open_virtual`, `sf_writef_float`, `sf_readf_float`, `sf_close`): the compressed bytes
/// never touch the file system.
///
/// The virtual file is seekable, so libsndfile behaves as it does with a real file: LAME writes its
/// Info tag (encoder delay and padding, read back by mpg123 for gapless decoding) and Ogg Opus
/// headers carry the pre-skip, which libsndfile removes on decoding.
enum SndfileMemoryCodec {
    /// A container and codec libsndfile writes.
    struct Format {
        /// `SF_FORMAT_*` major and subtype, or-ed.
        var code: Int32
        /// `SFC_SET_BITRATE_MODE` argument (MP3: `SF_BITRATE_MODE_CONSTANT`), when set.
        var bitrateMode: Int32?
        /// `SFC_SET_COMPRESSION_LEVEL` argument, 0 (best) to 1 (smallest), when set.
        var compressionLevel: Double?
        /// `SFC_SET_VBR_ENCODING_QUALITY` argument, 0 to 1 (best), when set.
        var vbrQuality: Double?

        /// MP3 (MPEG Layer III) at a constant bitrate set by `SFC_SET_COMPRESSION_LEVEL`.
        static func mp3(constantBitrateLevel level: Double) -> Format {
            Format(code: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III), bitrateMode: Int32(SF_BITRATE_MODE_CONSTANT),
                   compressionLevel: level)
        }
        /// Ogg Opus; `SFC_SET_COMPRESSION_LEVEL` sets the bitrate.
        static func opus(compressionLevel level: Double) -> Format {
            Format(code: Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS), compressionLevel: level)
        }
        /// Ogg Vorbis at a VBR quality.
        static func vorbis(quality: Double) -> Format { Format(code: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS), vbrQuality: quality) }
        /// G.711 μ-law in WAV.
        static let ulaw = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_ULAW))
        /// G.711 A-law in WAV.
        static let alaw = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_ALAW))
        /// GSM 06.10 in WAV.
        static let gsm = Format(code: Int32(SF_FORMAT_WAV | SF_FORMAT_GSM610))
    }

    /// The failure of one encode or decode: what libsndfile said.
    struct Failure: Error { let message: String }

    /// `samples` encoded as `format` at `sampleRate` and decoded again, every decoded sample (a codec
    /// may return more than went in: padding, or a delay the decoder did not remove).
    /// - Throws: ``Failure`` with libsndfile's message.
    static func roundTrip(_ samples: [Float], sampleRate: Int, format: Format) throws(Failure) -> [Float] {
        let bytes = try encode(samples, sampleRate: sampleRate, format: format)
        return try decode(bytes, maximumFrames: samples.count + 65536)
    }

    /// The encoded bytes of `samples` (mono) as `format` at `sampleRate`.
    static func encode(_ samples: [Float], sampleRate: Int, format: Format) throws(Failure) -> [UInt8] {
        let file = MemoryFile()
        var info = SF_INFO()
        info.samplerate = Int32(sampleRate)
        info.channels = 1
        info.format = format.code
        guard sf_format_check(&info) != 0 else { throw Failure(message: "libsndfile cannot write this format at \(sampleRate) Hz") }
        var io = MemoryFile.callbacks
        let user = Unmanaged.passUnretained(file).toOpaque()
        let opened: OpaquePointer? = withExtendedLifetime(file) { sf_open_virtual(&io, Int32(SFM_WRITE), &info, user) }
        guard let handle = opened else { throw Failure(message: String(cString: sf_strerror(nil))) }
        // Settings go in before the first write; a refused one is an error, not a silent default.
        if var mode = format.bitrateMode {
            _ = sf_command(handle, Int32(SFC_SET_BITRATE_MODE), &mode, Int32(MemoryLayout<Int32>.size))
        }
        if var level = format.compressionLevel, sf_command(handle, Int32(SFC_SET_COMPRESSION_LEVEL), &level,
                                                           Int32(MemoryLayout<Double>.size)) != Int32(SF_TRUE) {
            let message = String(cString: sf_strerror(handle))
            sf_close(handle)
            throw Failure(message: "compression level \(level) refused: \(message)")
        }
        if var quality = format.vbrQuality, sf_command(handle, Int32(SFC_SET_VBR_ENCODING_QUALITY), &quality,
                                                       Int32(MemoryLayout<Double>.size)) != Int32(SF_TRUE) {
            let message = String(cString: sf_strerror(handle))
            sf_close(handle)
            throw Failure(message: "quality \(quality) refused: \(message)")
        }
        let written = withExtendedLifetime(file) { samples.withUnsafeBufferPointer { sf_writef_float(handle, $0.baseAddress,
                                                                                                     sf_count_t($0.count)) } }
        let message = written == samples.count ? nil : String(cString: sf_strerror(handle))
        let closed = withExtendedLifetime(file) { sf_close(handle) }
        if let message { throw Failure(message: "wrote \(written) of \(samples.count) samples: \(message)") }
        if closed != 0 { throw Failure(message: "sf_close failed (\(closed))") }
        return file.bytes
    }

    /// The mono samples of the encoded `bytes` (at most `maximumFrames`).
    static func decode(_ bytes: [UInt8], maximumFrames: Int) throws(Failure) -> [Float] {
        let file = MemoryFile(bytes: bytes)
        var info = SF_INFO()
        var io = MemoryFile.callbacks
        let user = Unmanaged.passUnretained(file).toOpaque()
        let opened: OpaquePointer? = withExtendedLifetime(file) { sf_open_virtual(&io, Int32(SFM_READ), &info, user) }
        guard let handle = opened else { throw Failure(message: "cannot decode: \(String(cString: sf_strerror(nil)))") }
        defer { sf_close(handle) }
        guard info.channels == 1 else { throw Failure(message: "decoded \(info.channels) channels, expected 1") }
        var output = [Float](repeating: 0, count: maximumFrames)
        let read = withExtendedLifetime(file) { output.withUnsafeMutableBufferPointer { sf_readf_float(handle, $0.baseAddress,
                                                                                                       sf_count_t($0.count)) } }
        output.removeLast(maximumFrames - Int(read))
        return output
    }
}

/// A growable in-memory file behind libsndfile's `SF_VIRTUAL_IO` callbacks (read, write, seek,
/// tell, length). Used by one handle on one thread at a time.
private final class MemoryFile {
    var bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8] = []) {
        self.bytes = bytes
        if bytes.isEmpty { self.bytes.reserveCapacity(1 << 16) }
    }

    static func from(_ user: UnsafeMutableRawPointer?) -> MemoryFile {
        Unmanaged<MemoryFile>.fromOpaque(user!).takeUnretainedValue()
    }

    /// The callbacks; each finds its `MemoryFile` through the user-data pointer.
    static var callbacks: SF_VIRTUAL_IO {
        SF_VIRTUAL_IO(
            get_filelen: { user in sf_count_t(MemoryFile.from(user).bytes.count) },
            seek: { offset, whence, user in
                let file = MemoryFile.from(user)
                let target = FileRegionIO.seekTarget(offset, whence, position: file.position, length: file.bytes.count)
                guard let target else { return -1 }
                file.position = target
                return sf_count_t(target)
            },
            read: { pointer, count, user in
                let file = MemoryFile.from(user)
                let available = max(0, min(Int(count), file.bytes.count - file.position))
                if available > 0, let pointer {
                    file.bytes.withUnsafeBytes { source in
                        pointer.copyMemory(from: source.baseAddress! + file.position, byteCount: available)
                    }
                }
                file.position += available
                return sf_count_t(available)
            },
            write: { pointer, count, user in
                let file = MemoryFile.from(user)
                let count = Int(count)
                guard count > 0, let pointer else { return 0 }
                let end = file.position + count
                if end > file.bytes.count { file.bytes.append(contentsOf: repeatElement(0, count: end - file.bytes.count)) }
                file.bytes.withUnsafeMutableBytes { target in
                    (target.baseAddress! + file.position).copyMemory(from: pointer, byteCount: count)
                }
                file.position = end
                return sf_count_t(count)
            },
            tell: { user in sf_count_t(MemoryFile.from(user).position) })
    }
}
