import Foundation

/// SEKit's Python worker module (`Sources/SEKit/Resources/sekit_metric_worker.py`) and the packages it
/// needs (`metric-worker-requirements.txt`), compiled into the library, so that a `sekit` binary
/// copied anywhere (`scripts/install.sh`) runs the metrics that need it without the source tree.
///
/// The interpreter runs a file, so the module is written, when a worker first starts, to the user's
/// cache folder (`$XDG_CACHE_HOME/sekit`, else `~/.cache/sekit`; the temporary folder when that cannot
/// take it), named by its SHA-256: `sekit_metric_worker-HASH.py`. Builds of different versions never
/// share a file, and a scoring without Python metrics writes nothing.
public enum PythonWorkerModule {
    /// The module's source, as built into this binary.
    public static var source: Data { Data(PackageResources.sekit_metric_worker_py) }

    /// The worker's packages, one requirement a line, as pip reads them (`pesq==0.0.4`).
    public static var requirements: [String] {
        String(decoding: PackageResources.metric_worker_requirements_txt, as: UTF8.self)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// `sekit_metric_worker-HASH.py`, HASH the first 16 hexadecimal digits of the source's SHA-256.
    public static let fileName: String = {
        var digest = SHA256()
        digest.update(source)
        return "sekit_metric_worker-" + digest.finalize().prefix(8).map { String(format: "%02x", $0) }.joined() + ".py"
    }()

    /// Where the module runs from: ``fileName`` in the user's cache folder. Nothing is read or
    /// written here; ``runnable(_:)`` writes it when a worker starts.
    public static func defaultFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        cacheFolder(environment).appendingPathComponent(fileName)
    }

    /// The file a worker runs for `url`: when `url` is the module's file (``defaultFile(environment:)``),
    /// the module written there (atomically) unless it already is, or in the temporary folder when
    /// that folder cannot take it; nil when neither can. Any other file (`$SEKIT_METRIC_WORKER`) as it is.
    static func runnable(_ url: URL) -> URL? {
        guard url.lastPathComponent == fileName else { return url }
        let bytes = source
        for folder in [url.deletingLastPathComponent(), temporaryFolder] {
            let file = folder.appendingPathComponent(fileName)
            if let existing = try? Data(contentsOf: file), existing == bytes { return file }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try AtomicFile.write(bytes, to: file)
                return file
            } catch {
                continue
            }
        }
        return nil
    }

    /// `$XDG_CACHE_HOME/sekit`, else `~/.cache/sekit`, else the temporary folder's.
    static func cacheFolder(_ environment: [String: String]) -> URL {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return URL(fileURLWithPath: cache).appendingPathComponent("sekit")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return URL(fileURLWithPath: home).appendingPathComponent(".cache/sekit")
        }
        return temporaryFolder
    }

    /// The fallback folder: `sekit-UID` in the system's temporary folder.
    static var temporaryFolder: URL {
        URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("sekit-\(getuid())")
    }
}
