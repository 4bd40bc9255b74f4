import Foundation
import Testing

/// `sekit export lhotse` (issue 31): manifests of a folder corpus and of the same mix as archives,
/// read by `lhotse.load_manifest`; every cut's noisy, clean and noise audio equals SEKit's stem,
/// and the realised SNR is each cut's custom field.
@Suite struct ExportLhotseCommandTests {
    @Test(.enabled(if: ArchivePython.available, "needs SEKIT_PYTHON with lhotse"))
    func lhotseLoadsTheManifestsOfAFolderAndAnArchiveCorpus() throws {
        let folder = try CatalogCLIFolder()
        defer { folder.cleanup() }
        try MixCommandTests().makeSources(folder)
        #expect(try MixArchiveCommandTests.mix(folder, out: "loose").status == 0)
        #expect(try MixArchiveCommandTests.mix(folder, out: "tars", ["--archive", "tar", "--archive-clips", "4"]).status == 0)
        for corpus in ["loose", "tars"] {
            let exported = try SEKitBinary.run(["export", "lhotse", folder.path(corpus), "--out", folder.path("lhotse-" + corpus)])
            #expect(exported.status == 0 && exported.stdout.contains("10 cuts"), "\(exported.stderr)")
        }
        let again = try SEKitBinary.run(["export", "lhotse", folder.path("tars"), "--out", folder.path("again")])
        #expect(again.status == 0)
        for name in ["recordings.jsonl.gz", "supervisions.jsonl.gz", "cuts.jsonl.gz"] {
            #expect(FileManager.default.contents(atPath: folder.path("again/" + name))
                    == FileManager.default.contents(atPath: folder.path("lhotse-tars/" + name)), "\(name) is not deterministic")
        }
        let script = """
        import json, sys, numpy as np, soundfile as sf, lhotse
        root, loose = sys.argv[1], sys.argv[2]
        manifest = {json.loads(line)["clip_id"]: json.loads(line) for line in open(f"{loose}/manifest.jsonl")}
        for corpus in ("loose", "tars"):
            cuts = lhotse.load_manifest(f"{root}/lhotse-{corpus}/cuts.jsonl.gz")
            recordings = lhotse.load_manifest(f"{root}/lhotse-{corpus}/recordings.jsonl.gz")
            supervisions = lhotse.load_manifest(f"{root}/lhotse-{corpus}/supervisions.jsonl.gz")
            assert len(cuts) == len(recordings) == len(supervisions) == len(manifest)
            kinds = set()
            for cut in cuts:
                record = manifest[cut.id]
                assert cut.snr_db_realised == record["snr_db_realised"] and cut.custom["split"] == record["split"]
                kinds.add(cut.recording.sources[0].type)
                for stem, audio in (("noisy", cut.load_audio()), ("clean", cut.load_clean()), ("noise", cut.load_noise())):
                    want, rate = sf.read(f"{loose}/{stem}/{cut.id}.wav", dtype="float32")
                    assert rate == cut.sampling_rate and np.array_equal(audio[0], want), (corpus, cut.id, stem)
            print(corpus, sorted(kinds))
        """
        let output = try ArchivePython.run(script, arguments: [folder.url.path, folder.path("loose")])
        #expect(output == "loose ['file']\ntars ['command']\n", "\(output)")
        let missing = try SEKitBinary.run(["export", "lhotse", folder.path("nowhere"), "--out", folder.path("x")])
        #expect(missing.status != 0 && missing.stderr.contains("nowhere"), "\(missing.stderr)")
    }
}
