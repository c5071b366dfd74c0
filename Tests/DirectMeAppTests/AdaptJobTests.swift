import DirectMeRecognizer
import DirectMeTraining
import Foundation
import Testing

@testable import DirectMeApp

@Suite("adapt's summary line")
struct AdaptJobTests {
  func summary(_ json: String) throws -> AdaptationSummary {
    try JSONDecoder().decode(AdaptationSummary.self, from: Data(json.utf8))
  }

  @Test("names every kind of copy the adaptation made, and only those")
  func copies() throws {
    let all = try summary(
      #"{"method": "map", "recordings": 2990, "noisyCopies": 1, "reverberantCopies": 1, "shiftedVoiceCopies": 1495, "clippedCopies": 0, "seconds": 3240, "priorWeight": 1000, "baseModel": "base", "snr": "5:20"}"#)
    #expect(
      AdaptJob.summaryLine(all, out: "m")
        == "adapted base by MAP on 2990 recordings (54.0 min, plus 1 noisy copy each at 5:20 dB, 1 copy in a reverberant room, "
        + "1495 copies in a shifted voice, prior weight 1000) -> m")
    var two = all
    two.noisyCopies = 2
    #expect(AdaptJob.summaryLine(two, out: "m").contains(", plus 2 noisy copies each at 5:20 dB,"))
    // A model made before the copies were counted (absent from its adaptation.json).
    let old = try summary(#"{"method": "mllr", "recordings": 30, "noisyCopies": 0, "seconds": 90, "baseModel": "base"}"#)
    #expect(AdaptJob.summaryLine(old, out: "m") == "adapted base by MLLR on 30 recordings (1.5 min) -> m")
  }
}

@Suite("a labels file's problems")
struct LabelsProblemsTests {
  @Test("are counted in words that agree with the count")
  func counted() {
    #expect(Failure.problems(1, in: "the labels", "nothing was tuned").message == "1 problem in the labels; nothing was tuned")
    #expect(Failure.problems(3, in: "a.tsv", "nothing was adapted").message == "3 problems in a.tsv; nothing was adapted")
  }
}

@Suite("tune's cache of decoded recordings")
struct TuningCacheTests {
  @Test("is not reused for other audio made in memory under the same names")
  func keyedOnAudioMadeInMemory() {
    let configuration = RecognizerConfiguration(acousticModel: "/nonexistent/model", grammar: "/nonexistent/grammar.gram")
    func stretch(_ value: Int16) -> LabelledAudio {
      LabelledAudio(path: "noise #1", expected: [], transcript: "noise", speaker: "noise-0", samples: [0, value, 0])
    }
    let file = LabelledAudio(path: "a.wav", expected: [.up], transcript: nil, speaker: "s")
    let key = TuningCache.key(configuration: configuration, audio: [file, stretch(5)])
    #expect(TuningCache.key(configuration: configuration, audio: [file, stretch(5)]) == key)
    // Another noise folder gives another "noise #1".
    #expect(TuningCache.key(configuration: configuration, audio: [file, stretch(6)]) != key)
  }
}
