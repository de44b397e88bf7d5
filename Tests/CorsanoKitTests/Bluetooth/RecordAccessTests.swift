import CorsanoKit
import Testing

/// The Record Access Control Point requests and responses of `cuff listen --stored`.
@Suite struct RecordAccessTests {
    @Test func requestsAreReportStoredRecordsAllOrFromASequenceNumber() {
        #expect(RecordAccess.reportStoredRecords(.all) == [0x01, 0x01])
        #expect(RecordAccess.reportStoredRecords(.from(0x1234)) == [0x01, 0x03, 0x01, 0x34, 0x12])
    }

    @Test(arguments: [
        ([UInt8](arrayLiteral: 0x06, 0x00, 0x01, 0x01), CuffCollector.Event.storedDone(records: 3)),
        ([0x06, 0x00, 0x01, 0x06], .storedDone(records: 0)),
        ([0x06, 0x00, 0x01, 0x04], .storedFailed("the cuff refused Report Stored Records: operator not supported (0x04)")),
        ([0x06, 0x00, 0x01, 0x7F], .storedFailed("the cuff refused Report Stored Records: response value 0x7F")),
        ([0x05, 0x00, 0x03], .storedFailed("the Record Access Control Point sent 050003, not a response to Report Stored Records")),
    ])
    func responsesSayWhatTheCuffAnswered(_ value: [UInt8], _ event: CuffCollector.Event) {
        #expect(RecordAccess.outcome(of: value, records: 3) == event)
    }
}
