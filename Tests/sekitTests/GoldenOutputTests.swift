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

    /// Recorded at 24674f0 (before the groundwork refactoring), debug build.
    static let expected: [String: String] = [
        "a-features-f16.h5": "95ec2075aac3cc70ed7476152fd7f93375ba8de3d3c02edacc9013818508f6a8",
        "a-features.h5": "891d15e377c40a0ef07acf91172bc2e1de9c6bce47e30ca03ebe6ee28967ac34",
        "a/clean/s11-0000000.wav": "c75d3102d759d1386fdd1284bbfc1c267d3ea96058f47cd4cf9168dd1ba61bea",
        "a/clean/s11-0000001.wav": "5d3ac3804acaaab4088bd361ace6bbd7dfb03f3dd1681e753caed6d6b7a3d5f2",
        "a/clean/s11-0000002.wav": "acee4b875725566c77e14feebea88503db3c4d0fd28dffea226a6ea9ac91d88e",
        "a/clean/s11-0000003.wav": "b49adecb4417d03d7a6a9ad0f377271f07b2b974ebea5ed469a97e7e66f99e08",
        "a/clean/s11-0000004.wav": "5d8df4351d7e3572ff3b9b71b77172c15b0e363e1c3d59fb6799e33671d6031a",
        "a/clean/s11-0000005.wav": "61c06915ded3984964e055f97917df17f30f13e859c31a7b16f98eb48def93da",
        "a/clean/s11-0000006.wav": "0e8b583582084901a7069f26b69935c73fd063e04562a0eaecfcaabe38f06afb",
        "a/clean/s11-0000007.wav": "ede7ab8adced7e1e2b068ce7da4d9506621702a2a89c0bcf9a116502e2123aa3",
        "a/clean/s11-0000008.wav": "ff35a70788cd83860307206b966c2e02523c846f68df7a509e4f04a3430077e8",
        "a/clean/s11-0000009.wav": "80130e744c675c8182fa9f2b91739efc40e19b42203b435ee9bd5537cc72c54c",
        "a/clean/s11-0000010.wav": "e365b8fc5ec23afcc0d6ee09a7e045ef8cd019296ca31ee4390d47b3bdb8b517",
        "a/clean/s11-0000011.wav": "e95eca1d71b6be7909208a8221bf93b242f9fa2450d1395ae9a1d0d2ea3e0931",
        "a/manifest.jsonl": "3bbb40eb5723041ef03097a4ade046cff6645e6335406fa272867870a00abedb",
        "a/noise/s11-0000000.wav": "63e03d40292b616286a1c6373de5a61266e9073f48ed23a62c056710d7b5f3b5",
        "a/noise/s11-0000001.wav": "af6698a0a84337802cf4b07b97ca8e6c131a202cc18c34094832290a58f45de4",
        "a/noise/s11-0000002.wav": "457117c4ac1392ed482f681e7aebe023cd0ad98638c792c65d5aeb26a166adeb",
        "a/noise/s11-0000003.wav": "dad2b7effa982907265e1dcdcd4a5f0d71074fc648d6f97e6eda64f05956e670",
        "a/noise/s11-0000004.wav": "9fc14bca5d1e1ecf7e43013602c0ae4a16e16d487bb561b8ee87019f43663211",
        "a/noise/s11-0000005.wav": "5051675dd6ccd3f4a5d53585f8ede532ca0cbc2ddb44ca5da720a43c6935a953",
        "a/noise/s11-0000006.wav": "0b31638994216c49d5652d9055d7f7c1e9444564e1e44a41fca30c5a451de45f",
        "a/noise/s11-0000007.wav": "b432140e7a2695d18ecb2b19db0f2404819b8f4362e83bdd254929b6d6d5b938",
        "a/noise/s11-0000008.wav": "799074b8603451ac37fa650ebcb0a047426ed9206fa312da2f5c63b499c85b96",
        "a/noise/s11-0000009.wav": "748bb5424f7c56548dfe675f041ac106cefcfac0fec5813c50728c82e5abb52b",
        "a/noise/s11-0000010.wav": "58347d0fbe67be6dd989497dde05210897477e02b8f4a0d40e181a294d411190",
        "a/noise/s11-0000011.wav": "ff3877568314bbe5e8989918a4924db3ddc52cc7a1ce1a424e0597f772e395be",
        "a/noisy/s11-0000000.wav": "09b3d6761f4d638ca9da1a9aec2596663310a9a35aa37e55d233267cbd53c625",
        "a/noisy/s11-0000001.wav": "5f284210e65e8d58d32623cbc3644105080c0316283d01e1a123ec6a21fafd42",
        "a/noisy/s11-0000002.wav": "80f9c3c901601b695e8adf7f5d03f8b9534fa297b4b7c42b39f503e0a0a987bc",
        "a/noisy/s11-0000003.wav": "576d0b5bb8a315d1ed8d939a1ab8c0fc3ccb65f4d9e5d49ab6b98751ed4fbbe6",
        "a/noisy/s11-0000004.wav": "219d32c0ef327e7822795f1c709c02b6fc06f42e6eb7825c7715ac39102680bb",
        "a/noisy/s11-0000005.wav": "4705d6e6546bdd5a9fa2ae405f06d89039b582c8f9107c1ce32d811b066e2934",
        "a/noisy/s11-0000006.wav": "655f760e1a4810680862895ab21c8d9eeb28b36b8e381ac551840fba70b664f5",
        "a/noisy/s11-0000007.wav": "2189373f649158e416dbe54a42bdaea2d5fc6aac7cd3ada58f60bbf83a596b9f",
        "a/noisy/s11-0000008.wav": "250850eed547a5356ef9dc5390d099928d344b2e8fd4b41bdf7a1c984378767c",
        "a/noisy/s11-0000009.wav": "86c1c04c7ca05a9357e887086182bad28f99d289091121796df1cd36485a3186",
        "a/noisy/s11-0000010.wav": "98bc6f7de0e895195df6101e040ebe8453da014a564b34db1763a6b2afb949b9",
        "a/noisy/s11-0000011.wav": "51a9ef55c8a237028e849b2f20cfa0dfe6b30d315b6a13d21104ebd3df5d4725",
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
        "clips.csv": "50edbaaa3fd13ec4c5609b151464d71033dd1cbe1e2e2a983a1f997d6e710d59",
        "oracle/s11-0000000.wav": "c05cd7de51e61805358e009a8588c64599a8765248a16fda5f688213c75909b1",
        "oracle/s11-0000001.wav": "ecc35ea776f51001f0f3710cfdcfe2b7c9e773de32874db4ba5490d99b5b3446",
        "oracle/s11-0000002.wav": "ab0d0fba523c54d2c2519ca8b950599b47e57918b0cc52c3ee2592a917a274f5",
        "oracle/s11-0000003.wav": "5d7cf5bea1fc467048e8cc87073b61c3ef496e42bf5396e050073aadb67c7b81",
        "oracle/s11-0000004.wav": "1eeff517b43d15d6dcc0cf0c85bb37ce0443f83549771175d8cab6238311ceea",
        "oracle/s11-0000005.wav": "6a654b405273ff06f7c5bd8650c39933b0f0bcf77b714a534a60f73250d3f0d2",
        "oracle/s11-0000006.wav": "509a683cfe382098e5bbddad3232e630e5a1c1945900596a6e5dfd02be33c041",
        "oracle/s11-0000007.wav": "8096cfe390bb5041c8cb3f4eee0dea07454cc06b8f1f56d1b00d5982b850266f",
        "oracle/s11-0000008.wav": "376c8bb30247593c7f9153765eea2b3311b0b9ff7523ab739692105401abe24e",
        "oracle/s11-0000009.wav": "049e7a1ac226009d013f1ef5253c71d573c85be46c4bdeee310be196e51065b3",
        "oracle/s11-0000010.wav": "d15ae9d4fc2113577f9af0452497c7de94447b833bea3f745e51a8c4fafd4162",
        "oracle/s11-0000011.wav": "cffeaaf7d42b51a0c377ff394d9ea401b8bc62bd90ac946ba35a09f346a2989b",
        "pink.wav": "cd4f4ff7c49ffd7cf9448b2eddabb34e4e3e3437aa0b55a767b7871a8c1b9918",
        "score.json": "92addeec149459afbae730808866615c7dab794a6dd4f5758b48707baf3c0924",
        "scores.csv": "4f4cb1dea30ff36fbf99a099e47a677dd34abbc18d5b28189d307e458455c888",
    ]
}

extension GoldenCorpus.Made {
    func hashes() throws -> [String: String] { try GoldenCorpus.hashesOf(try GoldenCorpus.listed()) }
}
