import Testing

@Suite struct CLIFrameTests {
    @Test func versionPrintsVersion() throws {
        let r = try Corsano.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("corsano "))
    }

    @Test func unknownOptionNamesTheFlagAndExits64() throws {
        let r = try Corsano.run(["cuff", "ingest", "--frobnicate"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--frobnicate"))
        #expect(r.stdout.isEmpty)
    }

    @Test func noPrefixAbbreviations() throws {
        let r = try Corsano.run(["bp-init", "--max-att", "2"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--max-att"))
    }

    @Test func badChoiceValueNamesFlagAndValue() throws {
        let r = try Corsano.run(["cuff", "ingest", "--from=xml"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--from"))
        #expect(r.stderr.contains("xml"))
    }

    @Test func helpOnEveryCommand() throws {
        for words in [["bp-init"], ["wearing-opt"], ["cuff", "ingest"], ["replay-filter"], ["profile", "push"],
                      ["bracelet", "serve"], ["history"], ["repl"], ["completion"]] {
            let r = try Corsano.run(words + ["--help"])
            #expect(r.status == 0, "\(words)")
            #expect(r.stdout.hasPrefix("usage: corsano \(words.joined(separator: " "))"), "\(words)")
            let viaHelp = try Corsano.run(["help"] + words)
            #expect(viaHelp.stdout == r.stdout)
        }
    }

    @Test func bareCorsanoWithoutTerminalPrintsHelpAndExits64() throws {
        let r = try Corsano.run([])
        #expect(r.status == 64)
        #expect(r.stderr.contains("usage: corsano"))
    }
}
