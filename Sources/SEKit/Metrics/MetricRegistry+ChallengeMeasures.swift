extension MetricRegistry {
    /// The measures challenges rank by, added after the predictors (so the order of the metrics that
    /// came before them stays as it was): BSS Eval for one source (`sdr`, `sir`, `sar`) and SRMR,
    /// native; speaker similarity, Resemblyzer in the Python worker (the training environment: torch).
    static let challengeMeasures: [MetricDescriptor] = [
        MetricDescriptor(
            name: "bss_eval", outputs: [MetricOutput("sdr", unit: "dB"), MetricOutput("sir", unit: "dB"), MetricOutput("sar", unit: "dB")],
            sampleRates: .any,
            reference: "BSS Eval SDR/SIR/SAR for one source, Vincent et al. (IEEE TASLP 2006), 512-tap distortion filter, "
                + "as mir_eval 0.8.2 bss_eval_sources (SIR of one source is +inf)",
            backend: .native { c, _ in
                let ratios = try BSSEval.ratios(reference: c.reference.samples, estimate: c.processed)
                return [ratios.sdr, ratios.sir, ratios.sar]
            }),
        single("srmr", unit: "", needsReference: false,
               reference: "speech-to-reverberation modulation energy ratio, Falk et al. (IEEE TASLP 2010), no reference; "
                   + "as torchmetrics 1.9 speech_reverberation_modulation_energy_ratio "
                   + "(23 gammatone channels, norm=False, fast=False)") { c, _ in
            try SRMR.compute(c.processed, sampleRate: c.sampleRate)
        },
        python("speaker_similarity", package: "resemblyzer",
               reference: "speaker similarity, cosine of Resemblyzer (GE2E, Wan et al. ICASSP 2018) embeddings of reference and output, "
                   + "resemblyzer 0.1.4 pretrained.pt", QualityPredictors.speakerSimilarity),
        MetricDescriptor(
            name: "asr_vs_clean",
            outputs: [MetricOutput("wer_vs_clean", unit: "", higherIsBetter: false),
                      MetricOutput("cer_vs_clean", unit: "", higherIsBetter: false)],
            sampleRates: .only([16000]), resampledRate: 16000,
            reference: "word and character error rates of the output's transcript against the clean reference's (not a human "
                + "transcript), pocketsphinx 5.1.1 US-English models, jiwer",
            backend: .python(packages: ["pocketsphinx"]) { c, w in try QualityPredictors.asrVersusClean(c, workspace: w) }),
        MetricDescriptor(
            name: "asr",
            outputs: [MetricOutput("wer", unit: "", higherIsBetter: false), MetricOutput("cer", unit: "", higherIsBetter: false)],
            sampleRates: .only([16000]), resampledRate: 16000, needsReference: false,
            reference: "word and character error rates of the output's transcript against --transcripts FILE.tsv, "
                + "pocketsphinx 5.1.1 US-English models, jiwer",
            backend: .python(packages: ["pocketsphinx"]) { c, w in try QualityPredictors.asr(c, workspace: w) }),
    ]
}
