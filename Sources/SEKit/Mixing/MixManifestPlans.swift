import Foundation

/// The clips a manifest lists, as plans (`sekit mix --from-manifest`): a ``MixPlanner`` holding
/// them returns them instead of drawing, and the renderer makes exactly what they say.
///
/// A record's inputs (sources with offsets, lengths and positions, `snr_db_requested`, each
/// noise's `snr_db` share, `level_dbfs`, `rir`, `lowpass_hz`, `wind` seed, the degradation
/// entries' parameters, `seed`, `split`, `clip_id`, `index`, `num_samples`) make the plan; its
/// outputs (`*_realised`, gains, `clipping_scale`, `clipped_samples`, `rir_onset_samples`,
/// `lost_fraction`, `clipped_fraction`, `gustiness`, stem paths, `duration_seconds`) are
/// recomputed by the render, never read.
public struct MixManifestPlans: Sendable {
    /// The manifest's path as given.
    public var path: String
    /// SHA-256 of the manifest's bytes.
    public var sha256: String
    /// The plans, by clip index.
    public var plans: [Int: ClipPlan]
    /// The clip indices the manifest lists, ascending.
    public var indices: [Int]
}

extension MixManifestPlans {
    /// Where a source is first named: its kind and path, the line and clip naming it.
    private struct SourceUse {
        var kind: MixSource.Kind
        var path: String
        var line: Int
        var clipID: String
        var speaker: String?
    }

    /// Reads the manifest at `url` and the `mix.json` beside it (the mix's settings), checks every
    /// clip and every source (present, and the bytes `mix.json` hashed) before anything is
    /// written, and returns a planner holding the manifest's plans.
    /// - Parameter note: told when sources cannot be verified (a mix made before sources were hashed).
    /// - Throws: ``MixError/missingSource(path:kind:manifest:line:clipID:)``,
    ///   ``MixError/changedSource(path:kind:expectedSHA256:foundSHA256:)``,
    ///   ``MixError/manifestClip(manifest:line:clipID:reason:)`` and ``MixError/invalidOption(name:value:reason:)``
    ///   (option `from-manifest`) naming the file, line and problem.
    static func planner(manifest url: URL, jobs: Int, note: (String) -> Void) throws -> MixPlanner {
        let path = url.path
        func invalid(_ reason: String) -> MixError { .invalidOption(name: "from-manifest", value: path, reason: reason) }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw invalid(FilePaths.reason(error, at: path)) }
        let numbered = try MixManifestRecord.numberedRecords(String(decoding: data, as: UTF8.self), path: path)
        guard !numbered.isEmpty else { throw invalid("lists no clips") }
        let specURL = url.deletingLastPathComponent().appendingPathComponent("mix.json")
        guard let specData = FileManager.default.contents(atPath: specURL.path) else {
            throw invalid("has no mix.json beside it (\(specURL.path)); the mix's settings (sample format, clipping rule, "
                          + "crossfade, RIR alignment) are read from it: keep the manifest and its mix.json together")
        }
        let spec: MixSpecFile.Spec
        do { spec = try JSONDecoder().decode(MixSpecFile.Spec.self, from: specData) } catch {
            throw invalid("\(specURL.path) is not the mix.json of a mix: \(error)")
        }
        let options = spec.options
        var indices = Set<Int>(), clipIDs = Set<String>()
        for (line, record) in numbered {
            func fail(_ reason: String) -> MixError { .manifestClip(manifest: path, line: line, clipID: record.clipID, reason: reason) }
            if let reason = ManifestClipCheck.problem(record, options: options) { throw fail(reason) }
            guard indices.insert(record.index).inserted else { throw fail("clip index \(record.index) is listed twice") }
            guard clipIDs.insert(record.clipID).inserted else { throw fail("clip id \(record.clipID) is listed twice") }
        }
        let uses = sourceUses(numbered)
        for use in uses where !FileManager.default.fileExists(atPath: use.path) {
            throw MixError.missingSource(path: use.path, kind: use.kind.rawValue, manifest: path, line: use.line, clipID: use.clipID)
        }
        let sources = try describe(uses, spec: spec, manifest: path, jobs: jobs, note: note)
        var sorted: [MixSource.Kind: [MixSource]] = [:]
        var position: [MixSource.Kind: [String: Int]] = [:]
        for kind in MixSource.Kind.allCases {
            let list = sources.filter { $0.kind == kind }.sorted { ($0.key, $0.path) < ($1.key, $1.path) }
            sorted[kind] = list
            position[kind] = Dictionary(uniqueKeysWithValues: list.enumerated().map { ($1.path, $0) })
        }
        var plans: [Int: ClipPlan] = [:]
        for (line, record) in numbered {
            do {
                plans[record.index] = try ManifestClipCheck.plan(of: record, options: options, speech: sorted[.speech]!,
                                                                 noise: sorted[.noise]!, rirs: sorted[.rir]!, position: position)
            } catch let problem as ManifestClipCheck.Problem {
                throw MixError.manifestClip(manifest: path, line: line, clipID: record.clipID, reason: problem.reason)
            }
        }
        let manifest = MixManifestPlans(path: path, sha256: SHA256.hex(of: data), plans: plans, indices: plans.keys.sorted())
        return MixPlanner(manifest: manifest, options: options, speech: sorted[.speech]!, noise: sorted[.noise]!, rirs: sorted[.rir]!)
    }

    /// Each source the manifest names, once (kind and path), where it is first named.
    private static func sourceUses(_ numbered: [(line: Int, record: MixManifestRecord)]) -> [SourceUse] {
        var uses: [SourceUse] = [], seen = Set<String>()
        func add(_ kind: MixSource.Kind, _ source: String, _ line: Int, _ record: MixManifestRecord, speaker: String? = nil) {
            if seen.insert("\(kind.rawValue)\t\(source)").inserted {
                uses.append(SourceUse(kind: kind, path: source, line: line, clipID: record.clipID, speaker: speaker))
            }
        }
        for (line, record) in numbered {
            for piece in record.speechSources { add(.speech, piece.path, line, record, speaker: piece.speaker) }
            for piece in record.noiseSources { add(.noise, piece.path, line, record) }
            if let rir = record.rir { add(.rir, rir, line, record) }
        }
        return uses
    }

    /// The sources as the planner takes them: header read and bytes hashed (in parallel), each
    /// hash checked against the one `mix.json` records for that path; keyed as the mix keyed them.
    private static func describe(_ uses: [SourceUse], spec: MixSpecFile.Spec, manifest: String, jobs: Int,
                                 note: (String) -> Void) throws -> [MixSource] {
        let described = try ParallelMap.map(uses, jobs: jobs) { use -> (info: AudioFileInfo, sha256: String) in
            let url = URL(fileURLWithPath: use.path)
            do {
                return (try AudioFile.info(at: url), try SHA256.hex(ofFileAt: url))
            } catch {
                throw MixError.manifestClip(manifest: manifest, line: use.line, clipID: use.clipID,
                                            reason: "its \(use.kind.rawValue) source \(use.path) cannot be read: "
                                                + FilePaths.reason(error, at: use.path))
            }
        }
        let recorded = Dictionary((spec.sources ?? []).map { ("\($0.kind.rawValue)\t\($0.path)", $0) },
                                  uniquingKeysWith: { first, _ in first })
        var unverified: [String] = []
        var sources: [MixSource] = []
        for (use, found) in zip(uses, described) {
            let identity = recorded["\(use.kind.rawValue)\t\(use.path)"]
            if let expected = identity?.sha256 {
                guard expected == found.sha256 else {
                    throw MixError.changedSource(path: use.path, kind: use.kind.rawValue, expectedSHA256: expected,
                                                 foundSHA256: found.sha256)
                }
            } else {
                unverified.append(use.path)
            }
            var source = MixSource(kind: use.kind, path: use.path, key: identity?.key ?? use.path, speaker: use.speaker,
                                   frames: found.info.frames, sampleRate: found.info.sampleRate)
            source.sha256 = found.sha256
            sources.append(source)
        }
        if spec.sources == nil {
            note("\(manifest): its mix.json records no source hashes (a mix made before SEKit recorded them): "
                 + "the \(uses.count) sources were not verified")
        } else {
            for source in unverified { note("\(source): not among the sources mix.json records: not verified") }
        }
        return sources
    }
}
