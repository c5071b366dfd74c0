/// Checks on a JSGF grammar's text that sphinxbase's parser does not make.
public enum GrammarText {
  /// Text that stands outside every statement of a JSGF grammar, with its line (from 1):
  /// sphinxbase's scanner skips what it cannot match between statements and echoes it to
  /// standard output, so a rule written without angle brackets ("b = down;") vanished without
  /// a word, and a file that is no grammar at all (a dictionary, notes) printed itself into
  /// what DirectMe writes, `--json` included. Nil when there is none. A statement starts with
  /// `#JSGF`, `grammar`, `import`, `public` or a rule name (`<...>`, not `<>`) and runs to its `;`
  /// (rule names, tags and quoted strings may hold one); comments and blank space lie between
  /// statements.
  public static func strayText(in text: String) -> (line: Int, text: String)? {
    let characters = Array(text.unicodeScalars)
    var index = 0
    var line = 1
    /// Whether `literal` starts at `at`.
    func starts(_ literal: String, at: Int) -> Bool {
      let scalars = Array(literal.unicodeScalars)
      return at + scalars.count <= characters.count && Array(characters[at..<at + scalars.count]) == scalars
    }
    /// Moves past `count` characters, counting lines.
    func advance(_ count: Int = 1) {
      for _ in 0..<count where index < characters.count {
        if characters[index] == "\n" { line += 1 }
        index += 1
      }
    }
    /// Moves past a comment starting at `index`, if one does; whether one did.
    func skipComment() -> Bool {
      if starts("//", at: index) {
        while index < characters.count && characters[index] != "\n" { advance() }
        return true
      }
      if starts("/*", at: index) {
        advance(2)
        while index < characters.count && !starts("*/", at: index) { advance() }
        advance(2)
        return true
      }
      return false
    }
    /// The end of the rule name (`<` then one or more characters but `<` and `>`, then `>`)
    /// starting at `at`, if one does.
    func ruleNameEnd(at: Int) -> Int? {
      guard characters[at] == "<", let close = characters[(at + 1)...].firstIndex(where: { $0 == "<" || $0 == ">" }),
        characters[close] == ">", close > at + 1
      else { return nil }
      return close
    }
    let keywords = ["#JSGF", "grammar", "import", "public"]
    while index < characters.count {
      let character = characters[index]
      if character.properties.isWhitespace || character == "\u{FEFF}" {
        advance()
        continue
      }
      if skipComment() { continue }
      guard keywords.contains(where: { starts($0, at: index) }) || ruleNameEnd(at: index) != nil else {
        var stray = ""
        var end = index
        while end < characters.count, !characters[end].properties.isWhitespace, stray.unicodeScalars.count < 40 {
          stray.unicodeScalars.append(characters[end])
          end += 1
        }
        return (line, stray)
      }
      // The statement, to its semicolon: rule names (`<...>`, which may hold one), tags
      // (`{...}`) and quoted strings (a quote that starts a token) are read whole, as the
      // scanner reads them.
      var inToken = false
      while index < characters.count && characters[index] != ";" {
        if skipComment() {
          inToken = false
          continue
        }
        let character = characters[index]
        if let close = ruleNameEnd(at: index) {
          advance(close + 1 - index)
        } else if character == "{" || (character == "\"" && !inToken) {
          let end: Unicode.Scalar = character == "{" ? "}" : "\""
          advance()
          while index < characters.count && characters[index] != end { advance(characters[index] == "\\" ? 2 : 1) }
          advance()
        } else {
          inToken = !character.properties.isWhitespace && !";=|*+<>()[]{}/".unicodeScalars.contains(character)
          advance()
          continue
        }
        inToken = false
      }
      advance()
    }
    return nil
  }
}
