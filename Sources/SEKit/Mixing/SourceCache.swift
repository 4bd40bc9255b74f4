import Foundation

/// Decoded sources at the corpus rate, shared by the rendering threads, bounded in bytes
/// (least recently used sources are dropped first), so memory stays flat however large the corpus.
/// ``atRate(_:)`` gives a view at another rate sharing the same store and bound (`--sample-rate native`).
final class SourceCache: @unchecked Sendable {
    let sampleRate: Int
    var capacityBytes: Int { store.capacityBytes }
    private let store: Store

    /// The decoded samples of every rate, keyed by path (at the first rate) or path and rate.
    private final class Store: @unchecked Sendable {
        let capacityBytes: Int
        let lock = NSLock()
        var entries: [String: (samples: [Float], lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
        init(capacityBytes: Int) { self.capacityBytes = capacityBytes }
    }

    init(sampleRate: Int, capacityBytes: Int) {
        self.sampleRate = sampleRate
        self.store = Store(capacityBytes: capacityBytes)
    }

    private init(sampleRate: Int, store: Store) {
        self.sampleRate = sampleRate
        self.store = store
    }

    /// This cache's sources at `rate`, held in the same store (within the same byte bound).
    func atRate(_ rate: Int) -> SourceCache { SourceCache(sampleRate: rate, store: store) }

    /// The source's samples, mono, at the corpus rate (read and resampled on first use).
    /// - Throws: `AudioError` naming the file.
    func samples(of source: MixSource) throws -> [Float] {
        let key = "\(sampleRate)\t\(source.path)"
        let store = self.store
        store.lock.lock()
        store.clock += 1
        if var entry = store.entries[key] {
            entry.lastUse = store.clock
            store.entries[key] = entry
            store.lock.unlock()
            return entry.samples
        }
        store.lock.unlock()
        // Decode outside the lock; two threads may decode the same file once each, harmlessly.
        var buffer = try AudioFile.read(at: URL(fileURLWithPath: source.path))
        if buffer.sampleRate != sampleRate {
            buffer = try Resampler.resample(buffer, to: sampleRate)
        }
        let samples = buffer.samples
        store.lock.lock()
        defer { store.lock.unlock() }
        if store.entries[key] == nil {
            store.entries[key] = (samples, store.clock)
            store.bytes += samples.count * MemoryLayout<Float>.size
            while store.bytes > store.capacityBytes, store.entries.count > 1,
                  let oldest = store.entries.min(by: { $0.value.lastUse < $1.value.lastUse }), oldest.key != key {
                store.bytes -= oldest.value.samples.count * MemoryLayout<Float>.size
                store.entries.removeValue(forKey: oldest.key)
            }
        }
        return samples
    }
}
