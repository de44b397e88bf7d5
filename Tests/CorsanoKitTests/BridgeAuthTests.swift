@testable import CorsanoKit
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The TCP bridge's `hello` handshake (docs/bridge-protocol.md "Authentication"): HMAC-SHA256
/// against RFC 4231, both halves over a real socket pair, and the token file's rules.
@Suite struct BridgeAuthTests {
    static func bytes(_ hex: String) -> [UInt8] { BridgeToken.decodeHex(Array(hex.utf8))! }

    /// RFC 4231 §4.2-4.8 (test case 5, a truncated MAC, does not apply).
    @Test(arguments: [
        ([UInt8](repeating: 0x0b, count: 20), Array("Hi There".utf8),
         "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), Array("what do ya want for nothing?".utf8),
         "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ([UInt8](repeating: 0xaa, count: 20), [UInt8](repeating: 0xdd, count: 50),
         "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
        (Array(1...25), [UInt8](repeating: 0xcd, count: 50),
         "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
        ([UInt8](repeating: 0xaa, count: 131), Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
         "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
        ([UInt8](repeating: 0xaa, count: 131),
         Array("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.".utf8),
         "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
    ] as [([UInt8], [UInt8], String)])
    func hmacMatchesRFC4231(key: [UInt8], data: [UInt8], mac: String) {
        #expect(BridgeToken.hex(HMACSHA256.mac(key: key, data)) == mac)
    }

    @Test func constantTimeEqualityIsEquality() {
        #expect(HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2, 3]))
        #expect(!HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2, 4]))
        #expect(!HMACSHA256.constantTimeEqual([1, 2, 3], [1, 2]))
    }

    /// Runs the server half on one end of a socket pair and `client` on the other.
    static func exchange(server token: BridgeToken, client: (Int32) throws -> Void) async throws -> String? {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let (serverFD, clientFD) = (fds[0], fds[1])
        defer { close(serverFD); close(clientFD) }
        let served = Task.detached { BridgeHandshake.serve(fd: serverFD, token: token) }
        defer { shutdown(serverFD, Int32(SHUT_RDWR)) }
        try client(clientFD)
        shutdown(clientFD, Int32(SHUT_RDWR))
        return await served.value
    }

    static let token = try! BridgeToken(bytes: Array(repeating: 7, count: 32))
    static let other = try! BridgeToken(bytes: Array(repeating: 8, count: 32))

    @Test func theSameTokenPassesBothWays() async throws {
        let refusal = try await Self.exchange(server: Self.token) { fd in
            try BridgeHandshake.authenticate(fd: fd, token: Self.token, address: "test", timeout: 5)
        }
        #expect(refusal == nil)
    }

    @Test func aWrongTokenIsRefusedWith32006() async throws {
        let refusal = try await Self.exchange(server: Self.token) { fd in
            #expect(throws: BridgeAuthError.refused(address: "test", message: "wrong token")) {
                try BridgeHandshake.authenticate(fd: fd, token: Self.other, address: "test", timeout: 5)
            }
        }
        #expect(refusal == "wrong token")
    }

    /// Before `hello` nothing is served: a request is answered -32006 and the connection ends.
    @Test func aRequestBeforeHelloIsRefused() async throws {
        var answer: String?
        let refusal = try await Self.exchange(server: Self.token) { fd in
            _ = BridgeHandshake.readLine(fd, timeout: 5)  // the greeting
            #expect(BridgeHandshake.writeLine(fd, #"{"jsonrpc":"2.0","id":1,"method":"readProfile","params":{}}"#))
            answer = BridgeHandshake.readLine(fd, timeout: 5)
        }
        #expect(refusal == "authenticate first: send hello")
        #expect(answer?.contains(#""code":-32006"#) == true, "\(answer ?? "nil")")
    }

    /// A server that does not hold the token cannot prove it: the client stops before sending
    /// anything but `hello` (a fake server answering any MAC is caught).
    @Test func aServerWithoutTheTokenIsNotTrusted() async throws {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        let (serverFD, clientFD) = (fds[0], fds[1])
        defer { close(serverFD); close(clientFD) }
        let fake = Task.detached { @Sendable () -> String? in
            _ = BridgeHandshake.writeLine(serverFD, #"{"jsonrpc":"2.0","method":"greeting","params":{"nonce":"\#(String(repeating: "ab", count: 32))"}}"#)
            _ = BridgeHandshake.readLine(serverFD, timeout: 5)
            _ = BridgeHandshake.writeLine(serverFD, #"{"jsonrpc":"2.0","id":0,"result":{"mac":"\#(String(repeating: "00", count: 32))"}}"#)
            return BridgeHandshake.readLine(serverFD, timeout: 1)
        }
        #expect(throws: BridgeAuthError.self) {
            try BridgeHandshake.authenticate(fd: clientFD, token: Self.token, address: "test", timeout: 5)
        }
        shutdown(clientFD, Int32(SHUT_RDWR))
        #expect(await fake.value == nil)
    }

    @Test func aTokenFileIsMade0600AndReadBackAndAnOpenOneIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corsano-token-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("sub/bridge-token").path
        let old = umask(0)
        defer { umask(old) }
        let made = try BridgeToken.create(path: path)
        #expect(made.bytes.count == 32)
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
        #expect(stat(dir.appendingPathComponent("sub").path, &st) == 0 && st.st_mode & 0o777 == 0o700)
        #expect(try BridgeToken.load(path: path) == made)
        #expect(throws: BridgeAuthError.self) { try BridgeToken.create(path: path) }  // never over a file
        chmod(path, 0o644)
        #expect(throws: BridgeAuthError.self) { try BridgeToken.load(path: path) }
        let short = dir.appendingPathComponent("short").path
        FileManager.default.createFile(atPath: short, contents: Data("abcd\n".utf8), attributes: [.posixPermissions: 0o600])
        #expect(throws: BridgeAuthError.self) { try BridgeToken.load(path: short) }
    }
}
