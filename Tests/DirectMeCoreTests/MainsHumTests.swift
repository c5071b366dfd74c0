import Foundation
import Testing

@testable import DirectMeCore

/// One second: 0.25 s of silence, a vowel-like harmonic complex whose pitch glides from
/// `low` to `low` + 30 Hz for 0.5 s, then silence.
private func voice(from low: Double = 110) -> [Int16] {
  var phase = 0.0
  return (0..<16_000).map { n in
    let t = Double(n) / 16_000
    guard t >= 0.25 && t < 0.75 else { return 0 }
    let f0 = low + 30 * (t - 0.25) / 0.5
    phase += 2 * Double.pi * f0 / 16_000
    let value = (1...12).reduce(0.0) { $0 + sin(Double($1) * phase) / Double($1) }
    return Int16((3_000 * value).rounded())
  }
}

/// Mean power of `samples[range]`, dB.
private func power(_ samples: [Double]) -> Double {
  10 * log10(max(1e-9, samples.reduce(0) { $0 + $1 * $1 } / Double(max(1, samples.count))))
}

@Test("a mains hum under a voice is found, 50 or 60 Hz, with the harmonics it has")
func humIsFound() throws {
  for frequency in [50.0, 60.0] {
    // `Signal.mainsHum` has the 2nd, 3rd and 5th harmonics: under a high voice all stand
    // out; under a low one (110-140 Hz) the 2nd is among the voice's own.
    let high = try #require(MainsHum.hum(in: Signal.hummed(voice(from: 190), frequency: frequency, snr: 10, phase: 0.7)))
    #expect(high.frequency == frequency)
    #expect(Set(high.harmonics).isSuperset(of: [1, 2, 3, 5]), "\(high.harmonics)")
    let low = try #require(MainsHum.hum(in: Signal.hummed(voice(), frequency: frequency, snr: 10, phase: 0.7)))
    #expect(low.frequency == frequency)
    #expect(Set(low.harmonics).isSuperset(of: [1, 3]), "\(low.harmonics)")
  }
}

@Test("taken out, the hum falls by more than 25 dB from the first sample on, and the voice stays")
func humIsRemoved() throws {
  let clean = voice(from: 190)
  let hummed = Signal.hummed(clean, frequency: 50, snr: 10, phase: 0.7)
  let hum = try #require(MainsHum.hum(in: hummed))
  let removed = MainsHum.removed(hummed, hum: hum)
  // The silences before and after the voice: what is left of the hum, at the start too.
  for silence in [0..<3_200, 13_000..<16_000] {
    let before = power(silence.map { Double(hummed[$0]) })
    let after = power(silence.map { Double(removed[$0]) })
    #expect(before - after > 25, "\(silence): hum \(before) dB -> \(after) dB")
  }
  // The voice loses little: its power within 1.5 dB.
  let vowel = 5_000..<11_000
  let voiced = power(vowel.map { Double(clean[$0]) })
  let kept = power(vowel.map { Double(removed[$0]) })
  #expect(abs(voiced - kept) < 1.5, "voice \(voiced) dB -> \(kept) dB")
}

@Test("no hum is found in a voice alone, a 150 Hz tone, noise, a faint hum or too short a stretch")
func noHum() {
  #expect(MainsHum.hum(in: voice()) == nil)
  let tone = (0..<16_000).map { Int16((8_000 * sin(2 * Double.pi * 150 * Double($0) / 16_000)).rounded()) }
  #expect(MainsHum.hum(in: tone) == nil)
  var random = Signal.Random(seed: 3)
  let noise = (0..<16_000).map { _ in Int16(Double.random(in: -4_000...4_000, using: &random)) }
  #expect(MainsHum.hum(in: noise) == nil)
  // 45 dB under the voice: fainter than `relevance`, it costs nothing.
  #expect(MainsHum.hum(in: Signal.hummed(voice(), frequency: 50, snr: 45)) == nil)
  #expect(MainsHum.hum(in: Array(Signal.hummed(voice(), frequency: 50, snr: 10).prefix(6_000))) == nil)
  // Audio without a hum comes back as it was.
  #expect(MainsHum.removed(from: voice()) == voice())
}
