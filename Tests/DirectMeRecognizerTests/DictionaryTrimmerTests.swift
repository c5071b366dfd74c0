import Foundation
import Testing

@testable import DirectMeRecognizer

@Suite("Dictionary trimming")
struct DictionaryTrimmerTests {
  @Test("the grammar's words are its tokens, not its rule names or comments")
  func grammarWords() {
    let grammar = """
      #JSGF V1.0;
      // a comment with cupboard
      /* and another with
         wardrobe */
      grammar directme;
      public <commands> = <command>+;
      <command> = [please] (Move [the ninja] | go) <direction>;
      <direction> = up | down | left | right | o'clock | t.v.;
      """
    let words = DictionaryTrimmer.words(inGrammar: grammar)
    for word in ["please", "move", "the", "ninja", "go", "up", "down", "left", "right", "o'clock", "t.v."] {
      #expect(words.contains(word), "\(word)")
    }
    for absent in ["cupboard", "wardrobe", "commands", "command", "direction"] {
      #expect(!words.contains(absent), "\(absent)")
    }
  }

  @Test("only those words' entries are kept, every pronunciation of each")
  func trim() {
    let dictionary = """
      read R IY D
      read(2) R EH D
      ready R EH D IY
      Up AH P
      upper AH P ER
      down D AW N
      """
    let trimmed = DictionaryTrimmer.trim(dictionary, keeping: ["read", "up", "down"])
    #expect(trimmed == "read R IY D\nread(2) R EH D\nUp AH P\ndown D AW N\n")
  }

  @Test("the shipped grammar's words are all in the trimmed copy of the stock dictionary")
  func shippedGrammar() throws {
    let dictionary = RecognizerConfiguration.defaultModelFolder + "/cmudict-en-us.dict"
    let grammar = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../grammars/directme.gram").standardized.path
    try #require(FileManager.default.fileExists(atPath: dictionary), "needs pocketsphinx-en-us (scripts/setup.sh)")
    let path = try DictionaryTrimmer.trimmedCopy(of: dictionary, for: grammar)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let trimmed = try String(contentsOfFile: path, encoding: .utf8)
    let headwords = Set(trimmed.split(separator: "\n").map { String($0.split(separator: " ")[0]) })
    for word in ["up", "down", "left", "right", "please", "move", "ninja", "now"] {
      #expect(headwords.contains(word), "\(word)")
    }
    #expect(headwords.count < 1_000, "a few hundred entries, not 130,000 (\(headwords.count))")
    let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    #expect(mode == 0o600)
  }
}
