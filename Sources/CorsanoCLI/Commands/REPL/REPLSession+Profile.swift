import CorsanoKit

/// `profile show` and `profile set`: the profile the state store keeps for the session's
/// bracelet (by serial), which `wearing-opt --no-preparation` pushes. `set` merges the given
/// fields over the stored ones and validates the whole under `ProfileRules`; it does not push.
extension REPLSession {
    func profile(set changes: ParsedCommand?, _ ctx: CommandContext) async throws {
        let serial = try await onBracelet([], ctx) { $0.identity.serial }
        let profiles = ProfileStore(store: try stateStore(ctx))
        let stored = try profiles.load(serial: serial)
        guard let changes else {
            REPLReply(reply: "profile-show", fields: [("bracelet", .string(serial)), ("profile", stored.map(\.json) ?? .null)],
                      text: [stored.map { $0.json.serialized } ?? "no profile stored for \(serial)"]).write(ctx)
            return
        }
        var draft = try stored.map { try ProfileDraft.parse(json: Array($0.json.serialized.utf8)) } ?? ProfileDraft()
        for (field, flag) in ProfileInput.flags { if let value = changes.string(flag) { draft.set(field, value) } }
        let now = CommandContext.wallClock()
        let profile = try ProfileInput.validated(draft, today: CalendarDate(utcDateOf: now), file: nil,
                                                 missing: "not in the stored profile either")
        try profiles.save(profile, serial: serial, at: now)
        REPLReply(reply: "profile-set", fields: [("bracelet", .string(serial)), ("profile", profile.json)],
                  text: ["stored for \(serial): \(Self.describe(profile))"]).write(ctx)
    }

    /// The session's state store: the one `corsano repl` names (as every command), or with
    /// `--no-state` one in-memory store kept for the whole session.
    func stateStore(_ ctx: CommandContext) throws -> any StateStore {
        guard let path = try StateLocation.path(replOptions, environment: ctx.environment) else { return try memoryStore() }
        return try StateLocation.open(path: path, ctx)
    }
}
