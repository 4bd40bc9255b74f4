/// The words spoken in a clip, for the error rates scored against a transcript file
/// (`wer`, `cer`): the text, or why the clip has none (no line for it, or several).
public enum ReferenceTranscript: Sendable, Equatable {
    /// The transcript as the file gives it.
    case text(String)
    /// The file has no usable line for the clip, and why.
    case unavailable(reason: String)
}
