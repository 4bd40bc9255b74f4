import Testing
@testable import SEKit
@testable import SEKitSignal

/// Analyses shared between metrics are made once per name and type.
@Suite struct AnalysisStoreTests {
    @Test func eachAnalysisIsMadeOnceAndTypesNeverMix() {
        var store = AnalysisStore()
        var made = 0
        for _ in 0..<3 { #expect(store.value("envelopes") { made += 1; return [1.0, 2.0] } == [1.0, 2.0]) }
        #expect(made == 1)
        // The same name asked as another type is another analysis, made once too (it used to be
        // made again on every call, the stored value failing `as? T`).
        for _ in 0..<3 { #expect(store.value("envelopes") { () -> Float in made += 1; return 3 } == Float(3)) }
        #expect(made == 2)
        #expect(store.value("envelopes") { made += 1; return [0.0] } == [1.0, 2.0])
        #expect(made == 2 && store.count == 2)
    }
}
