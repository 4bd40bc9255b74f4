import Foundation

/// `sekit runs log RUN --jsonl`: lines of ``RunLogLine`` read from a file or a pipe and recorded
/// into one running run, as they come.
///
/// Guarantee: whatever has been read is committed before the stream waits for more input, and
/// before any line is acknowledged. Each read returns what the writer has written so far (a pipe)
/// or a block of the file; its complete lines are recorded in one transaction (a savepoint per
/// line), so a writer that logs one line and waits finds it committed, and a file of 10,000 lines
/// is written in a few transactions. A writer killed between lines loses nothing it wrote: the
/// stream reads what is left, commits it and ends at the end of input. Only lines read by a stream
/// process that is itself killed before committing them are lost; none of them was acknowledged.
public struct RunLogStream {
    /// What the stream recorded.
    public struct Summary: Sendable, Equatable {
        /// Lines read (blank lines not counted).
        public var lines = 0
        /// Lines recorded.
        public var recorded = 0
        /// Lines refused, with their line numbers and why (`RunsError.logLine(line:reason:)`).
        public var refused: [(line: Int, error: RunsError)] = []

        public static func == (a: Summary, b: Summary) -> Bool {
            a.lines == b.lines && a.recorded == b.recorded && a.refused.map(\.line) == b.refused.map(\.line)
        }
    }

    public let catalog: Catalog
    public let run: RunID

    /// How much of a file one transaction records at most (about 13,000 lines of 5 metrics).
    static let fileBlockBytes = 1 << 20

    public init(catalog: Catalog, run: RunID) {
        self.catalog = catalog; self.run = run
    }

    /// Reads `input` to its end, recording each line as described on the type; `answer` is called
    /// once per line, in order, after its transaction committed (nil: recorded; else why refused).
    /// `isRegularFile`: `input` is a file (read a MiB at a time: a file never makes the stream wait),
    /// not a pipe or a terminal (read what is there, as it comes).
    /// - Throws: `RunsError.catalog(_:)` carrying `CatalogError.unknownRun(path:id:reason:)` when the
    ///   run stops being `running` (lines of the block being recorded are answered with it first), or
    ///   the catalogue's error when SQLite fails; `RunsError.file(path:reason:)` when a file cannot be read.
    public func record(from input: FileHandle, isRegularFile: Bool = false,
                       answer: (_ line: Int, _ refusal: RunsError?) -> Void = { _, _ in }) throws(RunsError) -> Summary {
        var summary = Summary()
        var pending = Data()
        var lineNumber = 0
        while true {
            // The next block of a file, or what a pipe holds now (waiting only when it is empty).
            var block = Data()
            if !isRegularFile {
                block = input.availableData
            } else {
                do {
                    block = try input.read(upToCount: Self.fileBlockBytes) ?? Data()
                } catch {
                    throw .file(path: "--jsonl", reason: "cannot read the lines to log: \(error.localizedDescription)")
                }
            }
            pending.append(block)
            // At the end of input, a last line without its newline counts too.
            let end = block.isEmpty ? pending.endIndex : (pending.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? pending.startIndex)
            if end > pending.startIndex {
                try recordLines(pending[pending.startIndex..<end], firstLine: &lineNumber, summary: &summary, answer: answer)
                pending.removeSubrange(pending.startIndex..<end)
            }
            if block.isEmpty { return summary }
        }
    }

    /// Records the complete lines of `bytes` in one transaction and answers them in order.
    private func recordLines(_ bytes: Data, firstLine lineNumber: inout Int, summary: inout Summary,
                             answer: (Int, RunsError?) -> Void) throws(RunsError) {
        var numbers: [Int] = []
        var parsed: [Result<RunLogEntry, RunsError>] = []
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        if bytes.last == UInt8(ascii: "\n") { lines.removeLast() }  // the empty text after the last newline
        for line in lines {
            lineNumber += 1
            guard !line.allSatisfy(\.isWhitespace) else { continue }
            numbers.append(lineNumber)
            do {
                parsed.append(.success(try RunLogLine.parse(line, lineNumber: lineNumber)))
            } catch {
                parsed.append(.failure(error))
            }
        }
        guard !numbers.isEmpty else { return }
        let entries = parsed.compactMap { try? $0.get() }
        let outcomes: [CatalogError?]
        do {
            outcomes = try catalog.log(entries, to: run)
        } catch {
            let failure = RunsError.catalog(error)
            for number in numbers { answer(number, failure) }
            throw failure
        }
        var recorded = outcomes.makeIterator()
        for (number, item) in zip(numbers, parsed) {
            var refusal: RunsError?
            switch item {
            case .success: refusal = (recorded.next() ?? nil).map { .logLine(line: number, reason: "\($0)") }
            case .failure(let error): refusal = error
            }
            if let refusal { summary.refused.append((number, refusal)) } else { summary.recorded += 1 }
            summary.lines += 1
            answer(number, refusal)
        }
    }
}
