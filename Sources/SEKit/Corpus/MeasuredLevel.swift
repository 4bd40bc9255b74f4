import Foundation

/// A level in dB that a signal may not have: a silent noisy stem (a valid degradation such as
/// `--packet-loss 1` can zero it) has no level, held as `-infinity` in memory and written as
/// JSON `null` (JSON has no infinities); `null` reads back as `-infinity`. Finite values are
/// encoded exactly as a plain `Double` is, so manifests of clips that have a level are unchanged.
@propertyWrapper
public struct MeasuredLevel: Sendable, Codable, Equatable {
    public var wrappedValue: Double

    public init(wrappedValue: Double) { self.wrappedValue = wrappedValue }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? -.infinity : try container.decode(Double.self)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if wrappedValue.isFinite { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}
