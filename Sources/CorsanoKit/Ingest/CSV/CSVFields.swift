/// One complete CSV record split into cells, with quotes removed.
public enum CSVFields {
    /// The cells of `record` split on `delimiter`. A cell that starts (after spaces) with `"`
    /// is quoted: delimiters and line breaks inside it are text and `""` is one quote.
    /// `unterminatedQuote` is true when a quoted cell runs to the end of the record.
    public static func split(_ record: [UInt8], delimiter: UInt8) -> (cells: [String], unterminatedQuote: Bool) {
        var cells: [String] = []
        var cell: [UInt8] = []
        var inQuotes = false
        var sawQuote = false
        var i = 0
        while i < record.count {
            let b = record[i]
            i += 1
            if inQuotes {
                if b == 34 {
                    if i < record.count, record[i] == 34 { cell.append(34); i += 1 } else { inQuotes = false }
                } else {
                    cell.append(b)
                }
            } else if b == delimiter {
                cells.append(String(decoding: cell, as: UTF8.self))
                cell.removeAll(keepingCapacity: true)
                sawQuote = false
            } else if b == 34, !sawQuote, cell.allSatisfy({ $0 == 32 }) {
                inQuotes = true
                sawQuote = true
                cell.removeAll(keepingCapacity: true)
            } else {
                cell.append(b)
            }
        }
        cells.append(String(decoding: cell, as: UTF8.self))
        return (cells, inQuotes)
    }

    /// The delimiter of a header record: whichever of `,`, `;` and TAB occurs most often
    /// outside quotes (`,` on a tie), so `;` files with decimal commas read right.
    public static func detectDelimiter(_ header: [UInt8]) -> UInt8 {
        var counts: [UInt8: Int] = [44: 0, 59: 0, 9: 0]
        var inQuotes = false
        for b in header {
            if b == 34 { inQuotes.toggle() } else if !inQuotes, counts[b] != nil { counts[b, default: 0] += 1 }
        }
        let semicolons = counts[59] ?? 0, tabs = counts[9] ?? 0, commas = counts[44] ?? 0
        if semicolons > commas && semicolons >= tabs { return 59 }
        if tabs > commas && tabs > semicolons { return 9 }
        return 44
    }
}
