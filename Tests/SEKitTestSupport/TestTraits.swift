import Testing

extension Trait where Self == ConditionTrait {
    /// For suites and tests that read the fixtures (`datasets/fixtures`): they always run, except when
    /// the folder is incomplete, where they are skipped under ``TestProject/fixturesSkipReason`` and
    /// `TestEnvironmentTests` fails once, naming the missing files.
    public static var needsFixtures: Self {
        .enabled(if: TestProject.fixturesComplete, Comment(rawValue: TestProject.fixturesSkipReason))
    }

    /// For the reference tier: tests that compare against the published values of recordings kept
    /// outside the repository (``TestProject/referenceAudio``). Skipped and counted without
    /// `SEKIT_REFERENCE_AUDIO`, except under CI, where they run and fail.
    public static var referenceTier: Self {
        .enabled(if: TestProject.referenceTierRuns, Comment(rawValue: TestProject.referenceTierSkipReason))
    }
}
