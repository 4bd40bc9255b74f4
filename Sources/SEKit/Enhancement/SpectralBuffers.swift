/// The buffers of one enhance call, allocated once when the call starts and freed when it ends
/// (noncopyable owner): one frame in time, its spectrum, and the per-bin state of the gain rules
/// and noise trackers. The hot loops reach them through these pointers, with no allocation and no
/// reference counting per frame.
struct SpectralBuffers: ~Copyable {
    /// Number of bins, fftSize/2 + 1.
    let bins: Int
    /// One frame, `fftSize` samples (windowed and zero-padded; then the filtered frame).
    let frame: UnsafeMutableBufferPointer<Float>
    /// The frame's spectrum, `2·bins` interleaved re/im.
    let spectrum: UnsafeMutableBufferPointer<Float>
    /// |Y|², the noise estimate λ, the gain G, and the previous frame's clean power |Ŝ(l−1)|².
    let power, noise, gain, previous: UnsafeMutableBufferPointer<Double>
    /// MCRA state: smoothed power S, its running minimum and temporary minimum, speech presence p̂.
    let smoothed, minimum, temporary, presence: UnsafeMutableBufferPointer<Double>

    /// Alignment of the float buffers, bytes (a cache line; AVX-512 loads).
    static let alignmentBytes = 64

    private let floats: UnsafeMutableBufferPointer<Float>
    private let doubles: UnsafeMutableBufferPointer<Double>

    init(fftSize: Int) {
        let bins = fftSize / 2 + 1
        // Aligned for SIMD loads (FFTW runs its aligned plans on them): the frame at the start, the
        // spectrum 4·fftSize bytes in (fftSize is even, and a multiple of 16 at the usual sizes).
        let floatCount = fftSize + 2 * bins
        let raw = UnsafeMutableRawPointer.allocate(byteCount: floatCount * MemoryLayout<Float>.stride, alignment: Self.alignmentBytes)
        let floats = UnsafeMutableBufferPointer(start: raw.bindMemory(to: Float.self, capacity: floatCount), count: floatCount)
        floats.initialize(repeating: 0)
        let doubles = UnsafeMutableBufferPointer<Double>.allocate(capacity: 8 * bins)
        doubles.initialize(repeating: 0)
        func slice(_ i: Int) -> UnsafeMutableBufferPointer<Double> {
            UnsafeMutableBufferPointer(rebasing: doubles[(i * bins)..<((i + 1) * bins)])
        }
        self.bins = bins
        self.floats = floats
        self.doubles = doubles
        frame = UnsafeMutableBufferPointer(rebasing: floats[0..<fftSize])
        spectrum = UnsafeMutableBufferPointer(rebasing: floats[fftSize...])
        power = slice(0); noise = slice(1); gain = slice(2); previous = slice(3)
        smoothed = slice(4); minimum = slice(5); temporary = slice(6); presence = slice(7)
    }

    deinit {
        UnsafeMutableRawPointer(floats.baseAddress!).deallocate()
        doubles.deallocate()
    }
}
