import DirectMeBench
import DirectMeCore
import Foundation
import Testing

@Suite("Latency corpus")
struct LatencyCorpusTests {
  /// A one-word clip: 0.3 s of silence, 0.5 s of a tone, 0.2 s of the same tone 12 dB down (a
  /// word's fading end), 0.3 s of silence.
  static let clip: [Int16] = {
    func tone(_ seconds: Double, amplitude: Double) -> [Int16] {
      (0..<Int(seconds * 16_000)).map { Int16(amplitude * sin(2 * .pi * 440 * Double($0) / 16_000)) }
    }
    let silence = [Int16](repeating: 0, count: 4_800)
    return silence + tone(0.5, amplitude: 8_000) + tone(0.2, amplitude: 8_000 * pow(10, -12.0 / 20)) + silence
  }()

  static func level(_ samples: ArraySlice<Int16>) -> Double {
    10 * log10(samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count) / (32_768.0 * 32_768.0))
  }

  @Test("commands over a background: one every gap from the lead on, at -20 dBFS over the background SNR dB under them")
  func overBackground() {
    var random = Signal.Random(seed: 3)
    let background = (name: "white", samples: Signal.Room.white.make(seconds: 30, seed: 5))
    let recording = TimedRecording.overBackground(
      of: [(id: "a", direction: .up, samples: Self.clip), (id: "b", direction: .left, samples: Self.clip)], background: background,
      snr: 10, random: &random)
    #expect(recording.samples.count == background.samples.count)
    // 8, 12, ..., 28 s: six words, each 1.3-s clip fitting before 30 s.
    #expect(recording.words.count == 6)
    for (index, word) in recording.words.enumerated() {
      let at = 8 + 4 * Double(index)
      #expect(abs(word.start - (at + 0.3)) < 0.011)
      // 15 dB under the loudest frame: the tail 12 dB down is part of the word.
      #expect(abs(word.end - (at + 1.0)) < 0.011)
    }
    // The speech part (frames within 25 dB of the loudest: the tone and its tail) at -20 dBFS
    // puts the tone at -18.65 dBFS (its tail 12 dB down weighs 20 of the part's 70 frames),
    // -18.3 with the background 10 dB under the part; the background alone at -30 dBFS.
    let first = Int(8.3 * 16_000)
    #expect(abs(Self.level(recording.samples[(first + 800)..<(first + 7_200)]) - (-18.3)) < 0.3)
    #expect(abs(Self.level(recording.samples[16_000..<(7 * 16_000)]) - (-30)) < 0.5)
  }

  @Test("at a low SNR, a word's fading end under the background is not part of it")
  func audibleEnd() {
    var random = Signal.Random(seed: 3)
    let background = (name: "white", samples: Signal.Room.white.make(seconds: 30, seed: 5))
    let recording = TimedRecording.overBackground(
      of: [(id: "a", direction: .up, samples: Self.clip)], background: background, snr: 5, count: 2, random: &random)
    #expect(recording.words.count == 2)
    // 10 dB under the loudest frame: the tail 12 dB down is not heard over the background.
    #expect(recording.words.allSatisfy { abs(($0.end - $0.start) - 0.5) < 0.011 })
  }

  @Test("the backgrounds: two recordings each of tap, bike, kitchen and pink, 30 s, different")
  func backgrounds() {
    let backgrounds = TimedRecording.backgrounds(seconds: 2)
    #expect(backgrounds.map(\.name) == ["tap-1", "tap-2", "bike-1", "bike-2", "kitchen-1", "kitchen-2", "pink-1", "pink-2"])
    #expect(backgrounds.allSatisfy { $0.samples.count == 32_000 })
    #expect(backgrounds[0].samples != backgrounds[1].samples)
  }
}
