import Foundation

/// A 2-D float dataset `[frames, bins]` in any HDF5 file: a model's predictions written with h5py
/// (`f.create_dataset("mask", data=pred)`), read row ranges at a time.
public final class PredictionMatrix: @unchecked Sendable {
    public let url: URL
    public let dataset: String
    public let rows: Int
    public let columns: Int
    /// The id of the run that made the predictions (root attribute `run_id`, written by
    /// `sekit.predictions.write_predictions`); empty when the file does not say.
    public let runID: String
    /// The root attribute naming the producing run.
    public static let runIDAttribute = "run_id"
    private let file: HDF5Handle
    private let handle: HDF5Handle

    /// Opens `dataset` in the file at `url`.
    /// - Throws: ``FeatureFileError/fileNotFound(path:)``, ``FeatureFileError/unknownStream(path:stream:)``
    ///   when there is no such dataset, ``FeatureFileError/notAFeatureFile(path:reason:)`` when it is not a 2-D float dataset.
    public init(url: URL, dataset: String) throws(FeatureFileError) {
        guard FileManager.default.fileExists(atPath: url.path) else { throw .fileNotFound(path: url.path) }
        self.url = url
        self.dataset = dataset
        let file = try hdf5 { () throws(HDF5Error) in try HDF5Handle.openFile(path: url.path) }
        self.file = file
        let isDataset = try hdf5 { () throws(HDF5Error) in
            guard try file.linkExists(dataset) else { return false }
            return try file.childIsDataset(dataset)
        }
        guard isDataset else {
            throw .unknownStream(path: url.path, stream: dataset)
        }
        let handle = try hdf5 { () throws(HDF5Error) in try file.openDataset(dataset) }
        self.handle = handle
        let (shape, floatSize) = try hdf5 { () throws(HDF5Error) in (try handle.datasetSpace().dimensions(), try handle.storedFloatSize()) }
        guard shape.count == 2, floatSize != nil else {
            throw .notAFeatureFile(path: url.path, reason: "/\(dataset) is not a 2-D float dataset [frames, bins] (shape \(shape))")
        }
        rows = shape[0]
        columns = shape[1]
        let attributes = (try? file.readAttributes()) ?? [:]
        runID = attributes[Self.runIDAttribute]?.stringValue ?? ""
    }

    /// Whether the file carries an `/index` group of its own (a copy of the feature file's index
    /// written next to the predictions), which ``FeatureSynthesis`` then checks against the
    /// feature file's.
    public var hasIndex: Bool { (try? file.linkExists(FeatureFileLayout.indexGroup)) ?? false }

    /// Rows `range`, row-major, converted to Float.
    public func rows(_ range: Range<Int>) throws(FeatureFileError) -> [Float] {
        guard range.lowerBound >= 0, range.upperBound <= rows else {
            throw .frameRangeOutOfBounds(path: url.path, stream: dataset, lowerBound: range.lowerBound, upperBound: range.upperBound,
                                         totalFrames: rows)
        }
        var values = [Float](repeating: 0, count: range.count * columns)
        guard !range.isEmpty else { return values }
        let handle = handle, columns = columns
        try values.withUnsafeMutableBufferPointer { buffer throws(FeatureFileError) in
            try hdf5 { () throws(HDF5Error) in try handle.readFloatRows(firstRow: range.lowerBound, rows: range.count, columns: columns,
                                                                        into: buffer.baseAddress!) }
        }
        return values
    }
}
