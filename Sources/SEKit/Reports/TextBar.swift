/// Bars of `#` for text histograms (`sekit mix`'s SNR summary, `sekit catalog stats`).
public enum TextBar {
    /// A bar for `count` out of `peak`, scaled so `peak` is `width` characters; any non-zero count
    /// gets at least one character (lengths round up).
    public static func bar(_ count: Int, peak: Int, width: Int = 40) -> String {
        guard peak > 0, count > 0 else { return "" }
        return String(repeating: "#", count: Int((Double(count) / Double(peak) * Double(width)).rounded(.up)))
    }
}
