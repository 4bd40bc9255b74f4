import Foundation

/// Packet loss on the noisy input (`--packet-loss`, `--packet-loss-probability`, `--packet-ms`,
/// `--max-burst-packets`, `--concealment`): the clip is cut into packets of `packet-ms`; a loss
/// rate r is drawn and exactly round(r · packets) packets are lost, in bursts of 1 to
/// `max-burst-packets` consecutive packets at uniform positions (bursts may meet or overlap; the
/// last one is shortened to hit the count). Lost packets are zeroed, or with `--concealment repeat`
/// filled with the last packet received. The pattern is drawn per clip from the stage's own stream
/// (``MixStageRandom``) and recorded (`lost_packets`).
public struct PacketLossStage: DegradationStage {
    public static let stage = Degradation.Stage.packetLoss
    public init() {}

    /// Samples per packet at `sampleRate` (at least 1).
    static func packetSamples(packetMs: Double, sampleRate: Int) -> Int {
        max(1, Int((packetMs * Double(sampleRate) / 1000).rounded()))
    }

    public static func draw(options: MixOptions, length: Int, using generator: inout SplitMix64) -> Degradation {
        let packetMs = options.packetMs ?? MixOptions.DegradationDefaults.packetMs
        let maxBurst = options.maxBurstPackets ?? MixOptions.DegradationDefaults.maxBurstPackets
        let size = packetSamples(packetMs: packetMs, sampleRate: options.sampleRate)
        let packets = (length + size - 1) / size
        let rate = options.packetLoss!.draw(using: &generator)
        let target = min(packets, Int((rate * Double(packets)).rounded()))
        var lost = [Bool](repeating: false, count: packets)
        var count = 0
        // Bursts at uniform positions until the count is reached; after many misses (a nearly
        // full pattern), the first packets still received are taken in order.
        var attempts = 0
        while count < target && attempts < 64 * packets {
            attempts += 1
            let burst = 1 + generator.nextIndex(below: maxBurst)
            var packet = generator.nextIndex(below: packets)
            var taken = 0
            while taken < burst && packet < packets && count < target {
                if !lost[packet] { lost[packet] = true; count += 1 }
                taken += 1
                packet += 1
            }
        }
        for packet in 0..<packets where count < target && !lost[packet] { lost[packet] = true; count += 1 }
        var degradation = Degradation(stage: stage)
        degradation.packetLoss = rate
        degradation.packetMs = packetMs
        degradation.concealment = options.concealment ?? .zero
        degradation.lostPackets = lost.indices.filter { lost[$0] }
        degradation.lostFraction = packets == 0 ? 0 : Double(count) / Double(packets)
        return degradation
    }

    public func apply(_ degradation: Degradation, to signals: inout ClipSignals, context: MixStageContext) throws -> Degradation {
        let size = Self.packetSamples(packetMs: degradation.packetMs!, sampleRate: context.sampleRate)
        let repeatLast = degradation.concealment == .repeat
        let length = signals.noisy.count
        signals.noisy.withUnsafeMutableBufferPointer { x in
            for packet in degradation.lostPackets! {
                let start = packet * size, end = min(length, start + size)
                guard start < end else { continue }
                // The previous packet as it is now: received, or itself already concealed.
                if repeatLast && start >= size {
                    for i in start..<end { x[i] = x[i - size] }
                } else {
                    for i in start..<end { x[i] = 0 }
                }
            }
        }
        return degradation
    }
}
