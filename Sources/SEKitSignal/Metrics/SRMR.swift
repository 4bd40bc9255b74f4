import Foundation

/// The speech-to-reverberation modulation energy ratio (Falk, Zheng & Chan, "A non-intrusive quality
/// and intelligibility measure of reverberant and dereverberated speech", IEEE TASLP 18(7), 2010): a
/// non-intrusive measure, higher for drier speech.
///
/// Computed as torchmetrics 1.9's `speech_reverberation_modulation_energy_ratio` computes it in its
/// default form (itself from the SRMR toolbox and SRMRpy): a signal whose peak exceeds 1 is scaled to
/// peak 1; 23 gammatone channels from 125 Hz (``GammatoneFilterbank``, each section clipped to [−1, 1]
/// as torchaudio's `lfilter` does); each channel's Hilbert envelope (an FFT of the length rounded up
/// to a multiple of 16); 8 second-order modulation band-passes (Q = 2, centres 4 to 128 Hz, spaced
/// logarithmically); energies in 256-ms Hamming frames every 64 ms, averaged over the frames that fit
/// whole. The ratio is the energy of the four lowest modulation bands over the energy of bands 5 to
/// k*, where k* is set by the ERB bandwidth of the channel at which the cumulated channel energy,
/// from the lowest channel up, passes 90 %. No per-band normalisation (torchmetrics' `norm=False`),
/// the time-domain filterbank (`fast=False`).
///
/// The envelope energies of all channels come from one pass per modulation band: the frames' summed
/// squared Hamming weights are folded into one weight per sample, so the cost does not grow with the
/// frames' overlap.
public enum SRMR {
    /// Gammatone channels of the acoustic filterbank.
    public static let cochlearChannels = 23
    /// Lowest gammatone centre frequency, Hz.
    public static let lowFrequencyHz = 125.0
    /// Modulation channels.
    public static let modulationChannels = 8
    /// Centre of the lowest modulation channel, Hz.
    public static let lowestModulationHz = 4.0
    /// Centre of the highest modulation channel, Hz.
    public static let highestModulationHz = 128.0
    /// Quality factor of the modulation band-passes.
    static let modulationQ = 2.0
    /// Length and hop of the energy frames, seconds.
    public static let frameSeconds = 0.256, hopSeconds = 0.064

    /// Frame length and hop in samples at `sampleRate` (rounded up, as the reference does).
    public static func frame(sampleRate: Int) -> (length: Int, hop: Int) {
        (Int((frameSeconds * Double(sampleRate)).rounded(.up)), Int((hopSeconds * Double(sampleRate)).rounded(.up)))
    }

    /// The SRMR of `signal` at `sampleRate` Hz.
    /// - Throws: ``MetricError/nonFinite(signal:index:)``; ``MetricError/tooShort(metric:samples:reason:)``
    ///   for a signal shorter than one 256-ms frame; ``MetricError/undefined(metric:reason:)`` for a
    ///   silent signal (no energy to divide).
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func compute<T: MetricSample>(_ signal: [T], sampleRate: Int) throws -> Double {
        if let i = signal.withUnsafeBufferPointer(T.firstNonFinite) { throw MetricError.nonFinite(signal: "processed", index: i) }
        let n = signal.count, (frameLength, hop) = frame(sampleRate: sampleRate)
        guard n >= frameLength else {
            throw MetricError.tooShort(metric: "srmr", samples: n,
                                       reason: "needs at least \(frameLength) samples (one 256-ms frame at \(sampleRate) Hz)")
        }
        let peak = signal.reduce(0.0) { max($0, abs($1.double)) }
        guard peak > 0 else { throw MetricError.undefined(metric: "srmr", reason: "the signal is silent (all zeros)") }
        let scale = peak > 1 ? peak : 1
        let input = signal.map { $0.double / scale }
        let energies = bandEnergies(input, sampleRate: sampleRate, frameLength: frameLength, hop: hop)
        return try ratio(energies, sampleRate: sampleRate)
    }

    /// Mean frame energy per gammatone channel (highest centre first) and modulation band (lowest first),
    /// `energies[channel * modulationChannels + band]`.
    static func bandEnergies(_ input: [Double], sampleRate: Int, frameLength: Int, hop: Int) -> [Double] {
        let n = input.count, frames = 1 + (n - frameLength) / hop
        let filterbank = GammatoneFilterbank(sampleRate: sampleRate, count: cochlearChannels, lowFrequencyHz: lowFrequencyHz)
        let bands = modulationFilters(sampleRate: sampleRate)
        let weights = summedFrameWeights(count: n, frameLength: frameLength, hop: hop, frames: frames)
        var hilbert = HilbertEnvelope(count: n)
        var energies = [Double](repeating: 0, count: cochlearChannels * modulationChannels)
        var filtered = [Double](repeating: 0, count: n), scratch = filtered, envelope = filtered, band = filtered
        input.withUnsafeBufferPointer { x in
            for (c, channel) in filterbank.channels.enumerated() {
                filtered.withUnsafeMutableBufferPointer { y in
                    scratch.withUnsafeMutableBufferPointer { channel.filter(x, into: y, scratch: $0, clampingEachSection: true) }
                }
                hilbert.envelope(of: filtered, into: &envelope)
                for (m, section) in bands.enumerated() {
                    envelope.withUnsafeBufferPointer { e in
                        band.withUnsafeMutableBufferPointer {
                            SecondOrderSection.run(b: section.b, a1: section.a1, a2: section.a2, input: e, output: $0, clamp: false)
                        }
                    }
                    let sum = band.withUnsafeBufferPointer { b in
                        weights.withUnsafeBufferPointer { w in (0..<n).reduce(0.0) { $0 + b[$1] * b[$1] * w[$1] } }
                    }
                    energies[c * modulationChannels + m] = sum / Double(frames)
                }
            }
        }
        return energies
    }

    /// For each sample, the sum of the squared Hamming weights it receives over the frames used
    /// (`frames` frames of `frameLength` every `hop`): Σ over frames of (b·w)² = Σ b²·(Σ w²).
    /// The window is torchmetrics' `hamming_window(L + 1)[:-1]` with torch's periodic default:
    /// 0.54 − 0.46·cos(2πj/(L + 1)).
    static func summedFrameWeights(count: Int, frameLength: Int, hop: Int, frames: Int) -> [Double] {
        let window = (0..<frameLength).map { j -> Double in
            let w = 0.54 - 0.46 * cos(2 * Double.pi * Double(j) / Double(frameLength + 1))
            return w * w
        }
        var weights = [Double](repeating: 0, count: count)
        for k in 0..<frames {
            for j in 0..<frameLength { weights[k * hop + j] += window[j] }
        }
        return weights
    }

    /// One modulation band-pass, `a0` divided out.
    struct ModulationFilter {
        var centreHz: Double
        var lowerCutoffHz: Double
        var b: (Double, Double, Double)
        var a1: Double, a2: Double
    }

    /// The eight modulation band-passes at `sampleRate` (the envelope's rate): bilinear second-order
    /// band-passes of quality ``modulationQ``, centres a geometric series from 4 to 128 Hz.
    static func modulationFilters(sampleRate: Int) -> [ModulationFilter] {
        let fs = Double(sampleRate)
        let spacing = pow(highestModulationHz / lowestModulationHz, 1 / Double(modulationChannels - 1))
        var centre = lowestModulationHz
        var filters: [ModulationFilter] = []
        for k in 0..<modulationChannels {
            if k > 0 { centre *= spacing }
            let w0 = tan(2 * Double.pi * centre / fs / 2)
            let b0 = w0 / modulationQ
            let a0 = 1 + b0 + w0 * w0
            filters.append(ModulationFilter(centreHz: centre, lowerCutoffHz: centre - b0 * fs / (2 * Double.pi),
                                            b: (b0 / a0, 0 / a0, -b0 / a0),
                                            a1: (2 * w0 * w0 - 2) / a0, a2: (1 - b0 + w0 * w0) / a0))
        }
        return filters
    }

    /// The ratio from the band energies: low-modulation energy over the energy of bands 5 to k*.
    static func ratio(_ energies: [Double], sampleRate: Int) throws -> Double {
        let total = energies.reduce(0, +)
        guard total > 0, total.isFinite else { throw MetricError.undefined(metric: "srmr", reason: "no modulation energy") }
        // Channels from the lowest centre frequency up; the first at which the cumulated share passes 90 %.
        let centres = GammatoneFilterbank.centreFrequencies(sampleRate: sampleRate, count: cochlearChannels,
                                                            lowFrequencyHz: lowFrequencyHz)
        var cumulatedPercent = 0.0
        var bandwidthHz: Double?
        for channel in (0..<cochlearChannels).reversed() {
            let channelEnergy = energies[channel * modulationChannels..<(channel + 1) * modulationChannels].reduce(0, +)
            cumulatedPercent += channelEnergy * 100 / total
            if cumulatedPercent > 90 { bandwidthHz = GammatoneFilterbank.erbHz(at: centres[channel]); break }
        }
        let cutoffs = modulationFilters(sampleRate: sampleRate).map(\.lowerCutoffHz)
        guard let bandwidthHz, bandwidthHz >= cutoffs[4] else {
            throw MetricError.undefined(metric: "srmr", reason: "the energy's bandwidth is below the fifth modulation band")
        }
        let kStar = (5..<modulationChannels).first { bandwidthHz < cutoffs[$0] } ?? modulationChannels
        var low = 0.0, high = 0.0
        for channel in 0..<cochlearChannels {
            for band in 0..<4 { low += energies[channel * modulationChannels + band] }
            for band in 4..<kStar { high += energies[channel * modulationChannels + band] }
        }
        return low / high
    }
}

/// The magnitude of the analytic signal of a real signal (its Hilbert envelope), by FFT over the
/// length rounded up to a multiple of 16 (zero-padded), as torchmetrics' SRMR computes it.
struct HilbertEnvelope {
    let count: Int
    let fft: RealFFT<Double>
    private var padded: [Double]
    private var spectrum: [Double]
    private var quadrature: [Double]

    init(count: Int) {
        self.count = count
        let size = (count + 15) / 16 * 16
        fft = RealFFT<Double>.uncachedDouble(size: size)
        padded = [Double](repeating: 0, count: size)
        spectrum = [Double](repeating: 0, count: 2 * fft.binCount)
        quadrature = padded
    }

    /// |x + j·H{x}| for the `count` samples of `signal`, into `envelope`.
    mutating func envelope(of signal: [Double], into envelope: inout [Double]) {
        for i in 0..<count { padded[i] = signal[i] }
        let fft = fft
        padded.withUnsafeBufferPointer { p in spectrum.withUnsafeMutableBufferPointer { fft.forward(p, into: $0) } }
        // H{x}: every positive-frequency bin turned by −90° (re, im) → (im, −re); DC and Nyquist removed.
        let bins = fft.binCount
        spectrum[0] = 0; spectrum[1] = 0
        for k in 1..<(bins - 1) {
            let re = spectrum[2 * k]
            spectrum[2 * k] = spectrum[2 * k + 1]
            spectrum[2 * k + 1] = -re
        }
        spectrum[2 * (bins - 1)] = 0; spectrum[2 * (bins - 1) + 1] = 0
        spectrum.withUnsafeBufferPointer { s in quadrature.withUnsafeMutableBufferPointer { fft.inverse(s, into: $0) } }
        for i in 0..<count { envelope[i] = (signal[i] * signal[i] + quadrature[i] * quadrature[i]).squareRoot() }
    }
}
