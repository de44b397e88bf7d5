/// One of the 17 locales the human text ships in (seeds/bp-initialization.txt, "Localization").
///
/// Raw values are BCP 47 tags as `--lang` accepts them. JSON output is never localized.
public enum AppLocale: String, CaseIterable, Sendable {
    case ar, da, de, el, en, es, fi, fr, he, it, ka, nb, nl
    case nlBE = "nl-BE"
    case pl
    case ptPT = "pt-PT"
    case sv

    /// The BCP 47 tag (`nl-BE`, `pt-PT`, `de`).
    public var tag: String { rawValue }

    /// True for scripts written right to left (Arabic, Hebrew).
    public var isRightToLeft: Bool { self == .ar || self == .he }

    /// The locale a missing string is looked up in next: Flemish falls back to Dutch, the rest
    /// to English (English itself has every key; the compiler checks that).
    public var fallback: AppLocale? {
        switch self {
        case .en: return nil
        case .nlBE: return .nl
        default: return .en
        }
    }
}
