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

    /// True when `text` (a command line, a REPL line) holds a PostgreSQL password: a URI with a
    /// password in its user info or a `password` parameter, or a `password=` pair. Used to keep
    /// such lines out of history files.
    public static func holdsPassword(_ text: String) -> Bool {
        let lowered = text.lowercased()
        if lowered.range(of: #"password\s*="#, options: .regularExpression) != nil { return true }
        return text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "=" || $0 == "'" || $0 == "\"" })
            .contains { word in isPostgres(String(word)) && !passwords(in: String(word)).isEmpty }
    }

    /// True when a `--state` value looks meant for PostgreSQL rather than a SQLite file: a URI
    /// scheme (`postgres:`, `postgresql:`, or any `SCHEME://`) or libpq `key=value` pairs. Such
    /// a value must be a valid URI (`problem(in:)`), never a file name (issue 27: a mistyped
    /// URI made a file named after it, and the gateway stopped sharing the lab's seen-set).
    public static func looksLikeConnectionString(_ text: String) -> Bool {
        let lowered = text.lowercased()
        if lowered.hasPrefix("postgres:") || lowered.hasPrefix("postgresql:") || lowered.contains("://") { return true }
        if lowered.hasPrefix("postgres"), lowered.contains("//") || lowered.contains("@") { return true }  // postgres//u@h
        let keywords = ["host", "hostaddr", "port", "dbname", "user", "password", "passfile", "service", "sslmode", "options", "connect_timeout"]
        return keywords.contains { lowered.range(of: #"(^|\s)"# + $0 + #"\s*="#, options: .regularExpression) != nil }
    }

    /// Why `text` is not a connection URI corsano accepts, or nil when it is one: the
    /// `postgresql://` / `postgres://` scheme, parsed by libpq (PQconninfoParse), with a numeric
    /// port and the user info percent-encoded (an unencoded `/` or `@` in a password would be
    /// read by libpq as the path or the host, and the password shown as a database name).
    /// The reason never quotes the text.
    public static func problem(in text: String) -> String? {
        guard isPostgres(text) else {
            return text.contains("://") || text.lowercased().hasPrefix("postgres")
                ? "not a postgresql:// or postgres:// URI" : "a libpq key=value string; give a postgresql:// URI instead"
        }
        let afterScheme = text[text.range(of: "://")!.upperBound...]
        let beforeQuery = afterScheme.prefix { $0 != "?" }
        let authority = beforeQuery.prefix { $0 != "/" }
        if beforeQuery.contains("@") && !authority.contains("@") || authority.filter({ $0 == "@" }).count > 1 {
            return "an unencoded '/' or '@' in the user name or password; percent-encode them (%2F, %40; ':' is %3A, '%' is %25)"
        }
        // Without libpq its parse cannot be asked: the store's open then refuses the
        // command with 69 naming libpq5, before any connection.
        guard OptionalLibrary.libpq.load() == nil else { return nil }
        var error: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(text, &error) else {
            PQfreemem(error)
            return "libpq cannot parse it (percent-encode '%' as %25 and '/', '@', ':' in the password as %2F, %40, %3A)"
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "port", let value = option.pointee.val {
                let port = String(cString: value)
                if !port.split(separator: ",", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) {
                    return "its port is not a number (percent-encode ':' in the password as %3A)"
                }
            }
            option += 1
        }
        return nil
    }

    /// `uri` without its password (user info and `password=` parameters), for messages. The user
    /// info ends at the last `@` before the query, so an unencoded `/` in a password is not taken
    /// for the path; a string libpq cannot parse shows no user info at all.
    public static func redacted(_ uri: String) -> String {
        guard let schemeEnd = uri.range(of: "://") else {
            // A mistyped URI (postgresql:/u:pw@h): nothing before its last '@' is shown.
            if !uri.contains("="), let at = uri.lastIndex(of: "@") {
                return (uri.firstIndex(of: ":").map { String(uri[...$0]) } ?? "") + "***" + uri[at...]
            }
            return redactedPairs(uri)
        }
        let afterScheme = uri[schemeEnd.upperBound...]
        let beforeQuery = afterScheme.prefix { $0 != "?" }
        if problem(in: uri) != nil {
            // Unparsable: keep only what follows the user info (host, path), never the query.
            let host = beforeQuery.lastIndex(of: "@").map { String(beforeQuery[beforeQuery.index(after: $0)...]) } ?? String(beforeQuery)
            return String(uri[..<schemeEnd.upperBound]) + (beforeQuery.contains("@") ? "***@" : "") + host
        }
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
        if OptionalLibrary.libpq.load() == nil, let options = PQconninfoParse(uri, &error) {
            var option = options
            while let keyword = option.pointee.keyword {
                if String(cString: keyword) == "password", let value = option.pointee.val {
                    found.append(String(cString: value))
                }
                option += 1
            }
            PQconninfoFree(options)
        }
        if let error { PQfreemem(error) }
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
