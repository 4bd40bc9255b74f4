import Foundation
import Synchronization
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct ParallelMapTests {
    struct Boom: Error, Equatable { let index: Int }
    final class Scratch: @unchecked Sendable { var uses = 0 }

    @Test(arguments: [1, 2, 7]) func resultsComeBackInInputOrderWhateverTheJobs(jobs: Int) {
        let items = Array(0..<500)
        // Uneven work so that items finish out of order.
        let out = ParallelMap.map(items, jobs: jobs) { i -> Int in
            if i % 7 == 0 { usleep(100) }
            return i * i
        }
        #expect(out == items.map { $0 * $0 })
    }

    @Test func progressCountsEveryItemOnce() {
        let calls = Mutex<[Int]>([])
        _ = ParallelMap.map(Array(0..<200), jobs: 4, progress: { done, total in
            #expect(total == 200)
            calls.withLock { $0.append(done) }
        }) { $0 }
        #expect(calls.withLock { $0.sorted() } == Array(1...200))
    }

    @Test func workerStateIsMadeOncePerWorkerAndReused() {
        let made = Mutex(0)
        let scratches = ParallelMap.map(Array(0..<300), jobs: 3, workerState: { () -> Scratch in
            made.withLock { $0 += 1 }
            return Scratch()
        }) { _, scratch -> ObjectIdentifier in
            scratch.uses += 1
            return ObjectIdentifier(scratch)
        }
        #expect(made.withLock { $0 } <= 3)
        #expect(Set(scratches).count <= 3)
    }

    @Test func theLowestIndexedErrorIsRethrownAndLaterItemsAreNotStarted() {
        let started = Mutex(0)
        #expect(throws: Boom(index: 10)) {
            _ = try ParallelMap.map(Array(0..<10_000), jobs: 1) { i -> Int in
                started.withLock { $0 += 1 }
                if i == 10 || i == 20 { throw Boom(index: i) }
                return i
            }
        }
        #expect(started.withLock { $0 } == 11, "one job stops taking items after the first failure")
    }

    @Test func forEachInOrderConsumesInInputOrderWithBoundedRounds() throws {
        var consumed: [Int] = []
        let inFlight = Mutex((now: 0, most: 0))
        try ParallelMap.forEachInOrder(Array(0..<100), jobs: 2, window: 8) { i -> Int in
            inFlight.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            defer { inFlight.withLock { $0.now -= 1 } }
            return i + 1000
        } consume: { item, output in
            #expect(output == item + 1000)
            consumed.append(item)
        }
        #expect(consumed == Array(0..<100))
        #expect(inFlight.withLock { $0.most } <= 2)
    }

    @Test func forEachInOrderConsumesEverythingBeforeTheFirstFailure() {
        var consumed: [Int] = []
        #expect(throws: Boom(index: 13)) {
            try ParallelMap.forEachInOrder(Array(0..<40), jobs: 2, window: 5) { i -> Int in
                if i == 13 { throw Boom(index: i) }
                return i
            } consume: { item, _ in consumed.append(item) }
        }
        #expect(consumed == Array(0..<13))
    }
}
