/// SEKit's version, recorded in every catalogue run and every file SEKit writes.
public enum SEKitVersion {
    /// Semantic version of the library and the `sekit` tool.
    public static let string = "0.1.0"
}
