import Foundation

extension STOI {
    /// What STOI needs of the reference alone: its length at 10 kHz, which of its frames are kept
    /// (within 40 dB of the loudest), and its band envelopes after silence removal.
    package struct ReferenceAnalysis: Sendable {
        /// Length of the reference at 10 kHz.
        package let count10k: Int
        /// Start frames (hop 128 at 10 kHz) kept by silence removal, in order.
        package let kept: [Int]
        /// Band envelopes of the reference, `lanes` values per STFT frame.
        package let bands: [Double]
    }

    /// Resamples the reference to 10 kHz a window at a time, finds its kept frames (pystoi's
    /// `remove_silent_frames`: frames at 0, 128, ... while start < n − 256, kept when within 40 dB
    /// of the loudest), and computes its band envelopes (``keptFrameBands(_:kept:held:workspace:)``).
    /// A reference whose frames fit in one window is resampled once; a longer one is resampled
    /// again for its kept frames, as the frame energies must all be known first.
    static func referenceAnalysis<T: MetricSample>(_ x: UnsafeBufferPointer<T>, sampleRate fs: Int,
                                                           workspace ws: Workspace) -> ReferenceAnalysis {
        let signal = TenKilohertzSignal(samples: x, bank: ws.bank(forRate: fs))
        let n = signal.count, hop = frameLength / 2
        let frameCount = n > frameLength ? (n - frameLength - 1) / hop + 1 : 0
        let framesPerWindow = (ws.windowCapacity - frameLength) / hop + 1
        var held = 0..<0
        let energies = frameWindow.withUnsafeBufferPointer { w in
            [Double](unsafeUninitializedCapacity: frameCount) { energies, count in
                var first = 0
                while first < frameCount {
                    let end = min(frameCount, first + framesPerWindow)
                    held = (first * hop)..<((end - 1) * hop + frameLength)
                    signal.compute(held, into: ws.window.baseAddress!, workspace: ws)
                    for f in first..<end {
                        let e = windowedEnergy(ws.window.baseAddress! + (f * hop - held.lowerBound), window: w.baseAddress!)
                        energies[f] = 20 * log10(e.squareRoot() + eps)
                    }
                    first = end
                }
                count = frameCount
            }
        }
        guard let loudest = energies.max() else { return ReferenceAnalysis(count10k: n, kept: [], bands: []) }
        let kept = (0..<frameCount).filter { loudest - dynamicRangeDB - energies[$0] < 0 }
        return ReferenceAnalysis(count10k: n, kept: kept, bands: keptFrameBands(signal, kept: kept, held: held, workspace: ws))
    }

    /// Band envelopes of the processed signal over the reference's kept frames (resampling only
    /// the samples inside them).
    static func processedBands<T: MetricSample>(_ y: UnsafeBufferPointer<T>, reference: ReferenceAnalysis, sampleRate fs: Int,
                                                workspace ws: Workspace) -> [Double] {
        guard !reference.kept.isEmpty else { return [] }
        return keptFrameBands(TenKilohertzSignal(samples: y, bank: ws.bank(forRate: fs)), kept: reference.kept, held: 0..<0, workspace: ws)
    }

    /// Band envelopes (`lanes` values per STFT frame) of the overlap-add of the kept windowed
    /// frames (hop 128) of `signal`: pystoi's `remove_silent_frames` output, then its `stft`
    /// (256-sample Hann frames, hop 128, zero-padded to 512, frames while start < length − 256)
    /// and the one-third octave bands (eq. 1 of Taal 2011), sqrt(Σ |X(k)|² over each band's bins).
    ///
    /// Streams: the overlap-added signal is made 128 samples at a time, each half frame summed in
    /// the order the whole-signal overlap-add sums it (0, then the earlier frame's half, then the
    /// later one's), and each STFT frame is taken as soon as its two halves are done. The kept
    /// frames' samples come from ``Workspace/window``, which holds samples `held` of `signal` on
    /// entry and is refilled with the next run of overlapping kept frames when a frame is outside it.
    static func keptFrameBands<T: MetricSample>(_ signal: TenKilohertzSignal<T>, kept: [Int], held: Range<Int>,
                                                workspace ws: Workspace) -> [Double] {
        let hop = frameLength / 2, capacity = ws.windowCapacity
        let frameCount = kept.count >= 2 ? kept.count - 1 : 0  // frames of the overlap-added signal
        guard frameCount > 0 else { return [] }
        let fft = RealFFT.double(size: fftSize)
        let bands = bandBins
        let window = ws.window.baseAddress!, frame = ws.frame, spectrum = ws.spectrum
        let pending = ws.halves.baseAddress!, halfA = pending + hop, halfB = pending + 2 * hop
        var held = held
        return frameWindow.withUnsafeBufferPointer { w in [Double](unsafeUninitializedCapacity: frameCount * lanes) { out, count in
            for (k, f) in kept.enumerated() {
                let start = f * hop
                if start < held.lowerBound || start + frameLength > held.upperBound {
                    var last = k
                    while last + 1 < kept.count, kept[last + 1] * hop <= kept[last] * hop + frameLength,
                          kept[last + 1] * hop + frameLength - start <= capacity { last += 1 }
                    held = start..<(kept[last] * hop + frameLength)
                    signal.compute(held, into: window, workspace: ws)
                }
                let x = window + (start - held.lowerBound)
                let (previous, current) = k % 2 == 0 ? (halfB, halfA) : (halfA, halfB)
                for i in 0..<hop {
                    var v = 0.0
                    if k > 0 { v += pending[i] }
                    v += w[i] * x[i]
                    current[i] = v
                }
                for i in 0..<hop { pending[i] = w[hop + i] * x[hop + i] }
                guard k > 0 else { continue }
                // STFT frame k − 1: halves k − 1 and k, windowed, zero-padded to 512.
                for i in 0..<hop { frame[i] = w[i] * previous[i]; frame[hop + i] = w[hop + i] * current[i] }
                fft.forward(UnsafeBufferPointer(frame), into: spectrum)
                let row = (k - 1) * lanes
                for (b, (low, high)) in bands.enumerated() {
                    var e = 0.0  // Σ |X(k)|² over the band's bins (only those bins are squared)
                    for bin in low..<high { e += spectrum[2 * bin] * spectrum[2 * bin] + spectrum[2 * bin + 1] * spectrum[2 * bin + 1] }
                    out[row + b] = e.squareRoot()
                }
                for b in bandCount..<lanes { out[row + b] = 0 }
            }
            count = frameCount * lanes
        } }
    }

    /// Σ (w[i]·x[i])², i < 256, with eight running sums.
    @inline(__always)
    static func windowedEnergy(_ x: UnsafePointer<Double>, window w: UnsafePointer<Double>) -> Double {
        var s0 = SIMD4<Double>(), s1 = SIMD4<Double>()
        let rx = UnsafeRawPointer(x), rw = UnsafeRawPointer(w)
        for i in stride(from: 0, to: frameLength, by: 8) {
            let o = i * MemoryLayout<Double>.stride
            let v0 = rw.loadUnaligned(fromByteOffset: o, as: SIMD4<Double>.self) * rx.loadUnaligned(fromByteOffset: o,
                                                                                                    as: SIMD4<Double>.self)
            let v1 = rw.loadUnaligned(fromByteOffset: o + 32, as: SIMD4<Double>.self) * rx.loadUnaligned(fromByteOffset: o + 32,
                                                                                                         as: SIMD4<Double>.self)
            s0 += v0 * v0; s1 += v1 * v1
        }
        return (s0 + s1).sum()
    }
}
