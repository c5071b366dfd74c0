import Foundation
import Testing

@testable import DirectMeCore

/// `seconds` of a 16 kHz signal: a voice-like tone (200 Hz and its harmonics up to 2 kHz)
/// between `from` and `to` seconds, at `level` (peak of the fundamental), plus white noise of
/// `noise` amplitude everywhere.
private func voiceInNoise(seconds: Double, from: Double, to: Double, level: Double, noise: Double, seed: UInt64 = 5) -> (
  mixed: [Int16], clean: [Double]
) {
  var random = Signal.Random(seed: seed)
  let count = Int(seconds * 16_000)
  var mixed: [Int16] = []
  var clean: [Double] = []
  for n in 0..<count {
    let t = Double(n) / 16_000
    var voice = 0.0
    if t >= from && t < to {
      for harmonic in 1...10 { voice += level / Double(harmonic) * sin(2 * .pi * 200 * Double(harmonic) * t) }
    }
    clean.append(voice)
    mixed.append(Int16(clamping: Int(voice + Double.random(in: -noise...noise, using: &random))))
  }
  return (mixed, clean)
}

/// Signal-to-noise ratio (dB) of `samples` against the known clean signal.
private func snr(_ samples: [Int16], clean: [Double]) -> Double {
  var signal = 0.0
  var error = 0.0
  for (sample, truth) in zip(samples, clean) {
    signal += truth * truth
    error += (Double(sample) - truth) * (Double(sample) - truth)
  }
  return 10 * log10(signal / error)
}

@Suite("Denoiser")
struct DenoiserTests {
  @Test("the FFT and its inverse give back the signal, times its length")
  func roundTrip() {
    let fft = FFT(size: 16)
    let original = (0..<16).map { sin(Double($0) * 0.7) + Double($0 % 3) }
    var re = original
    var im = [Double](repeating: 0, count: 16)
    fft.transform(&re, &im, inverse: false)
    // Bin 0 is the sum of the samples.
    #expect(abs(re[0] - original.reduce(0, +)) < 1e-9)
    fft.transform(&re, &im, inverse: true)
    for (value, expected) in zip(re, original) { #expect(abs(value / 16 - expected) < 1e-9) }
    #expect(im.allSatisfy { abs($0) < 1e-9 })
  }

  @Test("a voice in steady hiss comes out clearer, the same length")
  func cleansHiss() {
    let (mixed, clean) = voiceInNoise(seconds: 1, from: 0.3, to: 0.7, level: 3000, noise: 3000)
    let denoiser = Denoiser()
    let applies = denoiser.applies(to: mixed)
    #expect(applies)
    let cleaned = denoiser.cleaned(mixed)
    #expect(cleaned.count == mixed.count)
    let before = snr(mixed, clean: clean)
    let after = snr(cleaned, clean: clean)
    #expect(after > before + 5, "SNR \(before) dB -> \(after) dB")
  }

  @Test("a clean recording is left exactly as it is")
  func leavesCleanAudio() {
    let (mixed, _) = voiceInNoise(seconds: 1, from: 0.3, to: 0.7, level: 8000, noise: 3)
    let denoiser = Denoiser()
    let applies = denoiser.applies(to: mixed)
    let unchanged = denoiser.cleaned(mixed) == mixed
    #expect(!applies)
    #expect(unchanged)
  }

  @Test("a clean recording with a microphone's DC offset is left as it is")
  func leavesCleanAudioWithOffset() {
    // A cheap sound card's offset of a tenth of full scale under a clean voice: steady and
    // loud, but no noise to take out (the offset alone put the quiet frames at -20 dBFS).
    let (mixed, _) = voiceInNoise(seconds: 1, from: 0.3, to: 0.7, level: 8000, noise: 3)
    let offset = mixed.map { Int16(clamping: Int($0) + 3277) }
    let denoiser = Denoiser()
    let applies = denoiser.applies(to: offset)
    let unchanged = denoiser.cleaned(offset) == offset
    #expect(!applies)
    #expect(unchanged)
    // ...while hiss under the same offset is still taken out.
    let (noisy, _) = voiceInNoise(seconds: 1, from: 0.3, to: 0.7, level: 3000, noise: 3000)
    let appliesToNoise = denoiser.applies(to: noisy.map { Int16(clamping: Int($0) + 3277) })
    #expect(appliesToNoise)
  }

  @Test("wavering noise (babble rising and falling) is left alone")
  func leavesBabble() {
    // Hiss whose level swings over 14 dB four times a second, under the same voice.
    var random = Signal.Random(seed: 8)
    let (_, clean) = voiceInNoise(seconds: 1, from: 0.3, to: 0.7, level: 3000, noise: 0)
    let wavering = clean.enumerated().map { index, voice in
      let swing = 1000 * (1.5 + sin(2 * .pi * 4 * Double(index) / 16_000))
      return Int16(clamping: Int(voice + Double.random(in: -swing...swing, using: &random)))
    }
    let steadyOnly = Denoiser().applies(to: wavering)
    let anyNoise = Denoiser(steadiness: 100).applies(to: wavering)
    #expect(!steadyOnly)
    #expect(anyNoise)
  }

  @Test("audio too short to filter is returned as it is")
  func shortAudio() {
    let samples: [Int16] = [1, -2, 3, 400, -500]
    #expect(Denoiser().filtered(samples) == samples)
    #expect(Denoiser().cleaned([]) == [])
  }
}
