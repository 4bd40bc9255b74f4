import Foundation

/// What a feature stream stores for each time-frequency bin of a spectrum X.
public enum FeatureKind: String, Sendable, CaseIterable, Codable {
    /// |X|.
    case magnitude
    /// |X|².
    case power
    /// log(1 + |X|) (natural log).
    case log1p
    /// 20·log10(max(|X|, 1e-5)): decibels with a floor at −100 dB.
    case db
    /// |X|^c with c = `--exponent` (default 0.3): the power-law compression of CRN-style models.
    case compressed

    /// Floor of `db`, linear magnitude.
    public static let dbFloorMagnitude: Float = 1e-5

    /// The stored value of a magnitude `m`.
    @inline(__always)
    public func apply(_ m: Float, exponent: Float) -> Float {
        switch self {
        case .magnitude: m
        case .power: m * m
        case .log1p: Foundation.log1p(m)
        case .db: 20 * log10(max(m, Self.dbFloorMagnitude))
        case .compressed: m > 0 ? pow(m, exponent) : 0
        }
    }

    /// The magnitude whose stored value is `v` (for `sekit synthesize --kind magnitude`).
    public func invert(_ v: Float, exponent: Float) -> Float {
        switch self {
        case .magnitude: max(v, 0)
        case .power: max(v, 0).squareRoot()
        case .log1p: max(expm1(v), 0)
        case .db: pow(10, v / 20)
        case .compressed: v > 0 ? pow(v, 1 / exponent) : 0
        }
    }
}

/// Streams `sekit features` can store besides `noisy`.
public enum FeatureTarget: String, Sendable, CaseIterable, Codable {
    /// The clean target's feature (same transform as `noisy`).
    case clean
    /// The noise's feature.
    case noise
    /// Ideal ratio mask √(|S|² / (|S|² + |N|²)) in [0, 1] (0 where both are 0).
    case irm
    /// Ideal binary mask: 1 where 10·log10(|S|²/|N|²) > `--lc-db`, else 0.
    case ibm
    /// Phase-sensitive mask Re(S·conj(Y)) / |Y|², clipped to [0, 1] (0 where Y = 0).
    case psm
    /// Phase of the noisy STFT, radians in (−π, π] (for resynthesis).
    case noisyPhase = "noisy_phase"

    /// Whether the stream is a feature of a signal (and gets normalisation statistics).
    public var isSignalFeature: Bool { self == .clean || self == .noise }
}
