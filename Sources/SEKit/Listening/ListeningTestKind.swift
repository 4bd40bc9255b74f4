import Foundation

/// The kind of listening test `sekit listen make --test` builds.
public enum ListeningTestKind: String, Sendable, Codable, CaseIterable {
    /// ITU-R BS.1534-3: every condition of a clip on one page, 0–100, with the open reference, a
    /// hidden reference and low-pass anchors at 3.5 and 7 kHz.
    case mushra
    /// ITU-T P.808 absolute category rating: each stimulus alone, 1 (bad) – 5 (excellent).
    case acr
    /// ITU-T P.808 degradation category rating: the clean reference, then the stimulus, 1 (very
    /// annoying) – 5 (inaudible).
    case dcr
    /// ITU-T P.808 comparison category rating: the noisy input and the stimulus in random order,
    /// −3 – +3 (stored as the stimulus against the input: positive means better than the input).
    case ccr
    /// ITU-T P.835: each stimulus rated on three scales, 1–5: speech signal (`sig`), background
    /// (`bak`) and overall (`ovrl`).
    case p835

    /// The scales each stimulus is rated on.
    public var scales: [String] { self == .p835 ? ["sig", "bak", "ovrl"] : [rawValue] }

    /// The lowest and highest score.
    public var range: ClosedRange<Double> {
        switch self {
        case .mushra: 0...100
        case .ccr: -3...3
        case .acr, .dcr, .p835: 1...5
        }
    }

    /// What each trial plays first: the clean reference (MUSHRA, DCR), the noisy input (CCR) or nothing.
    public var referenceCondition: String? {
        switch self {
        case .mushra, .dcr: "reference"
        case .ccr: "noisy"
        case .acr, .p835: nil
        }
    }

    /// Whether the test screens raters with P.808 gold and trapping trials (all but MUSHRA, which
    /// screens by the hidden reference).
    public var hasGoldAndTrap: Bool { self != .mushra }

    /// The labels of the category scales, lowest first (MUSHRA: its five 20-point bands).
    public func labels(scale: String) -> [String] {
        switch (self, scale) {
        case (.mushra, _): ["Bad", "Poor", "Fair", "Good", "Excellent"]
        case (.dcr, _):
            [
                "Degradation is very annoying", "Degradation is annoying", "Degradation is audible but slightly annoying",
                "Degradation is audible but not annoying", "Degradation is inaudible",
            ]
        case (.ccr, _): ["Much worse", "Worse", "Slightly worse", "About the same", "Slightly better", "Better", "Much better"]
        case (.p835, "sig"): ["Very distorted", "Fairly distorted", "Somewhat distorted", "Slightly distorted", "Not distorted"]
        case (.p835, "bak"):
            [
                "Very conspicuous, very intrusive", "Fairly conspicuous, somewhat intrusive", "Noticeable but not intrusive",
                "Slightly noticeable", "Not noticeable",
            ]
        default: ["Bad", "Poor", "Fair", "Good", "Excellent"]
        }
    }

    /// The expected answer of a gold trial (the reference against itself, or the clean reference
    /// alone): the best category (CCR: "about the same").
    public var goldScore: Double { self == .ccr ? 0 : range.upperBound }
}
