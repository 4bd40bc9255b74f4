import ArgumentParser
import Foundation
import SEKit

struct NoiseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noise",
        abstract: "Generate white, pink or brown noise with a seed (the same seed gives the same file)."
    )

    @Argument(help: "Output WAV file.") var output: String
    @Option(name: .long, help: "white | pink | brown.") var color: String = "white"
    @Option(name: .long, help: "Duration in seconds.") var seconds: Double = 10
    @Option(name: .long, help: "Sample rate in Hz.") var sampleRate: Int = 16000
    @Option(name: .long, parsing: .unconditional, help: "RMS level in dBFS (10·log10 mean square).") var rmsDbfs: Double = -25
    @Option(name: .long, help: "Random seed.") var seed: UInt64 = 0
    @Option(name: .long, help: "wav-pcm16 | wav-pcm24 | wav-float32 | flac-16 | flac-24.") var format: String = "wav-pcm16"

    func validate() throws {
        guard NoiseColor(rawValue: color) != nil else { throw ValidationError("--color must be white, pink or brown") }
        guard seconds > 0, seconds <= 86400 else { throw ValidationError("--seconds must be in (0, 86400]") }
        guard sampleRate >= 1000, sampleRate <= 384_000 else { throw ValidationError("--sample-rate must be 1000..384000 Hz") }
        guard rmsDbfs < 0 else { throw ValidationError("--rms-dbfs must be below 0") }
        guard AudioFileFormat(rawValue: format) != nil else { throw ValidationError("--format: unknown format \(format)") }
    }

    func run() throws {
        let samples = NoiseGenerator.generate(NoiseColor(rawValue: color)!, count: Int((seconds * Double(sampleRate)).rounded()),
                                              sampleRate: sampleRate, rmsDBFS: rmsDbfs, seed: seed)
        let report = try AudioWriter.write(AudioBuffer(samples: samples, sampleRate: sampleRate), to: URL(fileURLWithPath: output),
                                           format: AudioFileFormat(rawValue: format)!)
        if report.clippedSamples > 0 {
            FileHandle.standardError.write(Data("warning: \(output): \(report.clippedSamples) samples clipped at full scale\n".utf8))
        }
    }
}
