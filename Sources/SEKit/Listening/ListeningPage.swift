import Foundation

/// The self-contained test page of `sekit listen make` (`DIR/index.html`): plain HTML, CSS and
/// JavaScript (Resources/listening-page.js, compiled in), the test's manifest embedded as JSON, the
/// audio beside it (relative paths): nothing is fetched from the network.
enum ListeningPage {
    /// The page's text for `manifest`.
    static func html(_ manifest: ListeningTestManifest) throws -> String {
        var data = try JSONSerialization.jsonObject(with: try ReportJSON.data(manifest, style: .compact)) as! [String: Any]
        data["labels"] = Dictionary(uniqueKeysWithValues: manifest.scales.map { ($0, manifest.test.labels(scale: $0)) })
        data["question"] = question(manifest.test)
        // A spoken trapping instruction is for the ear alone: the page's data does not carry its words.
        if let trials = data["trials"] as? [[String: Any]] {
            data["trials"] = trials.map { trial in trial.filter { $0.key != "spokenInstruction" } }
        }
        data["title"] = "Listening test \(manifest.name)"
        let json = try JSONSerialization.data(withJSONObject: data, options: [.sortedKeys, .withoutEscapingSlashes])
        // `</script>` would end the element and `<!--` would hide its end from the parser: no `<` at all.
        let embedded = HTML.scriptJSON(String(decoding: json, as: UTF8.self))
        let script = String(decoding: Data(PackageResources.listening_page_js), as: UTF8.self)
        let style = String(decoding: Data(PackageResources.listening_page_css), as: UTF8.self)
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Listening test \(HTML.escape(manifest.name))</title>
            <style>
            \(style)</style>
            </head>
            <body>
            <main>
            <h1 id="title">Listening test</h1>
            <noscript><p>This listening test needs JavaScript.</p></noscript>
            <section id="start" hidden>
            <p>Use headphones in a quiet room. Play every sample before you rate it; your progress is kept in this browser, \
            so you can close the page and come back with the same rater ID. At the end, download your results and send the file.</p>
            <p><label>Rater ID <input id="rater" autocomplete="off"></label> <button type="button" id="begin">Start</button></p>
            </section>
            <section id="trial" hidden>
            <progress id="progress" value="0" max="1"></progress>
            <p id="counter" class="note"></p>
            <p id="instruction"></p>
            <div id="stimuli"></div>
            <p><button type="button" id="next" disabled>Next</button></p>
            </section>
            <section id="done" hidden>
            <p>Thank you: every trial is rated. Download your results and send the file to the experimenter.</p>
            <p><button type="button" id="download">Download results</button></p>
            </section>
            </main>
            <script id="sekit-test" type="application/json">\(embedded)</script>
            <script>
            \(script)</script>
            </body>
            </html>

            """
    }

    /// What a trial asks.
    static func question(_ kind: ListeningTestKind) -> String {
        switch kind {
        case .mushra: "Rate each sample against the reference, 0 (bad) to 100 (excellent). One of the samples is the reference itself."
        case .acr: "Rate the quality of the speech sample."
        case .dcr: "Play the reference, then the sample: rate the degradation of the sample against the reference."
        case .ccr: "Play both samples: how does the quality of the second compare with the first?"
        case .p835: "Rate the speech signal alone (SIG), the background alone (BAK) and the sample overall (OVRL)."
        }
    }
}
