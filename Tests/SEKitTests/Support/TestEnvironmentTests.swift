import Foundation
import Testing
@testable import SEKit

/// The fixtures ship with the clone: when the folder is missing or incomplete (a `SEKIT_FIXTURES`
/// pointing elsewhere, a damaged checkout), this is the one error that names the folder and the
/// missing files; the suites that read the fixtures are then skipped under their own counted reason.
@Suite struct FixtureFolderTests {
    @Test func theFixturesFolderHoldsEveryListedFile() {
        #expect(TestProject.fixturesComplete, Comment(rawValue: TestProject.fixturesProblem))
    }

    /// The list is the clone's own: every file under `datasets/fixtures/{speech,noise,noisy,rir}` is
    /// listed in SHA256SUMS with its hash, and SOURCES.md names each one.
    @Test func theListMatchesTheClonesFixturesAndEachFileHasItsSource() throws {
        let folder = TestProject.root.appendingPathComponent("datasets/fixtures")
        let sums = try String(contentsOf: folder.appendingPathComponent("SHA256SUMS"), encoding: .utf8)
        let sources = try String(contentsOf: folder.appendingPathComponent("SOURCES.md"), encoding: .utf8)
        var onDisk: [String] = []
        for kind in ["speech", "noise", "noisy", "rir"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(kind).path)
            onDisk += names.filter { !$0.hasPrefix(".") }.map { "\(kind)/\($0)" }
        }
        #expect(onDisk.sorted() == TestProject.fixtureFiles.sorted(), "SHA256SUMS and the folders differ")
        for line in sums.split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2 else { Issue.record("SHA256SUMS: bad line \(line)"); continue }
            let name = String(parts[1])
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            #expect(SHA256.hex(of: data) == String(parts[0]), "\(name) differs from its hash in SHA256SUMS")
            #expect(sources.contains((name as NSString).lastPathComponent), "SOURCES.md does not name \(name)")
        }
    }
}

/// The reference tier and the Python references are whole where they are used: under CI (where both
/// are required) this suite fails loudly when either is missing, whatever the other suites do;
/// elsewhere each test runs where its tier is given (and is counted as that tier's skip otherwise).
@Suite struct TestEnvironmentTests {
    @Test(.referenceTier) func referenceTierIsPresent() {
        let folder = TestProject.referenceAudio?.path ?? "(SEKIT_REFERENCE_AUDIO unset)"
        for name in ["1_speech_16000_Hz.wav", "1_noisySpeech_16000_Hz.wav", "1_processed_16000_Hz.wav", "results.mat",
                     "speech.wav", "speech_bab_0dB.wav"] {
            #expect(FileManager.default.fileExists(atPath: TestProject.reference(name).path),
                    "the reference tier lacks \(name) at \(folder): under CI its tests must run")
        }
    }

    @Test(.enabled(if: PythonReference.available, "needs SEKIT_PYTHON (run scripts/test.sh)"))
    func pythonReferenceEnvironmentImportsEveryReference() throws {
        #expect(PythonReference.interpreter != nil, "SEKIT_PYTHON is not set or not executable: run the tests through scripts/test.sh")
        guard PythonReference.interpreter != nil else { return }
        let out = try PythonReference.run("import numpy, scipy, soundfile, soxr, pystoi, h5py, librosa; print('ok')")
        #expect(out.trimmingCharacters(in: .whitespacesAndNewlines) == "ok")
    }
}
