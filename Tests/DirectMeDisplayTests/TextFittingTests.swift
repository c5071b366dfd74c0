import Testing

@testable import DirectMeDisplay

@Suite("Text fitting")
struct TextFittingTests {
  /// Ten units a character.
  let width = { (text: String) in text.count * 10 }

  @Test("a line that fits is left as it is")
  func fits() {
    #expect(TextFitting.fitted("move left", maxWidth: 90, width: width) == "move left")
    #expect(TextFitting.fitted("", maxWidth: 0, width: width) == "")
  }

  @Test("a line too wide keeps both ends around an ellipsis, as much as fits")
  func shortened() {
    let text = "not sure enough of \"down please and then\" (confidence 0.05 < 0.61)"
    let fitted = TextFitting.fitted(text, maxWidth: 300, width: width)
    #expect(fitted == "not sure enough\u{2026}e 0.05 < 0.61)")
    #expect(width(fitted) <= 300 && width(fitted) > 290)
    #expect(TextFitting.fitted("abcdef", maxWidth: 55, width: width) == "ab\u{2026}ef")
    #expect(TextFitting.fitted("abcdef", maxWidth: 5, width: width) == "\u{2026}")
  }
}
