import Foundation

/// The model files `sekit enhance --model` names: paths, or globs (`*` and `?` in the file name,
/// expanded here when the shell left them quoted), in the order given, each glob's matches sorted.
public enum ModelFiles {
    /// The suffix of a streaming companion (`NAME.stream.onnx` beside `NAME.onnx`), which `--streaming`
    /// runs beside its whole-utterance model and which is never a model of its own.
    public static let streamingSuffix = ".stream.onnx"

    /// The files of `arguments`, and the streaming companions (`*.stream.onnx`) a glob matched, set
    /// aside: `'runs/crnn/epoch-*.onnx'` names each epoch's model once, not its streaming file too.
    /// A companion named as a path is kept (and refused when loaded, with the reason).
    /// - Throws: ``ModelError/unreadable(path:reason:)`` for a glob that matches nothing (or only
    ///   companions), or two models of one name (their outputs would share `--out DIR/NAME/`).
    public static func expand(_ arguments: [String]) throws(ModelError) -> (files: [URL], setAside: [URL]) {
        var files: [URL] = [], setAside: [URL] = []
        for argument in arguments {
            let url = URL(fileURLWithPath: argument)
            let pattern = url.lastPathComponent
            guard pattern.contains("*") || pattern.contains("?") else { files.append(url); continue }
            let folder = url.deletingLastPathComponent()
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
                .filter { matches(Array($0), Array(pattern)) }.sorted()
            guard !names.isEmpty else { throw .unreadable(path: argument, reason: "no file matches") }
            for name in names {
                let file = folder.appendingPathComponent(name)
                let companion = name.hasSuffix(streamingSuffix) && !pattern.hasSuffix(streamingSuffix)
                if companion { setAside.append(file) } else { files.append(file) }
            }
        }
        if files.isEmpty, let first = setAside.first {
            throw .unreadable(path: first.path, reason: "the glob matches only streaming models (NAME.stream.onnx); "
                              + "name the whole-utterance models (NAME.onnx) and add --streaming")
        }
        let byName = Dictionary(grouping: files) { $0.deletingPathExtension().lastPathComponent }
        if let (name, same) = byName.first(where: { $0.value.count > 1 }) {
            throw .unreadable(path: same.map(\.path).joined(separator: ", "),
                              reason: "several models named \(name) would all write --out DIR/\(name)/; rename them")
        }
        return (files, setAside)
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
