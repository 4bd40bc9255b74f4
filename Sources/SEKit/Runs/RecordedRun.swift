import Foundation

/// Where and how a command records its work: the catalogue (nil with `--no-catalog`), the
/// command line to store, and an optional run name. Library entry points that produce
/// something (`mix`, `features`, `synthesize`, `score`, ...) take one and record their run.
public struct RunContext: Sendable {
    /// The catalogue to record into; nil records nothing.
    public var catalog: Catalog?
    /// The arguments, `argv[0]` first (stored shell-quoted).
    public var commandLine: [String]
    /// The run's name; nil lets the command choose (an output folder's name, a checkpoint).
    public var name: String?
    /// Parameters the user adds to the command's own (`--param KEY=VALUE`); a key the command
    /// records itself is refused.
    public var extraParams: [String: String] = [:]
    /// Tags of the run (`--tag KEY=VALUE`).
    public var tags: [String: String] = [:]
    /// The process the run belongs to (nil: this one); see `Catalog.beginRun(kind:name:commandLine:params:parent:tags:pid:)`.
    public var ownerPID: Int?

    public init(catalog: Catalog?, commandLine: [String] = CommandLine.arguments, name: String? = nil) {
        self.catalog = catalog; self.commandLine = commandLine; self.name = name
    }

    /// The process that started this one: the owner of a run begun for a script (`sekit runs start`).
    public static var parentProcessID: Int { ProcessProbe.parentPID }

    /// A context that records nothing.
    public static let unrecorded = RunContext(catalog: nil, commandLine: [])
}

/// One command's run in the catalogue, from begin to finish: the single run lifecycle every
/// command that produces something goes through.
///
/// Status policy (the same for every kind of run):
/// - `finished`: the command completed its work. Items it could not process (clips that could
///   not be mixed, scored or synthesised; files that could not be imported) are counted in the
///   run's parameters (`clips_failed`, `files_failed`, ...) with their reasons where useful, and
///   the command exits non-zero; the run is still `finished`, because what it produced is complete
///   and recorded.
/// - `failed`: the command itself failed (bad input discovered mid-way, a write error, an
///   exception): ``fail(_:)`` stores the error. A command killed while running leaves its run
///   `running`; `sekit catalog check` (or the next run of the same command on this host) marks it
///   `failed` once its process is gone.
///
/// Without a catalogue (``RunContext/unrecorded`` or `catalog == nil`) every method is a no-op,
/// so commands are written once for both cases.
public final class RecordedRun: @unchecked Sendable {
    /// The catalogue recorded into (nil: nothing is recorded).
    public let catalog: Catalog?
    /// The run's id (nil when nothing is recorded).
    public let id: RunID?
    /// Whether an earlier run was taken up again (``reopen(_:in:params:)``).
    public let reopened: Bool
    private let lock = NSLock()
    private var ended = false

    private init(catalog: Catalog?, id: RunID?, reopened: Bool) {
        self.catalog = catalog; self.id = id; self.reopened = reopened
    }

    /// Starts a run (`running`) with its parameters, or a no-op run without a catalogue.
    /// - Parameters:
    ///   - name: the run's name when the context gives none.
    ///   - params: parameters; values that spell finite numbers are also stored as numbers.
    ///   - parent: the run this one derives from (a features run's mix run, ...).
    /// - Throws: `RunsError.invalidParameter(name:value:reason:)` for a `pid` of no live process or a
    ///   `param` the command records itself; the catalogue's errors as `RunsError.catalog(_:)`.
    public static func begin(_ context: RunContext, kind: RunKind, name: String, params: [String: String],
                             parent: RunID? = nil) throws(RunsError) -> RecordedRun {
        guard let catalog = context.catalog else { return RecordedRun(catalog: nil, id: nil, reopened: false) }
        if let pid = context.ownerPID, !ProcessProbe.isAlive(pid: pid) {
            throw .invalidParameter(name: "pid", value: "\(pid)", reason: "no such process on this host; a run belongs to a live process")
        }
        if let key = context.extraParams.keys.sorted().first(where: { params[$0] != nil }) {
            throw .invalidParameter(name: "param", value: "\(key)=\(context.extraParams[key]!)",
                                    reason: "the command records \(key) itself (\(params[key]!)); choose another key")
        }
        let id: RunID
        do {
            id = try catalog.beginRun(kind: kind, name: context.name ?? name, commandLine: context.commandLine,
                                      params: params.merging(context.extraParams) { own, _ in own }, parent: parent,
                                      tags: context.tags, pid: context.ownerPID)
        } catch { throw .catalog(error) }
        return RecordedRun(catalog: catalog, id: id, reopened: false)
    }

    /// Takes up run `id` again (an interrupted command run again continues the same work, so its
    /// outputs stay under one run) and replaces the parameters given.
    /// - Returns: nil when the catalogue has no such run (begin a new one then).
    /// - Throws: `RunsError.catalog(_:)` when the run is still running under a live process on this
    ///   host, or the catalogue fails.
    public static func reopen(_ id: RunID, in catalog: Catalog, params: [String: String]) throws(RunsError) -> RecordedRun? {
        let reopened: Bool
        do { reopened = try catalog.reopenRun(id) } catch { throw .catalog(error) }
        guard reopened else { return nil }
        let run = RecordedRun(catalog: catalog, id: id, reopened: true)
        try run.setParams(params)
        return run
    }

    /// Adds or replaces parameters.
    /// - Throws: the catalogue's errors as `RunsError.catalog(_:)`.
    public func setParams(_ params: [String: String]) throws(RunsError) {
        guard let catalog, let id, !params.isEmpty else { return }
        do { try catalog.setParams(params, of: id) } catch { throw .catalog(error) }
    }

    /// Records a file the run produced (hashed now), under `recordedPath` when given (a file
    /// recorded under its final name just before its temporary name is renamed to it).
    /// - Throws: the catalogue's errors (the file unreadable, SQLite) as `RunsError.catalog(_:)`.
    public func recordArtifact(fileAt url: URL, kind: String, recordedPath: URL? = nil) throws(RunsError) {
        guard let catalog, let id else { return }
        do { try catalog.recordArtifact(run: id, fileAt: url, kind: kind, recordedPath: recordedPath) } catch { throw .catalog(error) }
    }

    /// Ends the run `finished`, after setting `params` (the counts of what it did and of the items
    /// it could not process).
    /// - Throws: the catalogue's errors as `RunsError.catalog(_:)`.
    public func finish(params: [String: String] = [:]) throws(RunsError) {
        guard let catalog, let id else { return }
        try setParams(params)
        lock.lock()
        defer { lock.unlock() }
        guard !ended else { return }
        do { try catalog.finishRun(id) } catch { throw .catalog(error) }
        ended = true
    }

    /// Ends the run `failed` with `error` as the reason. Never throws: a command that is failing
    /// reports its own error, not a second one about recording it.
    public func fail(_ error: Error) {
        guard let catalog, let id else { return }
        lock.withLock {
            guard !ended else { return }
            try? catalog.finishRun(id, status: .failed, error: "\(error)")
            ended = true
        }
    }

    /// Runs `body`; if it throws, the run is marked failed with the error, which is rethrown.
    public func failing<T, E: Error>(on body: () throws(E) -> T) throws(E) -> T {
        do { return try body() } catch {
            fail(error)
            throw error
        }
    }

    /// "catalogue: PATH, run ID" for the command's output, or nil when nothing was recorded.
    public var summaryLine: String? {
        guard let catalog, let id else { return nil }
        return "catalogue: \(catalog.url.path), run \(id)\(reopened ? " (resumed)" : "")"
    }
}
