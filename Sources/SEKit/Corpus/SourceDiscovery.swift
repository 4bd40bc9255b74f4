import Foundation

/// A source that cannot be used, and why (recorded in the run's `skipped` list).
public struct SkippedSource: Sendable, Codable, Equatable {
    public var kind: MixSource.Kind
    public var path: String
    public var reason: String
}

/// Finds the audio files a mix input names: a folder (walked recursively), a file list (one path
/// a line; `#` comments; relative paths are relative to the list), or a single audio file.
/// Catalogued corpora (`corpus:NAME`) are resolved by the caller through the catalogue.
public enum SourceDiscovery {
    /// File extensions treated as audio when walking folders (lower case).
    public static let audioExtensions: Set<String> = ["wav", "flac", "ogg", "oga", "opus", "aif", "aiff", "aifc", "au", "w64", "caf", "mp3"]
    /// Extensions read as file lists.
    public static let listExtensions: Set<String> = ["txt", "lst", "list", "scp"]

    /// Paths and keys for one input, sorted by key. The key is `<folder name>/<path inside it>`
    /// for folders, the line as written for lists, and the file name for single files, so keys do
    /// not depend on where the corpus lives or on listing order.
    /// - Throws: ``CorpusError/invalidInput(name:value:reason:)`` when the input does not exist.
    public static func files(in input: String, option: String) throws -> [(path: String, key: String)] {
        try files(in: input, option: option, unlisted: { _ in })
    }

    /// ``files(in:option:)`` that reports, through `unlisted`, each sub-folder of a folder input
    /// that cannot be listed (its files would otherwise be left out without a word).
    public static func files(in input: String, option: String, unlisted: (String) -> Void) throws -> [(path: String, key: String)] {
        try files(in: input, option: option, problem: { path, _ in unlisted(path) })
    }

    /// ``files(in:option:)`` that reports, through `problem` (path, reason), what a folder input
    /// holds that cannot be walked: a sub-folder that cannot be listed, a symbolic link to nothing,
    /// a link loop. Links to files and folders are followed (``FolderWalk``).
    public static func files(in input: String, option: String,
                             problem: (String, String) -> Void) throws -> [(path: String, key: String)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
            throw CorpusError.invalidInput(name: option, value: input, reason: "no such file or folder")
        }
        let url = URL(fileURLWithPath: input)
        if isDirectory.boolValue {
            let root = url.standardizedFileURL.path
            let base = url.standardizedFileURL.lastPathComponent
            let walk = FolderWalk.files(in: root)
            for bad in walk.problems { problem(bad.path, bad.reason) }
            let found = walk.files.filter { file in
                audioExtensions.contains((file.relative as NSString).pathExtension.lowercased())
                    && !(file.relative as NSString).lastPathComponent.hasPrefix(".")
            }.map { (path: $0.path, key: base + "/" + $0.relative) }
            guard !found.isEmpty else {
                throw CorpusError.invalidInput(name: option, value: input,
                    reason: "the folder holds no audio files (\(audioExtensions.sorted().joined(separator: ", ")), searched recursively)")
            }
            return found.sorted { $0.key < $1.key }
        }
        if listExtensions.contains(url.pathExtension.lowercased()) {
            let text: String
            do { text = try String(contentsOf: url, encoding: .utf8) } catch {
                throw CorpusError.invalidInput(name: option, value: input, reason: "cannot read list: \(error.localizedDescription)")
            }
            let folder = url.deletingLastPathComponent().path
            var found: [(String, String)] = []
            for line in text.split(whereSeparator: \.isNewline) {
                let entry = line.trimmingCharacters(in: .whitespaces)
                if entry.isEmpty || entry.hasPrefix("#") { continue }
                found.append((entry.hasPrefix("/") ? entry : folder + "/" + entry, entry))
            }
            return found.sorted { $0.1 < $1.1 }
        }
        return [(url.path, url.lastPathComponent)]
    }

    /// Extracts a speaker label from `path` with `pattern`: the first capture group, or the whole
    /// match when the pattern has no group. Nil when it does not match.
    public static func speaker(in path: String, pattern: NSRegularExpression) -> String? {
        let range = NSRange(path.startIndex..., in: path)
        guard let match = pattern.firstMatch(in: path, range: range) else { return nil }
        let group = match.numberOfRanges > 1 ? match.range(at: 1) : match.range
        guard let r = Range(group, in: path) else { return nil }
        return String(path[r])
    }
}
