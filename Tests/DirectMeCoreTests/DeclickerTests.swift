import DirectMeCore
import Testing

#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

@Suite("Declicker")
struct DeclickerTests {
  /// A key's click: 8 ms of noise dying away (time constant 2 ms), its peak near -10 dBFS.
  func click(random: inout Signal.Random) -> [Int16] {
    (0..<128).map { index in
      let decay = exp(-Double(index) / 32)
      return Int16(clamping: Int((Double.random(in: -1...1, using: &random) * 10_000 * decay).rounded()))
    }
  }

  @Test("counts a typist's clicks in a room's quiet, and none in a vowel")
  func countsClicks() {
    var random = Signal.Random(seed: 11)
    var typing = Signal.whiteNoise(0.1, level: -60, random: &random)
    for _ in 0..<6 { typing += click(random: &random) + Signal.whiteNoise(0.15, level: -60, random: &random) }
    #expect(Declicker.clickOnsets(typing) == 6)
    let word = Signal.whiteNoise(0.2, level: -60, random: &random) + vowel(seconds: 0.3) + Signal.whiteNoise(0.2, level: -60, random: &random)
    #expect(Declicker.clickOnsets(word) == 0)
  }

  @Test("an utterance with a typist's clicks has them brought down; one without is left as it is")
  func cleansOnlyTyping() {
    var random = Signal.Random(seed: 12)
    let word = Signal.whiteNoise(0.2, level: -60, random: &random) + vowel(seconds: 0.3) + Signal.whiteNoise(0.2, level: -60, random: &random)
    #expect(Declicker.cleaned(word) == word)
    var typed = Signal.whiteNoise(0.1, level: -60, random: &random)
    var clickStarts: [Int] = []
    for _ in 0..<Declicker.typingOnsets {
      clickStarts.append(typed.count)
      typed += click(random: &random) + Signal.whiteNoise(0.15, level: -60, random: &random)
    }
    let cleaned = Declicker.cleaned(typed + word)
    let power = { (samples: ArraySlice<Int16>) in samples.reduce(0.0) { $0 + Double($1) * Double($1) } }
    for start in clickStarts {
      // The click's first 5 ms, 20 dB down or more.
      let range = start..<(start + 80)
      #expect(power(cleaned[range]) * 100 <= power(typed[range]))
    }
  }
}
