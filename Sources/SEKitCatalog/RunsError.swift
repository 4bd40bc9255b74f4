import SEKitSignal

/// Errors from recording runs (`RecordedRun`, `sekit runs log`) and folding shard runs
/// (`sekit catalog merge`): each names the parameter, line, shard catalogue or file at fault.
/// What the catalogue underneath refuses (SQLite, an unknown run, a merge conflict) is its own
/// error, carried unchanged in ``catalog(_:)``.
public enum RunsError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A parameter value is invalid (name, value, what is wrong): a `--pid` of no live process, a
    /// `--param` the command records itself, a merge's output created by another process.
    case invalidParameter(name: String, value: String, reason: String)
    /// A line of a `sekit runs log --jsonl` stream that was refused (1-based line number, why).
    case logLine(line: Int, reason: String)
    /// `catalog merge`: shard runs that cannot fold into one run (a shard missing or given twice,
    /// shards of different commands, a shard not finished); `path` is the shard catalogue at fault.
    case shardMismatch(path: String, reason: String)
    /// A file could not be read or written (the lines to log, a merge's output folder).
    case file(path: String, reason: String)
    /// The catalogue's own error (storage, run references, merge conflicts), with its message unchanged.
    case catalog(CatalogError)

    /// Short machine-readable code, stable across releases (the catalogue's own for ``catalog(_:)``).
    public var code: String {
        switch self {
        case .invalidParameter: "invalid-parameter"
        case .logLine: "log-line"
        case .shardMismatch: "shard-mismatch"
        case .file: "file"
        case .catalog(let error): error.code
        }
    }

    public var description: String {
        switch self {
        case .invalidParameter(let name, let value, let reason): "invalid \(name) = \(value): \(reason)"
        case .logLine(let line, let reason): "line \(line): \(reason)"
        case .shardMismatch(let path, let reason): "\(path): \(reason); nothing was merged"
        case .file(let path, let reason): "\(path): \(reason)"
        case .catalog(let error): error.description
        }
    }
}
