import Foundation

/// Linear convolution, for room impulse responses.
public enum Convolution {
    /// Full linear convolution `y = x * h` (length n + m − 1) by FFT overlap-add in Double
    /// (FFTW). Error against direct summation is about 1e-12 relative to the output's peak.
    /// Blocks are sized so the FFT length is the next power of two ≥ 2m (at least 4096).
    public static func fft(_ x: [Double], _ h: [Double]) -> [Double] {
        let n = x.count, m = h.count
        guard n > 0, m > 0 else { return [] }
        if min(n, m) <= 32 { return direct(x, h) }
        var fftSize = 4096
        while fftSize < 2 * m { fftSize *= 2 }
        let block = fftSize - m + 1
        let fft = RealFFT.double(size: fftSize)
        var padded = [Double](repeating: 0, count: fftSize)
        for i in 0..<m { padded[i] = h[i] }
        let kernel = fft.forward(padded)
        var output = [Double](repeating: 0, count: n + m - 1)
        var spectrum = [Double](repeating: 0, count: 2 * fft.binCount)
        var segment = [Double](repeating: 0, count: fftSize)
        var start = 0
        while start < n {
            let take = min(block, n - start)
            for i in 0..<fftSize { padded[i] = i < take ? x[start + i] : 0 }
            padded.withUnsafeBufferPointer { inp in spectrum.withUnsafeMutableBufferPointer { fft.forward(inp, into: $0) } }
            for k in 0..<fft.binCount {
                let re = spectrum[2 * k] * kernel[2 * k] - spectrum[2 * k + 1] * kernel[2 * k + 1]
                let im = spectrum[2 * k] * kernel[2 * k + 1] + spectrum[2 * k + 1] * kernel[2 * k]
                spectrum[2 * k] = re; spectrum[2 * k + 1] = im
            }
            spectrum.withUnsafeBufferPointer { inp in segment.withUnsafeMutableBufferPointer { fft.inverse(inp, into: $0) } }
            let produced = min(take + m - 1, output.count - start)
            for i in 0..<produced { output[start + i] += segment[i] }
            start += take
        }
        return output
    }

    /// Full linear convolution by direct summation, O(n·m). For short kernels and for tests.
    public static func direct(_ x: [Double], _ h: [Double]) -> [Double] {
        guard !x.isEmpty, !h.isEmpty else { return [] }
        var y = [Double](repeating: 0, count: x.count + h.count - 1)
        for i in 0..<x.count where x[i] != 0 {
            for j in 0..<h.count { y[i + j] += x[i] * h[j] }
        }
        return y
    }
}
