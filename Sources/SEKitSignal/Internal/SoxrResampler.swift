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

/// A streaming libsoxr resampler (`soxr_create`, `soxr_process`, `soxr_delete`), mono float32:
/// feed blocks, then `finish()` flushes. Lets long files be resampled while they are read,
/// without holding the input.
final class SoxrStream {
    private let handle: soxr_t
    let ratio: Double
    private(set) var output: [Float] = []
    private var scratch: [Float]

    init(inputRate: Double, outputRate: Double, recipe: UInt, expectedOutput: Int) throws(SoxrResampler.SoxrFailure) {
        var quality = soxr_quality_spec(recipe, 0)
        var io = soxr_io_spec(SOXR_FLOAT32_I, SOXR_FLOAT32_I)
        var error: soxr_error_t? = nil
        guard let h = soxr_create(inputRate, outputRate, 1, &error, &io, &quality, nil), error == nil else {
            throw SoxrResampler.SoxrFailure(message: error.map { String(cString: $0) } ?? "soxr_create failed")
        }
        handle = h
        ratio = outputRate / inputRate
        output.reserveCapacity(expectedOutput + 64)
        scratch = [Float](repeating: 0, count: 1 << 16)
    }

    deinit { soxr_delete(handle) }

    /// Resamples one block (nil input flushes the filter's tail).
    func process(_ block: UnsafeBufferPointer<Float>?) throws(SoxrResampler.SoxrFailure) {
        var consumed = 0
        let inputCount = block?.count ?? 0
        repeat {
            var done = 0
            var used = 0
            let error: soxr_error_t? = scratch.withUnsafeMutableBufferPointer { out in
                if let block {
                    return soxr_process(handle, block.baseAddress! + consumed, inputCount - consumed, &used, out.baseAddress, out.count,
                                        &done)
                }
                return soxr_process(handle, nil, 0, nil, out.baseAddress, out.count, &done)
            }
            if let error { throw SoxrResampler.SoxrFailure(message: String(cString: error)) }
            output.append(contentsOf: scratch[0..<done])
            consumed += used
            if block == nil && done == 0 { break }
            if block != nil && consumed >= inputCount && done < scratch.count { break }
        } while true
    }
}
