import CDBus
import CPostgres
import Foundation
import Testing

/// corsano's own declarations of libpq and libdbus-1 (Sources/CPostgres, Sources/CDBus; issue 22)
/// against the libraries' real headers (libpq-dev, libdbus-1-dev): a C probe built with the real
/// headers checks every function of the two tables (libpq-functions.h, libdbus-functions.h) for
/// the same type at compile time, and prints the sizes and layouts of the structs callers
/// allocate (DBusMessageIter, DBusError, PQconninfoOption) and the values of the enum constants,
/// which must equal what Swift sees through our declarations.
@Suite struct LibraryABITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let probe = #"""
        #include <libpq-fe.h>
        #include <dbus/dbus.h>
        #include <stddef.h>
        #include <stdio.h>
        #define CORSANO_FN(ret, name, params, args) \
            _Static_assert(__builtin_types_compatible_p(__typeof__(name), ret params), #name " differs from the library's header");
        #define CORSANO_VOID_FN(name, params, args) CORSANO_FN(void, name, params, args)
        #include "libpq-functions.h"
        #include "libdbus-functions.h"
        #define SHOW(x) printf("%s %ld\n", #x, (long)(x))
        int main(void) {
            SHOW(sizeof(DBusMessageIter)); SHOW(_Alignof(DBusMessageIter));
            SHOW(sizeof(DBusError)); SHOW(_Alignof(DBusError));
            SHOW(offsetof(DBusError, name)); SHOW(offsetof(DBusError, message)); SHOW(offsetof(DBusError, padding1));
            SHOW(sizeof(PQconninfoOption)); SHOW(offsetof(PQconninfoOption, keyword)); SHOW(offsetof(PQconninfoOption, val));
            SHOW(sizeof(dbus_bool_t)); SHOW(sizeof(Oid));
            SHOW(CONNECTION_OK); SHOW(CONNECTION_BAD); SHOW(CONNECTION_CHECK_STANDBY);
            SHOW(PGRES_POLLING_FAILED); SHOW(PGRES_POLLING_READING); SHOW(PGRES_POLLING_WRITING); SHOW(PGRES_POLLING_OK);
            SHOW(PGRES_EMPTY_QUERY); SHOW(PGRES_COMMAND_OK); SHOW(PGRES_TUPLES_OK); SHOW(PGRES_COPY_IN);
            SHOW(PGRES_FATAL_ERROR); SHOW(PGRES_PIPELINE_ABORTED);
            SHOW(PQTRANS_IDLE); SHOW(PQTRANS_INTRANS); SHOW(PQTRANS_INERROR); SHOW(PQTRANS_UNKNOWN);
            SHOW(PQERRORS_VERBOSE); SHOW(PQPING_NO_ATTEMPT);
            SHOW(DBUS_DISPATCH_DATA_REMAINS); SHOW(DBUS_DISPATCH_COMPLETE); SHOW(DBUS_DISPATCH_NEED_MEMORY);
            SHOW(DBUS_HANDLER_RESULT_HANDLED); SHOW(DBUS_HANDLER_RESULT_NOT_YET_HANDLED); SHOW(DBUS_HANDLER_RESULT_NEED_MEMORY);
            SHOW(DBUS_MESSAGE_TYPE_METHOD_CALL); SHOW(DBUS_MESSAGE_TYPE_METHOD_RETURN);
            SHOW(DBUS_MESSAGE_TYPE_ERROR); SHOW(DBUS_MESSAGE_TYPE_SIGNAL);
            return 0;
        }
        """#

    /// What Swift sees through CPostgres and CDBus, by the probe's names.
    static let ours: [String: Int] = [
        "sizeof(DBusMessageIter)": MemoryLayout<DBusMessageIter>.size,
        "_Alignof(DBusMessageIter)": MemoryLayout<DBusMessageIter>.alignment,
        "sizeof(DBusError)": MemoryLayout<DBusError>.size,
        "_Alignof(DBusError)": MemoryLayout<DBusError>.alignment,
        "offsetof(DBusError, name)": MemoryLayout<DBusError>.offset(of: \.name)!,
        "offsetof(DBusError, message)": MemoryLayout<DBusError>.offset(of: \.message)!,
        "offsetof(DBusError, padding1)": MemoryLayout<DBusError>.offset(of: \.padding1)!,
        "sizeof(PQconninfoOption)": MemoryLayout<PQconninfoOption>.size,
        "offsetof(PQconninfoOption, keyword)": MemoryLayout<PQconninfoOption>.offset(of: \.keyword)!,
        "offsetof(PQconninfoOption, val)": MemoryLayout<PQconninfoOption>.offset(of: \.val)!,
        "sizeof(dbus_bool_t)": MemoryLayout<dbus_bool_t>.size,
        "sizeof(Oid)": MemoryLayout<Oid>.size,
        "CONNECTION_OK": Int(CONNECTION_OK.rawValue), "CONNECTION_BAD": Int(CONNECTION_BAD.rawValue),
        "CONNECTION_CHECK_STANDBY": Int(CONNECTION_CHECK_STANDBY.rawValue),
        "PGRES_POLLING_FAILED": Int(PGRES_POLLING_FAILED.rawValue), "PGRES_POLLING_READING": Int(PGRES_POLLING_READING.rawValue),
        "PGRES_POLLING_WRITING": Int(PGRES_POLLING_WRITING.rawValue), "PGRES_POLLING_OK": Int(PGRES_POLLING_OK.rawValue),
        "PGRES_EMPTY_QUERY": Int(PGRES_EMPTY_QUERY.rawValue), "PGRES_COMMAND_OK": Int(PGRES_COMMAND_OK.rawValue),
        "PGRES_TUPLES_OK": Int(PGRES_TUPLES_OK.rawValue), "PGRES_COPY_IN": Int(PGRES_COPY_IN.rawValue),
        "PGRES_FATAL_ERROR": Int(PGRES_FATAL_ERROR.rawValue), "PGRES_PIPELINE_ABORTED": Int(PGRES_PIPELINE_ABORTED.rawValue),
        "PQTRANS_IDLE": Int(PQTRANS_IDLE.rawValue), "PQTRANS_INTRANS": Int(PQTRANS_INTRANS.rawValue),
        "PQTRANS_INERROR": Int(PQTRANS_INERROR.rawValue), "PQTRANS_UNKNOWN": Int(PQTRANS_UNKNOWN.rawValue),
        "PQERRORS_VERBOSE": Int(PQERRORS_VERBOSE.rawValue), "PQPING_NO_ATTEMPT": Int(PQPING_NO_ATTEMPT.rawValue),
        "DBUS_DISPATCH_DATA_REMAINS": Int(DBUS_DISPATCH_DATA_REMAINS.rawValue),
        "DBUS_DISPATCH_COMPLETE": Int(DBUS_DISPATCH_COMPLETE.rawValue),
        "DBUS_DISPATCH_NEED_MEMORY": Int(DBUS_DISPATCH_NEED_MEMORY.rawValue),
        "DBUS_HANDLER_RESULT_HANDLED": Int(DBUS_HANDLER_RESULT_HANDLED.rawValue),
        "DBUS_HANDLER_RESULT_NOT_YET_HANDLED": Int(DBUS_HANDLER_RESULT_NOT_YET_HANDLED.rawValue),
        "DBUS_HANDLER_RESULT_NEED_MEMORY": Int(DBUS_HANDLER_RESULT_NEED_MEMORY.rawValue),
        "DBUS_MESSAGE_TYPE_METHOD_CALL": Int(DBUS_MESSAGE_TYPE_METHOD_CALL),
        "DBUS_MESSAGE_TYPE_METHOD_RETURN": Int(DBUS_MESSAGE_TYPE_METHOD_RETURN),
        "DBUS_MESSAGE_TYPE_ERROR": Int(DBUS_MESSAGE_TYPE_ERROR),
        "DBUS_MESSAGE_TYPE_SIGNAL": Int(DBUS_MESSAGE_TYPE_SIGNAL),
    ]

    @Test func ourDeclarationsMatchTheLibrariesHeaders() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-abi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(Self.probe.utf8).write(to: dir.appendingPathComponent("probe.c"))
        let flags = try Self.sh("pkg-config --cflags libpq dbus-1")
        // Compiling is the first check: a function of our tables whose type differs stops it.
        _ = try Self.sh("cc \(flags.stdout) -I\(Self.root.path)/Sources/CPostgres/include -I\(Self.root.path)/Sources/CDBus/include "
                        + "-o \(dir.path)/probe \(dir.path)/probe.c")
        let printed = try Self.sh("\(dir.path)/probe").stdout
        var theirs: [String: Int] = [:]
        for line in printed.split(separator: "\n") {
            guard let space = line.lastIndex(of: " "), let value = Int(line[line.index(after: space)...]) else { continue }
            theirs[String(line[..<space])] = value
        }
        #expect(Set(theirs.keys) == Set(Self.ours.keys), "the probe and the test name different things")
        for (name, value) in Self.ours.sorted(by: { $0.key < $1.key }) {
            #expect(theirs[name] == value, "\(name): the library's header says \(theirs[name].map(String.init) ?? "nothing"), ours \(value)")
        }
    }

    /// Runs `command` with sh. - Throws: when it fails (its stderr in the error).
    static func sh(_ command: String) throws -> (status: Int32, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus != 0 {
            throw ProbeFailed(message: "\(command): exit \(process.terminationStatus)\n\(stderr)")
        }
        return (process.terminationStatus, stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    struct ProbeFailed: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
