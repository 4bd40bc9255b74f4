import Foundation
import Testing
@testable import sekit
import SEKit

/// The mix settings are declared once: `MixSettings.keys` names every setting (the recipe keys and
/// the catalogue's params), and `sekit mix` has exactly one flag per key, whose value reaches the
/// setting of that name. A flag added without its key, a key without its flag, or a flag that
/// `MixCommand.flagValues` forgets, fails here.
@Suite struct MixFlagsTests {
    /// `sekit mix` options that are not mix settings: where the output goes and how the command runs
    /// (`archive`, `archive-clips`: how the same clips are stored, recorded in archive.json, not mix.json;
    /// `from-manifest`: clips read from a manifest, like `recipe` a source of settings rather than one).
    static let commandOptions: Set<String> = ["out", "recipe", "jobs", "shard", "catalog", "no-catalog", "name", "overwrite",
                                              "full-utterance", "help", "version", "archive", "archive-clips", "from-manifest"]

    /// A value each setting accepts (enumerated settings need one of their values).
    static func sampleValue(_ key: String) -> String {
        ["length-mode": "fixed", "snr-mode": "active", "level-mode": "lufs", "clipping": "reject", "target": "early",
         "disjoint": "speakers", "format": "float32", "target-bandwidth": "limited", "concealment": "repeat",
         "split": "train=0.5,test=0.5", "codec": "mp3", "degradations-per-clip": "0:0.5,1:0.5", "silenced-clips": "fail",
         "split-sources": "speech"][key] ?? "1"
    }

    @Test func everySettingHasExactlyOneFlag() throws {
        let dump = try SEKitBinary.run(["mix", "--experimental-dump-help"])
        let root = try #require(JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        let command = try #require(root["command"] as? [String: Any])
        let flags = Set((command["arguments"] as? [[String: Any]] ?? []).flatMap { argument in
            (argument["names"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "long" }.compactMap { $0["name"] as? String }
        })
        let keys = Set(MixSettings.keys.map(\.key))
        #expect(keys.subtracting(flags).isEmpty, "settings without a flag: \(keys.subtracting(flags).sorted())")
        let extra = flags.subtracting(keys).subtracting(Self.commandOptions)
        #expect(extra.isEmpty, "flags of sekit mix that are no setting (add them to MixSettings.keys): \(extra.sorted())")
    }

    @Test func everyFlagReachesItsSetting() throws {
        for (key, _) in MixSettings.keys {
            let value = Self.sampleValue(key)
            var arguments = ["--out", "/tmp/unused", "--\(key)", value]
            for required in ["speech", "noise"] where key != required { arguments += ["--\(required)", "x"] }
            let command = try MixCommand.parse(arguments)
            let values = command.flagValues()
            // Numbers come back as the flag's type prints them (`1.0` for a Double flag).
            let reached = values[key] == [value] || values[key].map { $0.count == 1 && Double($0[0]) == Double(value) } == true
            #expect(reached, "--\(key) \(value) gave \(values[key] ?? [])")
            #expect(values.count == (key == "speech" || key == "noise" ? 2 : 3), "--\(key) set \(values.keys.sorted())")
        }
    }
}
