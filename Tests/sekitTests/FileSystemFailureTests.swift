import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Writing onto a full or read-only disk: a clear error, no crash, nothing left behind. Uses a 1 MiB tmpfs
/// (root can mount one; where mounting is not permitted the test says so and does nothing).
@Suite(.serialized) struct FileSystemFailureTests {
    /// Mounts a tmpfs of `size` at a new folder (read-only with `readOnly`); nil when this
    /// process may not mount.
    static func mountTmpfs(size: String, readOnly: Bool = false) -> URL? {
        let point = FileManager.default.temporaryDirectory.appendingPathComponent("sekit-full-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: point, withIntermediateDirectories: true)
        guard mount("tmpfs", point.path, "tmpfs", readOnly ? UInt(MS_RDONLY) : 0, "size=\(size)") == 0 else {
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

    /// Outputs on a read-only file system: each command names the path and the reason (a raw
    /// "NSCocoaErrorDomain Code=642" before), exits 1, and leaves nothing.
    @Test(.enabled(if: getuid() == 0, "mounting a read-only tmpfs needs root"))
    func outputsOnAReadOnlyFileSystemNameThePath() throws {
        guard let disk = Self.mountTmpfs(size: "1m", readOnly: true) else {
            Issue.record("root but mount(2) of a tmpfs was refused here; the read-only case could not be checked")
            return
        }
        defer { Self.unmount(disk) }
        let folder = try CatalogCLIFolder(); defer { folder.cleanup() }
        for i in 0..<2 { try folder.writeWAV("speech/u\(i).wav", frames: 16_000, seed: i) }
        try folder.writeWAV("noise/n.wav", frames: 24_000, seed: 9)
        let mixOut = disk.appendingPathComponent("corpus").path
        let mix = try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "2",
                                       "--seconds", "0.5", "--out", mixOut, "--no-catalog"])
        #expect(mix.status == 1 && mix.stderr.contains("\(mixOut)/.sekit: cannot create the folder"), "\(mix.stderr)")
        #expect(try SEKitBinary.run(["mix", "--speech", folder.path("speech"), "--noise", folder.path("noise"), "--count", "2",
                                     "--seconds", "0.5", "--out", folder.path("corpus"), "--no-catalog"]).status == 0)
        let features = try SEKitBinary.run(["features", "--corpus", folder.path("corpus"), "--out",
                                            disk.appendingPathComponent("f.h5").path,
                                            "--no-catalog"])
        #expect(features.status == 1 && features.stderr.contains("\(disk.path)/.f.h5.lock")
                    && features.stderr.contains("Read-only file system"),
                "\(features.stderr)")
        let score = try SEKitBinary.run(["score", "--corpus", folder.path("corpus"), "--metrics", "snr",
                                         "--per-clip", disk.appendingPathComponent("s.csv").path, "--no-catalog"])
        #expect(score.status == 1 && score.stderr.contains("Read-only file system"), "\(score.stderr)")
        for result in [mix, features, score] { #expect(!result.stderr.contains("NSCocoaErrorDomain")) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }
}
