import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// Issue 26 items 4 and 16: `--max-seconds` beyond any file, a one-sample file and a silent file.
@Suite struct PlotEdgeCaseTests {
    func write(_ samples: [Float], _ name: String, in folder: TemporaryFolder) throws -> URL {
        let url = folder.file(name)
        try AudioWriter.write(AudioBuffer(samples: samples, sampleRate: 16000), to: url, format: .wavFloat32)
        return url
    }

    @Test func aSpanLongerThanIntCanCountKeepsTheWholeFile() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var request = PlotJob.Request(files: [try write((0..<16000).map { Float(sin(Double($0) / 10)) * 0.3 }, "a.wav", in: folder)],
                                  output: folder.file("a.png"))
        request.maxSeconds = 1e15
        let (_, outcome) = try PlotJob.render(request)
        #expect(abs(outcome.seconds - 1) < 1e-9)
    }

    /// The time axis of a one-sample file (62.5 µs) has labels that do not overlap.
    @Test func theTimeLabelsOfAOneSampleFileDoNotOverlap() throws {
        let layout = PlotLayout(width: 1200, title: nil, dbRange: 80)
        let seconds = 1.0 / 16000
        let figure = layout.figure([.init(label: "one", content: .level(dbfs: [-20]), seconds: seconds)], seconds: seconds)
        let axisY = layout.top + Double(PlotLayout.levelHeight) + 16
        let labels = figure.elements.compactMap { element -> (x: Double, width: Double)? in
            guard case let .text(text, x, y, size, _, _, _) = element, abs(y - axisY) < 0.5 else { return nil }
            return (x, Double(BitmapFont.width(of: text, scale: size.rawValue)))
        }.sorted { $0.x < $1.x }
        #expect(labels.count >= 2, "\(labels)")
        for (a, b) in zip(labels, labels.dropFirst()) {
            #expect(b.x - b.width / 2 > a.x + a.width / 2, "time labels overlap: \(labels)")
        }
    }

    /// A silent file is drawn on the scale ending at 0 dB, not on −280…−200 dB.
    @Test func aSilentFileIsDrawnOnAScaleEndingAtZeroDB() throws {
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        var request = PlotJob.Request(files: [try write([Float](repeating: 0, count: 16000), "silent.wav", in: folder)],
                                  output: folder.file("s.svg"))
        request.kind = .both
        let svg = String(decoding: try PlotJob.render(request).data, as: UTF8.self)
        #expect(!svg.contains(">-280<") && !svg.contains(">-200<") && !svg.contains(">-240<"), "a scale below −200 dB")
        #expect(svg.contains(">-80<") && svg.contains(">0<"))
    }
}
