import ArgumentParser
import Foundation
import SEKit

/// `sekit export lhotse CORPUS --out DIR`.
struct ExportLhotseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lhotse",
        abstract: "Write a mixed corpus (folder or archive) as lhotse recordings, supervisions and cuts manifests.",
        discussion: """
        Writes DIR/recordings.jsonl.gz (the noisy stems), DIR/supervisions.jsonl.gz (one per clip) and \
        DIR/cuts.jsonl.gz (one MonoCut per clip: the manifest's fields, snr_db_realised among them, as custom \
        fields, and the clean and noise stems as the custom recordings `clean` and `noise`). No audio is \
        copied: stems are file sources, or, in an archive corpus, command sources reading the member's bytes \
        from its shard. Read them with lhotse.load_manifest(DIR/cuts.jsonl.gz).
        """
    )

    @Argument(help: "The corpus folder (made by sekit mix, as files or archives).") var corpus: String
    @Option(name: [.short, .long], help: "Output folder for the manifests.") var out: String
    @Option(help: "Only the clips of this split.") var split: String?
    @Flag(help: "Export a corpus whose mix did not finish (the clips made so far).") var allowIncomplete = false

    func run() throws {
        let result = try LhotseExport.run(corpus: URL(fileURLWithPath: corpus), output: URL(fileURLWithPath: out),
                                          split: split, allowIncomplete: allowIncomplete)
        print("lhotse: \(result.clips) cuts in \(result.files.map(\.path).joined(separator: ", "))")
    }
}
