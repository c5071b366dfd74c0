import Foundation
import Testing

@testable import DirectMeCore

/// A 0.2 s burst of noise (broadband, so a room's response averages over many frequencies) after
/// 0.2 s of silence, then 0.4 s of silence (short: the convolution is slow in a debug build).
private func burst() -> [Int16] {
  var random = Signal.Random(seed: 9)
  return (0..<12_800).map { n in
    let t = Double(n) / 16_000
    let noise = Int16(Double.random(in: -6000...6000, using: &random))
    return t >= 0.2 && t < 0.4 ? noise : 0
  }
}

/// Mean power of `samples[range]` (seconds), in dB.
private func level(_ samples: [Int16], from: Double, to: Double) -> Double {
  let part = samples[Int(from * 16_000)..<min(samples.count, Int(to * 16_000))]
  let power = part.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, part.count))
  return 10 * log10(max(power, 1e-9))
}

@Suite("Reverberation")
struct ReverberationTests {
  @Test("a room's echo fills the silence after the sound, longer for a longer decay, and keeps the sound's power")
  func tail() {
    var random = Signal.Random(seed: 3)
    let dry = burst()
    let small = Signal.reverberated(dry, rt60: 0.25, directToReverberant: 4, random: &random)
    let large = Signal.reverberated(dry, rt60: 0.6, directToReverberant: 4, random: &random)
    // The tail is padded on.
    #expect(small.count == dry.count + 2000)
    #expect(large.count == dry.count + 4800)
    // Silence after the burst (0.45-0.6 s) holds the echo: far louder than the dry silence, and
    // louder in the larger room; later the small room has died away more than the large.
    #expect(level(dry, from: 0.45, to: 0.6) < -80)
    #expect(level(small, from: 0.45, to: 0.6) > 20)
    #expect(level(large, from: 0.45, to: 0.6) > level(small, from: 0.45, to: 0.6) + 3)
    #expect(level(small, from: 0.6, to: 0.75) < level(small, from: 0.4, to: 0.5) - 15)
    // Nothing comes before the sound (the response is causal).
    #expect(level(large, from: 0, to: 0.19) < -80)
    // The speech keeps its power (within 1 dB).
    #expect(abs(10 * log10(Signal.speechPower(large) / Signal.speechPower(dry))) < 1)
  }

  @Test("a stronger direct sound leaves a weaker tail, and no decay time leaves the sound as it was")
  func ratio() {
    var random = Signal.Random(seed: 4)
    let dry = burst()
    let near = Signal.reverberated(dry, rt60: 0.4, directToReverberant: 8, random: &random)
    let far = Signal.reverberated(dry, rt60: 0.4, directToReverberant: 0, random: &random)
    // The tail against the sound itself (both are scaled to the same speech power).
    let tail = { (samples: [Int16]) in level(samples, from: 0.45, to: 0.6) - level(samples, from: 0.2, to: 0.4) }
    #expect(tail(far) > tail(near) + 4)
    #expect(Signal.reverberated(dry, rt60: 0, directToReverberant: 0, random: &random) == dry)
  }
}
