import Foundation
import Testing
import DirectMeTestSupport

@testable import DirectMeCore

@Suite("Voice check")
struct VoiceCheckTests {
  let population = VoicePopulation(mean: [0, 0, 0], scale: [10, 10, 5])

  @Test("the statistic is the mean of coefficients 1...12 over the louder half of the frames")
  func statistic() throws {
    // Quiet frames (c0 = 1) hold 100s, loud ones (c0 = 9) hold their index: only loud count.
    let quiet = [[Float]](repeating: [1] + [Float](repeating: 100, count: 12), count: 10)
    let loud = (0..<10).map { index in [Float(9)] + [Float](repeating: Float(index), count: 12) }
    let statistic = try #require(VoiceStatistic.of(quiet + loud))
    #expect(statistic.count == 12)
    #expect(statistic.allSatisfy { abs($0 - 4.5) < 1e-9 })
    #expect(VoiceStatistic.of(Array(loud.prefix(5))) == nil, "too few frames to tell")
    // The routing statistic: the mean, the spread over the loud frames (indices 0...9: a
    // standard deviation of 2.87), and the mean change from frame to frame (99 once at the
    // step from quiet to loud, 1 at each of the 9 steps between loud frames, over 19 steps).
    let routing = try #require(VoiceStatistic.routing(quiet + loud))
    #expect(routing.count == 25)
    #expect(routing.prefix(12).allSatisfy { abs($0 - 4.5) < 1e-9 })
    #expect(routing[12..<24].allSatisfy { abs($0 - (8.25).squareRoot()) < 1e-9 })
    #expect(abs(routing[24] - (abs(0 - 100.0) + 9) / 19) < 1e-9)
  }

  @Test("the population's spread scales the distance; the threshold covers most of the enrollment with slack")
  func enroll() throws {
    let takes: [[Double]] = (0..<9).map { index in [Double(index % 3), 1, 0] }
    let profile = try #require(
      VoiceProfile.enroll(takes, population: population, otherVoicesModel: "/base", share: 0.9, slack: 1.2))
    #expect(profile.mean == [1, 1, 0])
    // Takes lie 0 or 1/10 (one coefficient off by 1 in units of 10) from the mean, RMS over 3.
    let farthest = (0.01 / 3).squareRoot()
    #expect(abs(profile.threshold - 1.2 * farthest) < 1e-9)
    #expect(profile.check([1, 1, 0]).matches)
    // Half a unit off on the third coefficient (scale 5) is 2.5 units: another voice.
    let other = profile.check([1, 1, 2.5])
    #expect(!other.matches)
    #expect(abs(other.distance - (0.25 / 3).squareRoot()) < 1e-9)
    #expect(!profile.check(nil).matches, "an utterance too short to tell is not the owner's")
    #expect(VoiceProfile.enroll(Array(takes.prefix(2)), population: population, otherVoicesModel: "/base") == nil)
  }

  @Test("an utterance within the threshold that lies nearer other voices than the enrollment is not the owner's")
  func nearerOtherVoices() throws {
    // The routing's references: people near the origin, synthetic voices near (10, 10).
    let references = VoiceRouting(
      name: "synthetic", model: "synthetic-voices", scale: [1, 1], people: [[0, 0], [0, 1], [1, 0]],
      voices: [[10, 10], [9, 10], [10, 9]], neighbours: 2, margin: 0.5)
    let takes: [[Double]] = (0..<4).map { [Double($0 % 3), 1, 0] }
    let recordings: [[Double]] = [[5, 0], [5, 1], [6, 0], [6, 1]]
    let profile = try #require(
      VoiceProfile.enroll(takes, recordings: recordings, references: references, population: population, otherVoicesModel: "/base"))
    // Each recording lies nearer the rest than any reference: no extra margin.
    #expect(profile.recordingsMargin == 0)
    let own = profile.check([1, 1, 0], routing: [5.5, 0.5], against: references)
    #expect(own.matches)
    #expect(try #require(own.nearestOwn) < own.nearestOthers ?? 0)
    // The same mean cepstrum, but people's recordings lie nearer: another voice.
    let other = profile.check([1, 1, 0], routing: [0.2, 0.2], against: references)
    #expect(!other.matches && other.decided == false)
    // Without the routing statistic, or a profile without recordings (made before them): the distance decides.
    #expect(profile.check([1, 1, 0], routing: nil, against: references).matches)
    var older = profile
    older.recordings = nil
    #expect(older.check([1, 1, 0], routing: [0.2, 0.2], against: references).matches)
    // Outside the threshold stays outside, whatever the references say.
    #expect(!profile.check([1, 1, 3], routing: [5.5, 0.5], against: references).matches)
    let decoded = try JSONDecoder().decode(VoiceProfile.self, from: profile.json())
    #expect(decoded == profile)
  }

  @Test("the population's mean and spread are measured; profiles and matches survive JSON, an unmeasurable one too")
  func files() throws {
    let measured = try #require(VoicePopulation.measure([[1, 2, 3], [3, 2, 1]]))
    #expect(measured.mean == [2, 2, 2])
    #expect(abs(measured.scale[0] - 2.squareRoot()) < 1e-9 && measured.scale[1] == 0)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("voice-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try VoiceProfile.load(modelFolder: folder.path) == nil)
    let profile = VoiceProfile(mean: [1, 2, 3], scale: [1, 1, 1], threshold: 0.5, otherVoicesModel: "/base")
    try profile.json().write(to: folder.appendingPathComponent(VoiceProfile.fileName))
    #expect(try VoiceProfile.load(modelFolder: folder.path) == profile)
    let unmeasured = VoiceMatch(distance: .infinity, threshold: 0.5)
    let decoded = try JSONDecoder().decode(VoiceMatch.self, from: JSONEncoder().encode(unmeasured))
    #expect(decoded.distance == .infinity && !decoded.matches)
    try Data("{\"mean\": [1], \"scale\": [], \"threshold\": 1, \"otherVoicesModel\": \"/b\", \"notes\": {}}".utf8)
      .write(to: folder.appendingPathComponent(VoiceProfile.fileName))
    #expect(throws: VoiceFileError.self) { try VoiceProfile.load(modelFolder: folder.path) }
    // The owner's warp survives JSON; one no front end could use is named.
    var warped = profile
    warped.warp = 1.68
    try warped.json().write(to: folder.appendingPathComponent(VoiceProfile.fileName))
    #expect(try VoiceProfile.load(modelFolder: folder.path)?.warp == 1.68)
    warped.warp = 5
    try warped.json().write(to: folder.appendingPathComponent(VoiceProfile.fileName))
    #expect(throws: VoiceFileError.self) { try VoiceProfile.load(modelFolder: folder.path) }
  }

  @Test("an utterance in another voice is decided by the other voices' detector")
  func otherVoices() {
    // Personal: confidence 0.5 at margin 0, threshold 0.4. Others: threshold 0.9.
    let personal = Detector(
      calibrations: [:], fallback: .init(slope: 0.1, intercept: 0, minimumDuration: 0.1), gate: .open, threshold: 0.4,
      rescueThreshold: 0.3)
    var others = personal
    others.threshold = 0.9
    let interpreter = Interpreter(settings: InterpreterSettings(detector: personal, otherVoices: others))
    func result(voice: VoiceMatch?) -> RecognitionResult {
      let commands = Transcription(segments: [WordSegment(word: "up", start: 0.2, end: 0.5, score: -30, margin: 0)], score: -30)
      return RecognitionResult(transcriptions: [commands], start: 0, end: 1, voice: voice)
    }
    #expect(interpreter.interpret(result(voice: VoiceMatch(distance: 0.3, threshold: 0.5))).directions == [.up])
    #expect(interpreter.interpret(result(voice: nil)).directions == [.up], "no voice check: the model's own detector")
    let other = interpreter.interpret(result(voice: VoiceMatch(distance: 0.8, threshold: 0.5)))
    #expect(other.directions.isEmpty)
    guard case .lowConfidence(_, _, let threshold) = other.rejection else {
      Issue.record("expected a low-confidence rejection, got \(String(describing: other.rejection))")
      return
    }
    #expect(threshold == 0.9)
  }
}

@Suite("Voice routing")
struct VoiceRoutingTests {
  let routing = VoiceRouting(
    name: "synthetic", model: "synthetic-voices", scale: [1, 1], people: [[0, 0], [0, 1], [1, 0]],
    voices: [[10, 10], [9, 10], [10, 9]], neighbours: 2, margin: 0.5)

  @Test("an utterance nearer the routed voices than people, by the margin, is routed; one too short to tell is not")
  func routes() {
    #expect(routing.routes([9, 9]))
    #expect(!routing.routes([0.5, 0.5]))
    // Halfway: equally near both, not by the margin.
    #expect(abs(routing.lean([5, 5])) < 1e-9 || routing.lean([5, 5]) < 0.5)
    #expect(!routing.routes([5, 5]))
    #expect(!routing.routes(nil))
    // The mean of the two nearest: people at 0 and 1 from [0, 0].
    #expect(abs(routing.nearest([0, 0], among: routing.people) - (0 + (0.5).squareRoot()) / 2) < 1e-9)
  }

  @Test("near the margin the models' fit is asked, only when the routing sets it; the fit counts the loud frames only")
  func fitBand() throws {
    #expect(!routing.asksFit(lean: 0.3), "no fit margin: by the statistic alone")
    var fitting = routing
    fitting.fitLean = 0
    fitting.fitMargin = 6
    #expect(fitting.asksFit(lean: 0.3))
    #expect(fitting.asksFit(lean: 0.5), "at the margin, not routed by the statistic")
    #expect(!fitting.asksFit(lean: 0.51), "routed by the statistic already")
    #expect(!fitting.asksFit(lean: 0), "leaning people's way")
    #expect(!fitting.asksFit(lean: -0.2))
    // Frames of 80, 70 and 10 dB: the last is 70 dB under the loudest and left out at 60 dB.
    let fits: [Float] = [-1000, -1100, -4000]
    #expect(VoiceRouting.loudFit(fits, energies: [80, 70, 10], range: 60) == -1050)
    #expect(abs(try #require(VoiceRouting.loudFit(fits, energies: [80, 70, 10], range: 100)) + 2033.333) < 0.01)
    // Fits and levels of different lengths: the frames both have.
    #expect(VoiceRouting.loudFit(fits, energies: [80, 70], range: 60) == -1050)
    #expect(VoiceRouting.loudFit([], energies: [80]) == nil)
    // Survives the routing file.
    let decoded = try JSONDecoder().decode(VoiceRouting.self, from: try fitting.json())
    #expect(decoded.fitLean == 0 && decoded.fitMargin == 6)
    let older = try JSONDecoder().decode(VoiceRouting.self, from: try routing.json())
    #expect(older.fitMargin == nil && !older.asksFit(lean: 0.3))
  }

  @Test("the routed model's folder is relative to the model's; the file round-trips at three decimals, rounded")
  func files() throws {
    #expect(routing.modelPath(in: "/models/m") == "/models/m/synthetic-voices")
    var absolute = routing
    absolute.model = "/elsewhere"
    #expect(absolute.modelPath(in: "/models/m") == "/elsewhere")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("routing-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(try VoiceRouting.load(modelFolder: folder.path) == nil)
    let precise = VoiceRouting(
      name: "synthetic", model: "synthetic-voices", scale: [1, 1], people: [[0.123556, 0], [0, 1], [1, 0]],
      voices: [[10, 10], [9, 10], [10, 9]], neighbours: 2, margin: 0.5)
    try precise.json().write(to: folder.appendingPathComponent(VoiceRouting.fileName))
    #expect(String(decoding: try precise.json(), as: UTF8.self).contains("[[0.124,0],[0,1],[1,0]]"))
    let loaded = try #require(try VoiceRouting.load(modelFolder: folder.path))
    #expect(loaded.people.rows == [[0.124, 0], [0, 1], [1, 0]])
    #expect(loaded.voices == routing.voices)
    try Data("{}".utf8).write(to: folder.appendingPathComponent(VoiceRouting.fileName))
    #expect(throws: VoiceFileError.self) { try VoiceRouting.load(modelFolder: folder.path) }
  }

  @Test("a routing written with its references beside it loads as it was; a short or missing references file is named")
  func referencesBeside() throws {
    let folder = try TestSupport.temporaryFolder("routing-beside")
    defer { try? FileManager.default.removeItem(at: folder) }
    let written = VoiceRouting(
      name: "synthetic", model: "synthetic-voices", scale: [1, 2], people: [[0.123556, -4], [0, 1], [1, 0]],
      voices: [[10, 10], [9, -0.5]], neighbours: 2, margin: 0.5)
    try written.write(toFolder: folder.path)
    let json = String(decoding: try Data(contentsOf: folder.appendingPathComponent(VoiceRouting.fileName)), as: UTF8.self)
    #expect(json.contains("\"people\":[]") && json.contains("\"referenceRows\":[3,2]"), "the references are not in the JSON")
    let references = folder.appendingPathComponent(VoiceRouting.referencesFileName)
    #expect(try Data(contentsOf: references).count == 5 * 2 * 4)
    let loaded = try #require(try VoiceRouting.load(modelFolder: folder.path))
    #expect(loaded == written)
    #expect(loaded.people.rows == [[0.124, -4], [0, 1], [1, 0]] && loaded.voices.rows == [[10, 10], [9, -0.5]])
    try Data(try Data(contentsOf: references).dropLast(4)).write(to: references)
    #expect {
      try VoiceRouting.load(modelFolder: folder.path)
    } throws: { error in
      (error as? VoiceFileError)?.file == references.path && "\(error)".contains("36 bytes")
    }
    try FileManager.default.removeItem(at: references)
    #expect {
      try VoiceRouting.load(modelFolder: folder.path)
    } throws: { error in
      (error as? VoiceFileError)?.file == references.path
    }
  }

  @Test("narrowband references: written beside the others, loaded as written; a narrowband utterance is measured against them, at their margin")
  func narrowbandReferences() throws {
    let folder = try TestSupport.temporaryFolder("routing-narrowband")
    defer { try? FileManager.default.removeItem(at: folder) }
    var written = VoiceRouting(
      name: "synthetic", model: "synthetic-voices", narrowbandModel: "synthetic-narrowband", scale: [1, 1],
      people: [[0, 0], [0, 1]], voices: [[20, 20], [20, 19]], neighbours: 1, margin: 0.5)
    written.narrowbandPeople = ReferenceTable([[5, 5], [5, 6]])
    written.narrowbandVoices = ReferenceTable([[6, 5]])
    written.narrowbandMargin = 0.1
    written.peopleNarrowbandModel = "narrowband"
    try written.write(toFolder: folder.path)
    let json = String(decoding: try Data(contentsOf: folder.appendingPathComponent(VoiceRouting.fileName)), as: UTF8.self)
    #expect(json.contains("\"referenceRows\":[2,2,2,1]") && !json.contains("\"narrowbandPeople\""), "\(json)")
    #expect(json.contains("\"people\":[],\"peopleNarrowbandModel\":\"narrowband\""), "\(json)")
    let loaded = try #require(try VoiceRouting.load(modelFolder: folder.path))
    #expect(loaded == written)
    let resolved = loaded.withModelPaths(in: "/m/x/..")
    #expect(resolved.model == "/m/synthetic-voices" && resolved.narrowbandModel == "/m/synthetic-narrowband", "\(resolved)")
    #expect(resolved.peopleNarrowbandModel == "/m/narrowband", "\(resolved)")
    // (5.8, 4.6): against all references people's are nearer; against the narrowband ones the
    // voices' are, by 0.632 - 0.316 = 0.316 (root mean square over two numbers) > 0.1.
    let statistic: [Double] = [5.8, 4.6]
    #expect(!loaded.routes(statistic))
    #expect(loaded.routes(statistic, narrowband: true))
    var stricter = loaded
    stricter.narrowbandMargin = 0.4
    #expect(!stricter.routes(statistic, narrowband: true))
    // Without narrowband references a narrowband utterance is measured like any other.
    var without = loaded
    without.narrowbandPeople = nil
    #expect(!without.routes(statistic, narrowband: true))
  }

  @Test("routing files read: the shipped one (references beside it), one holding its references itself, spacing and odd values")
  func reading() throws {
    let shipped = TestSupport.repositoryRoot.appendingPathComponent("models/en-us-directme")
    if FileManager.default.fileExists(atPath: shipped.appendingPathComponent(VoiceRouting.fileName).path) {
      let loaded = try #require(try VoiceRouting.load(modelFolder: shipped.path))
      #expect(loaded.people.count > 100 && loaded.voices.count > 100 && loaded.people.width == loaded.scale.count)
    } else {
      Issue.record("the shipped model's routing.json is missing at \(shipped.path)")
    }
    let tricky = """
      { "notes" : {"people": "[[9, 9]] \\" and \\\\", "voices]": "}{"}, "name":"s\\"y", "model": "m",
        "people" : [ [1.5e1, -2] ,[ 0.25,3 ] ], "scale":[1,1], "voices":[[-1E-2,4]], "neighbours": 3, "margin": 0.2 }
      """
    let folder = try TestSupport.temporaryFolder("routing-tricky")
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(tricky.utf8).write(to: folder.appendingPathComponent(VoiceRouting.fileName))
    let expected = try #require(try VoiceRouting.load(modelFolder: folder.path))
    #expect(expected.people.rows == [[15, -2], [0.25, 3]] && expected.voices.rows == [[-0.01, 4]])
    #expect(expected.people.count == 2 && expected.people.width == 2 && Array(expected.people[1]) == [0.25, 3])
    // Tables that are not numbers or whose rows differ in length, and documents that are not
    // JSON, are refused.
    let ragged = """
      {"name": "s", "model": "m", "scale": [1, 1], "people": [[1, 2], [3]], "voices": [[1, 2]], "neighbours": 1,
       "margin": 0.1, "notes": {}}
      """
    for bad in ["{\"people\": [[\"a\"]], \"voices\": [[1]]}", "{\"people\": [[1,]]", "[1]", "{\"people\": [[1]", ragged] {
      try Data(bad.utf8).write(to: folder.appendingPathComponent(VoiceRouting.fileName))
      #expect(throws: VoiceFileError.self) { try VoiceRouting.load(modelFolder: folder.path) }
    }
  }
}
