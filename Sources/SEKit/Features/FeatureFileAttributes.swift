import Foundation

/// The root attributes of a feature file that say how its values were made: the STFT, the
/// feature and the targets, the split the statistics describe and the corpus. `sekit features`
/// writes them through ``values`` and every reader (`synthesize`, `features --stats-from`) reads
/// them through ``init(reading:path:)``: one struct, one spelling of each name (``Name``).
public struct FeatureFileAttributes: Equatable, Sendable {
    /// The names of the root attributes, the writer's own (``FeatureFileLayout/reservedAttributes``)
    /// and these.
    public enum Name {
        public static let nFFT = "n_fft"
        public static let winLength = "win_length"
        public static let hopLength = "hop_length"
        public static let window = "window"
        public static let windowPeriodic = "window_periodic"
        public static let center = "center"
        public static let padMode = "pad_mode"
        public static let feature = "feature"
        public static let exponent = "exponent"
        public static let lcDB = "lc_db"
        public static let targets = "targets"
        public static let split = "split"
        public static let snrDBSource = "snr_db_source"
        public static let corpus = "corpus"
        public static let maskDefinitions = "mask_definitions"
        // Written by FeatureFileWriter from FeatureFileMetadata and its own settings.
        public static let formatVersion = "format_version"
        public static let sekitVersion = "sekit_version"
        public static let frameConvention = "frame_convention"
        public static let sampleRate = "sample_rate"
        public static let mixRunID = "mix_run_id"
        public static let featuresRunID = "features_run_id"
        public static let dtype = "dtype"
        public static let compression = "compression"
        public static let chunkFrames = "chunk_frames"
        public static let streams = "streams"
    }

    /// The STFT the streams were computed with.
    public var stft: STFTConfiguration
    /// The feature stored in the signal streams.
    public var feature: FeatureKind
    /// The exponent of the `compressed` feature (stored for every feature).
    public var exponent: Double
    /// The local criterion of the ideal binary mask, dB.
    public var lcDB: Double
    /// The target streams asked for, in the order given.
    public var targets: [String]
    /// The `--split` exported (empty: every split).
    public var split: String
    /// The corpus folder, standardised.
    public var corpus: String

    /// How the masks are defined, stored in every file for its readers.
    static let maskDefinitions =
        "irm = sqrt(|S|^2 / (|S|^2 + |N|^2)); ibm = 10 log10(|S|^2/|N|^2) > lc_db; psm = clip(Re(S conj(Y)) / |Y|^2, 0, 1)"

    public init(stft: STFTConfiguration, feature: FeatureKind, exponent: Double, lcDB: Double, targets: [String],
                split: String, corpus: String) {
        self.stft = stft; self.feature = feature; self.exponent = exponent; self.lcDB = lcDB
        self.targets = targets; self.split = split; self.corpus = corpus
    }

    /// The attributes as the writer stores them (it writes every root attribute in name order).
    public var values: [String: AttributeValue] {
        [
            Name.nFFT: .int(stft.fftSize), Name.winLength: .int(stft.winLength), Name.hopLength: .int(stft.hopLength),
            Name.window: .string(stft.window.rawValue), Name.windowPeriodic: .int(1), Name.center: .int(stft.center ? 1 : 0),
            Name.padMode: .string("constant"), Name.feature: .string(feature.rawValue), Name.exponent: .double(exponent),
            Name.lcDB: .double(lcDB), Name.targets: .string(targets.joined(separator: ",")),
            Name.split: .string(split), Name.snrDBSource: .string("snr_db_requested"),
            Name.corpus: .string(corpus), Name.maskDefinitions: .string(Self.maskDefinitions),
        ]
    }

    /// Reads the attributes of the file at `path` from its root attributes.
    /// - Throws: ``FeatureFileError/notAFeatureFile(path:reason:)`` naming what is missing or not
    ///   understood (a file not written by `sekit features`).
    public init(reading attributes: [String: AttributeValue], path: String) throws(FeatureFileError) {
        func missing(_ name: String) -> FeatureFileError {
            .notAFeatureFile(path: path,
                             reason: "STFT/feature attribute '\(name)' missing or not understood (not written by sekit features?)")
        }
        guard let nFFT = attributes[Name.nFFT]?.intValue else { throw missing(Name.nFFT) }
        guard let win = attributes[Name.winLength]?.intValue else { throw missing(Name.winLength) }
        guard let hop = attributes[Name.hopLength]?.intValue else { throw missing(Name.hopLength) }
        guard let window = attributes[Name.window]?.stringValue.flatMap(WindowKind.init(rawValue:)) else { throw missing(Name.window) }
        guard let center = attributes[Name.center]?.intValue else { throw missing(Name.center) }
        guard let feature = attributes[Name.feature]?.stringValue.flatMap(FeatureKind.init(rawValue:)) else {
            throw missing(Name.feature)
        }
        self.init(stft: STFTConfiguration(fftSize: nFFT, winLength: win, hopLength: hop, window: window, center: center != 0),
                  feature: feature, exponent: attributes[Name.exponent]?.doubleValue ?? 0.3,
                  lcDB: attributes[Name.lcDB]?.doubleValue ?? 0,
                  targets: (attributes[Name.targets]?.stringValue ?? "").split(separator: ",").map(String.init),
                  split: attributes[Name.split]?.stringValue ?? "", corpus: attributes[Name.corpus]?.stringValue ?? "")
    }

    /// The names of the attributes that say how a value was computed, with this file's and
    /// `other`'s values where they differ (empty: the two files' values are comparable, bin by bin).
    public func analysisDifferences(from other: FeatureFileAttributes) -> [(name: String, ours: String, theirs: String)] {
        let ours = values, theirs = other.values
        let names = [Name.nFFT, Name.winLength, Name.hopLength, Name.window, Name.center, Name.feature, Name.exponent]
        return names.compactMap { name in
            ours[name] == theirs[name] ? nil : (name, "\(ours[name]!)", "\(theirs[name]!)")
        }
    }
}
