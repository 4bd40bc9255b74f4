import Foundation

/// Which clips a synthesis writes and where each clip's predictions are: rows of the predictions
/// dataset. Predictions come in three shapes:
/// - the feature file's rows, every clip in its order (`[total_frames, bins]`, no `/index` or a
///   copy of the feature file's);
/// - with `--split S` and no `/index`: the rows of split S's clips only, packed in file order;
/// - with an `/index` of their own (`sekit.predictions.write_predictions`): any clips of the
///   feature file, matched by clip id, each with exactly its frames.
struct PredictionPlan {
    struct Item {
        let clip: FeatureClip
        /// Rows of the predictions dataset holding this clip's frames.
        let rows: Range<Int>
    }

    /// The clips to write, in the feature file's order.
    let items: [Item]

    /// Plans the synthesis of `features`'s clips of `split` (nil: every split) and `shard` (the
    /// clip's position `k` in the feature file) from `predictions`.
    /// - Throws: ``FeatureFileError/predictionsMismatch(path:reason:)`` naming the clip and the
    ///   numbers when the predictions do not fit the feature file; before anything is written.
    static func make(predictions: PredictionMatrix, features: FeatureFileReader, bins: Int, split: String?,
                     shard: Shard) throws -> PredictionPlan {
        let path = predictions.url.path, shape = "/\(predictions.dataset) is [\(predictions.rows), \(predictions.columns)]"
        func mismatch(_ reason: String) -> FeatureFileError {
            .predictionsMismatch(path: path, features: features.url.path, reason: reason)
        }
        guard predictions.columns == bins else { throw mismatch("\(shape); the feature file has \(bins) bins a frame") }
        let clips = Array(features.clips.enumerated())
        func wanted(_ k: Int, _ clip: FeatureClip) -> Bool { shard.contains(k) && (split == nil || clip.split == split) }
        if let split, !features.clips.contains(where: { $0.split == split }) {
            let known = Set(features.clips.map(\.split)).sorted().joined(separator: ", ")
            throw FeatureFileError.invalidParameter(name: "split", value: split,
                                                    reason: "no clip of the feature file has it (splits: \(known))")
        }
        let samePath = predictions.url.standardizedFileURL.path == features.url.standardizedFileURL.path
        let own = samePath || !predictions.hasIndex ? nil : try FeatureFileReader(url: predictions.url, verifyingShards: false).clips
        if let own, own != features.clips {
            return try byClipID(own, clips: clips, rows: predictions.rows, wanted: wanted, mismatch: mismatch)
        }
        let total = features.clips.reduce(0) { $0 + $1.numFrames }
        if predictions.rows == total {
            let items = clips.filter { wanted($0.offset, $0.element) }.map { Item(clip: $0.element, rows: $0.element.frameRange) }
            return PredictionPlan(items: items)
        }
        let splitClips = split.map { s in clips.filter { $0.element.split == s } } ?? []
        let splitRows = splitClips.reduce(0) { $0 + $1.element.numFrames }
        if split != nil, own == nil, predictions.rows == splitRows {
            var items: [Item] = [], row = 0
            for (k, clip) in splitClips {
                if shard.contains(k) { items.append(Item(clip: clip, rows: row..<row + clip.numFrames)) }
                row += clip.numFrames
            }
            return PredictionPlan(items: items)
        }
        var expected = "[\(total), \(bins)] (every clip of the feature file, in its order)"
        if let split { expected += ", [\(splitRows), \(bins)] (the \(splitClips.count) clips of split '\(split)', in file order)" }
        throw mismatch("\(shape); expected \(expected), or an /index naming its clips (sekit.predictions.write_predictions)")
    }

    /// Predictions with an index of their own: each clip found in the feature file by id, with
    /// exactly its frames.
    private static func byClipID(_ own: [FeatureClip], clips: [(offset: Int, element: FeatureClip)], rows: Int,
                                 wanted: (Int, FeatureClip) -> Bool, mismatch: (String) -> FeatureFileError) throws -> PredictionPlan {
        let position = Dictionary(clips.map { ($0.element.clipID, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var ranges: [Int: Range<Int>] = [:]
        for clip in own {
            guard let k = position[clip.clipID] else {
                throw mismatch("clip '\(clip.clipID)' of its /index is not in the feature file")
            }
            let expected = clips[k].element.numFrames
            guard clip.numFrames == expected else {
                throw mismatch("clip '\(clip.clipID)' has \(clip.numFrames) frames; the feature file has \(expected)")
            }
            guard clip.offset >= 0, clip.offset + clip.numFrames <= rows else {
                throw mismatch("clip '\(clip.clipID)' is rows \(clip.offset)..<\(clip.offset + clip.numFrames) of \(rows)")
            }
            guard ranges.updateValue(clip.offset..<clip.offset + clip.numFrames, forKey: k) == nil else {
                throw mismatch("clip '\(clip.clipID)' is listed twice in its /index")
            }
        }
        let items = clips.compactMap { k, clip in ranges[k].flatMap { wanted(k, clip) ? Item(clip: clip, rows: $0) : nil } }
        return PredictionPlan(items: items)
    }
}
