import Foundation
import Testing

@testable import DirectMeCore

@Suite("Speech against other sounds (the sound class)")
struct SoundClassTests {
  @Test("features: 38 per 10-ms frame of a stretch, none for a stretch shorter than a window; louder frames have more energy")
  func features() {
    let tone = (0..<8_000).map { Int16(8_000 * sin(2 * Double.pi * 440 * Double($0) / 16_000) * Double($0) / 8_000) }
    let (features, energies) = SoundClass.features(tone, from: 0, to: tone.count)
    #expect(features.count == 1 + (8_000 - 400) / 160 && energies.count == features.count)
    #expect(features.allSatisfy { $0.count == SoundClass.dimensions })
    #expect(energies.last! > energies[1] + 20, "a rising tone's energy: \(energies[1]) -> \(energies.last!)")
    // A stretch reaching past the samples is cut to them; one shorter than a window has no frame.
    #expect(SoundClass.features(tone, from: 7_800, to: 9_000).features.isEmpty)
    #expect(SoundClass.features(tone, from: -100, to: 400).features.count == 1)
  }

  /// A one-component mixture over every dimension at `mean`, variance 1.
  func mixture(at mean: Double) -> SoundClass.Mixture {
    .init(weights: [1], means: [Array(repeating: mean, count: 38)], variances: [Array(repeating: 1, count: 38)])
  }

  @Test("likeness: the mean log-likelihood ratio over the loud frames, positive nearer the speech mixture")
  func likeness() throws {
    let tone = (0..<8_000).map { Int16(8_000 * sin(2 * Double.pi * 440 * Double($0) / 16_000)) }
    let (features, _) = SoundClass.features(tone, from: 0, to: tone.count)
    // Standardized so that the tone's mean lies at 0: a speech mixture there, sounds far off.
    let center = (0..<38).map { j in features.reduce(0) { $0 + $1[j] } / Double(features.count) }
    let near = SoundClass(center: center, scale: Array(repeating: 1e3, count: 38), speech: mixture(at: 0), sounds: mixture(at: 3))
    let far = SoundClass(center: center, scale: Array(repeating: 1e3, count: 38), speech: mixture(at: 3), sounds: mixture(at: 0))
    let nearLikeness = try #require(near.likeness(of: tone, from: 0, to: tone.count))
    let farLikeness = try #require(far.likeness(of: tone, from: 0, to: tone.count))
    // Each frame's ratio is 0.5 * 38 * (9 - 2 * 3 * x) for x the frame's (tiny) standardized values.
    #expect(abs(nearLikeness - 171) < 5 && abs(farLikeness + 171) < 5, "\(nearLikeness), \(farLikeness)")
    #expect(near.likeness(of: tone, from: 0, to: 100) == nil)
  }

  @Test("a file of the wrong shape is refused in one line naming it")
  func badFile() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sound-class-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var wrong = SoundClass(center: Array(repeating: 0, count: 38), scale: Array(repeating: 1, count: 38), speech: mixture(at: 0), sounds: mixture(at: 1))
    wrong.sounds.variances[0][5] = 0
    let path = folder.appendingPathComponent(SoundClass.fileName).path
    try wrong.json().write(to: URL(fileURLWithPath: path))
    #expect(throws: (any Error).self) { try SoundClass.load(path) }
    do {
      _ = try SoundClass.load(path)
    } catch {
      #expect("\(error)".contains("sound-class.json: not a sound class (sounds: a variance is not positive)"), "\(error)")
    }
    // A model folder without the file has no sound class.
    #expect(try SoundClass.load(modelFolder: folder.appendingPathComponent("none").path) == nil)
  }

  @Test("the gate refuses a command word less like speech than its bound asks, in a quiet room; amid noise or without a bound it asks nothing")
  func gate() {
    var gate = Detector.Gate(minimumVoiced: 0.03, minimumDynamicRange: 6)
    let evidence = SignalEvidence(voiced: 0.2, longestVoiced: 0.15, dynamicRange: 30)
    var word = WordSegment(word: "left", start: 0, end: 0.3, margin: 20, voiced: 0.1)
    word.speechLikeness = -3
    #expect(gate.passes(evidence, word: word))
    gate.minimumSpeechLikeness = -1.5
    #expect(gate.refusal(evidence, word: word) == .unlikeVoice(.likeASound))
    // Amid noise (an utterance ranging under `speechLikenessRange`) it is not asked.
    let noisy = SignalEvidence(voiced: 0.2, longestVoiced: 0.15, dynamicRange: 15)
    #expect(gate.passes(noisy, word: word))
    word.speechLikeness = -1
    #expect(gate.passes(evidence, word: word))
    word.speechLikeness = nil
    #expect(gate.passes(evidence, word: word))
  }

  @Test("a word with a bound of its own is held to it, the others to the common one")
  func wordBound() {
    var gate = Detector.Gate(minimumVoiced: 0.03, minimumDynamicRange: 6, minimumSpeechLikeness: -1.5)
    gate.minimumSpeechLikenessByWord = ["up": 0]
    let evidence = SignalEvidence(voiced: 0.2, longestVoiced: 0.15, dynamicRange: 30)
    var up = WordSegment(word: "up", start: 0, end: 0.3, margin: 20, voiced: 0.1)
    up.speechLikeness = -0.5
    var left = up
    left.word = "left"
    #expect(gate.refusal(evidence, word: up) == .unlikeVoice(.likeASound))
    #expect(gate.passes(evidence, word: left))
    left.speechLikeness = -2
    #expect(gate.refusal(evidence, word: left) == .unlikeVoice(.likeASound))
    up.speechLikeness = 0.2
    #expect(gate.passes(evidence, word: up))
    // Read from and written to detector.json.
    var detector = Detector.untrained
    detector.gate = gate
    let decoded = try? JSONDecoder().decode(Detector.self, from: JSONEncoder().encode(detector))
    #expect(decoded?.gate.minimumSpeechLikeness(of: "up") == 0 && decoded?.gate.minimumSpeechLikeness(of: "down") == -1.5)
  }
}
