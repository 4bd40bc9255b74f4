import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Writing onto a full disk: a clear error, no crash, nothing left behind. Uses a 1 MiB tmpfs
/// (root can mount one; where mounting is not permitted the test says so and does nothing).
@Suite(.serialized) struct FullDiskTests {
    /// Mounts a tmpfs of `size` at a new folder; nil when this process may not mount.
    static func mountTmpfs(size: String) -> URL? {
        let point = FileManager.default.temporaryDirectory.appendingPathComponent("sekit-full-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: point, withIntermediateDirectories: true)
        guard mount("tmpfs", point.path, "tmpfs", 0, "size=\(size)") == 0 else {
            try? FileManager.default.removeItem(at: point)
            return nil
        }
        return point
    }

    static func unmount(_ point: URL) {
        umount2(point.path, Int32(MNT_DETACH))
        try? FileManager.default.removeItem(at: point)
    }

    @Test(.enabled(if: getuid() == 0, "mounting a small tmpfs needs root"))
    func featuresOnAFullDiskFailsCleanly() throws {
        guard let disk = Self.mountTmpfs(size: "1m") else {
            Issue.record("root but mount(2) of a tmpfs was refused here; the full-disk case could not be checked")
            return
        }
        defer { Self.unmount(disk) }
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for i in 0..<3 { try folder.writeWAV("speech/u\(i).wav", frames: 32_000, seed: i) }
        try folder.writeWAV("noise/n.wav", frames: 48_000, seed: 9)
        let mix = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "8",
                                       "--seconds", "2", "--out", folder.path("corpus"), "--no-catalog"])
        #expect(mix.status == 0, "\(mix.stderr)")
        let output = disk.appendingPathComponent("features.h5").path
        let result = try SEKitBinary.run(["features", "--corpus", folder.path("corpus"), "--out", output,
                                          "--targets", "clean,noise,irm,ibm,psm,noisy_phase", "--no-catalog"])
        #expect(result.status == 1, "exit \(result.status) (139 is the crash this guards against): \(result.stderr.suffix(400))")
        #expect(result.stderr.contains("no space left on device"), "\(result.stderr.suffix(400))")
        let left = try FileManager.default.contentsOfDirectory(atPath: disk.path).filter { !$0.hasSuffix(".lock") }
        #expect(left.isEmpty, "left behind: \(left)")
    }
}
