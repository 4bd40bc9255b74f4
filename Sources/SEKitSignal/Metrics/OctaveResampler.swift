import Foundation

/// The resampler pystoi 0.4.1 uses (its `resample_oct`): an Octave-style Kaiser-windowed sinc
/// low-pass, normalised to unit sum, applied by `scipy.signal.resample_poly` (upsample by p,
/// filter, downsample by q, with resample_poly's zero padding and output alignment). Reproduced
/// so STOI matches pystoi at any input rate.
///
/// Computed in polyphase form: output i is one dot product of a contiguous run of input samples
/// with one of `up` sub-filters (the taps that meet non-zero upsampled input), so each output
/// costs about `taps / up` multiply-adds and nothing else is computed. The sub-filters are built
/// once per ratio and cached (``Bank``).
enum OctaveResampler {
    /// Design parameters of Octave's `resample`: rejection 10^−3 (60 dB), roll-off 10% of the cut-off.
    static let log10Rejection = -3.0

    /// Resamples `x` from rate `q` to rate `p` (`resample_oct(x, p, q)`).
    /// Complexity: O(n·p/q · taps/p) multiply-adds, taps ≈ 2·(52/28.714)·10·max(p, q)/gcd.
    static func resample(_ x: [Double], to p: Int, from q: Int) -> [Double] {
        let g = gcd(p, q)
        if p / g == 1 && q / g == 1 { return x }
        let bank = Bank.cached(up: p / g, down: q / g)
        let n = bank.outputCount(inputCount: x.count)
        return [Double](unsafeUninitializedCapacity: n) { out, count in
            x.withUnsafeBufferPointer { bank.apply($0, outputs: 0..<n, into: out) }
            count = n
        }
    }

    /// Resamples only the outputs in `needed` (sorted, non-overlapping ranges of output indices);
    /// the others are zero. The outputs computed equal those of ``resample(_:to:from:)``.
    static func resample(_ x: [Double], to p: Int, from q: Int, only needed: [Range<Int>]) -> [Double] {
        let g = gcd(p, q)
        if p / g == 1 && q / g == 1 { return x }
        let bank = Bank.cached(up: p / g, down: q / g)
        let n = bank.outputCount(inputCount: x.count)
        return [Double](unsafeUninitializedCapacity: n) { out, count in
            out.initialize(repeating: 0)
            x.withUnsafeBufferPointer { xp in
                for range in needed {
                    let r = max(0, range.lowerBound)..<min(n, range.upperBound)
                    if !r.isEmpty { bank.apply(xp, outputs: r, into: out) }
                }
            }
            count = n
        }
    }

    /// Octave's filter for `up`/`down` in polyphase form, with resample_poly's alignment.
    /// Owns its taps in one allocation (read-only after `init`, so shared freely across threads).
    final class Bank: @unchecked Sendable {
        let up: Int
        let down: Int
        /// Taps per sub-filter, a multiple of 4 (shorter sub-filters are padded with leading zeros).
        let width: Int
        /// `up` rows of `width` taps: row r holds h[r], h[r + up], h[r + 2·up], ... reversed and
        /// scaled by `up` (resample_poly's gain), so output = Σ_t row[t] · x[k0 − width + 1 + t].
        private let rows: UnsafeMutableBufferPointer<Double>
        /// resample_poly's offset: output i is upsampled-and-filtered sample (i + preRemove)·down,
        /// of the signal padded in front by `prePad` zeros (at the upsampled rate).
        let preRemove: Int
        let prePad: Int
        /// ``phase(_:)`` of outputs 0..<up (output q·up + s: same row, k0 + q·down).
        let phaseTable: [(row: Int, k0: Int)]

        init(up: Int, down: Int) {
            self.up = up
            self.down = down
            let h = OctaveResampler.filter(up: up, down: down)
            let half = (h.count - 1) / 2
            prePad = down - half % down
            preRemove = (half + prePad) / down
            let longest = (h.count + up - 1) / up
            let width = (longest + 3) / 4 * 4
            self.width = width
            let rows = UnsafeMutableBufferPointer<Double>.allocate(capacity: up * width)
            rows.initialize(repeating: 0)
            for r in 0..<up {
                var j = 0
                while r + j * up < h.count {
                    rows[r * width + width - 1 - j] = h[r + j * up] * Double(up)
                    j += 1
                }
            }
            self.rows = rows
            let (preRemove, prePad) = (self.preRemove, self.prePad)
            phaseTable = (0..<up).map { i in
                let base = (i + preRemove) * down - prePad
                return (base % up, base / up)
            }
        }

        deinit { rows.deallocate() }

        /// resample_poly's output length, ceil(n·up/down).
        func outputCount(inputCount n: Int) -> Int { (n * up + down - 1) / down }

        /// Computes outputs `outputs` of `x` into `out` (indexed by output index).
        func apply(_ x: UnsafeBufferPointer<Double>, outputs: Range<Int>, into out: UnsafeMutableBufferPointer<Double>) {
            guard let xBase = x.baseAddress, let outBase = out.baseAddress else { return }
            apply(input: xBase, inputStart: 0, inputCount: x.count, outputs: outputs, into: outBase, outputStart: 0)
        }

        /// The input samples outputs `outputs` of an `inputCount`-sample signal are made of (their
        /// taps that meet the signal).
        func inputRange(outputs: Range<Int>, inputCount n: Int) -> Range<Int> {
            guard !outputs.isEmpty else { return 0..<0 }
            let low = max(0, phase(outputs.lowerBound).k0 - width + 1), high = min(n, phase(outputs.upperBound - 1).k0 + 1)
            return low..<max(low, high)
        }

        /// Computes outputs `outputs` of an `inputCount`-sample signal of which `input` holds the
        /// samples from index `inputStart` on (at least ``inputRange(outputs:inputCount:)``), into
        /// `out`, whose first element is output `outputStart`: a window of a long signal resampled
        /// without the whole signal in Double.
        ///
        /// Which sum computes an output depends only on its index and `inputCount`, never on the
        /// window or on which outputs are computed with it, so every window gives the outputs of the
        /// whole signal, bit for bit. Outputs i, i + up, i + 2·up, i + 3·up use the same sub-filter on
        /// inputs `down` apart, so they are computed together, each tap loaded once for four outputs.
        func apply(input: UnsafePointer<Double>, inputStart: Int, inputCount n: Int, outputs: Range<Int>,
                   into out: UnsafeMutablePointer<Double>, outputStart: Int) {
            guard !outputs.isEmpty else { return }
            let width = self.width, up = self.up, down = self.down
            let rowBase = UnsafePointer(rows.baseAddress!)
            @inline(__always) func samples(from first: Int) -> UnsafePointer<Double> { input + (first - inputStart) }
            func single(_ i: Int) {
                let (r, k0) = phase(i)
                let row = rowBase + r * width, first = k0 - width + 1
                if first >= 0 && first + width <= n {
                    out[i - outputStart] = Self.dot(row, samples(from: first), count: width)
                } else {
                    var acc = 0.0
                    for t in max(0, -first)..<width where first + t < n { acc += row[t] * samples(from: first + t).pointee }
                    out[i - outputStart] = acc
                }
            }
            var i = outputs.lowerBound
            while i % up != 0 && i < outputs.upperBound { single(i); i += 1 }
            // Output q·up + s has phase rowOf[s] and k0 = q·down + k0Of[s].
            phaseTable.withUnsafeBufferPointer { table in
                while i + 4 * up <= outputs.upperBound {
                    let k0Base = (i / up) * down
                    if k0Base + table[0].k0 - width + 1 >= 0 && k0Base + 3 * down + table[up - 1].k0 < n {
                        let o = out + (i - outputStart)
                        for s in 0..<up {
                            let row = rowBase + table[s].row * width, first = k0Base + table[s].k0 - width + 1
                            let sums = Self.dot4(row, samples(from: first), spacing: down, count: width)
                            o[s] = sums[0]; o[s + up] = sums[1]; o[s + 2 * up] = sums[2]; o[s + 3 * up] = sums[3]
                        }
                    } else {
                        for s in i..<(i + 4 * up) { single(s) }
                    }
                    i += 4 * up
                }
            }
            while i < outputs.upperBound { single(i); i += 1 }
        }

        /// Phase (sub-filter row) r and newest input index k0 of output i: y_full[m] = Σ_j hpad[j]·u[m − j],
        /// hpad[j] = up·h[j − prePad], u[k·up] = x[k]; output i takes m = (i + preRemove)·down, and
        /// the taps meeting non-zero u are those of phase r = (m − prePad) mod up, against
        /// x[k0], x[k0 − 1], ..., k0 = (m − prePad) div up.
        @inline(__always)
        func phase(_ i: Int) -> (row: Int, k0: Int) {
            let base = (i + preRemove) * down - prePad       // ≥ 0: it starts at half
            return (base % up, base / up)
        }

        /// Σ a[t]·b[t], t < count (a multiple of 4), summed in the same order as each of `dot4`'s
        /// sums, so an output does not depend on which outputs are computed with it.
        /// On CPUs with AVX2 and FMA the sums are taken by ``VectorKernels`` (about 1.2x faster here, where 256-bit loads are the limit).
        @inline(__always)
        static func dot(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count: Int) -> Double {
            if VectorKernels.hasAVX2FMA { return VectorKernels.dot(a, b, count: count) }
            return portableDot(a, b, count: count)
        }

        /// ``dot(_:_:count:)`` in Swift SIMD, for CPUs without AVX2 and FMA.
        @inline(__always)
        static func portableDot(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, count: Int) -> Double {
            var s = SIMD4<Double>()
            var t = 0
            while t < count {
                s += load(a + t) * load(b + t)
                t += 4
            }
            return s.sum()
        }

        /// The four sums Σ a[t]·b[t + k·spacing], k = 0...3, t < count (a multiple of 4).
        @inline(__always)
        static func dot4(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, spacing: Int, count: Int) -> SIMD4<Double> {
            if VectorKernels.hasAVX2FMA { return VectorKernels.dot4(a, b, spacing: spacing, count: count) }
            return portableDot4(a, b, spacing: spacing, count: count)
        }

        /// ``dot4(_:_:spacing:count:)`` in Swift SIMD, for CPUs without AVX2 and FMA.
        @inline(__always)
        static func portableDot4(_ a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, spacing: Int, count: Int) -> SIMD4<Double> {
            var s0 = SIMD4<Double>(), s1 = SIMD4<Double>(), s2 = SIMD4<Double>(), s3 = SIMD4<Double>()
            let b1 = b + spacing, b2 = b + 2 * spacing, b3 = b + 3 * spacing
            var t = 0
            while t < count {
                let taps = load(a + t)
                s0 += taps * load(b + t)
                s1 += taps * load(b1 + t)
                s2 += taps * load(b2 + t)
                s3 += taps * load(b3 + t)
                t += 4
            }
            return SIMD4(s0.sum(), s1.sum(), s2.sum(), s3.sum())
        }

        @inline(__always)
        static func load(_ p: UnsafePointer<Double>) -> SIMD4<Double> {
            UnsafeRawPointer(p).loadUnaligned(as: SIMD4<Double>.self)
        }

        private nonisolated(unsafe) static var cache: [Int: Bank] = [:]
        private static let lock = NSLock()

        /// The bank for `up`/`down` (coprime), built on first use and kept for the process.
        static func cached(up: Int, down: Int) -> Bank {
            let key = up << 32 | down
            lock.lock(); defer { lock.unlock() }
            if let bank = cache[key] { return bank }
            let bank = Bank(up: up, down: down)
            cache[key] = bank
            return bank
        }
    }

    /// Octave's filter: ideal low-pass `2·p·fc·sinc(2·fc·t)`, t = −L...L, times a Kaiser window,
    /// normalised to unit sum (pystoi divides by the sum before handing it to resample_poly).
    static func filter(up p: Int, down q: Int) -> [Double] {
        let stopbandCutoff = 1 / (2 * Double(max(p, q)))
        let rollOffWidth = stopbandCutoff / 10
        let rejectionDB = -20 * log10Rejection
        let L = ((rejectionDB - 8) / (28.714 * rollOffWidth)).rounded(.up)
        let beta: Double
        if rejectionDB >= 21 && rejectionDB <= 50 {
            beta = 0.5842 * pow(rejectionDB - 21, 0.4) + 0.07886 * (rejectionDB - 21)
        } else if rejectionDB > 50 {
            beta = 0.1102 * (rejectionDB - 8.7)
        } else {
            beta = 0
        }
        let count = Int(2 * L + 1)
        var h = [Double](repeating: 0, count: count)
        let i0Beta = besselI0(beta)
        for n in 0..<count {
            let t = Double(n) - L
            let arg = 2 * stopbandCutoff * t
            let sinc = arg == 0 ? 1 : sin(Double.pi * arg) / (Double.pi * arg)
            let ideal = 2 * Double(p) * stopbandCutoff * sinc
            // numpy.kaiser(M, beta): I0(beta·sqrt(1 − (2n/(M−1) − 1)²)) / I0(beta)
            let r = 2 * Double(n) / Double(count - 1) - 1
            let kaiser = besselI0(beta * max(0, 1 - r * r).squareRoot()) / i0Beta
            h[n] = kaiser * ideal
        }
        let sum = h.reduce(0, +)
        return h.map { $0 / sum }
    }

    /// Modified Bessel function of the first kind, order 0, by its power series (converges for all x).
    static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0
        let q = x * x / 4
        var k = 1.0
        while true {
            term *= q / (k * k)
            sum += term
            if term < sum * 1e-17 { break }
            k += 1
        }
        return sum
    }

    static func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
}
