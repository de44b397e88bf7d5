import Foundation

/// Headless Chromium (Debian `chromium`, from scripts/packages) rendering a report as people see
/// it: a PNG screenshot at a window size, or Print to PDF. Every run is bounded (`timeout`, then
/// SIGKILL) and starts from a private, fresh profile directory (`--user-data-dir`), so runs do not
/// share state or wait on each other's profile lock; `--no-sandbox` because the suite may run as
/// root (Chromium refuses to start its sandbox as root); no GPU; no first-run or extension work.
enum Chromium {
    static let program = "/usr/bin/chromium"
    /// Seconds one render may take before it is killed (a cold start takes about 3 s on CI's 2 cores).
    static let timeout = 90

    static func render(_ html: String, screenshot png: String, width: Int, height: Int) throws -> Shell.Outcome {
        try run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(png)"], html)
    }

    /// Print to PDF without Chromium's own header and footer (date, URL, its page numbers): the
    /// page header and "page x of y" are the document's own, from its `@page` margin boxes.
    static func render(_ html: String, pdf: String) throws -> Shell.Outcome {
        try run(["--no-pdf-header-footer", "--print-to-pdf=\(pdf)"], html)
    }

    /// The document as Chromium parsed it (`--dump-dom`: the DOM serialized on stdout), to read
    /// the text a person is shown.
    static func dumpDOM(_ html: String) throws -> Shell.Outcome {
        try run(["--dump-dom"], html)
    }

    /// The document after it loaded and its scripts ran, as Chromium serializes it
    /// (`--dump-dom`), laid out at `width` × `height` CSS px.
    static func dom(_ html: String, width: Int, height: Int) throws -> Shell.Outcome {
        try run(["--hide-scrollbars", "--window-size=\(width),\(height)", "--dump-dom"], html)
    }

    private static func run(_ args: [String], _ html: String) throws -> Shell.Outcome {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["--kill-after=5", String(timeout), program, "--headless", "--no-sandbox", "--disable-gpu",
                             "--no-first-run", "--disable-extensions", "--disable-background-networking", "--user-data-dir=\(profile)"]
            + args + [URL(fileURLWithPath: html).absoluteString]
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = profile
        process.environment = environment
        return try Shell.capture(process, stdin: "")
    }
}
