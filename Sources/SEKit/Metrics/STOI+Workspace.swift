import Foundation

extension STOI {
    /// One worker's scratch buffers and resampling filters (held by its ``MetricWorkspace``), so
    /// that scoring many clips allocates (and page-faults) them once per worker rather than once
    /// per call. Used by one thread at a time.
    final class Workspace {
        /// Buffers longer than this many samples (52 s at 10 kHz) are not kept in the pool.
        static let pooledCapacity = 1 << 19
        private(set) var capacity = 0
        private(set) var x = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
        private(set) var y = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
        private(set) var xs = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
        private(set) var ys = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
        /// One zero-padded FFT frame and its spectrum (interleaved re/im).
        let frame: UnsafeMutableBufferPointer<Double>
        let spectrum: UnsafeMutableBufferPointer<Double>

        init() {
            // 64-byte aligned, so FFTW runs its SIMD-aligned plan on them.
            func aligned(_ count: Int) -> UnsafeMutableBufferPointer<Double> {
                let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Double>.stride, alignment: 64)
                let buffer = UnsafeMutableBufferPointer(start: raw.bindMemory(to: Double.self, capacity: count), count: count)
                buffer.initialize(repeating: 0)
                return buffer
            }
            frame = aligned(fftSize)
            spectrum = aligned(fftSize + 2)
        }

        deinit {
            for buffer in [x, y, xs, ys, frame, spectrum] { buffer.deallocate() }
        }

        /// Makes `x`, `y`, `xs` and `ys` exactly `count` samples long (growing them if needed).
        func reserve(_ count: Int) {
            if count > capacity {
                for buffer in [x, y, xs, ys] { buffer.deallocate() }
                x = .allocate(capacity: count); y = .allocate(capacity: count)
                xs = .allocate(capacity: count); ys = .allocate(capacity: count)
                capacity = count
            }
            x = UnsafeMutableBufferPointer(start: x.baseAddress, count: count)
            y = UnsafeMutableBufferPointer(start: y.baseAddress, count: count)
            xs = UnsafeMutableBufferPointer(start: xs.baseAddress, count: count)
            ys = UnsafeMutableBufferPointer(start: ys.baseAddress, count: count)
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
}
