import Foundation

/// Called as items finish: (items done, items in total). Called from worker threads, in no
/// particular order of items, but with `done` increasing by one each call.
public typealias ProgressHandler = @Sendable (_ done: Int, _ total: Int) -> Void

/// The one way SEKit spreads work over cores: `jobs` workers take the next item index from a
/// shared counter (balanced however uneven the items are) and results come back in input order,
/// so nothing a caller writes depends on `jobs` or on which worker finished first.
public enum ParallelMap {
    /// `transform(item)` for every item, on up to `jobs` threads; the results in input order.
    /// `transform` must be safe to call from several threads at once.
    ///
    /// When `transform` throws, no further items are started, the items already running finish,
    /// and the error of the lowest-indexed item that threw is rethrown. Per-item failures that
    /// should not stop the batch are the caller's to return as values (e.g. a `Result`).
    /// - Parameters:
    ///   - jobs: worker threads (at least 1; at most one per item).
    ///   - progress: called after each item.
    ///   - workerState: makes the scratch state of one worker (FFT buffers, caches for one
    ///     clip, ...), called once per worker thread and handed to every item that worker runs.
    /// - Complexity: O(items) scheduling work; one lock acquisition per item.
    public static func map<Item, State, Output>(
        _ items: [Item], jobs: Int, progress: ProgressHandler? = nil,
        workerState: () -> State, _ transform: (Item, State) throws -> Output
    ) throws -> [Output] {
        let count = items.count
        guard count > 0 else { return [] }
        nonisolated(unsafe) var results = [Output?](repeating: nil, count: count)
        nonisolated(unsafe) var next = 0, done = 0
        nonisolated(unsafe) var failure: (index: Int, error: Error)? = nil
        let lock = NSLock()
        // The one place the unchecked concurrency lives: `transform` and `workerState` are called
        // from several threads at once (the documented contract of this function), items are
        // only read, and results, counters and the failure are touched under `lock` only.
        nonisolated(unsafe) let items = items, transform = transform, workerState = workerState
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, count))) { _ in
            let state = workerState()
            while true {
                lock.lock()
                let i = next
                next += 1
                let stop = i >= count || failure != nil
                lock.unlock()
                if stop { return }
                do {
                    let output = try transform(items[i], state)
                    lock.lock()
                    results[i] = output
                    done += 1
                    let snapshot = done
                    lock.unlock()
                    progress?(snapshot, count)
                } catch {
                    lock.lock()
                    if failure == nil || i < failure!.index { failure = (i, error) }
                    lock.unlock()
                }
            }
        }
        if let failure { throw failure.error }
        return results.map { $0! }
    }

    /// `map(_:jobs:progress:workerState:_:)` without per-worker state.
    public static func map<Item, Output>(
        _ items: [Item], jobs: Int, progress: ProgressHandler? = nil, _ transform: (Item) throws -> Output
    ) throws -> [Output] {
        try map(items, jobs: jobs, progress: progress, workerState: { () }, { item, _ in try transform(item) })
    }

    /// ``map(_:jobs:progress:workerState:_:)`` for transforms that cannot throw.
    public static func map<Item, State, Output>(
        _ items: [Item], jobs: Int, progress: ProgressHandler? = nil,
        workerState: () -> State, _ transform: (Item, State) -> Output
    ) -> [Output] {
        // The throwing overload only rethrows what `transform` throws, and this one throws nothing.
        try! map(items, jobs: jobs, progress: progress, workerState: workerState,
                 { item, state in transform(item, state) } as (Item, State) throws -> Output)
    }

    /// ``map(_:jobs:progress:_:)`` for transforms that cannot throw.
    public static func map<Item, Output>(_ items: [Item], jobs: Int, progress: ProgressHandler? = nil,
                                         _ transform: (Item) -> Output) -> [Output] {
        map(items, jobs: jobs, progress: progress, workerState: { () }, { item, _ in transform(item) })
    }

    /// Transforms items in parallel and hands the results to `consume` one by one, in input
    /// order, on the calling thread: a streaming producer for one ordered writer (a feature
    /// file). At most `window` results are held at once, so memory stays bounded whatever the
    /// number of items.
    /// - Parameters:
    ///   - window: items transformed per round (default 4 per job); results of one round are
    ///     consumed before the next round starts.
    /// - Throws: the first error of `transform` (by index, within the round) or of `consume`;
    ///   nothing after it is consumed.
    public static func forEachInOrder<Item, Output>(
        _ items: [Item], jobs: Int, window: Int? = nil,
        _ transform: (Item) throws -> Output, consume: (Item, Output) throws -> Void
    ) throws {
        let jobs = max(1, jobs)
        let round = max(1, window ?? jobs * 4)
        for start in stride(from: 0, to: items.count, by: round) {
            let slice = Array(items[start..<min(items.count, start + round)])
            // Errors are kept per item so that the items before a failing one are still consumed.
            let results = map(slice, jobs: jobs) { item in Result { try transform(item) } }
            for (item, result) in zip(slice, results) { try consume(item, try result.get()) }
        }
    }
}
