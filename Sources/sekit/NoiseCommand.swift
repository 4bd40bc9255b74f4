import ArgumentParser
import Foundation
import SEKit

extension NoiseColor: ExpressibleByArgument {}
extension AudioFileFormat: ExpressibleByArgument {}

struct NoiseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noise",
        abstract: "Generate white, pink, brown or wind noise with a seed (the same seed gives the same file)."
    )

    @Argument(help: "Output WAV file.") var output: String
    @Option(name: .long, help: """
        Spectrum: white (flat), pink (1/f), brown (1/f²) or wind (gusty airflow noise, Mirabilii and Habets 2018).
        """) var color: NoiseColor = .white
    @Option(name: .long, help: "Duration in seconds.") var seconds: Double = 10
    @Option(name: .long, help: "Sample rate in Hz.") var sampleRate: Int = 16000
    @Option(name: .long, parsing: .unconditional, help: "RMS level in dBFS (10·log10 mean square).") var rmsDbfs: Double = -25
    @Option(name: .long, help: "Random seed.") var seed: UInt64 = 0
    @Option(name: .long, help: "File format and sample encoding.") var format: AudioFileFormat = .wavPCM16

    func validate() throws {
        guard seconds > 0, seconds <= 86400 else { throw ValidationError("--seconds must be in (0, 86400]") }
        guard sampleRate >= 1000, sampleRate <= 384_000 else { throw ValidationError("--sample-rate must be 1000..384000 Hz") }
        guard rmsDbfs < 0 else { throw ValidationError("--rms-dbfs must be below 0") }
        // At least one sample (a 0-sample file was once written with exit 0).
        guard (seconds * Double(sampleRate)).rounded() >= 1 else {
            throw ValidationError("--seconds \(seconds) is less than one sample at \(sampleRate) Hz (at least \(1 / Double(sampleRate)) s)")
        }
    }

    func run() throws {
        let samples = NoiseGenerator.generate(color, count: Int((seconds * Double(sampleRate)).rounded()),
                                              sampleRate: sampleRate, rmsDBFS: rmsDbfs, seed: seed)
        let report = try AudioWriter.write(AudioBuffer(samples: samples, sampleRate: sampleRate), to: URL(fileURLWithPath: output),
                                           format: format)
        if report.clippedSamples > 0 {
            FileHandle.standardError.write(Data("warning: \(output): \(report.clippedSamples) samples clipped at full scale\n".utf8))
        }
    }
}
