import Foundation

/// What one panel shows of one signal, reduced to the figure's pixel grid: the spectrogram's
/// level per pixel (dB re full scale), or the RMS level per pixel column (dBFS).
enum SignalPicture {
    /// The level given to silence (no power at all), dB: below anything a signal measures.
    static let silenceDB = -200.0

    /// The STFT used for spectrograms: a Hann window of about 32 ms (a power of two), hop a quarter
    /// of it, centred frames (SEKit's `STFT`, as features and synthesis use it).
    static func configuration(sampleRate: Int) -> STFTConfiguration {
        var n = 16
        while Double(n * 2) <= 0.032 * Double(sampleRate) * 1.5 { n *= 2 }
        return STFTConfiguration(fftSize: n, hopLength: n / 4, window: .hann, center: true)
    }

    /// Spectrogram levels on a `columns × rows` grid, row 0 at the top (the highest frequency):
    /// each cell is the mean power of the STFT frames in its time span and the bins in its
    /// frequency span (the nearest frame or bin when there are fewer than pixels), in dB re a
    /// full-scale sine (0 dB = a sine of amplitude 1). Frames are computed column by column, so a
    /// long file needs one column's frames in memory, not its whole STFT.
    static func spectrogramDB(_ samples: [Float], sampleRate: Int, columns: Int, rows: Int) -> [Double] {
        let c = configuration(sampleRate: sampleRate)
        let frames = c.frameCount(samples: samples.count), bins = c.binCount
        let window = c.paddedWindow()
        let fullScale = Double(window.reduce(0, +)) / 2
        let reference = fullScale * fullScale
        var grid = [Double](repeating: silenceDB, count: columns * rows)
        var scratch: [Float] = []
        var block = [Float]()
        var binPower = [Double](repeating: 0, count: bins)
        samples.withUnsafeBufferPointer { signal in
            for column in 0..<columns {
                let first = min(frames - 1, column * frames / columns)
                let end = max(first + 1, min(frames, (column + 1) * frames / columns))
                let count = end - first
                if block.count < count * bins { block = [Float](repeating: 0, count: count * bins) }
                block.withUnsafeMutableBufferPointer { out in
                    STFT.magnitudes(signal, configuration: c, firstFrame: first, frameCount: count, window: window, scratch: &scratch,
                                    into: out)
                }
                for k in 0..<bins { binPower[k] = 0 }
                for f in 0..<count { for k in 0..<bins { let m = Double(block[f * bins + k]); binPower[k] += m * m } }
                for row in 0..<rows {
                    let fromBottom = rows - 1 - row
                    let low = min(bins - 1, fromBottom * bins / rows)
                    let high = max(low + 1, min(bins, (fromBottom + 1) * bins / rows))
                    var sum = 0.0
                    for k in low..<high { sum += binPower[k] }
                    let power = sum / Double((high - low) * count)
                    grid[row * columns + column] = power > 0 ? 10 * log10(power / reference) : silenceDB
                }
            }
        }
        return grid
    }

    /// Shortest span an RMS level is taken over, s (a pixel column of a short clip is a few
    /// milliseconds, too short for a level a reader can follow).
    static let minimumLevelSeconds = 0.02

    /// RMS level per pixel column, dBFS (20·log10 of the RMS re a full-scale amplitude of 1; a
    /// full-scale sine is −3 dBFS; −200 for silence): over the column's span of the signal, or,
    /// when that is shorter than ``minimumLevelSeconds``, over that much centred on it.
    static func levelsDBFS(_ samples: [Float], sampleRate: Int, columns: Int) -> [Double] {
        let minimum = Int(minimumLevelSeconds * Double(sampleRate))
        return (0..<columns).map { column in
            var first = min(samples.count - 1, column * samples.count / columns)
            var end = max(first + 1, min(samples.count, (column + 1) * samples.count / columns))
            if end - first < minimum {
                let centre = (first + end) / 2
                first = max(0, centre - minimum / 2)
                end = min(samples.count, first + minimum)
            }
            var sum = 0.0
            for i in first..<end { sum += Double(samples[i]) * Double(samples[i]) }
            let meanSquare = sum / Double(end - first)
            return meanSquare > 0 ? 10 * log10(meanSquare) : silenceDB
        }
    }
}
