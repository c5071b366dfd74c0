import DirectMeCore
import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeRecognizer

@Suite(
  "Warped front ends (vocal tract length normalization)", .serialized,
  .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"),
  .enabled(if: canSpeak, "needs flite and sox (scripts/setup.sh)"))
struct WarpTests {
  @Test("a warped front end changes what the final decoder hears, only while it is in place")
  func decoderWarp() throws {
    let folder = try TestSupport.temporaryFolder("warp-decoder")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("move-left.wav")
    try TestSupport.speak("move left", voice: voices[0], to: file)
    let samples = try TestSupport.samples(of: file)
    let decoder = try finalDecoder()
    try decoder.select(search: "garbage")
    let before = try #require(try decoder.decodeWhole(samples))
    let warped = try #require(try decoder.withWarp(1.19) { try decoder.decodeWhole(samples) })
    #expect(warped.score != before.score, "the same audio through a warped filterbank scores otherwise")
    #expect(try decoder.decodeWhole(samples) == before, "the decoder's own front end is back")
    #expect(try decoder.withWarp(1.19) { try decoder.decodeWhole(samples) } == warped, "a warp's front end is kept and starts afresh")
    #expect(try decoder.withWarp(1.0004) { try decoder.decodeWhole(samples) } == before, "1 (to thousandths) is the decoder's own")
    #expect(throws: PocketSphinxError.self) { try decoder.withWarp(0) { try decoder.decodeWhole(samples) } }
    #expect(try decoder.decodeWhole(samples) == before)
    // sphinxbase keeps the warp in globals and skips setting the same text again: a second
    // decoder (made without a warp, which sets them neutral) asking for the same warp was
    // given a neutral front end.
    let other = try finalDecoder()
    try other.select(search: "garbage")
    #expect(try other.withWarp(1.19) { try other.decodeWhole(samples) } == warped, "another decoder's 1.19 is warped as much")
  }

  @Test("a model folder's warp.json warps the final pass for voices beyond its dead zone, and says so in the result")
  func recognizerWarp() throws {
    let folder = try TestSupport.temporaryFolder("warp-model")
    defer { try? FileManager.default.removeItem(at: folder) }
    /// The shipped model's files, with `warp` as its warp.json (none when nil).
    func model(_ name: String, warp: VoiceWarp?) throws -> String {
      let model = folder.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
      for file in try FileManager.default.contentsOfDirectory(atPath: shippedModel) where file != VoiceWarp.fileName {
        try FileManager.default.createSymbolicLink(
          at: model.appendingPathComponent(file), withDestinationURL: URL(fileURLWithPath: shippedModel).appendingPathComponent(file))
      }
      try warp?.json().write(to: model.appendingPathComponent(VoiceWarp.fileName))
      return model.path
    }
    let spoken = folder.appendingPathComponent("left.wav")
    try TestSupport.speak("left", voice: voices[0], to: spoken)
    // A voice 300 cents lower, as a longer vocal tract gives it.
    let lower = folder.appendingPathComponent("left-lower.wav")
    _ = try TestSupport.run(["sox", "-R", spoken.path, lower.path, "pitch", "-300"])
    func heard(with model: String) throws -> StreamResult {
      var configuration = shippedConfiguration()
      configuration.acousticModel = model
      return try directions(in: lower, recognizer: try PocketSphinxRecognizer(configuration: configuration))
    }
    // A warp that hears every voice as 300 cents too low.
    let warped = try heard(with: try model("constant", warp: VoiceWarp(coefficients: [Double](repeating: 0, count: 39), intercept: -300)))
    #expect(!warped.utterances.isEmpty)
    #expect(
      warped.utterances.allSatisfy { $0.result.warp.map { abs($0 - pow(2, -300.0 / 1200)) < 1e-9 } ?? false },
      "\(warped.utterances.map(\.result.warp))")
    #expect(warped.directions == [.left], "\(warped.directions)")
    // Without a warp.json, voices are heard as they are.
    let plain = try heard(with: try model("plain", warp: nil))
    #expect(!plain.utterances.isEmpty && plain.utterances.allSatisfy { $0.result.warp == nil })
  }
}
