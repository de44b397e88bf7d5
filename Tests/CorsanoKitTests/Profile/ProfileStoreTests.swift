import CorsanoKit
import Foundation
import Testing

@Suite struct ProfileStoreTests {
    static let profile = UserProfile(heightCm: 172, weightKg: 68, wrist: .left, gender: .female, unit: .metric,
                                     birthdate: "1990-04-01", skinTone: 3, hairDensity: .low)

    @Test func lastPushedProfilePerSerialSurvivesReopen() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("profile-\(UUID().uuidString).sqlite3").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let at = try #require(RFC3339.parseInstant("2026-11-29T10:00:00Z"))
        do {
            let store = ProfileStore(store: try SQLiteStore(path: path))
            try store.save(Self.profile, serial: "A1", at: at)
            var second = Self.profile
            second.skinTone = 5
            try store.save(second, serial: "A1", at: at.adding(interval: 60))
            try store.save(Self.profile, serial: "B2", at: at)
        }
        let reopened = ProfileStore(store: try SQLiteStore(path: path))
        var expected = Self.profile
        expected.skinTone = 5
        #expect(try reopened.load(serial: "A1") == expected)
        #expect(try reopened.load(serial: "B2") == Self.profile)
        #expect(try reopened.load(serial: "C3") == nil)
    }
}
