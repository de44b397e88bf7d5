import Testing
@testable import CorsanoKit

/// DBusValue through libdbus's iterators and the wire format and back: every type code the
/// BlueZ client reads or writes, empty containers (whose element type must survive) included.
@Suite struct DBusCodecTests {
    static let values: [[DBusValue]] = [
        [.byte(0), .byte(255), .boolean(true), .boolean(false)],
        [.int16(-32768), .uint16(65535), .int32(-1), .uint32(4_294_967_295), .int64(.min), .uint64(.max), .double(-0.5)],
        [.string(""), .string("Blutdruckmessgerät ❤️"), .objectPath("/org/bluez/hci0/dev_A0_9E_1A_00_00_01"), .signature("a{sv}")],
        [.bytes([]), .bytes([0x1E, 0x78, 0x00, 0xFF])],
        [.array(elementSignature: "s", []), .array(elementSignature: "o", [.objectPath("/a"), .objectPath("/b")])],
        [.array(elementSignature: "ay", [.bytes([1, 2]), .bytes([])])],
        [.stringVariantMap([]), .stringVariantMap([("Transport", .string("le")), ("DuplicateData", .boolean(true)),
                                                   ("RSSI", .int16(-60)), ("Value", .bytes([0x1E]))])],
        [.dictionary(keySignature: "o", valueSignature: "a{sa{sv}}", [
            DBusDictEntry(key: .objectPath("/org/bluez/hci0"), value: .dictionary(keySignature: "s", valueSignature: "a{sv}", [
                DBusDictEntry(key: .string("org.bluez.Adapter1"), value: .stringVariantMap([("Powered", .boolean(true))])),
            ])),
        ])],
        [.dictionary(keySignature: "q", valueSignature: "v", [DBusDictEntry(key: .uint16(0x0157), value: .variant(.bytes([9])))])],
        [.structure([.string("x"), .uint32(7), .array(elementSignature: "i", [.int32(1)])])],
        [.variant(.variant(.string("twice")))],
    ]

    @Test(arguments: values)
    func roundTrip(arguments: [DBusValue]) throws {
        let message = try #require(DBusMessage.methodCall(destination: "org.bluez", path: "/", interface: "x.Y", member: "Z"))
        #expect(message.append(arguments))
        let bytes = message.marshalled()
        #expect(!bytes.isEmpty)
        let back = try #require(DBusMessage(marshalled: bytes))
        #expect(back.arguments() == arguments)
        #expect(back.member == "Z" && back.interface == "x.Y" && back.path == "/")
        // The signature libdbus computed is the one DBusValue states.
        #expect(arguments.map(\.signature).joined() == (back.arguments().map(\.signature).joined()))
    }

    @Test func textWithNULIsRefusedNotSent() throws {
        let message = try #require(DBusMessage.methodCall(destination: "org.bluez", path: "/", interface: "x.Y", member: "Z"))
        #expect(!message.append([.string("a\u{0}b")]))
    }

    @Test func accessorsLookThroughVariants() {
        let map = DBusValue.variant(.stringVariantMap([("Name", .string("cuff")), ("UUIDs", .array(elementSignature: "s", [.string("x")]))]))
        #expect(map.entries?["Name"]?.text == "cuff")
        #expect(map.entries?["UUIDs"]?.texts == ["x"])
        #expect(DBusValue.variant(.bytes([1])).byteArray == [1])
        #expect(DBusValue.array(elementSignature: "y", [.byte(2), .byte(3)]).byteArray == [2, 3])
        #expect(DBusValue.variant(.boolean(true)).bool == true)
        #expect(DBusValue.int32(1).text == nil)
    }
}
