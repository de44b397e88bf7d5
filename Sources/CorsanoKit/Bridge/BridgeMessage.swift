import Foundation

/// One parsed bridge line: a request (`id` + `method`), a notification (`method`, no `id`) or a
/// response (`id` + `result` or `error`). JSON-RPC 2.0; see docs/bridge-protocol.md.
struct BridgeMessage: Sendable {
    var id: Int?
    var method: String?
    var params: BridgeParams
    var result: JSONValue?
    var error: (code: Int, message: String)?
    /// The error's `data` member, if any (`-32005`'s `holder`).
    var errorData: JSONValue?

    /// Parses one line. - Throws: `BridgeProtocolError.parse` when it is not a JSON-RPC object.
    init(line: String) throws {
        guard let v = try? JSONValue.parse(Array(line.utf8)), case .object = v else { throw BridgeProtocolError.parse }
        if case .int(let n)? = v["id"] { id = n }
        if case .string(let m)? = v["method"] { method = m }
        params = BridgeParams(v["params"] ?? .object([]))
        result = v["result"]
        if let e = v["error"] {
            let code: Int = if case .int(let c)? = e["code"] { c } else { -32603 }
            let message: String = if case .string(let m)? = e["message"] { m } else { "bridge error" }
            error = (code, message)
            errorData = e["data"]
        }
    }

    /// A request or notification line.
    static func request(id: Int?, method: String, params: [(String, JSONValue)]) -> String {
        var members: [(String, JSONValue)] = [("jsonrpc", .string("2.0"))]
        if let id { members.append(("id", .int(id))) }
        members += [("method", .string(method)), ("params", .object(params))]
        return JSONValue.object(members).serialized
    }

    /// A success response line.
    static func response(id: Int, result: JSONValue) -> String {
        JSONValue.object([("jsonrpc", .string("2.0")), ("id", .int(id)), ("result", result)]).serialized
    }

    /// An error response line (`id` null when the request could not be read).
    static func errorResponse(id: Int?, code: Int, message: String, data: JSONValue? = nil) -> String {
        var error: [(String, JSONValue)] = [("code", .int(code)), ("message", .string(message))]
        if let data { error.append(("data", data)) }
        return JSONValue.object([("jsonrpc", .string("2.0")), ("id", id.map { .int($0) } ?? .null),
                                 ("error", .object(error))]).serialized
    }
}

/// Error codes of the bridge protocol: JSON-RPC's own, and the bracelet's in the server range.
enum BridgeErrorCode {
    static let parse = -32700, invalidRequest = -32600, methodNotFound = -32601, invalidParams = -32602
    static let disconnected = -32001, timeout = -32002, refused = -32003, unavailable = -32004, held = -32005

    /// The wire form of a bracelet error (`data` carries `-32005`'s holder).
    static func encode(_ error: BraceletError) -> (code: Int, message: String, data: JSONValue?) {
        switch error {
        case .disconnected: return (disconnected, "bracelet disconnected", nil)
        case .timeout: return (timeout, "bracelet did not answer", nil)
        case .refused(let m): return (refused, m, nil)
        case .unavailable(let m): return (unavailable, m, nil)
        case .held(let h): return (held, "held", .object([("holder", BridgeCodec.holder(h))]))
        // A host's own refusal (a journal entry's holder): no bridge sends it; a refusal if one did.
        case .busy(let m, _): return (refused, m, nil)
        }
    }

    /// The bracelet error a bridge error stands for; other codes are refusals naming the code.
    /// A `-32005` without a readable `data.holder` is a refusal naming what it said.
    static func decode(code: Int, message: String, data: JSONValue? = nil) -> BraceletError {
        switch code {
        case disconnected: return .disconnected
        case timeout: return .timeout
        case refused: return .refused(message)
        case unavailable: return .unavailable(message)
        case held:
            if let h = data?["holder"], let holder = try? BridgeCodec.holder(BridgeParams(h)) { return .held(holder) }
            return .refused("bridge error \(code) (held, no readable data.holder): \(message)")
        default: return .refused("bridge error \(code): \(message)")
        }
    }
}

/// A malformed bridge message.
enum BridgeProtocolError: Error, Equatable {
    case parse
    case invalidParams(String)
}
