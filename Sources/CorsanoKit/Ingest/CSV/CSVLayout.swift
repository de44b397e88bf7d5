/// The order of day, month and year in numeric dates such as `03/04/2026`.
public enum CSVDateOrder: String, CaseIterable, Sendable {
    /// Day first (`20/11/2026`, `20.11.2026`): most of Europe.
    case dmy
    /// Month first (`11/20/2026`): the United States.
    case mdy
    /// Year first (`2026/11/20`): ISO 8601, OMRON connect.
    case ymd
}

/// A vendor's export layout: its header, and what its columns mean beyond their names.
///
/// Detected from the header (every `signature` column present, compared after
/// `CSVHeader.normalize` with the namespace kept) or forced with `--from csv:NAME`; named in
/// the run's summary and listed with its header in corsano-formats(5).
public struct CSVLayout: Equatable, Sendable {
    /// The layout's name (`omron-connect`), as `--from csv:NAME` takes it.
    public let name: String
    /// The tool that writes it.
    public let export: String
    /// The header row as the tool writes it.
    public let header: String
    /// Columns (as written) that identify the layout; all must be present.
    public let signature: [String]
    /// The date order of its numeric dates, when the tool fixes one.
    public let dateOrder: CSVDateOrder?
    /// True when its naive stamps are UTC (its zone column only says where the phone was).
    public let stampsAreUTC: Bool

    init(_ name: String, export: String, header: String, signature: [String], dateOrder: CSVDateOrder? = nil,
         stampsAreUTC: Bool = false) {
        self.name = name
        self.export = export
        self.header = header
        self.signature = signature
        self.dateOrder = dateOrder
        self.stampsAreUTC = stampsAreUTC
    }

    /// Name of the layout of a header no vendor layout matches.
    public static let genericName = "generic"

    /// Every vendor layout, most specific first (the first whose signature matches wins).
    /// Sources of each: Tests/Fixtures/README.md.
    public static let all: [CSVLayout] = [
        CSVLayout("omron-connect-email", export: "OMRON connect, blood pressure logbook e-mailed as CSV",
                  header: "Measurement Date,Time Zone,SYS,DIA,Pulse,Device Model Name",
                  signature: ["Time Zone", "SYS", "DIA", "Device Model Name"]),
        CSVLayout("omron-connect", export: "OMRON connect app, export as CSV (one row per reading, its time zone)",
                  header: "Measurement Date,Timezone,SYS(mmHg),DIA(mmHg),Pulse(bpm),Irregular heartbeat,IHB detection count,Body Movement,Cuff wrap guide,Positioning Indicator,room temperature(°C),Measurement Mode,Device",
                  signature: ["Measurement Date", "Timezone", "SYS(mmHg)", "DIA(mmHg)"], dateOrder: .ymd),
        CSVLayout("omron-connect-report", export: "OMRON connect, \"Your Requested OMRON Report\" (newest first)",
                  header: "Date,Time,Systolic (mmHg),Diastolic (mmHg),Pulse (bpm),Symptoms,Consumed,TruRead,Notes",
                  signature: ["Date", "Time", "Systolic (mmHg)", "Diastolic (mmHg)", "TruRead"]),
        CSVLayout("samsung-health", export: "Samsung Health, Download personal data: com.samsung.shealth.blood_pressure.*.csv",
                  header: "com.samsung.health.blood_pressure.datauuid,com.samsung.health.blood_pressure.start_time,com.samsung.health.blood_pressure.time_offset,com.samsung.health.blood_pressure.systolic,com.samsung.health.blood_pressure.diastolic,com.samsung.health.blood_pressure.pulse,com.samsung.health.blood_pressure.mean,",
                  signature: ["com.samsung.health.blood_pressure.start_time", "com.samsung.health.blood_pressure.systolic",
                              "com.samsung.health.blood_pressure.diastolic"], stampsAreUTC: true),
        CSVLayout("healthforyou", export: "HealthForYou app (Sanitas, SilverCrest), data export: the BLOOD PRESSURE section",
                  header: "Date;Time;Sys;Dia;Pulse;MAP;Added manually",
                  signature: ["Date", "Time", "Sys", "Dia", "Added manually"], dateOrder: .dmy),
        CSVLayout("health-auto-export", export: "Health Auto Export (Apple Health), CSV",
                  header: "Date/Time,Blood Pressure [Systolic] (mmHg),Blood Pressure [Diastolic] (mmHg),Heart Rate [Min] (count/min),Heart Rate [Max] (count/min),Heart Rate [Avg] (count/min)",
                  signature: ["Date/Time", "Blood Pressure [Systolic] (mmHg)", "Blood Pressure [Diastolic] (mmHg)"]),
        CSVLayout("withings", export: "Withings Health Mate, bp.csv",
                  header: "Date,\"Heart rate\",Systolic,Diastolic,Comments",
                  signature: ["Date", "Heart rate", "Systolic", "Diastolic", "Comments"]),
        CSVLayout("omblepy", export: "omblepy (OMRON Bluetooth LE readout)",
                  header: "datetime,dia,sys,bpm,mov,ihb",
                  signature: ["datetime", "dia", "sys", "bpm", "mov", "ihb"]),
        CSVLayout("sbm69", export: "SilverCrest SBM69 readout tool",
                  header: "Time Stamp,Systolic Pressure,Diastolic Pressure,Mean Arterial Pressure,Pulse Rate,User ID,Body Movement,Cuff Too Loose,Irregular Pulse,Pulse Rate Range,Improper Measurement Position",
                  signature: ["Time Stamp", "Systolic Pressure", "Diastolic Pressure", "Mean Arterial Pressure"]),
        CSVLayout("bpm-app", export: "Blood Pressure Monitor app (blood-pressure-monitor-fl), CSV export",
                  header: "timestampUnixMs,systolic,diastolic,pulse,notes,needlePin",
                  signature: ["timestampUnixMs", "systolic", "diastolic", "pulse"]),
        CSVLayout("beurer-bm58", export: "Beurer BM-58 readout tool (German)",
                  header: "Speicherplatz;Datum;Systole;Diastole;Puls",
                  signature: ["Speicherplatz", "Datum", "Systole", "Diastole"]),
    ]

    /// The layout named `name`, or nil.
    public static func named(_ name: String) -> CSVLayout? { all.first { $0.name == name } }

    /// The first layout whose signature `header` carries, or nil (a generic export).
    public static func detect(_ header: CSVHeader) -> CSVLayout? {
        all.first { $0.matches(header) }
    }

    /// True when every signature column is in `header`: by its name, or as the role a
    /// `--column` gave another column (a renamed column named back keeps its layout's rules).
    public func matches(_ header: CSVHeader) -> Bool { missing(in: header).isEmpty }

    /// The signature columns `header` lacks.
    public func missing(in header: CSVHeader) -> [String] {
        let keys = Set(header.fullKeys)
        let assignedRoles = Set(header.columns.filter { header.assigned.contains($0.value) }.map(\.key))
        return signature.filter { column in
            !keys.contains(CSVHeader.normalize(column, keepNamespace: true).key)
                && !(CSVHeader.aliases[CSVHeader.normalize(column).key].map { role in
                    assignedRoles.contains(role) || (role.stamps && assignedRoles.contains { $0.stamps })
                } ?? false)
        }
    }

    /// The layout `header` comes nearest to without matching it (most of its signature present,
    /// at least half), with the columns it lacks; for the message about a header missing a column.
    public static func nearest(_ header: CSVHeader) -> (layout: CSVLayout, missing: [String])? {
        all.map { ($0, $0.missing(in: header)) }
            .filter { !$0.1.isEmpty && $0.1.count * 2 <= $0.0.signature.count }
            .min { $0.1.count < $1.1.count }
    }
}
