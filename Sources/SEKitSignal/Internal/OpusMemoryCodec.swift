import COpus

/// Encoding and decoding mono float audio with libopus directly, in memory: what libsndfile 1.2.0's
/// Ogg Opus writer and reader do (`src/ogg_opus.c`), without the Ogg pages, and with the encoder
/// complexity as a parameter (libsndfile fixes it at 10).
///
/// Mirrored from libsndfile, so that at complexity 10 the decoded samples are bit-identical to a
/// `SF_FORMAT_OGG | SF_FORMAT_OPUS` round trip (checked on real speech at every Opus rate and
/// bitrates 6-256 kbps, `Tests/SEKitTests/Internal/OpusMemoryCodecTests.swift`):
/// - the encoder is libopus's multistream encoder with one uncoupled stream (channel mapping 0),
///   `OPUS_APPLICATION_AUDIO`, at the coding rate, with libopus's defaults otherwise (constrained
///   VBR), the bitrate set before the first frame and the LSB depth set to 24 before it. (The
///   single-stream `opus_encoder_create` encoder is not equivalent: the multistream encoder's rate
///   allocation raises the bitrate of the short last packet, so the last 2.5-10 ms differ at low
///   bitrates.)
/// - 20 ms frames; the last, partial frame is padded with zeros. Then, as libsndfile's flush does,
///   that same padded frame buffer is encoded again until the encoder's lookahead
///   (`OPUS_GET_LOOKAHEAD`, the Ogg pre-skip) has been pushed out, the last of these packets
///   shortened to the smallest Opus frame (2.5, 5, 10 or 20 ms) that covers what is left.
/// - the decoder runs at the coding rate (as libsndfile's, which decodes at the lowest Opus rate
///   at or above the original rate, the coding rate itself); the first lookahead samples (the
///   pre-skip) are dropped and the output is cut to the input's length (the end granule position).
enum OpusMemoryCodec {
    /// The failure of one encode or decode: what libopus said.
    struct Failure: Error { let message: String }

    /// Sample rates libopus encodes and decodes at, Hz.
    static let rates = [8000, 12000, 16000, 24000, 48000]
    /// libsndfile's encoder complexity (`OPUS_SET_COMPLEXITY(10)`), also opusenc's and ffmpeg's.
    static let defaultComplexity = 10
    /// libsndfile's packet buffer, bytes per stream (from opusenc).
    private static let packetCapacity = 1275 * 3 + 7

    /// `samples` encoded with libopus at `sampleRate` (one of ``rates``), `bitrate` bits per second
    /// and `complexity` (0-10), and decoded again: as many samples as went in, aligned as
    /// libsndfile aligns them (pre-skip removed).
    /// - Throws: ``Failure`` with libopus's message.
    static func roundTrip(_ samples: [Float], sampleRate: Int, bitrate: Int, complexity: Int) throws(Failure) -> [Float] {
        guard rates.contains(sampleRate) else { throw Failure(message: "libopus cannot run at \(sampleRate) Hz") }
        guard (0...10).contains(complexity) else { throw Failure(message: "complexity \(complexity) is not in 0-10") }
        let n = samples.count
        guard n > 0 else { return [] }
        var error: Int32 = 0
        var mapping: [UInt8] = [0]
        guard let encoder = opus_multistream_encoder_create(Int32(sampleRate), 1, 1, 0, &mapping, OPUS_APPLICATION_AUDIO, &error),
                error == OPUS_OK else {
            throw Failure(message: "opus_multistream_encoder_create: \(String(cString: opus_strerror(error)))")
        }
        defer { opus_multistream_encoder_destroy(encoder) }
        guard let decoder = opus_decoder_create(Int32(sampleRate), 1, &error), error == OPUS_OK else {
            throw Failure(message: "opus_decoder_create: \(String(cString: opus_strerror(error)))")
        }
        defer { opus_decoder_destroy(decoder) }
        func check(_ result: Int32, _ what: String) throws(Failure) {
            if result != OPUS_OK { throw Failure(message: "\(what): \(String(cString: opus_strerror(result)))") }
        }
        try check(sekit_opus_ms_set_bitrate(encoder, Int32(bitrate)), "bitrate \(bitrate) bps")
        try check(sekit_opus_ms_set_complexity(encoder, Int32(complexity)), "complexity \(complexity)")
        var lookahead: Int32 = 0
        try check(sekit_opus_ms_get_lookahead(encoder, &lookahead), "lookahead")
        try check(sekit_opus_ms_set_lsb_depth(encoder, 24), "LSB depth")
        let factor = 48000 / sampleRate
        let frame = 20 * sampleRate / 1000
        let delay = Int(lookahead)
        // Full frames encoded before the flush: libsndfile encodes a full buffer when the next
        // sample arrives, so the last frame (full or partial) is left to the flush.
        let leading = (n - 1) / frame
        let tail = n - leading * frame
        var packet = [UInt8](repeating: 0, count: packetCapacity)
        var output = [Float](repeating: 0, count: (leading + 2) * frame + delay + frame)
        var decoded = 0

        func code(_ pcm: UnsafePointer<Float>, _ length: Int) throws(Failure) {
            let bytes = packet.withUnsafeMutableBufferPointer {
                opus_multistream_encode_float(encoder, pcm, Int32(length), $0.baseAddress!, Int32(packetCapacity))
            }
            guard bytes > 0 else { throw Failure(message: "opus_multistream_encode_float: \(String(cString: opus_strerror(bytes)))") }
            if decoded + frame > output.count { output.append(contentsOf: repeatElement(0, count: 2 * frame)) }
            let room = output.count - decoded
            let got = packet.withUnsafeBufferPointer { p in
                output.withUnsafeMutableBufferPointer { o in
                    opus_decode_float(decoder, p.baseAddress, bytes, o.baseAddress! + decoded, Int32(room), 0)
                }
            }
            guard got >= 0 else { throw Failure(message: "opus_decode_float: \(String(cString: opus_strerror(got)))") }
            decoded += Int(got)
        }

        try samples.withUnsafeBufferPointer { (input) throws(Failure) in
            for k in 0..<leading { try code(input.baseAddress! + k * frame, frame) }
        }
        // The flush: the partial last frame padded with zeros, encoded (again) until the pre-skip
        // is out; granule positions count 48 kHz samples.
        var buffer = [Float](repeating: 0, count: frame)
        for i in 0..<tail { buffer[i] = samples[leading * frame + i] }
        var position = leading * frame * factor
        let end = (leading * frame + tail + delay) * factor
        var last = false
        while !last {
            position += frame * factor
            var length = frame
            if position >= end {
                last = true
                let left = frame * factor - (position - end)
                length = left <= 120 ? 120 / factor : left <= 240 ? 240 / factor : left <= 480 ? 480 / factor : frame
            }
            try buffer.withUnsafeBufferPointer { (pcm) throws(Failure) in try code(pcm.baseAddress!, length) }
        }
        guard decoded >= delay + n else { throw Failure(message: "decoded \(decoded - delay) of \(n) samples") }
        return Array(output[delay..<(delay + n)])
    }
}
