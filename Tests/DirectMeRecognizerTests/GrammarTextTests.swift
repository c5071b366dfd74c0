import Foundation
import Testing

@testable import DirectMeRecognizer

@Suite("Grammar text")
struct GrammarTextTests {
  @Test("a grammar of statements, comments and blank space has no stray text, whatever its rules hold")
  func wellFormed() throws {
    let text = """
      \u{FEFF}/* a comment before the header */
      #JSGF V1.0;\r
      // a line comment; with a semicolon
      grammar g;
      import <other.*>;
      public <a> = up | <b ; odd> | "quoted; word" {tag; x} /2.5/ right;
      <b ; odd> = down [please] (go | move)* /* inside; a comment */ ;
      """
    #expect(GrammarText.strayText(in: text) == nil)
    #expect(GrammarText.strayText(in: try String(contentsOfFile: grammar, encoding: .utf8)) == nil, "the shipped grammar")
  }

  @Test("text between statements is named with its line: a rule without angle brackets, a dictionary, a stray mark")
  func stray() {
    let rule = GrammarText.strayText(in: "#JSGF V1.0;\ngrammar g;\npublic <a> = up;\nb = down;\n")
    #expect(rule?.line == 4 && rule?.text == "b")
    let dictionary = GrammarText.strayText(in: "# More pronunciations\noff(2) AA F\n")
    #expect(dictionary?.line == 1 && dictionary?.text == "#")
    let mark = GrammarText.strayText(in: "#JSGF V1.0;\ngrammar g;\npublic <a> = up | left;\n\n%%\n")
    #expect(mark?.line == 5 && mark?.text == "%%")
    // A quote inside a token starts no quoted string: the statement ends at the semicolon.
    let quote = GrammarText.strayText(in: "#JSGF V1.0;\ngrammar g;\npublic <a> = righ\"q;x\"t;\n")
    #expect(quote?.line == 3 && quote?.text == "x\"t;")
    #expect(GrammarText.strayText(in: "hello world")?.text == "hello")
    // A "<" that starts no rule name starts no statement either.
    #expect(GrammarText.strayText(in: "#JSGF V1.0;\ngrammar g;\n<> = up;\npublic <a> = up;\n")?.text == "<>")
    #expect(GrammarText.strayText(in: "#JSGF V1.0;\ngrammar g;\npublic <a> = up;\n<\n")?.line == 4)
  }
}
