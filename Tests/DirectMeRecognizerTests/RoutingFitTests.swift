import DirectMeAudio
import DirectMeCore
import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeRecognizer

/// espeak-ng's variants that no model was adapted on and that add breath to the voice (the
/// benchmark's unheard voices): the routing statistic leaves many of their words near people's.
let breathyVoices: [TestSupport.Voice] = [
  .init(.espeak, "en-gb-x-rp+steph", rate: 180), .init(.espeak, "en-029+travis", rate: 170),
  .init(.espeak, "en-gb-x-rp+belinda", rate: 180), .init(.espeak, "en-gb-scotland+michel", rate: 170),
]

@Suite(
  "Routing by the models' fit", .serialized,
  .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"),
  .enabled(if: breathyVoices.allSatisfy(\.isAvailable), "needs espeak-ng and sox (scripts/setup.sh)"))
struct RoutingFitTests {
  func spoken(_ text: String, by voice: TestSupport.Voice, in folder: URL) throws -> [Int16] {
    let file = folder.appendingPathComponent("\(voice.name)-\(text).wav")
    try TestSupport.speak(text, voice: voice, to: file)
    return try TestSupport.samples(of: file)
  }

  @Test("synthetic words fit the synthetic voices' model better than people's, by the routing's fit margin")
  func syntheticFit() throws {
    let routing = try #require(try VoiceRouting.load(modelFolder: shippedModel)?.withModelPaths(in: shippedModel))
    let margin = try #require(routing.fitMargin, "the shipped routing.json sets fitMargin")
    let people = try finalDecoder()
    let synthetic = try finalDecoder(model: routing.modelPath(in: shippedModel))
    let folder = try TestSupport.temporaryFolder("fit")
    defer { try? FileManager.default.removeItem(at: folder) }
    var fits: [String] = []
    var better = 0
    for voice in breathyVoices {
      for text in ["up", "down"] {
        let samples = try spoken(text, by: voice, in: folder)
        let own = try #require(try PocketSphinxRecognizer.fit(of: people, to: samples).fit)
        let theirs = try #require(try PocketSphinxRecognizer.fit(of: synthetic, to: samples).fit)
        fits.append("\(voice.name) \(text): \(String(format: "%.1f", theirs - own))")
        if theirs - own > margin { better += 1 }
      }
    }
    #expect(better >= 7, "\(better) of 8 fit the synthetic model better by \(margin): \(fits.joined(separator: "; "))")
  }

  @Test(
    "people's words fit people's model better",
    .enabled(if: TestSupport.devSet != nil, "needs ../shared/data/speech-commands-dev"))
  func peopleFit() throws {
    let routing = try #require(try VoiceRouting.load(modelFolder: shippedModel)?.withModelPaths(in: shippedModel))
    let margin = try #require(routing.fitMargin)
    let people = try finalDecoder()
    let synthetic = try finalDecoder(model: routing.modelPath(in: shippedModel))
    let files = try devSetFiles(words: ["up", "down", "left", "right", "go", "off"], each: 4)
    try #require(files.count == 24)
    var over: [String] = []
    for file in files {
      let samples = try AudioFileSource.readAll(path: file)
      let own = try #require(try PocketSphinxRecognizer.fit(of: people, to: samples).fit)
      let theirs = try #require(try PocketSphinxRecognizer.fit(of: synthetic, to: samples).fit)
      if theirs - own > margin { over.append("\(file): \(theirs - own)") }
    }
    #expect(over.isEmpty, "\(over)")
  }

  @Test("a breathy voice's words that lean the synthetic voices' way go to their model when it fits them better")
  func routedByFit() throws {
    let routing = try #require(try VoiceRouting.load(modelFolder: shippedModel))
    let features = try VoiceFeatures(model: shippedModel)
    let recognizer = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    let folder = try TestSupport.temporaryFolder("routed-by-fit")
    defer { try? FileManager.default.removeItem(at: folder) }
    var near: [String] = []
    var routed = 0
    var right = 0
    for voice in breathyVoices {
      for (text, direction) in Direction.allCases.flatMap({ [($0.rawValue, $0), ("go \($0.rawValue)", $0)] }) {
        let file = folder.appendingPathComponent("\(voice.name)-\(text).wav")
        try TestSupport.speak(text, voice: voice, to: file)
        let statistic = try #require(features.routingStatistic(try TestSupport.samples(of: file)))
        // Only words the statistic alone leaves near the margin are the fit's to decide.
        guard routing.asksFit(lean: routing.lean(statistic)) else { continue }
        let result = try directions(in: file, recognizer: recognizer)
        let models = result.utterances.map { $0.result.voiceModel ?? "people's" }
        near.append("\(voice.name) \"\(text)\": \(models), \(result.directions)")
        if models.last == "synthetic" { routed += 1 }
        if result.directions == [direction] { right += 1 }
      }
    }
    // Of the 32 phrases, 4-8 lean this little (varies with espeak-ng's version).
    #expect(near.count >= 3, "\(near)")
    #expect(routed >= near.count - 1, "\(routed) of \(near.count) routed: \(near.joined(separator: "; "))")
    #expect(right >= near.count - 1, "\(right) of \(near.count) right: \(near.joined(separator: "; "))")
  }

  @Test("later models loaded ahead on a thread of their own decide as ones loaded when first needed")
  func preloaded() throws {
    let onDemand = try PocketSphinxRecognizer(configuration: shippedConfiguration())
    var asking = shippedConfiguration()
    asking.secondOpinion = .init(model: RecognizerConfiguration.defaultModelFolder + "/en-us", asked: [:])
    let ahead = try PocketSphinxRecognizer(configuration: asking)
    // The routed voices', theirs through a narrowband link, the second opinion's: each once
    // (people's through a narrowband link is loaded when first needed).
    let models = ahead.laterModels
    #expect(models.count == 3 && Set(models).count == 3, "\(models)")
    #expect(models.first == ahead.routing?.model && models.last == asking.secondOpinion?.model, "\(models)")
    #expect(ahead.routing?.peopleNarrowbandModel.map { !models.contains($0) } == true, "\(models)")
    ahead.preloadLaterModels()
    ahead.preloadLaterModels()  // once is enough; a second call changes nothing
    for model in models { _ = try ahead.laterDecoder(model) }
    let folder = try TestSupport.temporaryFolder("preloaded")
    defer { try? FileManager.default.removeItem(at: folder) }
    var routed = 0
    for (index, voice) in (breathyVoices + [voices[0]]).enumerated() {
      let file = folder.appendingPathComponent("\(index).wav")
      try TestSupport.speak(index % 2 == 0 ? "go down" : "up", voice: voice, to: file)
      let expected = try directions(in: file, recognizer: onDemand)
      let heard = try directions(in: file, recognizer: ahead)
      #expect(heard.directions == expected.directions, "\(voice)")
      #expect(heard.utterances.map(\.result.voiceModel) == expected.utterances.map(\.result.voiceModel), "\(voice)")
      routed += heard.utterances.filter { $0.result.voiceModel == "synthetic" }.count
    }
    #expect(routed >= 1, "the routed model decided at least one utterance")
  }
}

/// The first `each` recordings of each word of the dev set, by name.
func devSetFiles(words: [String], each: Int) throws -> [String] {
  let devSet = try #require(TestSupport.devSet).path
  return try words.flatMap { word in
    try FileManager.default.contentsOfDirectory(atPath: devSet + "/" + word).filter { $0.hasSuffix(".wav") }.sorted()
      .prefix(each).map { devSet + "/" + word + "/" + $0 }
  }
}
