import Foundation
import Testing
@testable import SEKit
@testable import SEKitSignal

/// The leaderboard's renderings: LaTeX that pdflatex compiles with booktabs, Markdown with bold
/// best values, CSV columns.
@Suite(.needsFixtures)
struct LeaderboardReportTests {
    /// pdflatex (texlive-latex-recommended, installed by scripts/setup.sh); required under CI.
    static let pdflatex = "/usr/bin/pdflatex"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: pdflatex) || TestEnvironment.isCI, "needs pdflatex (scripts/setup.sh)"))
    func theLatexTableCompilesWithBooktabs() throws {
        let p = try ComparisonPipeline.shared.get()
        let board = try Leaderboard.make(Leaderboard.Request(corpus: p.mixRun.rawValue), from: p.catalog)
        let latex = try board.rendered(.latex)
        #expect(latex.contains("\\toprule") && latex.contains("\\midrule") && latex.contains("\\bottomrule"))
        #expect(latex.contains("\\mathbf{") && latex.contains("\\pm"))
        #expect(latex.contains("oracle-jitter") || latex.contains("oracle-irm"))
        let folder = try TemporaryFolder(); defer { folder.cleanup() }
        let document = "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n\(latex)\\end{document}\n"
        try Data(document.utf8).write(to: folder.file("board.tex"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.pdflatex)
        process.arguments = ["-interaction=nonstopmode", "-halt-on-error", "board.tex"]
        process.currentDirectoryURL = folder.url
        let log = Pipe()
        process.standardOutput = log
        process.standardError = log
        try process.run()
        let output = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(output.suffix(2000))")
        #expect(FileManager.default.fileExists(atPath: folder.file("board.pdf").path))
    }

    @Test func markdownBoldsTheBestAndCsvHasOneColumnGroupPerMetric() throws {
        let p = try ComparisonPipeline.shared.get()
        let board = try Leaderboard.make(Leaderboard.Request(corpus: p.mixRun.rawValue, metrics: ["stoi", "sisdr"]), from: p.catalog)
        let markdown = try board.rendered(.markdown)
        #expect(markdown.hasPrefix("| checkpoint | stoi ↑ | sisdr ↑ | mean rank |\n| --- | ---: | ---: | ---: |\n"))
        #expect(markdown.contains("**"))
        #expect(markdown.split(separator: "\n")[2].hasPrefix("| noisy (input) |"))
        let csv = try board.rendered(.csv)
        #expect(csv.hasPrefix("checkpoint,run_id,reference,stoi_mean,stoi_ci95_half,stoi_n,stoi_best,"
                              + "sisdr_mean,sisdr_ci95_half,sisdr_n,sisdr_best,mean_rank\n"))
        #expect(csv.split(separator: "\n").count == board.rows.count + 1)
    }
}
