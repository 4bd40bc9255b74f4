import Foundation

/// WADA-SNR: a blind estimate of a speech signal's SNR, dB, from the shape of its amplitude
/// distribution alone (no reference). Kim & Stern, "Robust signal-to-noise ratio estimation based
/// on waveform amplitude distribution analysis", Interspeech 2008.
///
/// Clean speech amplitudes are modelled as gamma-distributed (shape 0.4), noise as Gaussian; the
/// statistic G = log E[|z|] − E[log |z|] of their sum z rises with the SNR. The paper tabulates G
/// for SNRs of −20 to 100 dB (``gammaStatistic``); the estimate is the table inverted at the
/// signal's G, linearly between entries, limited to [−20, 100] dB. Conventions of the authors'
/// MATLAB code as distributed with LabROSA's `snreval` (and its Python ports): the signal is first
/// scaled to a peak of 1, amplitudes below 1e-10 count as 1e-10, and the entry used is the last
/// one below G (the table dips once near −17 dB).
public enum WADASNR {
    /// Amplitudes below this count as it (log of zero), after peak normalisation.
    static let amplitudeFloor = 1e-10
    /// The table's first and last SNR, dB (entries 1 dB apart).
    static let lowestSNRDB = -20.0, highestSNRDB = 100.0

    /// G = log E[|z|] − E[log |z|] of gamma (shape 0.4) speech plus Gaussian noise at
    /// −20, −19, ..., 100 dB SNR: Kim & Stern's table, as published with their code.
    static let gammaStatistic: [Double] = [
        0.40974774, 0.40986926, 0.40998566, 0.40969089, 0.40986186, 0.40999006, 0.41027138, 0.41052627, 0.41101024, 0.41143264,
        0.41231718, 0.41337272, 0.41526426, 0.4178192, 0.42077252, 0.42452799, 0.42918886, 0.43510373, 0.44234195, 0.45161485,
        0.46221153, 0.47491647, 0.48883809, 0.50509236, 0.52353709, 0.54372088, 0.56532427, 0.58847532, 0.61346212, 0.63954496,
        0.66750818, 0.69583724, 0.72454762, 0.75414799, 0.78323148, 0.81240985, 0.84219775, 0.87166406, 0.90030504, 0.92880418,
        0.95655449, 0.9835349, 1.01047155, 1.0362095, 1.06136425, 1.08579312, 1.1094819, 1.13277995, 1.15472826, 1.17627308,
        1.19703503, 1.21671694, 1.23535898, 1.25364313, 1.27103891, 1.28718029, 1.30302865, 1.31839527, 1.33294817, 1.34700935,
        1.3605727, 1.37345513, 1.38577122, 1.39733504, 1.40856397, 1.41959619, 1.42983624, 1.43958467, 1.44902176, 1.45804831,
        1.46669568, 1.47486938, 1.48269965, 1.49034339, 1.49748214, 1.50435106, 1.51076426, 1.51698915, 1.5229097, 1.528578,
        1.53389835, 1.5391211, 1.5439065, 1.54858517, 1.55310776, 1.55744391, 1.56164927, 1.56566348, 1.56938671, 1.57307767,
        1.57654764, 1.57980083, 1.58304129, 1.58602496, 1.58880681, 1.59162477, 1.5941969, 1.59693155, 1.599446, 1.60185011,
        1.60408668, 1.60627134, 1.60826199, 1.61004547, 1.61192472, 1.61369656, 1.61534074, 1.61688905, 1.61838916, 1.61985374,
        1.62135878, 1.62268119, 1.62390423, 1.62513143, 1.62632463, 1.6274027, 1.62842767, 1.62945532, 1.6303307, 1.63128026,
        1.63204102,
    ]

    /// The estimated SNR of `signal`, dB, in [−20, 100].
    /// - Throws: ``MetricError/nonFinite(signal:index:)``, ``MetricError/tooShort(metric:samples:reason:)``
    ///   for an empty signal, ``MetricError/undefined(metric:reason:)`` for a silent one (no peak to scale by).
    @_specialize(exported: true, where T == Float)
    @_specialize(exported: true, where T == Double)
    public static func estimate<T: MetricSample>(_ signal: [T]) throws -> Double {
        guard !signal.isEmpty else { throw MetricError.tooShort(metric: "wada_snr", samples: 0, reason: "the signal is empty") }
        if let i = signal.withUnsafeBufferPointer(T.firstNonFinite) { throw MetricError.nonFinite(signal: "processed", index: i) }
        let peak = signal.reduce(0.0) { max($0, abs($1.double)) }
        guard peak > 0 else { throw MetricError.undefined(metric: "wada_snr", reason: "the signal is silent (all zeros)") }
        var sumAmplitude = 0.0, sumLogAmplitude = 0.0
        signal.withUnsafeBufferPointer { samples in
            for sample in samples {
                let amplitude = max(abs(sample.double / peak), amplitudeFloor)
                sumAmplitude += amplitude
                sumLogAmplitude += log(amplitude)
            }
        }
        let count = Double(signal.count)
        let g = log(max(amplitudeFloor, sumAmplitude / count)) - sumLogAmplitude / count
        return snrDB(gammaStatistic: g)
    }

    /// The table inverted at `g`: linear between the last entry below `g` and the next.
    static func snrDB(gammaStatistic g: Double) -> Double {
        let table = gammaStatistic
        guard let i = table.lastIndex(where: { $0 < g }) else { return lowestSNRDB }
        if i == table.count - 1 { return highestSNRDB }
        return lowestSNRDB + Double(i) + (g - table[i]) / (table[i + 1] - table[i])
    }
}
