import Foundation

/// A transcript file for the error rates `wer` and `cer` (`sekit score --transcripts FILE.tsv`):
/// UTF-8 text, one clip per line, `KEY<TAB>TEXT`, where KEY is the clip's id (`s1-0000003` of a mixed
/// corpus; the relative path `sub/a.wav` of a folder pair) or that id without its extension; empty
/// lines and lines starting with `#` are skipped.
///
/// A clip with no line, or with several, gets `ReferenceTranscript.unavailable(reason:)` (SEKitSignal) naming the
/// file (and the lines): its `wer` and `cer` are per-clip errors, the other metrics are scored.
public struct TranscriptFile: Sendable {
    /// Where it was read from.
    public let url: URL
    /// Its SHA-256 (recorded with the run).
    public let sha256: String
    /// Text per key; line numbers (1-based) per key.
    private let texts: [String: String]
    private let lines: [String: [Int]]

    /// Reads `url`.
    /// - Throws: ``ScoreError/invalidOption(name:value:reason:)`` naming the file when it cannot be
    ///   read, is not UTF-8, or has a line without a tab or with an empty key (the line number said).
    public init(url: URL) throws(ScoreError) {
        self.url = url
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .invalidOption(name: "--transcripts", value: url.path, reason: "cannot be read: \(error.localizedDescription)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidOption(name: "--transcripts", value: url.path, reason: "is not UTF-8 text")
        }
        var texts: [String: String] = [:], lines: [String: [Int]] = [:]
        // "\r\n" is one Character in Swift: both endings end a line.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated() {
            if line.allSatisfy(\.isWhitespace) || line.hasPrefix("#") { continue }
            guard let tab = line.firstIndex(of: "\t") else {
                throw .invalidOption(name: "--transcripts", value: url.path,
                                     reason: "line \(index + 1) has no tab: each line is KEY<TAB>TEXT "
                                         + "(clip id or relative path, then the words)")
            }
            let key = String(line[..<tab]).trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty else {
                throw .invalidOption(name: "--transcripts", value: url.path, reason: "line \(index + 1) has an empty key")
            }
            texts[key] = String(line[line.index(after: tab)...]).trimmingCharacters(in: .whitespaces)
            lines[key, default: []].append(index + 1)
        }
        self.texts = texts
        self.lines = lines
        sha256 = SHA256.hex(of: data)
    }

    /// The transcript of the clip `clipID`: its line's text (keyed by the id or by the id without its
    /// extension), or why there is none (no such line, or more than one under either key).
    public func transcript(of clipID: String) -> ReferenceTranscript {
        let stem = (clipID as NSString).deletingPathExtension
        let keys = stem == clipID ? [clipID] : [clipID, stem]
        let found = keys.flatMap { key in (lines[key] ?? []).map { (key, $0) } }.sorted { $0.1 < $1.1 }
        guard let first = found.first else { return .unavailable(reason: "\(url.path) has no line for \(clipID)") }
        guard found.count == 1 else {
            return .unavailable(reason: "\(url.path) has \(found.count) lines for \(stem) (lines "
                                + found.map { String($0.1) }.joined(separator: ", ") + ")")
        }
        return .text(texts[first.0]!)
    }
}
