import CDBus
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A D-Bus error reply, or a failure of the link itself, by its D-Bus error name.
public struct DBusFailure: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error name, e.g. `org.bluez.Error.Failed`, `org.freedesktop.DBus.Error.AccessDenied`.
    public var name: String
    /// The human message that came with it.
    public var message: String

    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    /// The bus refused the call by its policy.
    public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
    /// No answer within the call's timeout (libdbus's own name for it).
    public static let noReply = "org.freedesktop.DBus.Error.NoReply"
    /// The connection to the bus is gone.
    public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
    /// Nobody owns the destination name (e.g. bluetoothd is not running).
    public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
    /// Nobody owns the destination name (older buses).
    public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
    /// The destination does not know the object or method.
    public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
    public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
}

/// A signal as received.
public struct DBusSignal: Sendable {
    public var sender: String
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
}

/// A method call to an object this connection exports (e.g. a BlueZ pairing agent).
public struct DBusIncomingCall: Sendable {
    public var path: String
    public var interface: String
    public var member: String
    public var arguments: [DBusValue]
}

/// What an exported object answers.
public enum DBusCallReply: Sendable {
    case values([DBusValue])
    case error(name: String, message: String)
}

/// A private connection to a message bus, driven by one I/O thread that alone calls libdbus.
///
/// Calls from any task are posted to that thread (woken through an eventfd); replies resume the
/// caller, signals go to the `onSignal` handler in arrival order, on the I/O thread. Timeouts are
/// kept here, not by libdbus, so one poll loop serves everything. Source: D-Bus Specification;
/// libdbus's `DBusConnection` (a private connection, `dbus_bus_register`, filters).
public final class DBusConnection: @unchecked Sendable {
    private let connection: OpaquePointer
    private let busFD: Int32
    /// A self-pipe: a byte written to `wakeWrite` ends the I/O thread's poll.
    private let wakeRead: Int32, wakeWrite: Int32
    /// Work posted to the I/O thread; `ended` once the thread takes no more.
    private let inbox = Mutex<(work: [@Sendable () -> Void], ended: Bool)>(([], false))
    private let ended = DispatchSemaphore(value: 0)
    private let lostReason = Mutex<String?>(nil)
    private let signalHandler = Mutex<(@Sendable (DBusSignal) -> Void)?>(nil)
    private let lostHandler = Mutex<(@Sendable (String) -> Void)?>(nil)
    /// The connection's unique bus name (`:1.42`).
    public let uniqueName: String

    // Touched only on the I/O thread.
    private struct Pending {
        var id: UInt64
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<[DBusValue], any Error>
    }
    private var pending: [UInt32: Pending] = [:]
    private var cancelledBeforeSend: Set<UInt64> = []
    private var exported: [String: @Sendable (DBusIncomingCall) -> DBusCallReply] = [:]
    private var closing = false
    private let nextID = Atomic<UInt64>(0)

    /// Connects to the bus at `address` (e.g. `unix:path=/run/dbus/system_bus_socket`) and says Hello.
    /// - Throws: `DBusFailure` (libdbus's error name: no such socket, auth refused, ...).
    public static func open(address: String) throws(DBusFailure) -> DBusConnection {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else { throw failure(&error) }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        guard dbus_bus_register(connection, &error) != 0 else {
            let f = failure(&error)
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw f
        }
        var fd: Int32 = -1
        var wake: [Int32] = [-1, -1]
        guard dbus_connection_get_unix_fd(connection, &fd) != 0, pipe(&wake) == 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw DBusFailure(name: DBusFailure.disconnected, message: "\(address): no socket to poll")
        }
        for end in wake {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        let name = dbus_bus_get_unique_name(connection).map { String(cString: $0) } ?? ""
        return DBusConnection(connection: connection, busFD: fd, wake: (wake[0], wake[1]), uniqueName: name)
    }

    private static func failure(_ error: inout DBusError) -> DBusFailure {
        DBusFailure(name: error.name.map { String(cString: $0) } ?? DBusFailure.disconnected,
                    message: error.message.map { String(cString: $0) } ?? "")
    }

    private init(connection: OpaquePointer, busFD: Int32, wake: (read: Int32, write: Int32), uniqueName: String) {
        self.connection = connection
        self.busFD = busFD
        (wakeRead, wakeWrite) = wake
        self.uniqueName = uniqueName
        let filter: DBusHandleMessageFunction = { _, message, context in
            guard let message, let context else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            return Unmanaged<DBusConnection>.fromOpaque(context).takeUnretainedValue().handle(message)
        }
        dbus_connection_add_filter(connection, filter, Unmanaged.passUnretained(self).toOpaque(), nil)
        let thread = Thread { [self] in loop() }
        thread.name = "dbus"
        thread.start()
    }

    /// Receives every signal the bus routes to this connection (set before adding matches).
    public func onSignal(_ handler: @escaping @Sendable (DBusSignal) -> Void) {
        signalHandler.withLock { $0 = handler }
    }

    /// Told once, with why, when the bus connection is lost (not after `close`).
    public func onLost(_ handler: @escaping @Sendable (String) -> Void) {
        lostHandler.withLock { $0 = handler }
    }

    /// Calls `member` and returns the reply's arguments.
    /// - Throws: `DBusFailure` (the error reply; `NoReply` after `timeout`; `Disconnected`),
    ///   `CancellationError` when the task is cancelled.
    public func call(destination: String, path: String, interface: String, member: String,
                     _ arguments: [DBusValue] = [], timeout: Duration = .seconds(25)) async throws -> [DBusValue] {
        let id = nextID.add(1, ordering: .relaxed).newValue
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[DBusValue], any Error>) in
                let accepted = post { [self] in
                    send(id: id, destination: destination, path: path, interface: interface, member: member,
                         arguments: arguments, deadline: ContinuousClock.now + timeout, continuation: continuation)
                }
                if !accepted { continuation.resume(throwing: closedFailure) }
            }
        } onCancel: {
            post { [self] in cancel(id: id) }
        }
    }

    /// Subscribes this connection to signals matching `rule` (the bus's match-rule syntax). The
    /// bus handles it before any later call of ours, so signals caused by that call are seen.
    public func addMatch(_ rule: String) {
        post { [self] in if !closing { dbus_bus_add_match(connection, rule, nil) } }
    }

    /// Answers method calls to `path` with `handler` (run on the I/O thread: it must not block).
    public func export(path: String, _ handler: @escaping @Sendable (DBusIncomingCall) -> DBusCallReply) {
        post { [self] in exported[path] = handler }
    }

    /// Stops answering calls to `path`.
    public func unexport(path: String) {
        post { [self] in exported[path] = nil }
    }

    /// Ends pending calls with `Disconnected`, closes the connection and waits for the I/O thread (idempotent).
    public func close() {
        guard post({ [self] in closing = true }) else { return }
        ended.wait()
        ended.signal()
    }

    /// Why calls fail once the connection ended.
    private var closedFailure: DBusFailure {
        DBusFailure(name: DBusFailure.disconnected, message: lostReason.withLock { $0 } ?? "connection closed")
    }

    deinit {
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
    }

    // MARK: - The I/O thread

    /// Queues `work` for the I/O thread. - Returns: false once the thread has ended (nothing queued).
    @discardableResult
    private func post(_ work: @escaping @Sendable () -> Void) -> Bool {
        let accepted = inbox.withLock { box -> Bool in
            guard !box.ended else { return false }
            box.work.append(work)
            return true
        }
        if accepted {
            var one: UInt8 = 1
            _ = write(wakeWrite, &one, 1)  // a full pipe already wakes the thread
        }
        return accepted
    }

    private func loop() {
        var reason: String?
        while true {
            let work = inbox.withLock { box -> [@Sendable () -> Void] in defer { box.work = [] }; return box.work }
            work.forEach { $0() }
            if closing { break }
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
            if dbus_connection_get_is_connected(connection) == 0 {
                reason = "the message bus closed the connection"
                break
            }
            let now = ContinuousClock.now
            for (serial, call) in pending where call.deadline <= now {
                pending[serial] = nil
                call.continuation.resume(throwing: DBusFailure(name: DBusFailure.noReply, message: "no reply within the timeout"))
            }
            let wantsWrite = dbus_connection_has_messages_to_send(connection) != 0
            var fds = [pollfd(fd: busFD, events: Int16(POLLIN) | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0),
                       pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            let wait = pending.values.map(\.deadline).min().map { deadline -> Int32 in
                let left = deadline - ContinuousClock.now
                let ms = left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
                return Int32(clamping: max(0, ms))
            } ?? -1
            if poll(&fds, 2, wait) < 0, errno != EINTR {
                reason = "poll failed: \(String(cString: strerror(errno)))"
                break
            }
            if fds[1].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 64)
                while read(wakeRead, &drain, drain.count) > 0 {}
            }
            if fds[0].revents != 0 { dbus_connection_read_write(connection, 0) }
        }
        if let reason { lostReason.withLock { $0 = reason } }
        closing = true
        let failure = closedFailure
        for call in pending.values { call.continuation.resume(throwing: failure) }
        pending = [:]
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        // Work posted meanwhile still runs (and fails fast): no caller may hang.
        let late = inbox.withLock { box -> [@Sendable () -> Void] in
            box.ended = true
            defer { box.work = [] }
            return box.work
        }
        late.forEach { $0() }
        if let reason { lostHandler.withLock { $0 }?(reason) }
        ended.signal()
    }

    private func send(id: UInt64, destination: String, path: String, interface: String, member: String,
                      arguments: [DBusValue], deadline: ContinuousClock.Instant,
                      continuation: CheckedContinuation<[DBusValue], any Error>) {
        if cancelledBeforeSend.remove(id) != nil { return continuation.resume(throwing: CancellationError()) }
        if closing { return continuation.resume(throwing: closedFailure) }
        guard let message = DBusMessage.methodCall(destination: destination, path: path, interface: interface, member: member),
              message.append(arguments) else {
            return continuation.resume(throwing: DBusFailure(name: "org.freedesktop.DBus.Error.InvalidArgs",
                                                             message: "\(interface).\(member): arguments libdbus does not accept"))
        }
        var serial: UInt32 = 0
        guard dbus_connection_send(connection, message.raw, &serial) != 0 else {
            return continuation.resume(throwing: DBusFailure(name: "org.freedesktop.DBus.Error.NoMemory", message: "out of memory"))
        }
        pending[serial] = Pending(id: id, deadline: deadline, continuation: continuation)
    }

    private func cancel(id: UInt64) {
        guard let (serial, call) = pending.first(where: { $0.value.id == id }) else {
            if !closing { cancelledBeforeSend.insert(id) }
            return
        }
        pending[serial] = nil
        call.continuation.resume(throwing: CancellationError())
    }

    /// The filter every incoming message passes (called by libdbus inside `dispatch`, on this thread).
    private func handle(_ raw: OpaquePointer) -> DBusHandlerResult {
        let message = DBusMessage(borrowing: raw)
        switch message.type {
        case Self.methodReturn, Self.error:
            guard let call = pending.removeValue(forKey: message.replySerial) else { return DBUS_HANDLER_RESULT_HANDLED }
            if message.type == Self.error {
                let text = message.arguments().first?.text ?? ""
                call.continuation.resume(throwing: DBusFailure(name: message.errorName ?? "", message: text))
            } else {
                call.continuation.resume(returning: message.arguments())
            }
            return DBUS_HANDLER_RESULT_HANDLED
        case Self.signal:
            guard let handler = signalHandler.withLock({ $0 }) else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            handler(DBusSignal(sender: message.sender ?? "", path: message.path ?? "", interface: message.interface ?? "",
                               member: message.member ?? "", arguments: message.arguments()))
            return DBUS_HANDLER_RESULT_HANDLED
        case Self.methodCall:
            guard let path = message.path, let handler = exported[path] else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let reply = handler(DBusIncomingCall(path: path, interface: message.interface ?? "", member: message.member ?? "",
                                                 arguments: message.arguments()))
            if dbus_message_get_no_reply(raw) == 0 { answer(raw, with: reply) }
            return DBUS_HANDLER_RESULT_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    private func answer(_ call: OpaquePointer, with reply: DBusCallReply) {
        let made: OpaquePointer?
        switch reply {
        case .values(let values):
            made = dbus_message_new_method_return(call)
            if let made { DBusMessage(borrowing: made).append(values) }
        case .error(let name, let text):
            made = dbus_message_new_error(call, name, text)
        }
        guard let made else { return }
        dbus_connection_send(connection, made, nil)
        dbus_message_unref(made)
    }

    private static let methodCall = Int32(DBUS_MESSAGE_TYPE_METHOD_CALL)
    private static let methodReturn = Int32(DBUS_MESSAGE_TYPE_METHOD_RETURN)
    private static let error = Int32(DBUS_MESSAGE_TYPE_ERROR)
    private static let signal = Int32(DBUS_MESSAGE_TYPE_SIGNAL)
}
