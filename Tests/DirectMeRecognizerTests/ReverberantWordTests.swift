import DirectMeCore
import Foundation
import Testing

@testable import DirectMeRecognizer

/// A vowel-like sound ("ah" gliding to `to` formants as it falls by `fall` dB), as samples with
/// 0.2 s of silence before and 0.8 s after.
private func vowel(seconds: Double, to: (Double, Double) = (700, 1_200), fall: Double = 0) -> [Int16] {
  var phase = 0.0
  let count = Int(seconds * 16_000)
  let values = (0..<count).map { index -> Double in
    let through = Double(index) / Double(count)
    let f1 = 700 + (to.0 - 700) * through
    let f2 = 1_200 + (to.1 - 1_200) * through
    phase += 2 * Double.pi * 140 / 16_000
    var value = 0.0
    for harmonic in 1..<50 {
      let frequency = Double(harmonic) * 140
      value += (exp(-pow((frequency - f1) / 150, 2)) + 0.5 * exp(-pow((frequency - f2) / 200, 2)) + 0.02) * sin(Double(harmonic) * phase)
    }
    return value * pow(10, -fall / 20 * through)
  }
  let top = values.map(abs).max() ?? 1
  return [Int16](repeating: 0, count: 3_200) + values.map { Int16($0 / top * 12_000) } + [Int16](repeating: 0, count: 12_800)
}

private func isReverberant(_ samples: [Int16], word: ClosedRange<Double>) -> Bool {
  var blocker = DCBlocker()
  let energies = Signal.frameEnergies(blocker.filter(samples), floor: 1e-2, wholeFrames: true)
  return PocketSphinxRecognizer.isReverberant(word, energies: energies, samples: samples)
}

@Suite("A command word drawn out by a room")
struct ReverberantWordTests {
  @Test("a vowel in a reverberant room is; the same vowel dry, and a cry that changes its vowel as it falls slowly, are not")
  func reverberantOrNot() {
    let dry = vowel(seconds: 0.25)
    var random = Signal.Random(seed: 5)
    // A large room (the bench's sox rooms ring for about 1.2 s).
    let room = Signal.reverberated(dry, rt60: 1.2, directToReverberant: 0, random: &random)
    // The loud part, then 0.5 s of the cry falling 30 dB while it glides to "ee": it falls as
    // slowly as the room's echo (0.33 s from 10 to 30 dB under its loudest), but changes its vowel.
    let ah = vowel(seconds: 0.25)
    let glide = vowel(seconds: 0.5, to: (300, 2_500), fall: 30)
    let cry = Array(ah[0..<(3_200 + 4_000)]) + Array(glide[3_200..<(3_200 + 8_000)]) + [Int16](repeating: 0, count: 12_800)
    let (inRoom, asSaid, asCried) = (isReverberant(room, word: 0.2...0.45), isReverberant(dry, word: 0.2...0.45), isReverberant(cry, word: 0.2...0.45))
    #expect(inRoom)
    #expect(!asSaid)
    #expect(!asCried)
  }
}
