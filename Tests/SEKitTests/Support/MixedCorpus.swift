import Foundation
import Testing
@testable import SEKit

/// Mixes for tests, through the library as `sekit mix` does.
enum MixedCorpus {
    /// Mixes `settings` into `folder` with `jobs` threads, expecting every clip made.
    @discardableResult
    static func mix(_ settings: (MixOptions, MixInputs), into folder: URL, jobs: Int = 1) throws -> MixResult {
        let result = try MixRun.prepare(options: settings.0, inputs: settings.1, output: folder, jobs: jobs).run()
        #expect(result.failures.isEmpty, "\(result.failures)")
        return result
    }
}
