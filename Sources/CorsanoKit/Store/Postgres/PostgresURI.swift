import CPostgres
import Foundation

/// Reading PostgreSQL connection strings (libpq "Connection Strings": `postgresql://` and
/// `postgres://` URIs, or `key=value` pairs) for what messages may show: the password is found
/// wherever it can be written (user info, `password=` parameter) so it can be left out.
public enum PostgresURI {
    /// True when `location` names a PostgreSQL server rather than a SQLite file.
    public static func isPostgres(_ location: String) -> Bool {
        location.hasPrefix("postgresql://") || location.hasPrefix("postgres://")
    }

    /// `uri` without its password (user info and `password=` parameters), for messages.
    public static func redacted(_ uri: String) -> String {
        guard let schemeEnd = uri.range(of: "://") else { return redactedPairs(uri) }
        let afterScheme = uri[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
        var authority = String(afterScheme[..<authorityEnd])
        if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
            authority.removeSubrange(colon..<at)
        }
        var rest = String(afterScheme[authorityEnd...])
        if let question = rest.firstIndex(of: "?") {
            let query = rest[rest.index(after: question)...].split(separator: "&", omittingEmptySubsequences: false)
                .map { pair -> String in
                    let key = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                    return decode(key) == "password" ? "password=***" : String(pair)
                }
            rest = String(rest[..<question]) + "?" + query.joined(separator: "&")
        }
        return String(uri[..<schemeEnd.upperBound]) + authority + rest
    }

    /// The passwords written in `uri` (raw and percent-decoded), for scrubbing messages.
    static func passwords(in uri: String) -> [String] {
        var found: [String] = []
        // libpq's own parse, when it accepts the string.
        var error: UnsafeMutablePointer<CChar>?
        if let options = PQconninfoParse(uri, &error) {
            var option = options
            while let keyword = option.pointee.keyword {
                if String(cString: keyword) == "password", let value = option.pointee.val {
                    found.append(String(cString: value))
                }
                option += 1
            }
            PQconninfoFree(options)
        }
        PQfreemem(error)
        // And by hand, for strings libpq refuses (its error may quote a piece of them).
        if let schemeEnd = uri.range(of: "://") {
            let afterScheme = uri[schemeEnd.upperBound...]
            let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" } ?? afterScheme.endIndex
            let authority = afterScheme[..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                let raw = String(authority[authority.index(after: colon)..<at])
                found += [raw, decode(raw)]
            }
            if let question = uri.firstIndex(of: "?") {
                for pair in uri[uri.index(after: question)...].split(separator: "&") {
                    let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                    if parts.count == 2, decode(parts[0]) == "password" { found += [parts[1], decode(parts[1])] }
                }
            }
        } else if let value = pairValue("password", in: uri) {
            found.append(value)
        }
        return Array(Set(found.filter { !$0.isEmpty })).sorted { $0.count > $1.count }
    }

    /// `key=value` pairs with the password's value replaced.
    private static func redactedPairs(_ text: String) -> String {
        guard let value = pairValue("password", in: text) else { return text }
        return text.replacingOccurrences(of: value, with: "***")
    }

    /// The value of `key` in a `key=value` connection string (quoted or up to whitespace).
    private static func pairValue(_ key: String, in text: String) -> String? {
        guard let range = text.range(of: key) else { return nil }
        var rest = text[range.upperBound...].drop { $0 == " " }
        guard rest.first == "=" else { return nil }
        rest = rest.dropFirst().drop { $0 == " " }
        if rest.first == "'" {
            return String(rest.dropFirst().prefix { $0 != "'" })
        }
        return String(rest.prefix { !$0.isWhitespace })
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")) ?? text
    }

    private static func decode(_ text: String) -> String { text.removingPercentEncoding ?? text }
}
