import Foundation
import Testing

/// Pins the bytes SEKit produces for a small corpus made from the real fixtures: the mixed WAVs
/// and manifests (two mixes covering reverberation, low-pass, several noises, splits, float32,
/// full utterances, active SNR, LUFS level and clipping rejection), the HDF5 feature file, the
/// oracle resynthesis, `score --format json` and `--per-clip`, `catalog clips --format csv` and
/// a generated noise. A refactoring must leave every one of them byte-identical; a change that
/// is meant to alter an output updates `expected` below in the same commit and says why.
///
/// The work happens in a folder of this test run's own, removed when the outputs match; its path is
/// replaced by the folder the pins were made in, and in text outputs the fixtures' location and catalogue run ids are replaced
/// by `$FIXTURES` and a zero UUID (also inside the feature files' `mix_run_id`) so that the hashes do not depend on where the clone is.
@Suite(.serialized, .enabled(if: GoldenCorpus.fixturesRequired, "needs ../shared/fixtures"))
struct GoldenOutputTests {
    @Test func outputsAreByteIdenticalToThePinnedHashes() throws {
        let golden = try GoldenCorpus.make()
        let actual = try golden.hashes()
        let expected = GoldenCorpus.expected
        for (name, hash) in actual where expected[name] != hash {
            Issue.record("\(name): \(hash), pinned \(expected[name] ?? "nothing")")
        }
        for name in expected.keys where actual[name] == nil { Issue.record("\(name): missing") }
        if actual != expected {
            let listing = actual.sorted { $0.key < $1.key }.map { "        \"\($0.key)\": \"\($0.value)\"," }.joined(separator: "\n")
            try Data((listing + "\n").utf8).write(to: GoldenCorpus.root.appendingPathComponent("hashes-now.txt"))
            Issue.record("the hashes now are in \(GoldenCorpus.root.path)/hashes-now.txt")
        } else {
            try? FileManager.default.removeItem(at: GoldenCorpus.root)
        }
    }
}

enum GoldenCorpus {
    /// The working folder, unique to this test run (two runs on one machine never share it), as long
    /// as ``pinnedRoot``, which replaces it in every output before hashing (the feature files record
    /// the corpus's absolute path; a replacement of the same length keeps their layout).
    static let root = URL(fileURLWithPath: "/tmp/sg-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())
    /// The folder the pinned hashes were made in.
    static let pinnedRoot = "/tmp/sekit-golden-v1"
    static var projectRoot: URL { TestProject.root }
    static var fixtures: URL { TestProject.fixtures }
    static var fixturesPresent: Bool { TestProject.fixturesPresent }
    /// Under CI the test runs (and fails) when the fixtures are missing; elsewhere it is skipped.
    static var fixturesRequired: Bool { TestProject.fixturesRequired }

    struct Made { let folder: URL }

    static func run(_ arguments: [String]) throws -> SEKitBinary.Result {
        let result = try SEKitBinary.run(arguments, currentDirectory: root)
        if result.status != 0 { Issue.record("sekit \(arguments.joined(separator: " ")) exited \(result.status): \(result.stderr)") }
        return result
    }

    static func make() throws -> Made {
        let fm = FileManager.default
        try? fm.removeItem(at: root)
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        let f = fixtures.path
        let catalog = root.appendingPathComponent("catalog.sqlite").path
        // A: PCM16, reverberation with early-reflection targets, low-pass, 1-2 noises, two splits.
        _ = try run(["mix", "--speech", f + "/speech", "--noise", f + "/noise", "--rir", f + "/rir/small_room.wav",
                     "--rir", f + "/rir/rir_clap.wav", "--count", "12", "--seconds", "1.5", "--snr-db=-5:20",
                     "--rir-probability", "0.5", "--target", "early", "--lowpass-hz", "3000:7000", "--lowpass-probability", "0.5",
                     "--noises-per-clip", "1:2", "--split", "train=0.75,test=0.25", "--seed", "11", "--jobs", "2",
                     "--out", root.appendingPathComponent("a").path, "--catalog", catalog, "--name", "golden-a"])
        // B: float32, full utterances, active-level SNR, LUFS level, clipping rejection, concatenation off.
        _ = try run(["mix", "--speech", f + "/speech/vctk_p287_001.wav", "--speech", f + "/speech/arctic_a0007.wav",
                     "--speech", f + "/speech/cmu_arctic_us_axb_a0004.wav", "--noise", f + "/noise/running_tap.wav",
                     "--count", "4", "--length-mode", "full-utterance", "--snr-db", "0,5", "--snr-mode", "active",
                     "--level-mode", "lufs", "--level-dbfs=-30:-5", "--clipping", "reject", "--format", "float32", "--seed", "5",
                     "--out", root.appendingPathComponent("b").path, "--no-catalog"])
        _ = try run(["features", "--corpus", "a", "--out", "a-features.h5", "--targets", "clean,noise,irm,ibm,psm,noisy_phase",
                     "--compression", "gzip:4", "--jobs", "2", "--no-catalog"])
        _ = try run(["features", "--corpus", "a", "--out", "a-features-f16.h5", "--feature", "compressed", "--dtype", "float16",
                     "--n-fft", "256", "--hop-length", "100", "--window", "sqrt-hann", "--targets", "irm", "--no-catalog"])
        _ = try run(["synthesize", "--features", "a-features.h5", "--dataset", "irm", "--kind", "mask", "--out", "oracle",
                     "--format", "pcm16", "--no-catalog"])
        let scores = try run(["score", "--corpus", "a", "--enhanced", "oracle", "--metrics",
                              "snr,segsnr,sisdr,sisnr,stoi,estoi,fwsegsnr,llr,wss,cd", "--format", "json",
                              "--per-clip", "scores.csv", "--catalog", catalog, "--checkpoint", "oracle"])
        try Data(scores.stdout.utf8).write(to: root.appendingPathComponent("score.json"))
        let clips = try run(["catalog", "clips", "--format", "csv", "--catalog", catalog])
        try Data(clips.stdout.utf8).write(to: root.appendingPathComponent("clips.csv"))
        _ = try run(["noise", "pink.wav", "--color", "pink", "--seconds", "1", "--rms-dbfs=-30", "--seed", "3"])
        return Made(folder: root)
    }

    /// The outputs to hash: every WAV and manifest of both corpora, the two feature files, the
    /// oracle WAVs, the score JSON and CSV, the catalogue's clip CSV and the noise.
    static let textFiles: Set<String> = ["a/manifest.jsonl", "b/manifest.jsonl", "score.json", "scores.csv", "clips.csv"]

    static func listed() throws -> [String] {
        let fm = FileManager.default
        var names: [String] = []
        for folder in ["a/noisy", "a/clean", "a/noise", "b/noisy", "b/clean", "b/noise", "oracle"] {
            let files = try fm.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)
            names += files.filter { $0.hasSuffix(".wav") }.map { folder + "/" + $0 }
        }
        names += ["a-features.h5", "a-features-f16.h5", "pink.wav"] + textFiles
        return names.sorted()
    }

    /// SHA-256 (`sha256sum`) of every output, text outputs normalised first.
    static func hashesOf(_ names: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        let uuid = try NSRegularExpression(pattern: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")
        for name in names {
            // Latin-1 maps bytes one to one, so binary files (the HDF5 `mix_run_id` attribute)
            // get the same-length replacement and keep their layout.
            var text = String(data: try Data(contentsOf: root.appendingPathComponent(name)), encoding: .isoLatin1)!
            text = text.replacingOccurrences(of: root.path, with: pinnedRoot)
            if textFiles.contains(name) { text = text.replacingOccurrences(of: fixtures.path, with: "$FIXTURES") }
            text = uuid.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                 withTemplate: "00000000-0000-0000-0000-000000000000")
            let data = text.data(using: .isoLatin1)!
            result[name] = sha256(data)
        }
        return result
    }

    static func sha256(_ data: Data) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try? process.run()
        input.fileHandleForWriting.write(data)
        try? input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(String(decoding: out, as: UTF8.self).prefix(64))
    }

    /// Recorded at 24674f0 (before the groundwork refactoring), debug build. Corpus A's reverberated
    /// clips (0, 5-8, 10, 11) and what is computed from them (features, oracle, scores, clips.csv)
    /// changed when stems came to be aligned on the RIR's first arrival instead of its largest sample
    /// (issue 29); corpus B and the noise have no RIR and are unchanged.
    static let expected: [String: String] = [
        "a-features-f16.h5": "2b62841db5fe9896fef9cefe64f5f15f28a21ba73c8a2626d44caa7546773072",
        "a-features.h5": "65a7a878363890a8e336a3bba568cfe58860a6fc425af5b2cdcbf42c7502733c",
        "a/clean/s11-0000000.wav": "4b4f1c7d96379b0a92062d68cfba483dc60da07e07a5cdc7ce804a9d3e0ab643",
        "a/clean/s11-0000001.wav": "5d3ac3804acaaab4088bd361ace6bbd7dfb03f3dd1681e753caed6d6b7a3d5f2",
        "a/clean/s11-0000002.wav": "acee4b875725566c77e14feebea88503db3c4d0fd28dffea226a6ea9ac91d88e",
        "a/clean/s11-0000003.wav": "b49adecb4417d03d7a6a9ad0f377271f07b2b974ebea5ed469a97e7e66f99e08",
        "a/clean/s11-0000004.wav": "5d8df4351d7e3572ff3b9b71b77172c15b0e363e1c3d59fb6799e33671d6031a",
        "a/clean/s11-0000005.wav": "c9d51b02b8e00a30dbef4b4d6f228d22df282d27db96f2f571d5a8151ef6bb03",
        "a/clean/s11-0000006.wav": "ef275d9fd790cb9a39a7f54ff239b3f388f67f6e6b8567ab6deac0529aefa0a5",
        "a/clean/s11-0000007.wav": "9d21f8e94263b2b33b1d91dc8bf32d328f56c1fb2bd52e45055d060e33aae2f5",
        "a/clean/s11-0000008.wav": "c9919a84f2779b79eaf8de5204821508f93c03bfc8d6e3d19655d7cddc91144f",
        "a/clean/s11-0000009.wav": "80130e744c675c8182fa9f2b91739efc40e19b42203b435ee9bd5537cc72c54c",
        "a/clean/s11-0000010.wav": "5854e00ee7f3a6646ad46e1f1f1d0a4bb47c209215efd4f68c30df461d749414",
        "a/clean/s11-0000011.wav": "5fde01a6874df89abc8082937f33d2216c5fb141d0f4ef2e31c11b921b423d31",
        "a/manifest.jsonl": "46f97234f7bad0de23ea900d2402299b8d22ae8ae589a982591b114d0769ce1a",
        "a/noise/s11-0000000.wav": "bc2e39c7e6afecb5f5709c04e896dd0021e3433fb4cc195cb74ebed78af5e82c",
        "a/noise/s11-0000001.wav": "af6698a0a84337802cf4b07b97ca8e6c131a202cc18c34094832290a58f45de4",
        "a/noise/s11-0000002.wav": "457117c4ac1392ed482f681e7aebe023cd0ad98638c792c65d5aeb26a166adeb",
        "a/noise/s11-0000003.wav": "dad2b7effa982907265e1dcdcd4a5f0d71074fc648d6f97e6eda64f05956e670",
        "a/noise/s11-0000004.wav": "9fc14bca5d1e1ecf7e43013602c0ae4a16e16d487bb561b8ee87019f43663211",
        "a/noise/s11-0000005.wav": "38c77d3640966960d6745071504d345cbd82b1b099d79f287741ca0f12b90e29",
        "a/noise/s11-0000006.wav": "7be9eb13f0710f7a5137cf7523c7216dfb0f5f8885c47b585ef24a36cff01922",
        "a/noise/s11-0000007.wav": "6886994ce59049529ba0640e8a72738b6b3e2b04167d350305fe73aea535999c",
        "a/noise/s11-0000008.wav": "95595965647b7b40195ed48bcad2cae58980d7b367e9dd2f23956e23e29fe286",
        "a/noise/s11-0000009.wav": "748bb5424f7c56548dfe675f041ac106cefcfac0fec5813c50728c82e5abb52b",
        "a/noise/s11-0000010.wav": "142f89acd1826560db43da3d4df96cd6fdedebdeeb49da07eb2d22475101d26b",
        "a/noise/s11-0000011.wav": "30f7a211a2ff26660885cc205bcaf945b59a985bbea5cd9f2baa2dd44c71b457",
        "a/noisy/s11-0000000.wav": "a084c2a2380bce12d6b854ceb1420f56a3a80683d6f9fff88762a69a5dc2aaf5",
        "a/noisy/s11-0000001.wav": "5f284210e65e8d58d32623cbc3644105080c0316283d01e1a123ec6a21fafd42",
        "a/noisy/s11-0000002.wav": "80f9c3c901601b695e8adf7f5d03f8b9534fa297b4b7c42b39f503e0a0a987bc",
        "a/noisy/s11-0000003.wav": "576d0b5bb8a315d1ed8d939a1ab8c0fc3ccb65f4d9e5d49ab6b98751ed4fbbe6",
        "a/noisy/s11-0000004.wav": "219d32c0ef327e7822795f1c709c02b6fc06f42e6eb7825c7715ac39102680bb",
        "a/noisy/s11-0000005.wav": "e0a076ece643b12266e6dd503c56d1e2a8d976a78acd6a70d4afe9af29d8fe57",
        "a/noisy/s11-0000006.wav": "0f758e35b015b3ee20fb2d92e41570980f65a6cc1d5f095e23eb0d183d0d15a7",
        "a/noisy/s11-0000007.wav": "fdd71be10ef7a99db07b1a631e1431303e99f44655c71e215c92d8b78cf2d156",
        "a/noisy/s11-0000008.wav": "ccaef877fbfc19d3e690fc9644cf14ad6cb47d2f88d11e6639a5c63e477a0f9c",
        "a/noisy/s11-0000009.wav": "86c1c04c7ca05a9357e887086182bad28f99d289091121796df1cd36485a3186",
        "a/noisy/s11-0000010.wav": "06d7335bb2fa507285ffe7da21a9d94737cb52cec3b53cb2ec6555613e3dc5d8",
        "a/noisy/s11-0000011.wav": "ad31078caa3066cb641fc0ca5f82d88f022c6b1eeb362d89a65067285186be60",
        "b/clean/s5-0000000.wav": "a5455e6afe6a6f8701caedb40bc6fdedca083dfe8ebfb52f8c3ab12ef06c35c9",
        "b/clean/s5-0000001.wav": "e635b76bc5bbd0537898d00af80aa9f37f5863be1904406f81ccd0045a1dd78d",
        "b/clean/s5-0000002.wav": "a0de0219f30eec5b0fed4c0d3dfec5f3867c0bb7f897cd819a7222b89d4ea494",
        "b/clean/s5-0000003.wav": "d06e8494541ac5dc51f4354a2d129b474059e5e8c47359ef00678ae159273490",
        "b/manifest.jsonl": "b1d55e5bc77e5ce52eee595f73384c9e074bbe5a152ce90adf52e471df142983",
        "b/noise/s5-0000000.wav": "22831baf275951818b1a02b4633802ce82025fedbcdfd53bf506406024fafeb4",
        "b/noise/s5-0000001.wav": "6cdd041587fdd14f2d6f6d8ae53b9a95089719e076263757ec80703d515f019c",
        "b/noise/s5-0000002.wav": "20b09f105be665932add4c5024f138cd69f3b41b2bc6b153e9a30880473a0a53",
        "b/noise/s5-0000003.wav": "5d64b811146aac0683406d5c95e717099cce304fc3c9f2aee194b82d87b05ac3",
        "b/noisy/s5-0000000.wav": "3b203d71e6563d49d813d49972ef663ff59dc7c03a33f1dc392eb7f2148e0a8e",
        "b/noisy/s5-0000001.wav": "ea9d87f47ab21390508ee1d9af10282ddb3c2dfe8872f059b79c8bacc09545cd",
        "b/noisy/s5-0000002.wav": "923ecf8e53f15122e2348d935a503de07ff20b585cb63dfbaaf85f49d7d1c351",
        "b/noisy/s5-0000003.wav": "b3aa9c9f98e962af7f27410d97201fb1212a45e06373ae1d0f0b2e2b4158895f",
        "clips.csv": "d126e9ea8695c2b57afce04697f0a848dce6318839b7528c4016b2f027a8ecc3",
        "oracle/s11-0000000.wav": "bd24baa6b31925a57802b2351e1935768fa9f7ce38f4207d9a7c3bf7f11731bb",
        "oracle/s11-0000001.wav": "ecc35ea776f51001f0f3710cfdcfe2b7c9e773de32874db4ba5490d99b5b3446",
        "oracle/s11-0000002.wav": "ab0d0fba523c54d2c2519ca8b950599b47e57918b0cc52c3ee2592a917a274f5",
        "oracle/s11-0000003.wav": "5d7cf5bea1fc467048e8cc87073b61c3ef496e42bf5396e050073aadb67c7b81",
        "oracle/s11-0000004.wav": "1eeff517b43d15d6dcc0cf0c85bb37ce0443f83549771175d8cab6238311ceea",
        "oracle/s11-0000005.wav": "37adff29efa99a3b6e91dc71212de3503111b8aa7fb18b326591764b6d988f47",
        "oracle/s11-0000006.wav": "53a36c4c5bb0b8644abd5cd8990547cec095bbae10a4303ded7f79dbafd9c9d6",
        "oracle/s11-0000007.wav": "92da98f33f7c0cef6066722a9ba4c2c1b42d991f81d5aa46ad84d7cbde872496",
        "oracle/s11-0000008.wav": "b9f4acdb08ae6c46b189e22ca74ae2680f3ceeb74a1f89e3d44b5af60e4ceab9",
        "oracle/s11-0000009.wav": "049e7a1ac226009d013f1ef5253c71d573c85be46c4bdeee310be196e51065b3",
        "oracle/s11-0000010.wav": "b6d3776d8243f2abb985afb5cdd244ff9de3e491da0324bc5aea6d8e74ed7066",
        "oracle/s11-0000011.wav": "2f4f445af7ccbe6c34f9d52d80be9e8bb81203e0d933ab5e2407bbd78fbd5e6c",
        "pink.wav": "cd4f4ff7c49ffd7cf9448b2eddabb34e4e3e3437aa0b55a767b7871a8c1b9918",
        "score.json": "f3a0c7223c0670a16b2be3013aa4a718f2d0cd201cec0e4ab77e9e02e98c1642",
        "scores.csv": "42591eda416fb8829e38be6a47d5cbcc8e6098414100de8131ffc4d4fdb29190",
    ]
}

extension GoldenCorpus.Made {
    func hashes() throws -> [String: String] { try GoldenCorpus.hashesOf(try GoldenCorpus.listed()) }
}
