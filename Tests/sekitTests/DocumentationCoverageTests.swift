import Foundation
import Testing

/// The documentation keeps up with the CLI: every command `sekit --help` lists has a page in `docs/`
/// (a page claims it with `<!-- commands: sekit mix, ... -->` under its title), every option of a
/// command is written on one of its pages (or, for the options every command shares, on
/// `docs/common-options.md`), every relative link resolves, and the README stays short.
@Suite struct DocumentationCoverageTests {
    static let docs = GoldenCorpus.projectRoot.appendingPathComponent("docs")
    static let readme = GoldenCorpus.projectRoot.appendingPathComponent("README.md")

    /// One command of the CLI as `--experimental-dump-help` describes it.
    struct Command { let path: String; let longOptions: [String] }

    static func commands() throws -> [Command] {
        let dump = try SEKitBinary.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.stderr)")
        let root = try #require(JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var found: [Command] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            let arguments = command["arguments"] as? [[String: Any]] ?? []
            let longOptions = arguments.filter { ($0["shouldDisplay"] as? Bool) ?? true }.flatMap { argument in
                (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }
                    .compactMap { $0["name"] as? String }
            }.map { "--" + $0 }
            if !path.isEmpty, path != ["help"] { found.append(Command(path: "sekit " + path.joined(separator: " "),
                                                                      longOptions: longOptions)) }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + [sub["commandName"] as? String ?? "?"])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return found
    }

    static func pages() throws -> [String: String] {
        var pages: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: docs.path) where name.hasSuffix(".md") {
            pages[name] = try String(contentsOf: docs.appendingPathComponent(name), encoding: .utf8)
        }
        return pages
    }

    /// The names listed in a page's `<!-- KEY: a, b -->` marker.
    static func marker(_ key: String, in page: String) -> [String] {
        guard let start = page.range(of: "<!-- \(key): "), let end = page[start.upperBound...].range(of: " -->") else { return [] }
        return page[start.upperBound..<end.lowerBound].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether `word` occurs in `text` not followed by another name character (`--shard` is not `--shard-x`).
    static func mentions(_ text: String, _ word: String) -> Bool {
        var searchRange = text.startIndex..<text.endIndex
        while let found = text.range(of: word, range: searchRange) {
            let next = found.upperBound < text.endIndex ? text[found.upperBound] : " "
            if !(next.isLetter || next.isNumber || next == "-" || next == "_") { return true }
            searchRange = found.upperBound..<text.endIndex
        }
        return false
    }

    @Test func everyCommandAndOptionIsDocumented() throws {
        let pages = try Self.pages()
        let common = try #require(pages["common-options.md"], "docs/common-options.md is missing")
        let commonOptions = Set(Self.marker("common options", in: common))
        #expect(!commonOptions.isEmpty)
        let commands = try Self.commands()
        #expect(commands.count > 20, "only \(commands.count) commands found")
        var undocumented: [String] = []
        for command in commands {
            let homes = pages.filter { Self.marker("commands", in: $0.value).contains(command.path) }
            if homes.isEmpty { undocumented.append("\(command.path): no page in docs/ claims it"); continue }
            let text = homes.values.joined(separator: "\n")
            for option in command.longOptions where !commonOptions.contains(option) && !Self.mentions(text, option) {
                undocumented.append("\(command.path) \(option): not in \(homes.keys.sorted().joined(separator: ", "))")
            }
        }
        #expect(undocumented.isEmpty, "undocumented:\n\(undocumented.joined(separator: "\n"))")
    }

    @Test func theCheckCatchesAnUndocumentedOption() {
        // The matcher must not take a longer option for the one asked about.
        #expect(!Self.mentions("`--shard-count 3`", "--shard"))
        #expect(Self.mentions("`--shard i/N`", "--shard"))
        #expect(Self.marker("commands", in: "# T\n<!-- commands: sekit a, sekit a b -->\n") == ["sekit a", "sekit a b"])
    }

    /// GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
        })
    }

    @Test func relativeLinksResolve() throws {
        var files = try Self.pages().keys.map { Self.docs.appendingPathComponent($0) }
        files.append(Self.readme)
        var broken: [String] = []
        let link = try Regex(#"\]\(([^)\s]+)\)"#)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: link) {
                let target = String(text[match.range].dropFirst(2).dropLast())
                if target.hasPrefix("http://") || target.hasPrefix("https://") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let destination = parts[0].isEmpty ? file : file.deletingLastPathComponent().appendingPathComponent(parts[0])
                guard FileManager.default.fileExists(atPath: destination.path) else {
                    broken.append("\(file.lastPathComponent): \(target) (no such file)"); continue
                }
                guard parts.count == 2 else { continue }
                let headings = try String(contentsOf: destination, encoding: .utf8).split(separator: "\n")
                    .filter { $0.hasPrefix("#") }.map { Self.anchor($0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)) }
                if !headings.contains(parts[1]) { broken.append("\(file.lastPathComponent): \(target) (no such heading)") }
            }
        }
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test func readmeIsShortAndStartsWithTheTwoCommands() throws {
        let data = try Data(contentsOf: Self.readme)
        #expect(data.count <= 15 * 1024, "README.md is \(data.count) bytes (at most 15 KiB; detail goes to docs/)")
        let firstScreen = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).prefix(24)
            .joined(separator: "\n")
        #expect(firstScreen.contains("scripts/demo.sh") && firstScreen.contains("scripts/test.sh"))
        for page in try Self.pages().keys {
            #expect(String(decoding: data, as: UTF8.self).contains("docs/\(page)"), "README.md does not link docs/\(page)")
        }
    }
}
