import Foundation

/// SEKit's Python worker module (`Sources/SEKit/Resources/sekit_metric_worker.py`) and the packages it
/// needs (`metric-worker-requirements.txt`), compiled into the library, so that a `sekit` binary
/// copied anywhere (`scripts/install.sh`) runs the metrics that need it without the source tree.
///
/// The interpreter runs a file, so the module is written once per content to the user's cache
/// folder (`$XDG_CACHE_HOME/sekit`, else `~/.cache/sekit`, else the temporary folder), named by
/// its SHA-256: `sekit_metric_worker-HASH.py`. Builds of different versions never share a file.
public enum PythonWorkerModule {
    /// The module's source, as built into this binary.
    public static var source: Data { Data(PackageResources.sekit_metric_worker_py) }

    /// The worker's packages, one requirement a line, as pip reads them (`pesq==0.0.4`).
    public static var requirements: [String] {
        String(decoding: PackageResources.metric_worker_requirements_txt, as: UTF8.self)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The module as a file the interpreter can run: written (atomically) on first use in the
    /// first cache folder that takes it. Nil when no folder can be written.
    public static func file(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        let bytes = source
        var digest = SHA256()
        digest.update(bytes)
        let hash = digest.finalize().prefix(8).map { String(format: "%02x", $0) }.joined()
        let name = "sekit_metric_worker-\(hash).py"
        for folder in cacheFolders(environment) {
            let url = folder.appendingPathComponent(name)
            if let existing = try? Data(contentsOf: url), existing == bytes { return url }
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try AtomicFile.write(bytes, to: url)
                return url
            } catch {
                continue
            }
        }
        return nil
    }

    /// Where the module may be written, in order of preference.
    static func cacheFolders(_ environment: [String: String]) -> [URL] {
        var folders: [URL] = []
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            folders.append(URL(fileURLWithPath: cache).appendingPathComponent("sekit"))
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            folders.append(URL(fileURLWithPath: home).appendingPathComponent(".cache/sekit"))
        }
        folders.append(URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("sekit-\(getuid())"))
        return folders
    }
}
