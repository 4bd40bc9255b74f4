import CSoxr
import Foundation

/// One-shot resampling through libsoxr (`soxr_oneshot`), single-channel float32.
enum SoxrResampler {
    /// Resamples `input` from `inputRate` to `outputRate` with recipe `recipe` (`SOXR_HQ`...).
    /// Output length is `round(count · outputRate / inputRate)`.
    /// - Throws: the message libsoxr returns, as a `String`.
    static func resample(_ input: [Float], inputRate: Double, outputRate: Double, recipe: UInt) throws(SoxrFailure) -> [Float] {
        let outputCount = Int((Double(input.count) * outputRate / inputRate).rounded())
        var quality = soxr_quality_spec(recipe, 0)
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var produced = 0
        var failure: String? = nil
        let output = [Float](unsafeUninitializedCapacity: outputCount) { out, count in
            var done = 0
            let error = input.withUnsafeBufferPointer { inp in
                soxr_oneshot(inputRate, outputRate, 1, inp.baseAddress, input.count, nil,
                             out.baseAddress, outputCount, &done, &io, &quality, nil)
            }
            if let error { failure = String(cString: error) }
            // soxr may deliver a sample or two fewer than the rounded length: pad with zeros.
            for i in done..<outputCount { out[i] = 0 }
            produced = done
            count = outputCount
        }
        if let failure { throw SoxrFailure(message: failure) }
        _ = produced
        return output
    }

    struct SoxrFailure: Error { let message: String }
}

/// libsoxr recipe codes (macros in soxr.h, read through the shim).
let sekit_soxr_hq_value = UInt(sekit_soxr_hq())
let sekit_soxr_vhq_value = UInt(sekit_soxr_vhq())
let sekit_soxr_mq_value = UInt(sekit_soxr_mq())
