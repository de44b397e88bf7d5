@testable import CorsanoCLI
import Foundation
import Testing

/// Help reached every way a user tries it: group words, `help --help`, global flag mixes, and
/// bp-init's help covering cuff sources, signals and exit statuses (README promises it).
@Suite struct HelpWordsTests {
    static let cuffGroup = """
        usage: corsano cuff SUBCOMMAND [OPTIONS]

        Subcommands:
          cuff ingest    Parse cuff dumps and app exports into reading lines.
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
        let r = try Corsano.run(["cuff", "frobnicate"])
        #expect(r.status == 64)
        #expect(r.stderr == "corsano: unknown command 'cuff frobnicate'; try 'corsano cuff --help'\n")
    }

    @Test func helpHelpPrintsHelpsOwnUsage() throws {
        let r = try Corsano.run(["help", "--help"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("usage: corsano help [OPTIONS] [COMMAND]\n\nShow help for a command.\n"))
        #expect(r.stdout.contains("  -h, --help"))
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
        // The statuses are the table's exit list, shown one row each.
        for phrase in ["--cuff FILE or stdin (-)", "--cuff-cmd", "typed at the terminal", "SIGINT, SIGTERM and SIGHUP cancel the run",
                       " Exit status: ", "  3     cuffError", "  4     braceletDisconnected", "  65    the --bracelet scenario is invalid",
                       "  66    the --cuff file is missing", "  77    a tcp: bridge refuses the token", "  130   SIGINT",
                       "  143   SIGTERM", "  141   stdout closed"] {
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
              cuff ingest     Parse cuff dumps and app exports into reading lines.
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

/// Mistakes a new user makes (point 3): "did you mean" from the command table,
/// `-h` after a command, `-V`.
@Suite struct MistakeTests {
    @Test(arguments: [
        (["bp-int"], "unknown command 'bp-int'; did you mean 'bp-init'? try 'corsano --help'"),
        (["bp-init", "--treshold", "12"], "bp-init: unknown option '--treshold'; did you mean '--threshold'? try 'corsano bp-init --help'"),
        (["cuff", "ingst"], "unknown command 'cuff ingst'; did you mean 'cuff ingest'? try 'corsano cuff --help'"),
        (["histroy"], "unknown command 'histroy'; did you mean 'history'? try 'corsano --help'"),
        (["replay-filter", "--frist"], "replay-filter: unknown option '--frist'; did you mean '--first'? try 'corsano replay-filter --help'"),
        (["wearing-opt", "--no-prep"], "wearing-opt: unknown option '--no-prep'; did you mean '--no-preparation'? try 'corsano wearing-opt --help'"),
        (["frobnicate"], "unknown command 'frobnicate'; try 'corsano --help'"),
    ])
    func aNearMissSaysWhatWasMeant(_ args: [String], _ message: String) throws {
        let r = try Corsano.run(args, stdin: "")
        #expect(r.status == 64)
        #expect(r.stderr == "corsano: \(message)\n")
    }

    @Test func theREPLSuggestsItsOwnWords() throws {
        let r = try Corsano.run(["repl", "--no-state"], stdin: "cuff ad 120/80 72\nstatus --sed 3\n")
        #expect(r.stderr == "1: unknown command 'cuff ad'; did you mean 'cuff add'? try 'help'\n"
                + "2: status: unknown option '--sed'; did you mean '--seed'? try 'help status'\n")
    }

    @Test func shortHelpAfterACommandAndShortVersion() throws {
        let help = try Corsano.run(["bp-init", "-h"])
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("usage: corsano bp-init [OPTIONS]\n"))
        #expect(help.stdout.contains("  -h, --help "))
        let version = try Corsano.run(["-V"])
        #expect(version.status == 0)
        #expect(version.stdout == "corsano \(HelpRenderer.version)\n")
    }

    @Test func distanceCountsASwapAsOneEdit() {
        #expect(DidYouMean.distance(Array("treshold"), Array("threshold")) == 1)
        #expect(DidYouMean.distance(Array("frist"), Array("first")) == 1)
        #expect(DidYouMean.distance(Array("abc"), Array("")) == 3)
        #expect(DidYouMean.suggestions(for: "bp", among: ["bp-init", "history"]) == [])  // too short to guess
        #expect(DidYouMean.suggestions(for: "histor", among: ["history", "bp-init"]) == ["history"])
    }
}
