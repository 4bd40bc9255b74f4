import Foundation

/// The model files `sekit enhance --model` names: paths, or globs (`*` and `?` in the file name,
/// expanded here when the shell left them quoted), in the order given, each glob's matches sorted.
public enum ModelFiles {
    /// The files of `arguments`.
    /// - Throws: ``ModelError/unreadable(path:reason:)`` for a glob that matches nothing, or two
    ///   models of one name (their outputs would share `--out DIR/NAME/`).
    public static func expand(_ arguments: [String]) throws(ModelError) -> [URL] {
        var files: [URL] = []
        for argument in arguments {
            let url = URL(fileURLWithPath: argument)
            let pattern = url.lastPathComponent
            guard pattern.contains("*") || pattern.contains("?") else { files.append(url); continue }
            let folder = url.deletingLastPathComponent()
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { matches(Array($0), Array(pattern)) }.sorted()
            guard !names.isEmpty else { throw .unreadable(path: argument, reason: "no file matches") }
            files += names.map { folder.appendingPathComponent($0) }
        }
        let byName = Dictionary(grouping: files) { $0.deletingPathExtension().lastPathComponent }
        if let (name, same) = byName.first(where: { $0.value.count > 1 }) {
            throw .unreadable(path: same.map(\.path).joined(separator: ", "),
                              reason: "several models named \(name) would all write --out DIR/\(name)/; rename them")
        }
        return files
    }

    /// Whether `name` matches `pattern` (`*`: any run of characters, `?`: one character).
    static func matches(_ name: [Character], _ pattern: [Character]) -> Bool {
        var reachable = [Bool](repeating: false, count: name.count + 1)
        reachable[0] = true
        for p in pattern {
            var next = [Bool](repeating: false, count: name.count + 1)
            for i in 0...name.count where reachable[i] {
                if p == "*" {
                    for j in i...name.count { next[j] = true }
                    break
                }
                if i < name.count && (p == "?" || p == name[i]) { next[i + 1] = true }
            }
            reachable = next
        }
        return reachable[name.count]
    }
}
