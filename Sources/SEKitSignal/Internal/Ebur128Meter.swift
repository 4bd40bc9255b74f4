import CEbur128
import Foundation

/// EBU R128 / ITU-R BS.1770 integrated loudness through libebur128
/// (`ebur128_init`, `ebur128_add_frames_double`, `ebur128_loudness_global`, `ebur128_destroy`).
enum Ebur128Meter {
    /// Integrated loudness of a mono signal in LUFS. The single channel has libebur128's default
    /// role (left, weight 1.0), as BS.1770 weighs one channel. Returns -inf for a signal that is
    /// silent by the gating rules.
    static func integratedLoudness(_ samples: UnsafeBufferPointer<Double>, sampleRate: Int) throws(AudioError) -> Double {
        let session = try Session(sampleRate: sampleRate)
        try session.add(samples)
        return try session.loudness()
    }

    /// A measurement fed block by block (a long file in constant memory).
    final class Session {
        private let state: UnsafeMutablePointer<ebur128_state>
        private var frames = 0

        init(sampleRate: Int) throws(AudioError) {
            guard let state = ebur128_init(1, UInt(max(0, sampleRate)), Int32(EBUR128_MODE_I.rawValue)) else {
                throw .invalidParameter(name: "sampleRate", value: "\(sampleRate)", reason: "libebur128 cannot measure at this rate")
            }
            self.state = state
        }

        deinit { var s: UnsafeMutablePointer<ebur128_state>? = state; ebur128_destroy(&s) }

        /// Frames per `ebur128_add_frames_double` call.
        static let blockFrames = 65536

        /// Adds samples, in blocks of ``blockFrames`` so libebur128's internal buffers stay small.
        func add(_ samples: UnsafeBufferPointer<Double>) throws(AudioError) {
            let block = Self.blockFrames
            var start = 0
            while start < samples.count {
                let n = min(block, samples.count - start)
                let status = ebur128_add_frames_double(state, samples.baseAddress! + start, n)
                guard status == Int32(EBUR128_SUCCESS.rawValue) else {
                    throw .invalidParameter(name: "samples", value: "\(frames + start)", reason: "libebur128 add_frames failed (\(status))")
                }
                start += n
            }
            frames += samples.count
        }

        /// Integrated loudness of everything added, LUFS (-inf when silent by the gating rules).
        func loudness() throws(AudioError) -> Double {
            var loudness = 0.0
            let status = ebur128_loudness_global(state, &loudness)
            guard status == Int32(EBUR128_SUCCESS.rawValue) else {
                throw .invalidParameter(name: "samples", value: "\(frames)", reason: "libebur128 loudness_global failed (\(status))")
            }
            return loudness
        }
    }
}
