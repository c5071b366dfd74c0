#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// Keeps only the dictionary entries a grammar can use: PocketSphinx loads every word of the
/// dictionary it is given into each decoder (130,000 for CMUdict: about 20 MB and 0.1 s a
/// decoder), while DirectMe's grammar uses a few hundred.
public enum DictionaryTrimmer {
  /// The words a JSGF grammar's text may use, lowercased: every token of letters, digits,
  /// apostrophes, dots, hyphens and underscores outside comments and rule names (keywords
  /// such as "public" come along; a few extra entries do no harm).
  public static func words(inGrammar text: String) -> Set<String> {
    var words: Set<String> = []
    var token = ""
    var inRuleName = false
    var index = text.startIndex
    func flush() {
      if !token.isEmpty && !inRuleName { words.insert(token.lowercased()) }
      token = ""
    }
    while index < text.endIndex {
      let character = text[index]
      let next = text.index(after: index)
      if character == "/", next < text.endIndex, text[next] == "/" {
        flush()
        index = text[next...].firstIndex(of: "\n") ?? text.endIndex
        continue
      }
      if character == "/", next < text.endIndex, text[next] == "*" {
        flush()
        index = text[next...].firstRange(of: "*/")?.upperBound ?? text.endIndex
        continue
      }
      if character.isLetter || character.isNumber || "'._-".contains(character) {
        token.append(character)
      } else {
        flush()
        if character == "<" { inRuleName = true } else if character == ">" { inRuleName = false }
      }
      index = next
    }
    flush()
    return words
  }

  /// The lines of `dictionary`'s text whose word (without its "(2)" variant number) is one
  /// of `words`, compared lowercased. Works on the UTF-8 bytes: CMUdict has 130,000 lines,
  /// and splitting them as Swift strings took a fifth of the start-up.
  public static func trim(_ dictionary: String, keeping words: Set<String>) -> String {
    let keep = Set(words.map { Array($0.utf8) })
    var kept: [UInt8] = []
    var text = dictionary
    text.withUTF8 { bytes in
      var lineStart = 0
      while lineStart < bytes.count {
        var lineEnd = lineStart
        while lineEnd < bytes.count && bytes[lineEnd] != 0x0A { lineEnd += 1 }
        var wordEnd = lineStart
        while wordEnd < lineEnd && bytes[wordEnd] != 0x20 && bytes[wordEnd] != 0x09 { wordEnd += 1 }
        if wordEnd < lineEnd, wordEnd > lineStart {
          var end = wordEnd
          // "read(2)" is "read".
          if bytes[end - 1] == UInt8(ascii: ")") {
            var open = end - 2
            while open > lineStart && bytes[open] >= 0x30 && bytes[open] <= 0x39 { open -= 1 }
            if open > lineStart && open < end - 2 && bytes[open] == UInt8(ascii: "(") { end = open }
          }
          let word = bytes[lineStart..<end].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
          if keep.contains(word) {
            kept.append(contentsOf: bytes[lineStart..<lineEnd])
            kept.append(0x0A)
          }
        }
        lineStart = lineEnd + 1
      }
    }
    return String(decoding: kept, as: UTF8.self)
  }

  /// Writes the part of `dictionary` that `grammar` can use to a private temporary file and
  /// returns its path; the caller removes it once the decoders are loaded.
  public static func trimmedCopy(of dictionary: String, for grammar: String) throws -> String {
    let text: String
    do {
      text = try String(contentsOfFile: dictionary, encoding: .utf8)
    } catch {
      throw ConfigurationError(file: dictionary, problem: "cannot read the dictionary (\(reason(of: error)))")
    }
    let grammarText: String
    do {
      grammarText = try String(contentsOfFile: grammar, encoding: .utf8)
    } catch {
      throw ConfigurationError(file: grammar, problem: "cannot read the grammar (\(reason(of: error)))")
    }
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("directme-\(getpid())-\(UUID().uuidString).dict").path
    let trimmed = trim(text, keeping: words(inGrammar: grammarText))
    guard FileManager.default.createFile(atPath: path, contents: Data(trimmed.utf8), attributes: [.posixPermissions: 0o600])
    else {
      throw ConfigurationError(file: path, problem: "cannot write the trimmed dictionary (is the temporary folder writable?)")
    }
    return path
  }
}
