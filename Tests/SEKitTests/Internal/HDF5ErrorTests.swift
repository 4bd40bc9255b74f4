import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

@Suite struct HDF5ErrorTests {
    /// A failed libhdf5 call throws ``HDF5Error`` naming the file, the call and HDF5's explanation;
    /// the Features layer reports the very same message as ``FeatureFileError/hdf5(path:call:detail:)``.
    @Test func failedCallNamesTheFileAndTheCall() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let junk = folder.file("junk.h5")
        try Data("not hdf5 at all".utf8).write(to: junk)
        do {
            _ = try HDF5Handle.openFile(path: junk.path)
            Issue.record("junk opened")
        } catch {
            #expect(error.code == "call-failed")
            #expect(error.path == junk.path)
            guard case .callFailed(let path, let call, let detail) = error else { return }
            #expect(path == junk.path && call == "H5Fopen")
            #expect(!detail.isEmpty, "HDF5's own explanation is read from its error stack")
            #expect(error.description == "\(junk.path): H5Fopen failed: \(detail)")
            let reported = FeatureFileError(error)
            #expect(reported == .hdf5(path: junk.path, call: "H5Fopen", detail: detail))
            #expect(reported.description == error.description)
        }
    }

    /// A failing call about a named object names the object.
    @Test func failedCallNamesTheObject() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let url = folder.file("empty.h5")
        let file = try HDF5Handle.createFile(path: url.path)
        #expect(throws: HDF5Error.self) { try file.openDataset("noisy") }
        do {
            _ = try file.openGroup("stats")
        } catch {
            #expect(error.description.hasPrefix("\(url.path): H5Gopen2(stats) failed"))
        }
    }
}
