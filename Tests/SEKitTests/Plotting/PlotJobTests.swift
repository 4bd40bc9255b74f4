import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import SEKit
@testable import SEKitSignal

/// `sekit plot`'s figures: PNGs decoded back (size, every panel drawn), SVGs parsed as XML, the
/// levels they show checked on signals whose levels are known, and bad input named.
@Suite struct PlotJobTests {
    static let rate = 16000

    static func sine(hz: Double, amplitude: Float, seconds: Double = 1) -> [Float] {
        (0..<Int(seconds * Double(rate))).map { amplitude * Float(sin(2 * .pi * hz * Double($0) / Double(rate))) }
    }

    func write(_ samples: [Float], _ name: String, in folder: TemporaryFolder, rate: Int = rate) throws -> URL {
        let url = folder.file(name)
        try AudioWriter.write(AudioBuffer(samples: samples, sampleRate: rate), to: url, format: .wavFloat32)
        return url
    }

    @Test func aSineShowsAtItsFrequencyAndLevel() {
        // Amplitude 0.5: −6 dB re full scale in the spectrogram, −9 dBFS RMS.
        let grid = SignalPicture.spectrogramDB(Self.sine(hz: 1000, amplitude: 0.5), sampleRate: Self.rate, columns: 50, rows: 200)
        let column = 25
        let levels = (0..<200).map { grid[$0 * 50 + column] }
        let loudest = levels.indices.max { levels[$0] < levels[$1] }!
        let hz = Double(200 - 1 - loudest) / 200 * 8000
        #expect(abs(hz - 1000) < 80, "loudest row at \(hz) Hz")
        #expect(levels[loudest] > -10 && levels[loudest] < -5.5, "peak level \(levels[loudest]) dB")
        #expect(levels[10] < levels[loudest] - 60, "7.6 kHz should be far below the tone: \(levels[10])")
        let rms = SignalPicture.levelsDBFS(Self.sine(hz: 1000, amplitude: 1), sampleRate: Self.rate, columns: 20)
        for level in rms { #expect(abs(level - (-3.0103)) < 0.05, "\(level)") }
    }

    @Test func aPNGHasEveryPanelDrawn() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var noise = SplitMix64(seed: 3)
        let noisy = Self.sine(hz: 440, amplitude: 0.3, seconds: 2).map { $0 + Float(noise.nextUnitInterval() - 0.5) * 0.1 }
        let clean = Self.sine(hz: 440, amplitude: 0.3, seconds: 2)
        var request = PlotJob.Request(files: [try write(noisy, "noisy.wav", in: folder), try write(clean, "clean.wav", in: folder)],
                                  output: folder.file("fig.png"))
        request.kind = .both
        request.title = "noisy and clean"
        let outcome = try PlotJob.run(request)
        #expect(outcome.panels == 4)
        let png = try PNGCodec.decode(try Data(contentsOf: folder.file("fig.png")))
        #expect(png.width == 1200 && png.width == outcome.widthPixels && png.height == outcome.heightPixels)
        // Every panel: many distinct colours (spectrogram) or the level bars' colour.
        let layout = PlotLayout(width: 1200, title: "t", dbRange: 80)
        var y = Int(layout.top)
        for kind in [PlotLayout.spectrogramHeight, PlotLayout.levelHeight, PlotLayout.spectrogramHeight, PlotLayout.levelHeight] {
            var colours = Set<UInt32>()
            for row in stride(from: y + 30, to: y + kind - 2, by: 3) {
                for column in stride(from: Int(PlotLayout.left) + 200, to: Int(PlotLayout.left) + layout.plotWidth - 2, by: 5) {
                    let i = (row * png.width + column) * 4
                    colours.insert(UInt32(png.rgba[i]) << 16 | UInt32(png.rgba[i + 1]) << 8 | UInt32(png.rgba[i + 2]))
                }
            }
            if kind == PlotLayout.spectrogramHeight {
                #expect(colours.count > 20, "spectrogram panel at y \(y): \(colours.count) colours")
            } else {
                let bar = Colormap.color(0.35)
                #expect(colours.contains(UInt32(bar.red) << 16 | UInt32(bar.green) << 8 | UInt32(bar.blue)),
                        "level panel at y \(y) has no bars")
            }
            y += kind + Int(PlotLayout.gap)
        }
        // The title is drawn: dark pixels in the top margin.
        let titleInk = (0..<40).flatMap { row in (0..<png.width).map { (row * png.width + $0) * 4 } }.filter { png.rgba[$0] < 100 }.count
        #expect(titleInk > 100)
    }

    @Test func anSVGIsWellFormedWithTextAndImages() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var request = PlotJob.Request(files: [try write(Self.sine(hz: 300, amplitude: 0.2), "a & b.wav", in: folder)],
                                      output: folder.file("fig.svg"))
        request.labels = ["a <noisy>"]
        _ = try PlotJob.run(request)
        final class Counter: NSObject, XMLParserDelegate {
            var elements: [String: Int] = [:], text = ""
            func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                        attributes: [String: String] = [:]) {
                elements[name, default: 0] += 1
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        }
        let parser = XMLParser(data: try Data(contentsOf: folder.file("fig.svg")))
        let counter = Counter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(counter.elements["svg"] == 1 && counter.elements["image"] == 2, "\(counter.elements)")  // spectrogram + colour bar
        #expect(counter.text.contains("a <noisy>") && counter.text.contains("Time (s)") && counter.text.contains("Frequency (kHz)"))
    }

    @Test func filesThatDoNotShareAnAxisAreRefusedUnlessCropped() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let a = try write(Self.sine(hz: 300, amplitude: 0.2, seconds: 1), "a.wav", in: folder)
        let longer = try write(Self.sine(hz: 300, amplitude: 0.2, seconds: 1.5), "b.wav", in: folder)
        let other = try write(Self.sine(hz: 300, amplitude: 0.2, seconds: 1), "c.wav", in: folder, rate: 8000)
        #expect { try PlotJob.run(PlotJob.Request(files: [a, longer], output: folder.file("x.png"))) } throws: {
            "\($0)".hasPrefix(longer.path) && "\($0)".contains("--max-seconds")
        }
        #expect { try PlotJob.run(PlotJob.Request(files: [a, other], output: folder.file("x.png"))) } throws: {
            "\($0)".hasPrefix(other.path) && "\($0)".contains("8000 Hz")
        }
        var cropped = PlotJob.Request(files: [a, longer, other], output: folder.file("x.png"))
        cropped.maxSeconds = 1.2
        let outcome = try PlotJob.run(cropped)
        #expect(abs(outcome.seconds - 1.2) < 1e-9)
        #expect { try PlotJob.run(PlotJob.Request(files: [a],
                                                  output: folder.file("x.jpg"))) } throws: { "\($0)".contains("must end in .png or .svg") }
        #expect { try PlotJob.run(PlotJob.Request(files: [folder.file("missing.wav")], output: folder.file("x.png"))) } throws: {
            "\($0)".hasPrefix(folder.file("missing.wav").path)
        }
        var labelled = PlotJob.Request(files: [a], output: folder.file("x.png"))
        labelled.labels = ["one", "two"]
        #expect { try PlotJob.run(labelled) } throws: { "\($0)".contains("2 labels for 1 files") }
    }

    @Test func theFontDrawsLettersDigitsAndLabelPunctuation() {
        let box = BitmapFont.glyph("\u{1F600}")
        for character in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 .,:;-+_/()[]%=!?'*<>|#&@~" {
            #expect(BitmapFont.glyph(character) != box || character == " ", "no glyph for \(character)")
        }
        // Distinct glyphs for every letter and digit.
        let shapes = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".map { BitmapFont.glyph($0) }
        #expect(Set(shapes.map { $0.map(String.init).joined(separator: ",") }).count == shapes.count)
    }

    @Test func ticksFallOnRoundValues() {
        let (values, decimals) = NiceTicks.ticks(from: 0, to: 3.1, count: 10)
        #expect(values.first == 0 && values.count == 7 && abs(values[1] - 0.5) < 1e-12 && decimals == 1)
        let db = NiceTicks.ticks(from: -80, to: 0, count: 4)
        #expect(db.values == [-80, -60, -40, -20, 0] && db.decimals == 0)
    }
}
