import Foundation
import Testing

/// Under CI, the suites that compare against the real fixtures and the Python references must
/// have them: this suite fails loudly when either is missing, whatever the other suites do.
@Suite(.enabled(if: TestEnvironment.isCI, "only under CI (CI=true)"))
struct TestEnvironmentTests {
    @Test func fixturesArePresent() {
        #expect(Fixtures.present, "../shared/fixtures is missing at \(Fixtures.root.path): the fixture tests cannot run")
    }

    @Test func pythonReferenceEnvironmentImportsEveryReference() throws {
        #expect(PythonReference.interpreter != nil, "SEKIT_PYTHON is not set or not executable: run the tests through scripts/test.sh")
        guard PythonReference.interpreter != nil else { return }
        let out = try PythonReference.run("import numpy, scipy, soundfile, soxr, pystoi, h5py, librosa; print('ok')")
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
    }
}
