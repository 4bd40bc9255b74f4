import Foundation

extension STOI {
    /// Scratch buffers for ``bandEnvelopes(_:_:sampleRate:workspace:)``, pooled so that scoring
    /// many clips allocates (and page-faults) them once per thread rather than once per call.
    final class Workspace: @unchecked Sendable {
        /// Buffers longer than this many samples (52 s at 10 kHz) are not kept in the pool.
        static let pooledCapacity = 1 << 19
        private(set) var capacity = 0
        private(set) var x = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
        private(set) var y = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
        private(set) var xs = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
        private(set) var ys = UnsafeMutableBufferPointer<Double>(start: nil, count: 0)
        /// One zero-padded FFT frame and its spectrum (interleaved re/im).
        let frame: UnsafeMutableBufferPointer<Double>
        let spectrum: UnsafeMutableBufferPointer<Double>

        init() {
            // 64-byte aligned, so FFTW runs its SIMD-aligned plan on them.
            func aligned(_ count: Int) -> UnsafeMutableBufferPointer<Double> {
                let raw = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Double>.stride, alignment: 64)
                let buffer = UnsafeMutableBufferPointer(start: raw.bindMemory(to: Double.self, capacity: count), count: count)
                buffer.initialize(repeating: 0)
                return buffer
            }
            frame = aligned(fftSize)
            spectrum = aligned(fftSize + 2)
        }

        deinit {
            for buffer in [x, y, xs, ys, frame, spectrum] { buffer.deallocate() }
        }

        /// Makes `x`, `y`, `xs` and `ys` exactly `count` samples long (growing them if needed).
        func reserve(_ count: Int) {
            if count > capacity {
                for buffer in [x, y, xs, ys] { buffer.deallocate() }
                x = .allocate(capacity: count); y = .allocate(capacity: count)
                xs = .allocate(capacity: count); ys = .allocate(capacity: count)
                capacity = count
            }
            x = UnsafeMutableBufferPointer(start: x.baseAddress, count: count)
            y = UnsafeMutableBufferPointer(start: y.baseAddress, count: count)
            xs = UnsafeMutableBufferPointer(start: xs.baseAddress, count: count)
            ys = UnsafeMutableBufferPointer(start: ys.baseAddress, count: count)
        }

        private nonisolated(unsafe) static var pool: [Workspace] = []
        private static let lock = NSLock()

        /// Runs `body` with a workspace from the pool (or a new one), returned to the pool after.
        static func using<T>(_ body: (Workspace) -> T) -> T {
            lock.lock()
            let workspace = pool.popLast() ?? Workspace()
            lock.unlock()
            defer {
                if workspace.capacity <= pooledCapacity { lock.lock(); pool.append(workspace); lock.unlock() }
            }
            return body(workspace)
        }
    }

    /// The band envelopes of the last few (reference, processed, rate) triples, so that STOI and
    /// ESTOI of the same pair analyse it once.
    static let analysisCache = IdentityCache<(x: [Double], y: [Double])>()

    /// The reference analysis of the last few (reference, rate) pairs, so that a noisy input and
    /// an enhanced output scored against the same reference array resample it once.
    static let referenceCache = IdentityCache<ReferenceAnalysis>()

    /// Values computed from the last few (signals, rate) keys, found again only for the very
    /// same arrays.
    ///
    /// An entry keeps its input arrays alive and matches only the very same arrays (same
    /// storage, count and rate), so a hit can never be a different signal that happens to sit at
    /// a reused address; the arrays are immutable while an entry holds them (a write to either
    /// would copy it first). Inputs over ``maxSamples`` are not cached, and at most ``capacity``
    /// entries are kept (least recently used dropped first): two per core, so that every worker
    /// of a parallel scorer finds its signals again; the memory held is at most
    /// capacity × (the inputs + the value), about 1-2 MB an entry for 4 s clips at 16 kHz.
    final class IdentityCache<Value>: @unchecked Sendable {
        let capacity = max(8, 2 * ProcessInfo.processInfo.activeProcessorCount)
        static var maxSamples: Int { 1 << 18 }

        private struct Entry {
            let keys: [[Double]]
            let sampleRate: Int
            let value: Value
        }

        private var entries: [Entry] = []
        private let lock = NSLock()

        static func sameStorage(_ a: [Double], _ b: [Double]) -> Bool {
            a.count == b.count && a.withUnsafeBufferPointer { p in b.withUnsafeBufferPointer { q in p.baseAddress == q.baseAddress } }
        }

        /// The cached value for exactly these arrays and rate, or `compute()`'s (cached if it does not throw).
        func value(for keys: [[Double]], sampleRate: Int, compute: () throws -> Value) rethrows -> Value {
            guard let first = keys.first, first.count <= Self.maxSamples, !first.isEmpty else { return try compute() }
            lock.lock()
            if let i = entries.firstIndex(where: { entry in
                entry.sampleRate == sampleRate && entry.keys.count == keys.count
                    && zip(entry.keys, keys).allSatisfy { Self.sameStorage($0, $1) }
            }) {
                let entry = entries.remove(at: i)
                entries.append(entry)
                lock.unlock()
                return entry.value
            }
            lock.unlock()
            let value = try compute()
            lock.lock()
            entries.append(Entry(keys: keys, sampleRate: sampleRate, value: value))
            if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
            lock.unlock()
            return value
        }
    }
}
