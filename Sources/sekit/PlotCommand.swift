import ArgumentParser
import Foundation
import SEKit

extension PlotKind: ExpressibleByArgument {}

/// `sekit plot`: spectrograms and level plots of several files on one time axis, as PNG or SVG.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw spectrograms and level plots of audio files, stacked on one time axis (PNG or SVG).",
        discussion: """
            Panels are stacked top to bottom in the order of the files (e.g. noisy, enhanced, clean) \
            and share a time axis in seconds. Spectrograms: log-magnitude STFT (Hann window of about \
            32 ms, hop a quarter of it) in dB re a full-scale sine, frequency in kHz, viridis colours, \
            one colour bar for all panels spanning --db-range below the loudest cell. Waveform: the RMS \
            level of each pixel column in dBFS (as voice-message waveforms are drawn), --db-range down \
            from 0 dBFS. Text is drawn with a built-in bitmap font in PNG and as SVG text in SVG, so no \
            font file is needed. Files must share sample rate and length unless --max-seconds crops them \
            (then shorter files end early on the axis and rates may differ).

            Example (one clip's noisy input, enhanced output and clean reference):
              sekit plot noisy/c1.wav enh/c1.wav clean/c1.wav --out c1.png
            """
    )

    @Argument(help: ArgumentHelp("Audio files, one panel (or two with --kind both) each, top to bottom.", valueName: "file"))
    var files: [String]

    @Option(name: [.short, .long], help: ArgumentHelp("The figure: .png or .svg.", valueName: "file"))
    var out: String

    @Option(help: "What to draw for each file.")
    var kind: PlotKind = .spectrogram

    @Option(help: ArgumentHelp("Title above the panels.", valueName: "text"))
    var title: String?

    @Option(help: ArgumentHelp("Comma-separated panel labels, one per file (default: the file names).", valueName: "a,b,c"))
    var labels: String?

    @Option(help: ArgumentHelp("Colour range of spectrograms and range of the level axis, dB.", valueName: "dB"))
    var dbRange: Double = 80

    @Option(help: ArgumentHelp("Plot only the first seconds of each file (files may then differ in length and rate).", valueName: "s"))
    var maxSeconds: Double?

    @Option(help: ArgumentHelp("Figure width in pixels.", valueName: "px"))
    var width: Int = 1200

    func run() throws {
        var request = PlotJob.Request(files: files.map { URL(fileURLWithPath: $0) }, output: URL(fileURLWithPath: out))
        request.kind = kind
        request.title = title
        request.labels = labels.map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        request.dbRange = dbRange
        request.maxSeconds = maxSeconds
        request.widthPixels = width
        let outcome = try PlotJob.run(request)
        printError("plot: \(outcome.panels) panels, \(String(format: "%.2f", outcome.seconds)) s, "
                   + "\(outcome.widthPixels)x\(outcome.heightPixels) px -> \(outcome.output.path)")
    }
}
