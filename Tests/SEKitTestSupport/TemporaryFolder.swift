import Foundation

/// A fresh temporary folder for one test (`sekit-test-UUID` in the system's temporary folder),
/// removed by the caller with `cleanup()` (usually `defer { folder.cleanup() }`).
public struct TemporaryFolder: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sekit-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file or folder inside, as a URL.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }
    /// A file or folder inside, as a path.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    public func cleanup() { try? FileManager.default.removeItem(at: url) }

    /// Writes a mono 16 kHz PCM16 WAV `name` of `frames` frames of a ramp that `seed` shifts (files
    /// with different seeds have different bytes and hashes).
    public func writeWAV(_ name: String, frames: Int = 1600, seed: Int = 0) throws {
        let samples = (0..<frames).map { Int16(bitPattern: UInt16(truncatingIfNeeded: ($0 * 37 + seed * 1009) % 20_000)) }
        try TestWAV.writePCM16(samples, sampleRate: 16_000, to: file(name))
    }
}
