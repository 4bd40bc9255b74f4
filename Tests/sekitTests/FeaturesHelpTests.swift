import Foundation
import Testing

/// `sekit features --help` names every option of its default subcommand, `export` (it showed none
/// before), so the list cannot fall behind the export's options.
@Suite struct FeaturesHelpTests {
    @Test func theFeaturesHelpListsEveryExportOption() throws {
        let export = try SEKitBinary.run(["features", "export", "--help"], environment: ["COLUMNS": "200"])
        let features = try SEKitBinary.run(["features", "--help"], environment: ["COLUMNS": "200"])
        // Option lines start with the option: `  --corpus <corpus>`, `  -o, --out <out>`.
        let flags = Set(export.stdout.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.first?.hasPrefix("-") == true, let flag = words.prefix(2).first(where: { $0.hasPrefix("--") }) else { return nil }
            return String(flag)
        }).subtracting(["--help", "--version"])
        #expect(flags.count > 15, "\(flags)")
        let text = features.stdout.replacingOccurrences(of: "\n", with: " ")
        for flag in flags.sorted() {
            #expect(text.contains(flag + " ") || text.contains(flag + ",") || text.contains(flag + ":"), "features --help omits \(flag)")
        }
        #expect(text.contains("sekit features export --help"))
    }
}
