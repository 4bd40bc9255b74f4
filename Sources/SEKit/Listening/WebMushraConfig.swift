import Foundation

/// `DIR/webmushra/config.yaml`: the same MUSHRA test for labs that run webMUSHRA
/// (https://github.com/audiolabs/webMUSHRA): a welcome page, one `mushra` page per clip (its `id`
/// the trial id, which is the clip id, its `reference` the clean reference, its `stimuli` keyed by
/// condition: the runs' names, `anchor35` and `anchor70`; webMUSHRA adds the hidden reference itself),
/// the pages in random order, and a finish page that writes the results (`mushra.csv`, which
/// `sekit listen import` reads). Audio paths are relative to the test folder (`audio/...`): copy the
/// folder's `audio/` beside webMUSHRA's `index.html`.
enum WebMushraConfig {
    static func yaml(_ manifest: ListeningTestManifest) -> String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        }
        var lines = [
            "# webMUSHRA configuration written by `sekit listen make` (test \(manifest.name), stimuli hash \(manifest.stimuliHash)).",
            "testname: \(quoted(manifest.name))",
            "testId: \(quoted(manifest.name))",
            "bufferSize: 2048",
            "stopOnErrors: true",
            "showButtonPreviousPage: true",
            "remoteService: service/write.php",
            "pages:",
            "  - type: generic",
            "    id: welcome",
            "    name: Welcome",
            "    content: \(quoted(ListeningPage.question(.mushra)))",
            "  - - random",
        ]
        for trial in manifest.trials where trial.role == "test" {
            guard let reference = trial.reference else { continue }
            lines += [
                "    - type: mushra",
                "      id: \(quoted(trial.id))",
                "      name: \(quoted("Clip \(trial.id)"))",
                "      content: \(quoted(ListeningPage.question(.mushra)))",
                "      showWaveform: false",
                "      enableLooping: true",
                "      reference: \(quoted(reference.file))",
                "      createAnchor35: false",
                "      createAnchor70: false",
                "      stimuli:",
            ]
            for stimulus in trial.stimuli where stimulus.condition != "reference" {
                lines.append("        \(quoted(stimulus.condition)): \(quoted(stimulus.file))")
            }
        }
        lines += [
            "  - type: finish",
            "    name: Thank you",
            "    content: Thank you for taking part.",
            "    showResults: false",
            "    writeResults: true",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
