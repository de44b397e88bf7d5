import CDBus

/// An owned libdbus message: built and read with the message-iterator API (Swift cannot call
/// libdbus's variadic `dbus_message_append_args`). Used only on the thread that owns it.
final class DBusMessage {
    let raw: OpaquePointer

    /// Takes over one reference to `raw`.
    init(owning raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference to `raw` (a message libdbus lends to a filter).
    init(borrowing raw: OpaquePointer) {
        dbus_message_ref(raw)
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    /// A method call; nil only when libdbus is out of memory.
    static func methodCall(destination: String, path: String, interface: String, member: String) -> DBusMessage? {
        dbus_message_new_method_call(destination, path, interface, member).map(DBusMessage.init(owning:))
    }

    /// The message in wire format (D-Bus Specification, "Message Format"); a message never sent
    /// gets serial 1 first (serial 0 is not a valid message).
    func marshalled() -> [UInt8] {
        if serial == 0 { dbus_message_set_serial(raw, 1) }
        var bytes: UnsafeMutablePointer<CChar>?
        var count: Int32 = 0
        guard dbus_message_marshal(raw, &bytes, &count) != 0, let bytes else { return [] }
        defer { dbus_free(bytes) }
        return bytes.withMemoryRebound(to: UInt8.self, capacity: Int(count)) { Array(UnsafeBufferPointer(start: $0, count: Int(count))) }
    }

    /// A message read from wire format; nil when the bytes are not one.
    init?(marshalled bytes: [UInt8]) {
        var error = DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let made = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32(buffer.count), &error) }
        }
        guard let made else { return nil }
        raw = made
    }

    var type: Int32 { dbus_message_get_type(raw) }
    var serial: UInt32 { dbus_message_get_serial(raw) }
    var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }
    var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }

    /// Appends `values` as the message's arguments. - Returns: false when libdbus refused one
    /// (out of memory, or a string libdbus does not accept).
    @discardableResult
    func append(_ values: [DBusValue]) -> Bool {
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(raw, &iter)
        return values.allSatisfy { DBusCodec.append($0, to: &iter) }
    }

    /// The message's arguments; a value of a type corsano does not read (a Unix fd) ends the list.
    func arguments() -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(raw, &iter) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            guard let value = DBusCodec.read(&iter) else { break }
            values.append(value)
        } while dbus_message_iter_next(&iter) != 0
        return values
    }
}

/// DBusValue to and from libdbus message iterators.
enum DBusCodec {
    // libdbus's DBUS_TYPE_* codes (character literals, which Swift does not import from macros).
    static let byte = Int32(UInt8(ascii: "y")), boolean = Int32(UInt8(ascii: "b"))
    static let int16 = Int32(UInt8(ascii: "n")), uint16 = Int32(UInt8(ascii: "q"))
    static let int32 = Int32(UInt8(ascii: "i")), uint32 = Int32(UInt8(ascii: "u"))
    static let int64 = Int32(UInt8(ascii: "x")), uint64 = Int32(UInt8(ascii: "t"))
    static let double = Int32(UInt8(ascii: "d")), string = Int32(UInt8(ascii: "s"))
    static let objectPath = Int32(UInt8(ascii: "o")), signature = Int32(UInt8(ascii: "g"))
    static let array = Int32(UInt8(ascii: "a")), variant = Int32(UInt8(ascii: "v"))
    static let structure = Int32(UInt8(ascii: "r")), dictEntry = Int32(UInt8(ascii: "e"))
    static let unixFD = Int32(UInt8(ascii: "h")), invalid = Int32(0)

    /// Appends one value. - Returns: false when libdbus refused it.
    static func append(_ value: DBusValue, to iter: inout DBusMessageIter) -> Bool {
        switch value {
        case .byte(var v): return dbus_message_iter_append_basic(&iter, byte, &v) != 0
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            return dbus_message_iter_append_basic(&iter, boolean, &v) != 0
        case .int16(var v): return dbus_message_iter_append_basic(&iter, int16, &v) != 0
        case .uint16(var v): return dbus_message_iter_append_basic(&iter, uint16, &v) != 0
        case .int32(var v): return dbus_message_iter_append_basic(&iter, int32, &v) != 0
        case .uint32(var v): return dbus_message_iter_append_basic(&iter, uint32, &v) != 0
        case .int64(var v): return dbus_message_iter_append_basic(&iter, int64, &v) != 0
        case .uint64(var v): return dbus_message_iter_append_basic(&iter, uint64, &v) != 0
        case .double(var v): return dbus_message_iter_append_basic(&iter, double, &v) != 0
        case .string(let s): return appendText(s, type: string, to: &iter)
        case .objectPath(let s): return appendText(s, type: objectPath, to: &iter)
        case .signature(let s): return appendText(s, type: signature, to: &iter)
        case .bytes(let bytes):
            return container(array, "y", &iter) { sub in
                bytes.withUnsafeBufferPointer { buffer in
                    var base = buffer.baseAddress
                    return dbus_message_iter_append_fixed_array(&sub, byte, &base, Int32(buffer.count)) != 0
                }
            }
        case .array(let element, let items):
            return container(array, element, &iter) { sub in items.allSatisfy { append($0, to: &sub) } }
        case .dictionary(let key, let valueSignature, let entries):
            return container(array, "{" + key + valueSignature + "}", &iter) { sub in
                entries.allSatisfy { entry in
                    container(dictEntry, nil, &sub) { pair in append(entry.key, to: &pair) && append(entry.value, to: &pair) }
                }
            }
        case .structure(let fields):
            return container(structure, nil, &iter) { sub in fields.allSatisfy { append($0, to: &sub) } }
        case .variant(let inner):
            return container(variant, inner.signature, &iter) { sub in append(inner, to: &sub) }
        }
    }

    private static func appendText(_ text: String, type: Int32, to iter: inout DBusMessageIter) -> Bool {
        // D-Bus strings are UTF-8 without NUL; libdbus refuses (or aborts on) anything else.
        guard !text.utf8.contains(0) else { return false }
        return text.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            return dbus_message_iter_append_basic(&iter, type, &p) != 0
        }
    }

    /// Opens a container, fills it, closes it (abandoning it when filling failed).
    private static func container(_ type: Int32, _ signature: String?, _ iter: inout DBusMessageIter,
                                  _ fill: (inout DBusMessageIter) -> Bool) -> Bool {
        var sub = DBusMessageIter()
        let opened = signature.map { s in s.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) } }
            ?? dbus_message_iter_open_container(&iter, type, nil, &sub)
        guard opened != 0 else { return false }
        guard fill(&sub) else {
            dbus_message_iter_abandon_container(&iter, &sub)
            return false
        }
        return dbus_message_iter_close_container(&iter, &sub) != 0
    }

    /// Reads the value at `iter`; nil at the end or for a type corsano does not read.
    static func read(_ iter: inout DBusMessageIter) -> DBusValue? {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case byte: return .byte(basic(&iter, UInt8(0)))
        case boolean: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case int16: return .int16(basic(&iter, Int16(0)))
        case uint16: return .uint16(basic(&iter, UInt16(0)))
        case int32: return .int32(basic(&iter, Int32(0)))
        case uint32: return .uint32(basic(&iter, UInt32(0)))
        case int64: return .int64(basic(&iter, Int64(0)))
        case uint64: return .uint64(basic(&iter, UInt64(0)))
        case double: return .double(basic(&iter, Double(0)))
        case string: return .string(text(&iter))
        case objectPath: return .objectPath(text(&iter))
        case signature: return .signature(text(&iter))
        case variant:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return read(&sub).map(DBusValue.variant)
        case structure:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return .structure(readAll(&sub))
        case array: return readArray(&iter)
        default: return nil  // a Unix fd (would need closing) or an unknown type code
        }
    }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ zero: T) -> T {
        var value = zero
        withUnsafeMutableBytes(of: &value) { dbus_message_iter_get_basic(&iter, $0.baseAddress) }
        return value
    }

    private static func text(_ iter: inout DBusMessageIter) -> String {
        var p: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &p)
        return p.map { String(cString: $0) } ?? ""
    }

    private static func readAll(_ iter: inout DBusMessageIter) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iter) != invalid, let value = read(&iter) {
            values.append(value)
            dbus_message_iter_next(&iter)
        }
        return values
    }

    private static func readArray(_ iter: inout DBusMessageIter) -> DBusValue? {
        // The array's signature, e.g. "ay", "a{sv}": the element type even when the array is empty.
        guard let raw = dbus_message_iter_get_signature(&iter) else { return nil }
        let full = String(cString: raw)
        dbus_free(raw)
        let element = String(full.dropFirst())
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        switch dbus_message_iter_get_element_type(&iter) {
        case byte:
            var base: UnsafePointer<UInt8>?
            var count: Int32 = 0
            if dbus_message_iter_get_arg_type(&sub) == byte { dbus_message_iter_get_fixed_array(&sub, &base, &count) }
            return .bytes(base.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? [])
        case dictEntry:
            // element is "{KV}": split K (one basic type code) from V.
            let inner = element.dropFirst().dropLast()
            let key = String(inner.prefix(1)), value = String(inner.dropFirst())
            var entries: [DBusDictEntry] = []
            while dbus_message_iter_get_arg_type(&sub) == dictEntry {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&sub, &pair)
                guard let k = read(&pair) else { return nil }
                dbus_message_iter_next(&pair)
                guard let v = read(&pair) else { return nil }
                entries.append(DBusDictEntry(key: k, value: v))
                dbus_message_iter_next(&sub)
            }
            return .dictionary(keySignature: key, valueSignature: value, entries)
        default:
            return .array(elementSignature: element, readAll(&sub))
        }
    }
}
