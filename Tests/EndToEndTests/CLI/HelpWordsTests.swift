import Foundation
import Testing

/// Help reached every way a user tries it: group words, `help --help`, global flag mixes, and
/// bp-init's help covering cuff sources, signals and exit statuses (README promises it).
@Suite struct HelpWordsTests {
    static let cuffGroup = """
        usage: corsano cuff SUBCOMMAND [OPTIONS]

        Subcommands:
          cuff ingest    Parse cuff dumps (jsonl, ble, csv) into reading lines.
          cuff listen    Read a Bluetooth cuff live through BlueZ into reading lines.

        Run 'corsano cuff ingest --help' for a subcommand's options.

        """

    @Test func aGroupWordAloneListsItsSubcommandsOnStderrWith64() throws {
        let r = try Corsano.run(["cuff"])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr == Self.cuffGroup)
    }

    @Test(arguments: [["cuff", "--help"], ["cuff", "-h"], ["help", "cuff"]])
    func aGroupWordWithHelpListsItsSubcommandsOnStdout(words: [String]) throws {
        let r = try Corsano.run(words)
        #expect(r.status == 0)
        #expect(r.stdout == Self.cuffGroup)
        #expect(r.stderr.isEmpty)
    }

    @Test(arguments: [("profile", "profile push"), ("bracelet", "bracelet serve")])
    func everyGroupHasItsListing(group: String, member: String) throws {
        let r = try Corsano.run([group, "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("usage: corsano \(group) SUBCOMMAND [OPTIONS]\n"))
        #expect(r.stdout.contains("\n  \(member)    "))
    }

    @Test func anUnknownSubcommandIsStillAnUnknownCommand() throws {
        let r = try Corsano.run(["cuff", "digest"])
        #expect(r.status == 64)
        #expect(r.stderr == "corsano: unknown command 'cuff digest'; try 'corsano cuff --help'\n")
    }

    @Test func helpHelpPrintsHelpsOwnUsage() throws {
        let r = try Corsano.run(["help", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("usage: corsano help [OPTIONS] [COMMAND]\n\nShow help for a command.\n"))
        #expect(r.stdout.contains("  --help"))
    }

    @Test(arguments: [["--version", "--help"], ["--help", "--version"], ["-h", "--version"]])
    func helpWinsOverVersion(words: [String]) throws {
        let r = try Corsano.run(words)
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("usage: corsano COMMAND [OPTIONS]\n"))
        #expect(r.stderr.isEmpty)
    }

    @Test func versionTwiceIsTheVersion() throws {
        let r = try Corsano.run(["--version", "--version"])
        #expect(r.status == 0)
        #expect(r.stdout == "corsano 0.1.0\n")
    }

    @Test func bpInitHelpCoversCuffSourcesSignalsAndExitStatuses() throws {
        let r = try Corsano.run(["bp-init", "--help"])
        #expect(r.status == 0)
        let text = r.stdout.replacingOccurrences(of: "\n", with: " ")
        for phrase in ["--cuff FILE or stdin (-)", "--cuff-cmd", "typed at the terminal", "SIGINT (130)", "SIGTERM (143)",
                       "3 cuffError", "4 braceletDisconnected", "66 cuff or scenario file unreadable", "141 stdout closed"] {
            #expect(text.contains(phrase), "\(phrase)")
        }
    }

    @Test func theREPLListsAGroupWithItsSessionSubcommands() throws {
        let r = try Corsano.run(["repl", "--no-state"], stdin: "help cuff\nfrobnicate\n")
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)  // piped: only JSON lines; help goes to stderr
        #expect(r.stderr == """
            usage: cuff SUBCOMMAND [OPTIONS]

            Subcommands:
              cuff ingest     Parse cuff dumps (jsonl, ble, csv) into reading lines.
              cuff listen     Read a Bluetooth cuff live through BlueZ into reading lines.
              cuff add        Queue a cuff reading for the next flow.
              cuff scan       List the Bluetooth devices on the air, blood pressure cuffs
                              first.
              cuff connect    Use the Bluetooth cuff at MAC for the following bp-init
                              runs.

            Type 'help cuff ingest' for a subcommand's options.
            2: unknown command 'frobnicate'; try 'help'

            """)
    }
}
