import Foundation

extension STOI {
    /// One worker's scratch buffers and resampling filters (held by its ``MetricWorkspace``), so
    /// that scoring many clips allocates (and page-faults) them once per worker rather than once
    /// per call. Their sizes do not depend on the signals' length: a signal is analysed a window
    /// of its 10 kHz samples at a time. Used by one thread at a time.
    package final class Workspace {
        /// Samples at 10 kHz held at once (default 2¹⁹, 52 s): a reference of up to this length is
        /// resampled once; a longer one twice (for its frame energies, then for its kept frames).
        let windowCapacity: Int
        /// Outputs resampled per call of the filter bank (default 2¹⁶; bounds the Double copy of the input).
        let resamplingPiece: Int

        /// A window of a signal at 10 kHz (``windowCapacity`` samples; pages are touched only as used).
        let window: UnsafeMutableBufferPointer<Double>
        /// One zero-padded FFT frame and its spectrum (interleaved re/im).
        let frame: UnsafeMutableBufferPointer<Double>
        let spectrum: UnsafeMutableBufferPointer<Double>
        /// Two 128-sample halves of the overlap-added signal (the frame being finished and the one
        /// before) and the pending second half of the last kept frame.
        let halves: UnsafeMutableBufferPointer<Double>
        /// Input samples as Double, for the filter bank.
        private(set) var input = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)

        /// - Parameters: windowCapacity (≥ 256) and resamplingPiece (≥ 1): small values only to test
        ///   that the windows do not change any value.
        package init(windowCapacity: Int = 1 << 19, resamplingPiece: Int = 1 << 16) {
            precondition(windowCapacity >= frameLength && resamplingPiece >= 1, "STOI.Workspace: sizes")
            self.windowCapacity = windowCapacity
            self.resamplingPiece = resamplingPiece
            // 64-byte aligned, so FFTW runs its SIMD-aligned plan on them.
            func aligned(_ count: Int) -> UnsafeMutableBufferPointer<Double> {
                let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Double>.stride, alignment: 64)
                let buffer = UnsafeMutableBufferPointer(start: raw.bindMemory(to: Double.self, capacity: count), count: count)
                buffer.initialize(repeating: 0)
                return buffer
            }
            frame = aligned(fftSize)
            spectrum = aligned(fftSize + 2)
            halves = aligned(3 * frameLength / 2)
            window = .allocate(capacity: windowCapacity)
        }

        deinit {
            for buffer in [window, input, frame, spectrum, halves] { buffer.deallocate() }
        }

        /// ``input`` with room for at least `count` samples.
        func input(capacity count: Int) -> UnsafeMutablePointer<Double> {
            if count > input.count {
                input.deallocate()
                input = .allocate(capacity: count)
            }
            return input.baseAddress!
        }

        /// The 10 kHz resampling filter for each input rate seen (nil for 10 kHz itself).
        private var banks: [Int: OctaveResampler.Bank] = [:]

        /// The resampler from `fs` Hz to STOI's 10 kHz (nil when `fs` is 10 kHz), made once per rate.
        func bank(forRate fs: Int) -> OctaveResampler.Bank? {
            guard fs != sampleRate else { return nil }
            if let bank = banks[fs] { return bank }
            let g = OctaveResampler.gcd(sampleRate, fs)
            let bank = OctaveResampler.Bank(up: sampleRate / g, down: fs / g)
            banks[fs] = bank
            return bank
        }
    }

    /// A signal as STOI sees it, at 10 kHz (pystoi's `resample_oct`), computed a range of samples
    /// at a time from the signal at its own rate.
    struct TenKilohertzSignal<Sample: MetricSample> {
        let samples: UnsafeBufferPointer<Sample>
        /// The filter bank to 10 kHz, nil when the signal is at 10 kHz.
        let bank: OctaveResampler.Bank?

        /// Length at 10 kHz.
        var count: Int { bank?.outputCount(inputCount: samples.count) ?? samples.count }

        /// Samples `range` at 10 kHz into `out` (`out[0]` is sample `range.lowerBound`), equal to
        /// the same samples of the whole signal resampled at once.
        func compute(_ range: Range<Int>, into out: UnsafeMutablePointer<Double>, workspace ws: Workspace) {
            guard let bank else {
                for i in range { out[i - range.lowerBound] = samples[i].double }
                return
            }
            var start = range.lowerBound
            while start < range.upperBound {
                let piece = start..<min(range.upperBound, start + ws.resamplingPiece)
                let inputs = bank.inputRange(outputs: piece, inputCount: samples.count)
                let input = ws.input(capacity: inputs.count)
                for j in inputs { input[j - inputs.lowerBound] = samples[j].double }
                bank.apply(input: input, inputStart: inputs.lowerBound, inputCount: samples.count, outputs: piece,
                           into: out + (start - range.lowerBound), outputStart: start)
                start = piece.upperBound
            }
        }
    }
}
