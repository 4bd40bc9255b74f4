import Foundation
import Testing
@testable import SEKit

/// Issue 40 item 6: JSON embedded in a page's `<script>` element cannot end it (`</script>`) or hide its
/// end from the HTML parser (`<!--`, which a run name once carried into the listening page, whose
/// script then never ran), whatever the names hold.
@Suite struct HTMLScriptDataTests {
    static let hostile = ["<!--<script>", "a</script><b>", "\"quoted\" & 'single'", "Gänsefüßchen – 日本語 🎧",
                          "x\u{2028}y\u{2029}z",
                          "-->", "<![CDATA[", "</SCRIPT >"]

    @Test func noMarkupCanAppearAndTheValueIsUnchanged() throws {
        for name in Self.hostile {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: ["name": name], options: [.sortedKeys]), as: UTF8.self)
            let embedded = HTML.scriptJSON(json)
            #expect(!embedded.contains("<") && !embedded.contains(">") && !embedded.contains("&"), "\(embedded)")
            #expect(!embedded.contains("\u{2028}") && !embedded.contains("\u{2029}"))
            let back = try JSONSerialization.jsonObject(with: Data(embedded.utf8)) as? [String: String]
            #expect(back?["name"] == name, "\(embedded) reads back as \(back ?? [:])")
        }
    }
}
