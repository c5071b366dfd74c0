import DirectMeCore
import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeRecognizer

@Suite("Voice features")
struct VoiceFeaturesTests {
  @Test("frames of digital silence are left out of the routing statistic; quiet noise is not")
  func digitalSilence() {
    // Frames every 160 samples, each over a 410-sample window: 0 and 1 see only zeros, frame 2's
    // window reaches the noise at 700, and a sample of 1 is still silence (one step of zero).
    var samples = [Int16](repeating: 0, count: 1600)
    samples[5] = 1
    samples[700] = -2
    let cepstra = (0..<8).map { [Float($0)] }
    #expect(VoiceFeatures.sounding(cepstra, of: samples).map(\.[0]) == [2, 3, 4])
    #expect(VoiceFeatures.sounding(cepstra, of: [Int16](repeating: 3, count: 1600)).count == 8)
  }

  @Test(
    "a recording's cepstra are the same whatever the front end read before it",
    .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"))
  func noHistory() throws {
    // The front end's noise estimate (-remove_noise) went on from one recording to the next:
    // 2,151 of 13,179 routing references changed with the order they were read in.
    var random = Signal.Random(seed: 11)
    let loud = Signal.whiteNoise(1, level: -20, random: &random)
    var voice = Signal.silence(0.2) + Signal.tone(0.4, frequency: 220, level: -25) + Signal.silence(0.2)
    voice = zip(voice, Signal.whiteNoise(0.8, level: -60, random: &random)).map { Int16(clamping: Int($0) + Int($1)) }
    let features = try VoiceFeatures(model: TestSupport.shippedModel.path)
    func largestDifference(_ a: [[Float]], _ b: [[Float]]) -> Float {
      a.count == b.count ? zip(a, b).map { zip($0, $1).map { abs($0 - $1) }.max() ?? 0 }.max() ?? 0 : .infinity
    }
    let first = features.cepstra(voice)
    _ = features.cepstra(loud)
    #expect(!first.isEmpty)
    // Before: c0 differed by 4 units in the first frames.
    #expect(largestDifference(features.cepstra(voice), first) == 0)
    #expect(largestDifference(try VoiceFeatures(model: TestSupport.shippedModel.path).cepstra(voice), first) == 0)
  }

  @Test(
    "a word padded with digital silence changes as fast as the word alone",
    .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"),
    .enabled(if: canSpeak, "needs flite and sox (scripts/setup.sh)"))
  func paddedWord() throws {
    let folder = try TestSupport.temporaryFolder("voicefeatures")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("word.wav")
    try TestSupport.speak("left", voice: voices[0], to: file)
    let word = Signal.trimmed(try TestSupport.samples(of: file))
    let features = try VoiceFeatures(model: TestSupport.shippedModel.path)
    let alone = try #require(features.routingStatistic(word))
    let padded = Signal.silence(0.5) + word + Signal.silence(0.5)
    let joined = try #require(features.routingStatistic(padded))
    // The last number is how fast the spectrum changes from frame to frame: with the silent
    // frames counted (each the same as the one before) a second of padding halved it.
    #expect(abs(joined[24] - alone[24]) < 0.1 * alone[24], "alone \(alone[24]), padded \(joined[24])")
    let counted = try #require(VoiceStatistic.routing(features.cepstra(padded)))
    #expect(counted[24] < 0.8 * alone[24], "the padding's frames do slow the statistic when counted")
  }
}
