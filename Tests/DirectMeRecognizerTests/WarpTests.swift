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
    let warped = try #require(try decoder.withWarp(.inverseLinear(factor: 1.19)) { try decoder.decodeWhole(samples) })
    #expect(warped.score != before.score, "the same audio through a warped filterbank scores otherwise")
    #expect(try decoder.decodeWhole(samples) == before, "the decoder's own front end is back")
    #expect(try decoder.withWarp(.inverseLinear(factor: 1.19)) { try decoder.decodeWhole(samples) } == warped, "a warp's front end is kept and starts afresh")
    #expect(try decoder.withWarp(.inverseLinear(factor: 1.0004)) { try decoder.decodeWhole(samples) } == before, "1 (to thousandths) is the decoder's own")
    #expect(throws: PocketSphinxError.self) { try decoder.withWarp(.inverseLinear(factor: 0)) { try decoder.decodeWhole(samples) } }
    #expect(try decoder.decodeWhole(samples) == before)
    // sphinxbase keeps the warp in globals and skips setting the same text again: a second
    // decoder (made without a warp, which sets them neutral) asking for the same warp was
    // given a neutral front end.
    let other = try finalDecoder()
    try other.select(search: "garbage")
    #expect(try other.withWarp(.inverseLinear(factor: 1.19)) { try other.decodeWhole(samples) } == warped, "another decoder's 1.19 is warped as much")
    // The child's piecewise linear warp is another warp type, with globals of its own.
    let piecewise = VoiceWarp.FrontEndWarp.piecewiseLinear(slope: 1 / VoiceWarp.childFactor, cutoff: VoiceWarp.childCutoff)
    let options = Decoder.SphinxWarp(piecewise)
    #expect(options.type == "piecewise_linear" && options.parameters == "0.55556 6400", "\(options)")
    let child = try #require(try decoder.withWarp(piecewise) { try decoder.decodeWhole(samples) })
    let inverse = try #require(try decoder.withWarp(.inverseLinear(factor: VoiceWarp.childFactor)) { try decoder.decodeWhole(samples) })
    #expect(child.score != before.score && child.score != inverse.score, "the piecewise warp hears otherwise than the inverse linear one")
    #expect(try other.withWarp(piecewise) { try other.decodeWhole(samples) } == child, "another decoder's piecewise warp is the same")
    #expect(try decoder.decodeWhole(samples) == before)
  }

  @Test("a child's voice is heard through the piecewise linear warp when it stands out from its background, the inverse linear one in noise")
  func childWarp() throws {
    let folder = try TestSupport.temporaryFolder("warp-child")
    defer { try? FileManager.default.removeItem(at: folder) }
    let spoken = folder.appendingPathComponent("left.wav")
    try TestSupport.speak("left", voice: voices[0], to: spoken)
    // Formants and pitch 600 cents higher (the bench's children's voices), with 0.5 s of
    // silence either side; and the same under pink noise standing about 15 dB under it.
    let child = folder.appendingPathComponent("left-child.wav")
    _ = try TestSupport.run(["sox", "-R", spoken.path, "-r", "16000", child.path, "pitch", "600", "pad", "0.5", "0.5"])
    let noise = folder.appendingPathComponent("noise.wav")
    _ = try TestSupport.run(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", noise.path, "synth", "2", "pinknoise", "vol", "0.3"])
    let noisy = folder.appendingPathComponent("left-child-noisy.wav")
    _ = try TestSupport.run(["sox", "-R", "-m", child.path, noise.path, noisy.path, "trim", "0", "2"])
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let clean = try directions(in: child, recognizer: recognizer)
    let piecewise = VoiceWarp.FrontEndWarp.piecewiseLinear(slope: 1 / VoiceWarp.childFactor, cutoff: VoiceWarp.childCutoff)
    #expect(clean.utterances.map(\.result.warp) == [piecewise], "a child's pitch (flite's slt 600 cents up)")
    #expect(clean.directions == [.left], "\(clean.directions)")
    let inNoise = try directions(in: noisy, recognizer: recognizer)
    #expect(!inNoise.utterances.isEmpty)
    #expect(inNoise.utterances.allSatisfy { $0.result.warp == .inverseLinear(factor: VoiceWarp.childFactor) }, "\(inNoise.utterances.map(\.result.warp))")
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
      warped.utterances.allSatisfy { $0.result.warp.map { abs($0.factor - pow(2, -300.0 / 1200)) < 1e-9 && $0.cutoff == nil } ?? false },
      "\(warped.utterances.map(\.result.warp))")
    #expect(warped.directions == [.left], "\(warped.directions)")
    // Without a warp.json, voices are heard as they are.
    let plain = try heard(with: try model("plain", warp: nil))
    #expect(!plain.utterances.isEmpty && plain.utterances.allSatisfy { $0.result.warp == nil })
  }
}
