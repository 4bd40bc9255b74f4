import Foundation

/// Pieces of a self-contained HTML page: escaping, tables, and the page shell with its inline
/// CSS and the few lines of inline JavaScript that sort tables (no network, no external files).
enum HTML {
    /// `text` safe in element content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// JSON text safe inside a `<script>` element, whatever its strings hold: `<`, `>` and `&` are
    /// written as the JSON escapes `\u003c`, `\u003e`, `\u0026` (so neither `</script>` nor `<!--`, which
    /// puts the HTML parser in the script data's escaped state, can appear), and U+2028 and U+2029 as
    /// `\u2028`, `\u2029`. The value JavaScript parses is unchanged.
    static func scriptJSON(_ json: String) -> String {
        var out = ""
        out.reserveCapacity(json.utf8.count)
        for scalar in json.unicodeScalars {
            switch scalar {
            case "<": out += "\\u003c"
            case ">": out += "\\u003e"
            case "&": out += "\\u0026"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A table cell: its text, a sort key when it is a number, and whether to emphasise it.
    struct Cell {
        var text: String
        var sortValue: Double?
        var strong = false

        init(_ text: String, sortValue: Double? = nil, strong: Bool = false) {
            self.text = text; self.sortValue = sortValue; self.strong = strong
        }
    }

    /// A table with a caption, column headers (`scope="col"`), row headers for the first column,
    /// and numbers right-aligned, inside a horizontally scrolling box (phone-width screens).
    /// `sortable`: each header is a button that sorts by its column (numbers by value).
    static func table(id: String? = nil, caption: String, header: [String], rows: [[Cell]], sortable: Bool = false) -> String {
        var out = "<div class=\"scroll\"><table\(id.map { " id=\"\(escape($0))\"" } ?? "")\(sortable ? " class=\"sortable\"" : "")>"
        out += "<caption>\(escape(caption))</caption><thead><tr>"
        for (index, title) in header.enumerated() {
            out += sortable
                ? "<th scope=\"col\" aria-sort=\"none\"><button type=\"button\" data-column=\"\(index)\">\(escape(title))</button></th>"
                : "<th scope=\"col\">\(escape(title))</th>"
        }
        out += "</tr></thead><tbody>"
        for row in rows {
            out += "<tr>"
            for (index, cell) in row.enumerated() {
                let tag = index == 0 ? "th scope=\"row\"" : "td"
                let close = index == 0 ? "th" : "td"
                var attributes = ""
                if let value = cell.sortValue, value.isFinite { attributes += " data-sort=\"\(value)\"" }
                if cell.sortValue != nil { attributes += " class=\"number\"" }
                let text = cell.strong ? "<strong>\(escape(cell.text))</strong>" : escape(cell.text)
                out += "<\(tag)\(attributes)>\(text)</\(close)>"
            }
            out += "</tr>"
        }
        return out + "</tbody></table></div>\n"
    }

    /// The page: `title`, the sections' HTML, inline style and sorting script.
    static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; media-src 'self' data: file:; \
        style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <title>\(escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <main>
        \(body)
        </main>
        <script>\(sortScript)</script>
        </body>
        </html>

        """
    }

    static let style = """
    body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d1d1f;background:#fff}
    main{max-width:1120px;margin:0 auto;padding:8px 14px 40px}
    h1{font-size:1.5em;margin:.6em 0 .2em}h2{font-size:1.2em;margin:1.6em 0 .4em;border-bottom:1px solid #ddd}\
    h3{font-size:1.05em;margin:1.2em 0 .3em}
    p.meta{color:#555;margin:.2em 0}
    .scroll{overflow-x:auto;max-width:100%;margin:.4em 0 1em}
    table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:.92em}
    caption{text-align:left;color:#555;padding:.3em 0;caption-side:top}
    th,td{padding:.25em .6em;border-bottom:1px solid #e4e4e4;text-align:left;white-space:nowrap}
    td.number,th.number{text-align:right}
    thead th{background:#f4f4f4;position:sticky;top:0}
    th button{font:inherit;font-weight:600;border:0;background:none;padding:0;cursor:pointer;color:inherit}
    th[aria-sort=ascending] button::after{content:" \\25B2"}th[aria-sort=descending] button::after{content:" \\25BC"}
    img,svg{max-width:100%;height:auto}
    figure{margin:.6em 0 1.2em}figcaption{color:#555;font-size:.9em}
    .charts{display:flex;flex-wrap:wrap;gap:12px}
    .audio{display:flex;flex-wrap:wrap;gap:10px;align-items:center;margin:.3em 0}
    .audio label{display:flex;flex-direction:column;font-size:.85em;color:#555}
    audio{max-width:100%;width:260px}
    code{font-size:.9em;word-break:break-all}
    .significant{color:#0a6b2e;font-weight:600}
    """

    /// Sorts a `table.sortable` by the clicked header's column: numbers by `data-sort`, text
    /// otherwise; a second click reverses; `aria-sort` tells screen readers.
    static let sortScript = """
    document.querySelectorAll('table.sortable').forEach(function(table){
      table.querySelectorAll('th button').forEach(function(button){
        button.addEventListener('click', function(){
          var column = +button.dataset.column, th = button.parentNode;
          var ascending = th.getAttribute('aria-sort') !== 'ascending';
          table.querySelectorAll('thead th').forEach(function(h){ h.setAttribute('aria-sort', 'none'); });
          th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
          var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
          function key(row){ var cell = row.cells[column]; var v = cell.getAttribute('data-sort');
            return v === null ? (cell.classList.contains('number') ? NaN : cell.textContent) : parseFloat(v); }
          rows.sort(function(a, b){
            var x = key(a), y = key(b);
            if (typeof x === 'number' || typeof y === 'number') {
              if (isNaN(x)) return 1; if (isNaN(y)) return -1;
              return ascending ? x - y : y - x;
            }
            return ascending ? x.localeCompare(y) : y.localeCompare(x);
          });
          rows.forEach(function(row){ body.appendChild(row); });
        });
      });
    });
    """
}
