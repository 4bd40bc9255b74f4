import Foundation

/// Whether the clean target keeps its full band under `--bandwidth-hz` (`--target-bandwidth`), as a
/// clip's `bandwidth` degradation records it. Spelled `MixOptions.TargetBandwidth` in the mix options.
public enum TargetBandwidth: String, Sendable, Codable, CaseIterable {
    /// The clean target keeps its full band: a bandwidth-extension task.
    case full
    /// The clean target is band-limited exactly as the noisy input.
    case limited
}

/// How a lost packet is filled (`--concealment`), as a clip's `packet-loss` degradation records it.
/// Spelled `MixOptions.Concealment` in the mix options.
public enum PacketLossConcealment: String, Sendable, Codable, CaseIterable {
    /// With zeros.
    case zero
    /// With the last packet received (zeros when none was).
    case `repeat`
}
