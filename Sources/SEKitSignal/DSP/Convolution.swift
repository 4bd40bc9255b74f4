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
        var output = [Double](repeating: 0, count: n + m - 1)
        output.withUnsafeMutableBufferPointer { out in
            x.withUnsafeBufferPointer { x in
                overlapAdd(x, h) { position, values in
                    out.baseAddress!.advanced(by: position).update(from: values.baseAddress!, count: values.count)
                }
            }
        }
        return output
    }

    /// Samples `start ..< start + length` of the full convolution `x * h` of ``fft(_:_:)`` (zero
    /// past its end), rounded to Float, computed a block at a time from Float input: the same
    /// values as `fft` on the signals widened to Double, without any whole signal in Double.
    public static func fftSegment(_ x: [Float], _ h: [Float], start: Int, length: Int) -> [Float] {
        let n = x.count, m = h.count
        guard n > 0, m > 0, min(n, m) > 32 else {
            let full = n > 0 && m > 0 ? direct(x.map(Double.init), h.map(Double.init)) : []
            return (0..<length).map { start + $0 < full.count ? Float(full[start + $0]) : 0 }
        }
        let wanted = start..<(start + length)
        return [Float](unsafeUninitializedCapacity: length) { out, count in
            out.initialize(repeating: 0)
            x.withUnsafeBufferPointer { x in
                overlapAdd(x, h.map(Double.init)) { position, values in
                    let first = max(position, wanted.lowerBound), end = min(position + values.count, wanted.upperBound)
                    for p in first..<max(first, end) { out[p - start] = Float(values[p - position]) }
                }
            }
            count = length
        }
    }

    /// The FFT overlap-add of `x * h` (min(n, m) > 32): blocks of `fftSize − m + 1` input samples,
    /// FFT length the next power of two ≥ 2m (at least 4096); each output is summed as a
    /// whole-signal accumulation from zero would sum it (0, then the earlier block's tail, then the
    /// later block's head). Calls `emit(position, values)` with the final outputs from `position`
    /// on, in order, each once, all n + m − 1 of them.
    static func overlapAdd<T: BinaryFloatingPoint>(_ x: UnsafeBufferPointer<T>, _ h: [Double],
                                                   emit: (Int, UnsafeBufferPointer<Double>) -> Void) {
        let n = x.count, m = h.count
        var fftSize = 4096
        while fftSize < 2 * m { fftSize *= 2 }
        let block = fftSize - m + 1
        let fft = RealFFT.double(size: fftSize)
        var padded = [Double](repeating: 0, count: fftSize)
        for i in 0..<m { padded[i] = h[i] }
        let kernel = fft.forward(padded)
        var spectrum = [Double](repeating: 0, count: 2 * fft.binCount)
        var segment = [Double](repeating: 0, count: fftSize)
        // Outputs from `start` on: the previous block's tail (m − 1 values, already 0 + tail) is
        // added to, then the finished head is emitted and the new tail kept.
        var sums = [Double](repeating: 0, count: fftSize)
        var start = 0
        while start < n {
            let take = min(block, n - start)
            for i in 0..<fftSize { padded[i] = i < take ? Double(x[start + i]) : 0 }
            padded.withUnsafeBufferPointer { inp in spectrum.withUnsafeMutableBufferPointer { fft.forward(inp, into: $0) } }
            for k in 0..<fft.binCount {
                let re = spectrum[2 * k] * kernel[2 * k] - spectrum[2 * k + 1] * kernel[2 * k + 1]
                let im = spectrum[2 * k] * kernel[2 * k + 1] + spectrum[2 * k + 1] * kernel[2 * k]
                spectrum[2 * k] = re; spectrum[2 * k + 1] = im
            }
            spectrum.withUnsafeBufferPointer { inp in segment.withUnsafeMutableBufferPointer { fft.inverse(inp, into: $0) } }
            let produced = take + m - 1, pending = start == 0 ? 0 : m - 1
            for i in 0..<produced { sums[i] = i < pending ? sums[i] + segment[i] : 0 + segment[i] }
            let finished = start + take >= n ? produced : take
            sums.withUnsafeBufferPointer { emit(start, UnsafeBufferPointer(rebasing: $0[0..<finished])) }
            if finished < produced { for i in 0..<(m - 1) { sums[i] = sums[take + i] } }
            start += take
        }
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
