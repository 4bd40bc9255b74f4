import Foundation
import Testing

/// Where the test suite's time goes: with `SEKIT_TEST_TIMINGS=FILE` (scripts/test.sh sets it), every
/// program a test runs (the `sekit` binary, a Python reference, a script) appends one line
/// `TEST<TAB>PROGRAM<TAB>SECONDS` (wall-clock) to FILE; scripts/test.sh prints the tests that spent
/// the most. Writes are single `O_APPEND` lines, safe from parallel tests.
public enum SubprocessTimings {
    /// Runs `body` (which runs `program`) and records its wall-clock time when asked to.
    public static func timing<T>(_ program: String, _ body: () throws -> T) rethrows -> T {
        guard let path = ProcessInfo.processInfo.environment["SEKIT_TEST_TIMINGS"], !path.isEmpty else { return try body() }
        let start = Date()
        defer {
            let test = Test.current.map { "\($0.id)" } ?? "(outside a test)"
            let line = "\(test)\t\(program)\t\(String(format: "%.3f", Date().timeIntervalSince(start)))\n"
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
            if descriptor >= 0 {
                _ = line.withCString { write(descriptor, $0, strlen($0)) }
                close(descriptor)
            }
        }
        return try body()
    }
}
