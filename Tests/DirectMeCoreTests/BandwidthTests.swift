import Foundation
import Testing

@testable import DirectMeCore

/// One second: 0.25 s of a faint dither (as a resampler writing 16-bit samples leaves), a
/// voice of harmonics of 150 Hz up to `top` Hz for 0.5 s over it (faded in and out over
/// 50 ms: a sudden start is a click, heard at every frequency), then the dither again.
private func voice(upTo top: Double, dither: Bool = true) -> [Int16] {
  var random = Signal.Random(seed: 3)
  var phase = 0.0
  return (0..<16_000).map { n in
    let t = Double(n) / 16_000
    let faint = dither ? Double(Int(random.next() % 3) - 1) : 0
    guard t >= 0.25 && t < 0.75 else { return Int16(faint) }
    phase += 2 * Double.pi * 150 / 16_000
    let fade = min(1, (t - 0.25) / 0.05, (0.75 - t) / 0.05)
    let value = (0.5 - 0.5 * cos(Double.pi * fade)) * stride(from: 1, through: Int(top / 150), by: 1).reduce(0.0) { $0 + sin(Double($1) * phase) / Double($1).squareRoot() }
    return Int16((1_000 * value + faint).rounded())
  }
}

@Test("speech with nothing above 4 kHz is narrowband, with a dither floor or with digital silence")
func narrowbandIsFound() throws {
  let dithered = try #require(Bandwidth.of(voice(upTo: 3_700)))
  #expect(dithered.isNarrowband, "\(dithered)")
  #expect(dithered.rise < 12, "\(dithered)")
  let silent = try #require(Bandwidth.of(voice(upTo: 3_700, dither: false)))
  #expect(silent.isNarrowband, "\(silent)")
}

@Test("speech reaching 7 kHz, and white noise, are not narrowband; a clip shorter than a window has no bandwidth")
func widebandIsNot() throws {
  let wide = try #require(Bandwidth.of(voice(upTo: 7_000)))
  #expect(!wide.isNarrowband, "\(wide)")
  #expect(wide.edge > -20, "\(wide)")
  var random = Signal.Random(seed: 5)
  let noise = try #require(Bandwidth.of(Signal.whiteNoise(1, level: -30, random: &random)))
  #expect(!noise.isNarrowband, "\(noise)")
  #expect(Bandwidth.of([Int16](repeating: 100, count: 400)) == nil)
}
