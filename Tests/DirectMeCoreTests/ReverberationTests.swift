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

@Test("an overdriven microphone clips the peaks flat at full scale and makes the rest louder by one gain")
func overdrivenClipsPeaksOnly() {
  // A 200 Hz tone at 4,000 that swells to 16,000: 6 dB of overdrive sets the gain to about 4.1.
  let tone = (0..<16_000).map { index in
    Int16((index < 8_000 ? 4_000.0 : 16_000.0) * sin(2 * Double.pi * 200 * Double(index) / 16_000))
  }
  let loud = Signal.overdriven(tone, by: 6)
  let gain = pow(10, 6.0 / 20) * 32767 / 16_000
  #expect(loud.count == tone.count)
  // The quiet part: louder by the gain, nowhere near the rail.
  for index in stride(from: 0, to: 8_000, by: 37) {
    #expect(abs(Double(loud[index]) - Double(tone[index]) * gain) <= 1)
  }
  // The loud part: flat at full scale wherever the gain would carry it past.
  let railed = loud[8_000...].count { $0 == Int16.max || $0 == Int16.min }
  let past = tone[8_000...].count { abs(Double($0) * gain) >= 32_767.5 }
  #expect(railed >= past && past > 3_000)
  #expect(Signal.overdriven([Int16](repeating: 0, count: 100), by: 6) == [Int16](repeating: 0, count: 100))
  // Drawn amounts stay in the range: the peak always ends on the rail.
  var random = Signal.Random(seed: 5)
  for _ in 0..<5 {
    let copy = Signal.overdrivenSomehow(tone, random: &random)
    #expect(copy.contains(Int16.max) && copy[..<8_000].allSatisfy { abs(Int($0)) < 32_767 })
  }
}

@Test("the DC blocker takes a constant offset out and leaves a voice's band as it was")
func dcBlockerRemovesOffsetOnly() {
  // A 150 Hz tone at 8,000 on an offset of 3,000, fed in chunks of 160 as a stream is.
  let tone = (0..<16_000).map { 8_000 * sin(2 * Double.pi * 150 * Double($0) / 16_000) }
  let input = tone.map { Int16(($0 + 3_000).rounded()) }
  var blocker = DCBlocker()
  var output: [Int16] = []
  for start in stride(from: 0, to: input.count, by: 160) {
    output += blocker.filter(Array(input[start..<min(input.count, start + 160)]))
  }
  let settled = output[4_000...]  // after a quarter of a second
  let mean = settled.reduce(0.0) { $0 + Double($1) } / Double(settled.count)
  #expect(abs(mean) < 30, "offset left: \(mean)")
  let rms = (settled.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(settled.count)).squareRoot()
  #expect(abs(20 * log10(rms / (8_000 / 2.0.squareRoot()))) < 0.1, "the tone's level moved: \(rms)")
  // An offset alone gives silence from the first sample on.
  var fresh = DCBlocker()
  #expect(fresh.filter([Int16](repeating: 3_000, count: 320)) == [Int16](repeating: 0, count: 320))
}
