import Foundation
import Testing

@testable import DirectMeCore

/// `seconds` of a 16 kHz signal: a voice-like tone (200 Hz and its harmonics up to 2 kHz)
/// between `from` and `to` seconds at `level`, over white noise of `noise` amplitude.
private func voice(over noise: Double, level: Double, seconds: Double = 1, from: Double = 0.4, to: Double = 0.6) -> [Int16] {
  var random = Signal.Random(seed: 11)
  return (0..<Int(seconds * 16_000)).map { n in
    let t = Double(n) / 16_000
    var sample = Double.random(in: -noise...noise, using: &random)
    if t >= from && t < to {
      for harmonic in 1...10 { sample += level / Double(harmonic) * sin(2 * .pi * 200 * Double(harmonic) * t) }
    }
    return Int16(clamping: Int(sample.rounded()))
  }
}

/// The mean level (dB) of 10-ms frames `frames` of `samples`.
private func level(_ samples: [Int16], frames: Range<Int>) -> Double {
  let energies = Signal.frameEnergies(samples)
  return frames.map { energies[$0] }.reduce(0, +) / Double(frames.count)
}

@Suite("Expander")
struct ExpanderTests {
  @Test("a command standing about 25 dB over its background keeps its level while the background drops")
  func turnsTheBackgroundDown() throws {
    let noisy = voice(over: 300, level: 4000)
    let expander = Expander()
    let energies = Signal.frameEnergies(noisy, floor: 1e-2)
    let range = energies.max()! - energies.sorted()[energies.count / 10]
    try #require(expander.ranges.contains(range), "the test signal ranges \(range) dB")
    let expanded = expander.expanded(noisy)
    #expect(expanded.count == noisy.count)
    // The voice (frames 42-58, away from its edges) as it was, within a tenth of a dB.
    let voiceBefore = level(noisy, frames: 42..<58)
    let voiceAfter = level(expanded, frames: 42..<58)
    #expect(abs(voiceAfter - voiceBefore) < 0.1, "voice \(voiceBefore) -> \(voiceAfter) dB")
    // The background, far from the voice, down by the deepest attenuation (it lies more
    // than 10 dB under the line, 9 dB under the loudest frame).
    let backgroundBefore = level(noisy, frames: 5..<30)
    let backgroundAfter = level(expanded, frames: 5..<30)
    #expect(abs(backgroundBefore - backgroundAfter - expander.deepest) < 0.5, "background \(backgroundBefore) -> \(backgroundAfter) dB")
  }

  @Test("the frames just before the command keep (nearly) their level: its onset is not cut")
  func holdsTheEdges() {
    let noisy = voice(over: 300, level: 4000)
    let expanded = Expander().expanded(noisy)
    // The voice starts at 0.4 s (frame 40). Frame 39 keeps its level; frame 38, two frames
    // (20 ms) before, is held at its centre, and its first half slides from frame 37's gain:
    // turned down by far less than the background's 10 dB.
    let last = (before: level(noisy, frames: 39..<40), after: level(expanded, frames: 39..<40))
    #expect(abs(last.after - last.before) < 0.5, "frame 39: \(last.before) -> \(last.after) dB")
    let held = (before: level(noisy, frames: 38..<39), after: level(expanded, frames: 38..<39))
    #expect(held.before - held.after < 3, "frame 38: \(held.before) -> \(held.after) dB")
  }

  @Test("a clean recording, and a command no louder than the voices or noise around it, are left exactly as they are")
  func leavesOtherRangesAlone() {
    let expander = Expander()
    let clean = voice(over: 3, level: 4000)
    let cleanUnchanged = expander.expanded(clean) == clean
    #expect(cleanUnchanged)
    let buried = voice(over: 2500, level: 4000)
    let buriedUnchanged = expander.expanded(buried) == buried
    #expect(buriedUnchanged)
    // Four frames (two of noise, two of the voice, ranging enough): too short to tell a
    // background.
    let blip = Array(voice(over: 300, level: 4000)[6_080..<6_720])
    let blipUnchanged = expander.expanded(blip) == blip
    #expect(blipUnchanged)
  }

  @Test("the condition decides, and is asked only of an utterance in range")
  func asksItsCondition() {
    let expander = Expander()
    let noisy = voice(over: 300, level: 4000)
    let refused = expander.expanded(noisy) { false } == noisy
    #expect(refused)
    var asked = 0
    let allowed = expander.expanded(noisy) { asked += 1; return true } != noisy
    #expect(allowed && asked == 1)
    let clean = voice(over: 3, level: 4000)
    let cleanUnchanged = expander.expanded(clean) { asked += 1; return true } == clean
    #expect(cleanUnchanged && asked == 1, "a clean recording's condition asked")
  }

  @Test("each frame's gain follows the expansion line")
  func gains() throws {
    let expander = Expander(below: 9, ratio: 2, deepest: 10, ranges: 16..<30)
    // A loudest frame at -10 dB and a background at -30 dB: range 20 dB.
    let energies = [Double](repeating: -30, count: 20) + [-10] + [Double](repeating: -30, count: 20) + [-22]
      + [Double](repeating: -30, count: 20)
    let gains = try #require(expander.frameGains(energies))
    func dB(_ gain: Double) -> Double { 20 * log10(gain) }
    // Within two frames of the loudest: its level, no attenuation.
    #expect(abs(dB(gains[18])) < 1e-9 && abs(dB(gains[22])) < 1e-9)
    // -30 dB lies 11 dB under the line (-19): turned down by 11 dB, held at 10.
    #expect(abs(dB(gains[10]) + 10) < 1e-9)
    // -22 dB lies 3 dB under the line: turned down by 3 dB (ratio 2).
    #expect(abs(dB(gains[41]) + 3) < 1e-9)
    // Ranging 35 dB: not expanded.
    #expect(expander.frameGains(energies.map { $0 == -10 ? 5 : $0 }) == nil)
  }
}
