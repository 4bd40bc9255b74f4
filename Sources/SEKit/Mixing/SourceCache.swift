import Foundation

/// Decoded sources at the corpus rate, shared by the rendering threads, bounded in bytes
/// (least recently used sources are dropped first), so memory stays flat however large the corpus.
final class SourceCache: @unchecked Sendable {
    let sampleRate: Int
    let capacityBytes: Int
    private let lock = NSLock()
    private var entries: [String: (samples: [Float], lastUse: UInt64)] = [:]
    private var bytes = 0
    private var clock: UInt64 = 0

    init(sampleRate: Int, capacityBytes: Int) {
        self.sampleRate = sampleRate
        self.capacityBytes = capacityBytes
    }

    /// The source's samples, mono, at the corpus rate (read and resampled on first use).
    /// - Throws: `AudioError` naming the file.
    func samples(of source: MixSource) throws -> [Float] {
        lock.lock()
        clock += 1
        if var entry = entries[source.path] {
            entry.lastUse = clock
            entries[source.path] = entry
            lock.unlock()
            return entry.samples
        }
        lock.unlock()
        // Decode outside the lock; two threads may decode the same file once each, harmlessly.
        var buffer = try AudioFile.read(at: URL(fileURLWithPath: source.path))
        if buffer.sampleRate != sampleRate {
            buffer = try Resampler.resample(buffer, to: sampleRate)
        }
        let samples = buffer.samples
        lock.lock()
        defer { lock.unlock() }
        if entries[source.path] == nil {
            entries[source.path] = (samples, clock)
            bytes += samples.count * MemoryLayout<Float>.size
            while bytes > capacityBytes, entries.count > 1,
                  let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }), oldest.key != source.path {
                bytes -= oldest.value.samples.count * MemoryLayout<Float>.size
                entries.removeValue(forKey: oldest.key)
            }
        }
        return samples
    }
}
