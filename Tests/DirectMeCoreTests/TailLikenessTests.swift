import Foundation
import Testing

@testable import DirectMeCore

/// A vowel-like sound: harmonics of `pitch` Hz shaped by two formants, each formant moving
/// linearly from its first value to its second over the sound, the level following `gain`
/// (0-1 of the time through -> linear amplitude).
func formantSound(
  seconds: Double, pitch: Double = 140, first: (Double, Double), second: (Double, Double),
  gain: (Double) -> Double = { _ in 1 }
) -> [Double] {
  let count = Int(seconds * 16_000)
  var phase = 0.0
  return (0..<count).map { index in
    let through = Double(index) / Double(count)
    let f1 = first.0 + (first.1 - first.0) * through
    let f2 = second.0 + (second.1 - second.0) * through
    phase += 2 * Double.pi * pitch / 16_000
    var value = 0.0
    var harmonic = 1.0
    while harmonic * pitch < 7_000 {
      let frequency = harmonic * pitch
      let weight = exp(-pow((frequency - f1) / 150, 2)) + 0.5 * exp(-pow((frequency - f2) / 200, 2)) + 0.02
      value += weight * sin(harmonic * phase)
      harmonic += 1
    }
    return value * gain(through)
  }
}

/// `values` scaled to a peak of `peak`, as samples, with `before` and `after` seconds of silence.
func samples(_ values: [Double], peak: Double = 12_000, before: Double = 0.2, after: Double = 0.8) -> [Int16] {
  let top = values.map(abs).max() ?? 1
  return [Int16](repeating: 0, count: Int(before * 16_000)) + values.map { Int16($0 / top * peak) }
    + [Int16](repeating: 0, count: Int(after * 16_000))
}

@Suite("The likeness of a sound's fall to its loud part")
struct TailLikenessTests {
  @Test("a room's echo keeps the vowel's spectrum; a cry that changes its vowel as it dies away does not")
  func reverberationAgainstAChangingCry() throws {
    // "ah" (700 / 1,200 Hz) for 0.25 s, starting at 0.2 s: frames 20-45.
    let ah = samples(formantSound(seconds: 0.25, first: (700, 700), second: (1_200, 1_200)))
    var random = Signal.Random(seed: 5)
    let room = Signal.reverberated(ah, rt60: 0.8, directToReverberant: 0, random: &random)
    let echo = try #require(SignalEvidence.tailLikeness(loud: 30..<45, tail: 47..<75, samples: room))
    // The same loud part, then 0.3 s more of the cry gliding to "ee" (300 / 2,500 Hz) and
    // falling 30 dB.
    let cry = samples(
      formantSound(seconds: 0.25, first: (700, 700), second: (1_200, 1_200))
        + formantSound(seconds: 0.3, first: (700, 300), second: (1_200, 2_500), gain: { pow(10, -1.5 * $0) }))
    let glide = try #require(SignalEvidence.tailLikeness(loud: 30..<45, tail: 47..<75, samples: cry))
    #expect(echo >= 0.78, "the echo's likeness \(echo)")
    #expect(glide < 0.5, "the gliding cry's likeness \(glide)")
    // A tail of the loud part itself is as like it as can be.
    let same = try #require(SignalEvidence.tailLikeness(loud: 30..<45, tail: 30..<45, samples: ah))
    #expect(same > 0.95)
  }

  @Test("no loud frames or no tail: no likeness")
  func emptyRanges() {
    let ah = samples(formantSound(seconds: 0.25, first: (700, 700), second: (1_200, 1_200)))
    #expect(SignalEvidence.tailLikeness(loud: 30..<30, tail: 47..<75, samples: ah) == nil)
    #expect(SignalEvidence.tailLikeness(loud: 30..<45, tail: 47..<47, samples: ah) == nil)
    // Frames past the end read as silence, not as a crash.
    #expect(SignalEvidence.tailLikeness(loud: 30..<45, tail: 500..<510, samples: ah) != nil)
  }
}
