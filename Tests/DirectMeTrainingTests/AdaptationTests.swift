import DirectMeAudio
import DirectMeBench
import DirectMeCore
import DirectMeRecognizer
import DirectMeTestSupport
import Foundation
import Testing

@testable import DirectMeTraining

let stockModel = RecognizerConfiguration.defaultModelFolder + "/en-us"
let dictionary = RecognizerConfiguration.defaultModelFolder + "/cmudict-en-us.dict"
let canAdapt =
  FileManager.default.fileExists(atPath: stockModel + "/mdef") && FileManager.default.fileExists(atPath: "/usr/lib/sphinxtrain/bw")
  && TestSupport.which("sphinx_fe") != nil && TestSupport.which("flite") != nil && TestSupport.which("sox") != nil
let voices: [TestSupport.Voice] = [.init(.flite, "slt"), .init(.flite, "rms"), .init(.flite, "kal16"), .init(.flite, "awb")]

/// A small labelled set made at test time: four voices saying commands and other words.
func makeRecordings(in folder: URL) throws -> [LabelledAudio] {
  let phrases: [(String, [Direction])] = [
    ("up", [.up]), ("down", [.down]), ("left", [.left]), ("right", [.right]), ("move left", [.left]),
    ("go up now", [.up]), ("hello there", []), ("stop", []), ("what time is it", []),
  ]
  var recordings: [LabelledAudio] = []
  for voice in voices {
    for (index, (text, expected)) in phrases.enumerated() {
      let file = folder.appendingPathComponent("\(voice.name)-\(index).wav")
      try TestSupport.speak(text, voice: voice, to: file)
      recordings.append(LabelledAudio(path: file.path, expected: expected, transcript: text, speaker: voice.name))
    }
  }
  return recordings
}

@Suite(
  "Adaptation and tuning on generated speech", .serialized,
  .enabled(if: canAdapt, "needs pocketsphinx-en-us, sphinxtrain, sphinxbase-utils, flite and sox (scripts/setup.sh)"))
struct AdaptationTests {
  @Test("MLLR on a few minutes of speech makes a model that loads and decodes; tuning on it gives a usable detector")
  func adaptAndTune() throws {
    let folder = try TestSupport.temporaryFolder("adapt")
    defer { try? FileManager.default.removeItem(at: folder) }
    let recordings = try makeRecordings(in: folder)
    var options = AdaptationOptions(baseModel: stockModel, dictionary: dictionary)
    options.method = .auto
    options.jobs = 2
    let output = folder.appendingPathComponent("model")
    let stages = StageLog()
    let summary = try ModelAdapter(options: options).adapt(
      recordings.map { AdaptationItem(audio: $0.path, words: $0.transcript!.split(separator: " ").map(String.init)) },
      output: output, work: folder.appendingPathComponent("work")
    ) { stages.add($0.stage) }
    // A minute or so of audio: too little for MAP, so MLLR.
    #expect(summary.method == "mllr")
    #expect(summary.recordings == recordings.count)
    #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("mllr_matrix").path))
    #expect(stages.all.contains { $0.contains("bw") })

    // The adapted model loads (its transform is picked up) and hears the commands.
    let grammar = TestSupport.repositoryRoot.appendingPathComponent("grammars/directme.gram").path
    let configuration = RecognizerConfiguration(acousticModel: output.path, grammar: grammar)
    #expect(configuration.initOptions().contains("-mllr"))
    let decoded = try TuningDecoder(jobs: 2).decode(
      recordings, makeListener: { CommandListener(recognizer: try PocketSphinxRecognizer(configuration: configuration)) },
      progress: { _, _ in }, failed: { path, error in Issue.record("\(path): \(error)") })
    #expect(decoded.count == recordings.count)
    let detector = DetectorTuner().tune(decoded)
    #expect(!detector.calibrations.isEmpty)
    let score = DetectorTuner.evaluate(detector, on: decoded)
    #expect(score.accuracy >= 0.6, "\(score) \(detector)")
    #expect(score.falseAlarmsPooled <= 0.34, "\(score)")
    // What tune writes, the app reads.
    let file = folder.appendingPathComponent("detector.json")
    try detector.json().write(to: file)
    #expect(try Detector.load(file.path) == detector)
  }

  @Test("MAP with a prior weight keeps the variances nearer the base model's than the weights map_adapt estimates, and records it")
  func priorWeight() throws {
    let folder = try TestSupport.temporaryFolder("adapt-prior")
    defer { try? FileManager.default.removeItem(at: folder) }
    let recordings = try makeRecordings(in: folder)
    let items = recordings.map { AdaptationItem(audio: $0.path, words: $0.transcript!.split(separator: " ").map(String.init)) }
    let base = try gaussians(stockModel + "/variances")
    // How far the variances moved: the mean of |log(adapted / base)| over the Gaussians in use.
    func moved(weight: Double?) throws -> (distance: Double, summary: AdaptationSummary) {
      var options = AdaptationOptions(baseModel: stockModel, dictionary: dictionary)
      options.method = .map
      options.priorWeight = weight
      options.jobs = 2
      let output = folder.appendingPathComponent("model-\(weight ?? 0)")
      let summary = try ModelAdapter(options: options).adapt(items, output: output, work: folder.appendingPathComponent("work-\(weight ?? 0)"))
      let written = try JSONDecoder().decode(AdaptationSummary.self, from: Data(contentsOf: output.appendingPathComponent("adaptation.json")))
      #expect(written.priorWeight == weight)
      let adapted = try gaussians(output.appendingPathComponent("variances").path)
      try #require(adapted.count == base.count && !base.isEmpty)
      let used = zip(base, adapted).filter { $0.0 > 1e-6 && $0.1 > 1e-6 }
      return (used.map { abs(log(Double($1 / $0))) }.reduce(0, +) / Double(used.count), summary)
    }
    let estimated = try moved(weight: nil)
    let held = try moved(weight: 1000)
    #expect(estimated.summary.priorWeight == nil && held.summary.priorWeight == 1000 && held.summary.method == "map")
    #expect(held.distance < estimated.distance * 0.8, "variances moved \(held.distance) with weight 1000, \(estimated.distance) estimated")
  }

  @Test("adapting only +SPN+ changes its codebook and its three senones, and leaves every other parameter the base model's, byte for byte")
  func onlyPhones() throws {
    let folder = try TestSupport.temporaryFolder("adapt-only")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Any sound will do for the test: the voices' phrases, each transcribed as the filler word.
    let items = try makeRecordings(in: folder).map { AdaptationItem(audio: $0.path, words: ["nonspeech"]) }
    let extra = folder.appendingPathComponent("extra.dict")
    try "nonspeech +SPN+\n".write(to: extra, atomically: true, encoding: .utf8)
    var options = AdaptationOptions(baseModel: stockModel, dictionary: dictionary)
    options.extraDictionary = extra.path
    options.onlyPhones = ["+SPN+"]
    options.priorWeight = 1000
    options.jobs = 2
    let output = folder.appendingPathComponent("model")
    let summary = try ModelAdapter(options: options).adapt(items, output: output, work: folder.appendingPathComponent("work"))
    // About a minute of audio: MLLR for a whole model, MAP for chosen phones.
    #expect(summary.method == "map" && summary.onlyPhones == ["+SPN+"])
    let written = try JSONDecoder().decode(AdaptationSummary.self, from: Data(contentsOf: output.appendingPathComponent("adaptation.json")))
    #expect(written.onlyPhones == ["+SPN+"])
    // Debian's model: +SPN+ is the second base phone (codebook 1), its states senones 3-5.
    for name in ["means", "variances"] {
      let base = try GaussianFile(path: stockModel + "/" + name)
      let adapted = try GaussianFile(path: output.appendingPathComponent(name).path)  // its checksum is checked
      let length = base.codebookLength
      let changed = (0..<base.codebookCount).filter {
        base.values[($0 * length)..<(($0 + 1) * length)] != adapted.values[($0 * length)..<(($0 + 1) * length)]
      }
      #expect(changed == [1], "\(name): codebooks changed \(changed)")
    }
    let base = try MixtureWeights(sendump: stockModel + "/sendump")
    let adapted = try MixtureWeights(sendump: output.appendingPathComponent("sendump").path)
    let changed = Set(
      (0..<base.quantized.count).filter { base.quantized[$0] != adapted.quantized[$0] }.map { $0 % base.senones })
    #expect(changed == [3, 4, 5], "senones changed: \(changed.sorted().prefix(10))")
    // The model loads and decodes.
    let grammar = TestSupport.repositoryRoot.appendingPathComponent("grammars/directme.gram").path
    let recognizer = try PocketSphinxRecognizer(configuration: RecognizerConfiguration(acousticModel: output.path, grammar: grammar))
    _ = recognizer

    // A phone the model lacks, or MLLR, is refused before any long work.
    func message(_ options: AdaptationOptions) -> String {
      do {
        try ModelAdapter(options: options).adapt(items, output: folder.appendingPathComponent("out"), work: folder.appendingPathComponent("work2"))
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    var unknown = options
    unknown.onlyPhones = ["+SPN+", "XX"]
    let wrong = message(unknown)
    #expect(wrong.hasSuffix("mdef: 'XX' is not a phone of the model (its phones: +NSN+ +SPN+ AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH SIL T TH UH UW V W Y Z ZH)"), "\(wrong)")
    var mllr = options
    mllr.method = .mllr
    mllr.priorWeight = nil
    #expect(message(mllr).hasPrefix("only some phones can be adapted by MAP, not MLLR"), "\(message(mllr))")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
  }

  /// The values of a sphinxtrain Gaussian parameter file (`means`, `variances`).
  func gaussians(_ path: String) throws -> [Float] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    let header = try #require(data.range(of: Data("endhdr\n".utf8)))
    let ints = { (at: Int) in data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: Int32.self) } }
    var offset = header.upperBound + 4  // after the byte-order mark
    let features = Int(ints(offset + 4))
    offset += 12 + 4 * features  // codebooks, features, densities, each feature's length
    let count = Int(ints(offset))
    offset += 4
    try #require(data.count >= offset + 4 * count)
    return (0..<count).map { index in data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset + 4 * index, as: Float.self) } }
  }

  @Test("problems are found before any long work, each one line naming the file")
  func problems() throws {
    let folder = try TestSupport.temporaryFolder("adapt-errors")
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = folder.appendingPathComponent("up.wav")
    try TestSupport.speak("up", voice: voices[0], to: good)
    let options = AdaptationOptions(baseModel: stockModel, dictionary: dictionary)
    func message(_ items: [AdaptationItem], options: AdaptationOptions = options, tools: ToolRunner = ToolRunner()) -> String {
      do {
        try ModelAdapter(options: options, tools: tools).adapt(
          items, output: folder.appendingPathComponent("out"), work: folder.appendingPathComponent("work"))
        return "no error"
      } catch {
        return "\(error)"
      }
    }
    let missingTools = message([AdaptationItem(audio: good.path, words: ["up"])], tools: ToolRunner(sphinxtrainFolder: "/nonexistent"))
    #expect(missingTools.contains("sphinxtrain is missing"), "\(missingTools)")
    let unknown = message([AdaptationItem(audio: good.path, words: ["up", "flurbleblarg"])])
    #expect(unknown.hasPrefix(good.path + ": the transcript word 'flurbleblarg' is not in the dictionary"), "\(unknown)")
    let text = folder.appendingPathComponent("notes.wav")
    try "not audio".write(to: text, atomically: true, encoding: .utf8)
    let unreadable = message([AdaptationItem(audio: text.path, words: ["up"])])
    #expect(unreadable.hasPrefix(text.path + ": cannot read the recording"), "\(unreadable)")
    let little = message([AdaptationItem(audio: good.path, words: ["up"])])
    #expect(little.hasPrefix("too little audio to adapt"), "\(little)")
    // Enough audio for MLLR, not MAP: a prior weight is not dropped without a word.
    var weighted = options
    weighted.priorWeight = 1000
    let enough = Array(repeating: AdaptationItem(audio: good.path, words: ["up"]), count: 100)
    let mllr = message(enough, options: weighted)
    #expect(mllr.hasPrefix("a prior weight (1000 frames) is for MAP, and "), "\(mllr)")
    #expect(mllr.contains("is adapted by MLLR (MAP from 10 min)"), "\(mllr)")
    #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
  }
}

/// Stage names reported from several threads.
final class StageLog: @unchecked Sendable {
  private let lock = NSLock()
  private var stages: [String] = []
  func add(_ stage: String) {
    lock.lock()
    if stages.last != stage { stages.append(stage) }
    lock.unlock()
  }
  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return stages
  }
}

@Suite(
  "The shipped model on real held-out speakers",
  .enabled(if: TestSupport.trainingSet != nil, "needs ../shared/data/speech-commands-train"),
  .enabled(
    if: FileManager.default.fileExists(atPath: TestSupport.shippedModel.appendingPathComponent("detector.json").path),
    "needs models/en-us-directme (scripts/make-model.sh)"))
struct ShippedModelTests {
  @Test("held-out speakers heard through an 8-kHz link (a Bluetooth headset) are not sent to the synthetic voices' model")
  func narrowbandPeopleStayWithPeople() throws {
    guard let routing = try VoiceRouting.load(modelFolder: TestSupport.shippedModel.path) else {
      Issue.record("the shipped model has no routing.json")
      return
    }
    let features = try VoiceFeatures(model: TestSupport.shippedModel.path)
    let folder = try TestSupport.temporaryFolder("narrowband")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Every 40th clip of the checking speakers (about 22), down to 8 kHz and back with sox:
    // before the routing knew narrowband people, about half of such clips went to it.
    let clips = try TrainingSet.read(TestSupport.trainingSet!, part: .checking).enumerated().filter { $0.offset % 40 == 0 }
    var routed: [String] = []
    var asRecorded: [String] = []
    var wideband: [String] = []
    for (index, clip) in clips {
      let back = folder.appendingPathComponent("\(index).wav").path
      try TestSupport.throughNarrowbandLink(URL(fileURLWithPath: clip.path), to: URL(fileURLWithPath: back))
      // Measured against the narrowband references too when found narrowband, as the final pass does
      // (a quiet clip's high band may be sox's dither, louder than what is left of the voice
      // under 4 kHz at the edge: then against all references).
      let narrowband = try TestSupport.samples(of: URL(fileURLWithPath: back))
      let found = Bandwidth.of(narrowband)?.isNarrowband == true
      if !found { wideband.append("\(clip.path): \(String(describing: Bandwidth.of(narrowband)))") }
      let statistic = features.routingStatistic(narrowband)
      if routing.routes(statistic) || found && routing.routes(statistic, narrowband: true) { routed.append(clip.path) }
      if routing.routes(features.routingStatistic(try TestSupport.samples(of: URL(fileURLWithPath: clip.path)))) { asRecorded.append(clip.path) }
    }
    #expect(clips.count >= 15)
    #expect(routed.count <= 1, "routed through 8 kHz: \(routed)")
    #expect(wideband.count <= 2, "not found narrowband through 8 kHz: \(wideband)")
    #expect(asRecorded.isEmpty, "routed as recorded: \(asRecorded)")
  }

  @Test("real people's commands said into a running tap's noise are acted on within 0.3 s of their end")
  func reactionOverATap() throws {
    // `directme-bench live`'s first recording over a background: six checking speakers'
    // commands, one every 4 s over a running tap 10 dB under them. The tap's louder frames
    // broke the endpointer's quiet after the fifth ("left"), which waited 1.3 s for its
    // utterance's end before the streaming search's reading of a pause was asked too.
    let clips = try TrainingSet.read(TestSupport.trainingSet!, part: .checking)
      .filter { $0.expected.count == 1 }.sorted { $0.path < $1.path }
      .map { clip in
        (id: (clip.path as NSString).lastPathComponent, direction: clip.expected[0], samples: try TestSupport.samples(of: URL(fileURLWithPath: clip.path)))
      }
    var random = Signal.Random(seed: 7)
    let tap = TimedRecording.backgrounds()[0]
    try #require(tap.name == "tap-1")
    let recording = TimedRecording.overBackground(of: clips, background: tap, snr: 10, random: &random)
    let grammar = TestSupport.repositoryRoot.appendingPathComponent("grammars/directme.gram").path
    let configuration = RecognizerConfiguration(acousticModel: TestSupport.shippedModel.path, grammar: grammar)
    let detector = try Detector.load(TestSupport.shippedModel.appendingPathComponent("detector.json").path)
    let listener = CommandListener(
      recognizer: try PocketSphinxRecognizer(configuration: configuration),
      interpreter: Interpreter(settings: InterpreterSettings(detector: detector)))
    var measurement = LatencyMeasurement()
    measurement.add(recording, utterances: try listener.run(samples: recording.samples).utterances)
    #expect(measurement.latencies.count >= 5, "\(measurement.latencies.count) of 6 commands acted on")
    #expect(measurement.latencies.allSatisfy { $0 <= 0.3 }, "\(measurement.latencies.map { String(format: "%.2f", $0) })")
  }

  @Test("a small sample of the training set's checking speakers: most commands right, few other words move")
  func heldOutSample() throws {
    let clips = try TrainingSet.read(TestSupport.trainingSet!, part: .checking)
    // Every 12th command and every 12th other word: about 45 and 70 clips.
    let commands = clips.filter { !$0.expected.isEmpty }.enumerated().filter { $0.offset % 12 == 0 }.map(\.element)
    let others = clips.filter { $0.expected.isEmpty }.enumerated().filter { $0.offset % 12 == 0 }.map(\.element)
    let grammar = TestSupport.repositoryRoot.appendingPathComponent("grammars/directme.gram").path
    let configuration = RecognizerConfiguration(acousticModel: TestSupport.shippedModel.path, grammar: grammar)
    let detector = try Detector.load(TestSupport.shippedModel.appendingPathComponent("detector.json").path)
    let decoded = try TuningDecoder(jobs: 2).decode(
      commands + others,
      makeListener: {
        CommandListener(
          recognizer: try PocketSphinxRecognizer(configuration: configuration),
          interpreter: Interpreter(settings: InterpreterSettings(detector: detector)))
      },
      progress: { _, _ in }, failed: { path, error in Issue.record("\(path): \(error)") })
    let score = DetectorTuner.evaluate(detector, on: decoded)
    // Held out of adaptation and tuning; on all 1,000 of them: about 91% right, 5% false
    // alarms. A sample this small varies by a few points.
    #expect(score.accuracy >= 0.8, "\(score)")
    #expect(score.falseAlarmsPooled <= 0.12, "\(score)")
  }
}

@Test("the synthetic-voices model is adapted on no variant of the benchmark's unheard voices")
func adaptationLeavesUnheardVariantsOut() {
  let variant = { (voice: CorpusBuilder.Voice) in voice.name.split(separator: "+").dropFirst().first.map { "+" + $0 } }
  let adapted = Set(CorpusBuilder.adaptationVoices(rounds: 4).filter { $0.engine == "espeak-ng" }.compactMap(variant))
  let unheard = Set(CorpusBuilder.unheardVoices().compactMap(variant))
  #expect(unheard.count == CorpusBuilder.heldOutVariants.count)
  #expect(adapted.count >= 70, "the sixteen variants of every round and the others once each")
  #expect(adapted.isDisjoint(with: unheard), "heard in adaptation: \(adapted.intersection(unheard).sorted())")
  // The same variants in other accents, rates and pitches: unheard too, and none of them a voice of the first set.
  let elsewhere = CorpusBuilder.unheardVoicesElsewhere()
  #expect(Set(elsewhere.compactMap(variant)) == unheard)
  #expect(Set(elsewhere).isDisjoint(with: Set(CorpusBuilder.unheardVoices())))
  #expect(zip(elsewhere, CorpusBuilder.unheardVoices()).allSatisfy { $0.name != $1.name && $0.rate != $1.rate })
}

@Test("a shifted voice plays faster and higher or slower and lower, by a factor of the ranges drawn from")
func shiftedVoiceMovesEveryFrequencyTogether() {
  // One second of a 200 Hz tone: the copy's length and its tone's frequency move by one factor.
  let tone = (0..<16_000).map { Int16(8_000 * sin(2 * Double.pi * 200 * Double($0) / 16_000)) }
  var random = Signal.Random(seed: 3)
  var directions: Set<Bool> = []
  for _ in 0..<8 {
    let shifted = ModelAdapter.shiftedVoice(tone, random: &random)
    let factor = Double(tone.count) / Double(shifted.count)
    #expect(ModelAdapter.voiceShifts.contains { $0.contains(factor) || abs($0.lowerBound - factor) < 0.005 || abs($0.upperBound - factor) < 0.005 }, "factor \(factor)")
    // Upward zero crossings over the middle of the copy (away from the resampler's edges).
    let middle = shifted[shifted.count / 10..<shifted.count * 9 / 10]
    let crossings = zip(middle, middle.dropFirst()).filter { $0.0 < 0 && $0.1 >= 0 }.count
    let frequency = Double(crossings) / (Double(middle.count) / 16_000)
    #expect(abs(frequency - 200 * factor) < 4, "tone at \(frequency) Hz for factor \(factor)")
    directions.insert(factor > 1)
  }
  #expect(directions.count == 2, "both higher and lower voices are drawn")
}

@Test(
  "the bench's overdriven microphone clips the loud half of each other clip flat at full scale",
  .enabled(if: TestSupport.which("sox") != nil, "needs sox (scripts/setup.sh)"))
func overdrivenClipsAreClipped() throws {
  // A 200 Hz tone at a tenth of full scale, rising to half of it: with its peak 6 dB over
  // full scale, the loud half sits at the rail for runs of samples, the quiet start does not.
  let tone = (0..<16_000).map { index in
    let level = index < 8_000 ? 3_000.0 : 16_000.0
    return Int16(level * sin(2 * Double.pi * 200 * Double(index) / 16_000))
  }
  let items = (0..<4).map { BenchItem(id: "tone \($0)", condition: "test", expected: [.up], samples: tone, speaker: "s") }
  let cache = try TestSupport.temporaryFolder("overdriven")
  defer { try? FileManager.default.removeItem(at: cache) }
  let builder = CorpusBuilder(cache: cache)
  let clipped = try builder.overdriven(items)
  #expect(clipped.map(\.id) == ["clipped/tone 1", "clipped/tone 3"], "every other item: the half narrowband leaves")
  for item in clipped {
    #expect(item.condition == CorpusBuilder.overdriven && item.expected == [.up] && item.speaker == "s")
    #expect(item.samples.count == tone.count)
    let railed = { (part: ArraySlice<Int16>) in part.count { $0 >= 32_760 || $0 <= -32_760 } }
    #expect(railed(item.samples[8_000...]) > 2_000, "the loud half is clipped flat")
    #expect(railed(item.samples[..<8_000]) == 0, "the quiet half is louder but not clipped")
  }
}

@Test(
  "the bench's faster and slower speech alternate, each the length its tempo gives, its pitch kept",
  .enabled(if: TestSupport.which("sox") != nil, "needs sox (scripts/setup.sh)"))
func tempoShiftedClipsKeepTheirPitch() throws {
  // A 200 Hz tone of a second: at 1.25x it lasts 0.8 s, at 0.8x 1.25 s, still at 200 Hz.
  let tone = (0..<16_000).map { Int16(8_000 * sin(2 * Double.pi * 200 * Double($0) / 16_000)) }
  let items = (0..<4).map { BenchItem(id: "tone \($0)", condition: "test", expected: [.left], samples: tone, speaker: "s") }
  let cache = try TestSupport.temporaryFolder("tempo")
  defer { try? FileManager.default.removeItem(at: cache) }
  let shifted = try CorpusBuilder(cache: cache).tempoShifted(items)
  #expect(shifted.map(\.id) == ["faster/tone 0", "slower/tone 1", "faster/tone 2", "slower/tone 3"])
  #expect(shifted.map(\.condition) == [CorpusBuilder.fasterSpeech, CorpusBuilder.slowerSpeech, CorpusBuilder.fasterSpeech, CorpusBuilder.slowerSpeech])
  for item in shifted {
    #expect(item.expected == [.left] && item.speaker == "s")
    let seconds = Double(item.samples.count) / 16_000
    let expected = item.condition == CorpusBuilder.fasterSpeech ? 0.8 : 1.25
    #expect(abs(seconds - expected) < 0.03, "\(item.id): \(seconds) s")
    let middle = item.samples[(item.samples.count / 4)..<(3 * item.samples.count / 4)]
    let crossings = zip(middle, middle.dropFirst()).filter { $0.0 < 0 && $0.1 >= 0 }.count
    let frequency = Double(crossings) / (Double(middle.count) / 16_000)
    #expect(abs(frequency - 200) < 4, "\(item.id): \(frequency) Hz")
  }
}

@Test(
  "the bench's children's voices are the high voices shifted up 600 cents; low voices are left out",
  .enabled(if: TestSupport.which("sox") != nil, "needs sox (scripts/setup.sh)"))
func childVoicesAreHighVoicesShifted() throws {
  // A voice-like tone (harmonics falling off) at 200 Hz and one at 120 Hz, half a second each.
  func voice(_ pitch: Double) -> [Int16] { TestSupport.harmonicTone(pitch: pitch, seconds: 0.5, harmonics: 6) }
  let items = [
    BenchItem(id: "high", condition: "test", expected: [.up], samples: voice(200), speaker: "s"),
    BenchItem(id: "low", condition: "test", expected: [.up], samples: voice(120), speaker: "t"),
  ]
  let cache = try TestSupport.temporaryFolder("child")
  defer { try? FileManager.default.removeItem(at: cache) }
  let children = try CorpusBuilder(cache: cache).childVoices(items)
  #expect(children.map(\.id) == ["child/high"], "only the voice at or over \(CorpusBuilder.highVoicePitch) Hz")
  let child = try #require(children.first)
  #expect(child.condition == CorpusBuilder.childVoices && child.expected == [.up] && child.speaker == "s")
  // 600 cents up: 200 Hz -> 283 Hz.
  let pitch = try #require(SignalEvidence.medianPitch(periods: SignalEvidence.pitchPeriods(child.samples)))
  #expect(abs(pitch - 200 * pow(2, 0.5)) < 15, "\(pitch) Hz")
}

@Test(
  "the bench's quiet microphone gives every other item 30 dB fainter, the half the overdriven one takes",
  .enabled(if: TestSupport.which("sox") != nil, "needs sox (scripts/setup.sh)"))
func quietClipsAreFainter() throws {
  // A 200 Hz tone at half of full scale: 30 dB down, its amplitude is a 31.6th of it.
  let tone = (0..<16_000).map { Int16(16_000 * sin(2 * Double.pi * 200 * Double($0) / 16_000)) }
  let items = (0..<4).map { BenchItem(id: "tone \($0)", condition: "test", expected: [.down], samples: tone, speaker: "s") }
  let cache = try TestSupport.temporaryFolder("quiet")
  defer { try? FileManager.default.removeItem(at: cache) }
  let builder = CorpusBuilder(cache: cache)
  let quiet = try builder.quiet(items)
  #expect(quiet.map(\.id) == ["quiet/tone 1", "quiet/tone 3"], "every other item: the half overdriven takes")
  for item in quiet {
    #expect(item.condition == CorpusBuilder.quiet && item.expected == [.down] && item.speaker == "s")
    #expect(item.samples.count == tone.count)
    let down = 10 * log10(power(tone) / power(item.samples))
    #expect(abs(down - 30) < 0.5, "\(down) dB fainter")
  }
}

@Test("the bench's commands over music: every fourth item, 2 s of the music before and after it, 10 dB under its speech")
func commandsOverMusic() throws {
  let folder = try TestSupport.temporaryFolder("music")
  defer { try? FileManager.default.removeItem(at: folder) }
  // The "music": 10 s of a 330 Hz tone at a steady level; the "command": 1 s of a 200 Hz one, louder.
  let music = (0..<160_000).map { Int16(3_000 * sin(2 * Double.pi * 330 * Double($0) / 16_000)) }
  try Tools.write(music, to: folder.appendingPathComponent("tune.wav").path)
  let word = (0..<16_000).map { Int16(9_000 * sin(2 * Double.pi * 200 * Double($0) / 16_000)) }
  let items = (0..<8).map { BenchItem(id: "word \($0)", condition: "test", expected: [.up], samples: word, speaker: "s") }
  let builder = CorpusBuilder(cache: folder)
  let over = try builder.overMusic(items, folder: folder.path)
  #expect(over.map(\.id) == ["over tune.wav/word 0", "over tune.wav/word 4"])
  for item in over {
    #expect(item.condition == CorpusBuilder.commandsOverMusic && item.expected == [.up] && item.speaker == "s")
    #expect(item.samples.count == 5 * 16_000)
    // The music alone before the word, and after it, 10 dB under the word's power.
    for part in [item.samples[0..<32_000], item.samples[48_000..<80_000]] {
      let under = 10 * log10(power(word[...]) / power(part))
      #expect(abs(under - 10) < 0.5, "\(item.id): music \(under) dB under the word")
    }
  }
  #expect(try builder.overMusic(items, folder: folder.appendingPathComponent("none").path).isEmpty)
}

@Test("the bench's commands in continuous room noise and babble: every fourth item from the second and from the third, 2 s of the noise around it")
func commandsInContinuousNoise() throws {
  let folder = try TestSupport.temporaryFolder("continuous-noise")
  defer { try? FileManager.default.removeItem(at: folder) }
  let word = (0..<16_000).map { Int16(9_000 * sin(2 * Double.pi * 200 * Double($0) / 16_000)) }
  let items = (0..<12).map { BenchItem(id: "word \($0)", condition: "test", expected: [.left], samples: word, speaker: "s") }
  let builder = CorpusBuilder(cache: folder)
  let noisy = try builder.inContinuousNoise(items)
  #expect(noisy.map(\.id) == ["over tap/word 1", "over bike/word 5", "over kitchen/word 9"])
  let amid = try builder.amidVoices(items)
  #expect(amid.map(\.id) == ["over babble/word 2", "over babble/word 6", "over babble/word 10"])
  #expect(amid.allSatisfy { $0.condition == CorpusBuilder.commandsAmidVoices && $0.samples.count == 5 * 16_000 })
  for item in noisy {
    #expect(item.condition == CorpusBuilder.commandsInContinuousNoise && item.expected == [.left] && item.speaker == "s")
    #expect(item.samples.count == 5 * 16_000)
    // Noise before the word and after it, about 10 dB under the word (a room's noise is not
    // quite steady over 2 s), and none of it silent.
    for part in [item.samples[0..<32_000], item.samples[48_000..<80_000]] {
      let under = 10 * log10(power(word[...]) / power(part))
      #expect(abs(under - 10) < 3, "\(item.id): noise \(under) dB under the word")
    }
  }
}

@Test("the bench's minute of background: 15 s of it, then 12 commands 4 s apart at one speech level, 10 dB over it, and the same 5 dB over it")
func commandsInLongBackground() throws {
  let folder = try TestSupport.temporaryFolder("long-background")
  defer { try? FileManager.default.removeItem(at: folder) }
  // Commands at two levels: 200 Hz tones of 0.5 s, loud and 12 dB softer, four of each in turn.
  let items = (0..<200).map { index in
    let amplitude = (index / 4) % 2 == 0 ? 8_000.0 : 2_000
    let word = (0..<8_000).map { Int16(amplitude * sin(2 * Double.pi * 200 * Double($0) / 16_000)) }
    return BenchItem(id: "word \(index)", condition: "test", expected: [.right], samples: word, speaker: "s")
  }
  let builder = CorpusBuilder(cache: folder)
  let long = try builder.inLongBackground(items, folder: folder.appendingPathComponent("no music").path)
  // Tap, bike, kitchen and the babble; no music here.
  #expect(long.map { String($0.id.prefix { $0 != "/" }) } == ["in tap", "in bike", "in kitchen", "in babble"])
  #expect(long.first?.id.hasPrefix("in tap/word 3+word 7+") == true)
  for item in long {
    #expect(item.condition == CorpusBuilder.commandsInLongBackground(snr: 10) && item.expected == [Direction](repeating: .right, count: 12))
    #expect(item.samples.count == 65 * 16_000)
    // The first and second commands (loud and soft as recorded) at one level, over the noise.
    let first = power(item.samples[15 * 16_000..<15 * 16_000 + 8_000])
    let second = power(item.samples[19 * 16_000..<19 * 16_000 + 8_000])
    #expect(abs(10 * log10(first / second)) < 1.5, "\(item.id)")
    let noise = power(item.samples[0..<15 * 16_000])
    #expect(10 * log10(first / noise) > 8, "\(item.id)")
  }
  // The same minutes 5 dB over the background: a condition and ids of their own.
  let faint = try builder.inLongBackground(items, folder: folder.appendingPathComponent("no music").path, snr: 5)
  #expect(faint.map { String($0.id.prefix { $0 != "/" }) } == ["in tap at 5 dB", "in bike at 5 dB", "in kitchen at 5 dB", "in babble at 5 dB"])
  #expect(faint.allSatisfy { $0.condition == CorpusBuilder.commandsInLongBackground(snr: 5) })
  #expect(CorpusBuilder.commandsInLongBackground(snr: 5) != CorpusBuilder.commandsInLongBackground(snr: 10))
  for (loud, soft) in zip(long, faint) {
    let commands = 15 * 16_000..<15 * 16_000 + 8_000
    let gap = 10 * log10(power(soft.samples[commands]) / power(soft.samples[0..<15 * 16_000]))
      - 10 * log10(power(loud.samples[commands]) / power(loud.samples[0..<15 * 16_000]))
    #expect(abs(gap + 5) < 1.5, "\(soft.id): \(gap) dB against the 10-dB minute")
  }
}

@Test("the bench's 8 kHz link keeps every other item, under the condition asked, with nothing left above 4 kHz")
func narrowbandClipsLoseTheirHighs() throws {
  // A 1 kHz tone and a 6 kHz tone together: through 8 kHz the 6 kHz one is gone.
  let tones = (0..<16_000).map { index in
    let t = Double(index) / 16_000
    return Int16(6_000 * sin(2 * Double.pi * 1_000 * t) + 6_000 * sin(2 * Double.pi * 6_000 * t))
  }
  let items = (0..<4).map { BenchItem(id: "tones \($0)", condition: "test", expected: [.left], samples: tones, speaker: "s") }
  let cache = try TestSupport.temporaryFolder("narrowband")
  defer { try? FileManager.default.removeItem(at: cache) }
  let builder = CorpusBuilder(cache: cache)
  let narrow = try builder.narrowband(items, condition: CorpusBuilder.syntheticNarrowband)
  #expect(narrow.map(\.id) == ["8 kHz/tones 0", "8 kHz/tones 2"])
  /// The power of `samples` at `frequency` (Goertzel), over the middle half.
  func power(_ samples: [Int16], at frequency: Double) -> Double {
    let part = samples[4_000..<12_000].map(Double.init)
    let coefficient = 2 * cos(2 * Double.pi * frequency / 16_000)
    var (previous, beforePrevious) = (0.0, 0.0)
    for x in part { (previous, beforePrevious) = (x + coefficient * previous - beforePrevious, previous) }
    return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
  }
  for item in narrow {
    #expect(item.condition == CorpusBuilder.syntheticNarrowband && item.expected == [.left] && item.speaker == "s")
    #expect(10 * log10(power(item.samples, at: 6_000) / power(tones, at: 6_000)) < -40, "the 6 kHz tone is gone")
    #expect(abs(10 * log10(power(item.samples, at: 1_000) / power(tones, at: 1_000))) < 1, "the 1 kHz tone stays")
  }
  #expect(try builder.narrowband(items).allSatisfy { $0.condition == CorpusBuilder.narrowband }, "people's condition by default")
}

@Test("the bench's humming microphone adds a mains hum 10 dB under each other clip, the one DirectMe takes out")
func hummedClipsHum() throws {
  // A 200 Hz tone with silence around it: the hum comes out 10 dB under the tone, is found
  // at 50 or 60 Hz, and is cached (a second call gives the same samples).
  let tone = (0..<16_000).map { index in
    index >= 4_000 && index < 12_000 ? Int16(8_000 * sin(2 * Double.pi * 200 * Double(index) / 16_000)) : 0
  }
  let items = (0..<4).map { BenchItem(id: "tone \($0)", condition: "test", expected: [.up], samples: tone, speaker: "s") }
  let cache = try TestSupport.temporaryFolder("hummed")
  defer { try? FileManager.default.removeItem(at: cache) }
  let builder = CorpusBuilder(cache: cache)
  let hummed = try builder.hummed(items)
  #expect(hummed.map(\.id) == ["hum/tone 1", "hum/tone 3"], "every other item: the half overdriven takes")
  for item in hummed {
    #expect(item.condition == CorpusBuilder.hum && item.expected == [.up] && item.speaker == "s")
    let added = zip(item.samples, tone).map { Double($0) - Double($1) }
    let humPower = added.reduce(0) { $0 + $1 * $1 } / Double(added.count)
    let tonePower = 8_000.0 * 8_000 / 2
    #expect(abs(10 * log10(tonePower / humPower) - 10) < 0.5, "hum \(10 * log10(tonePower / humPower)) dB under the tone")
    let hum = try #require(MainsHum.hum(in: item.samples))
    #expect([50.0, 60.0].contains(hum.frequency))
  }
  #expect(try builder.hummed(items).map(\.samples) == hummed.map(\.samples))
}

/// A half-second tone with `padding` samples of digital silence before and after it, as an item
/// of each synthetic condition (the other phrases' without a command) and of one that is not.
func syntheticConditionsItems(padding: Int) -> (tone: [Int16], padded: [Int16], items: [BenchItem]) {
  let tone = (0..<8_000).map { index in Int16(4_000 * sin(2 * Double.pi * 300 * Double(index) / 16_000)) }
  let padded = [Int16](repeating: 0, count: padding) + tone + [Int16](repeating: 0, count: padding)
  let items = [CorpusBuilder.syntheticCommands, CorpusBuilder.syntheticCarriers, CorpusBuilder.syntheticOther, "people"]
    .enumerated().map { BenchItem(id: "voice/phrase \($0.offset)", condition: $0.element, expected: $0.offset == 2 ? [] : [.up], samples: padded) }
  return (tone, padded, items)
}

@Test("the bench's synthetic speech over a room's quiet: the synthetic commands and other phrases over white noise at -75 to -55 dBFS")
func syntheticOverRoomTone() throws {
  // A synthesizer pads its words with digital silence; through a microphone the padding is
  // the room's quiet. Only the synthetic conditions' items are copied, each over its own
  // level of noise (drawn from its name: the same every run).
  let (_, padded, items) = syntheticConditionsItems(padding: 4_000)
  let copies = CorpusBuilder.overRoomTone(items)
  #expect(copies.map(\.id) == ["room tone/voice/phrase 0", "room tone/voice/phrase 1", "room tone/voice/phrase 2"])
  #expect(copies.map(\.expected) == [[.up], [.up], []])
  for copy in copies {
    #expect(copy.condition == CorpusBuilder.syntheticOverRoomTone && copy.samples.count == padded.count)
    // The padding is the room's quiet now: not digital silence, and at -75 to -55 dBFS.
    let quiet = Array(copy.samples.prefix(4_000))
    let level = Signal.frameEnergies(quiet, length: quiet.count)[0]
    #expect(level > -76 && level < -54, "room tone at \(level) dBFS")
    #expect(quiet.contains { abs(Int($0)) > 1 })
  }
  #expect(Set(copies.map(\.samples)).count == 3, "each item over its own noise")
  #expect(CorpusBuilder.overRoomTone(items).map(\.samples) == copies.map(\.samples))
}

@Test("the bench's sequences over a room's quiet: every item copied over white noise at -75 to -55 dBFS, its commands kept")
func sequencesOverRoomTone() throws {
  // One speaker's clips joined with digital silence; through a microphone the pauses are the
  // room's quiet. Every item is copied, each over its own level (drawn from its name).
  let (_, padded, items) = syntheticConditionsItems(padding: 4_000)
  let sequences = items.map { BenchItem(id: "sequence/" + $0.id, condition: "sequences of 2-4, one speaker each", expected: [.up, .left], samples: $0.samples) }
  let copies = CorpusBuilder.sequencesOverRoomTone(sequences)
  #expect(copies.map(\.id) == sequences.map { "room tone/" + $0.id })
  #expect(copies.allSatisfy { $0.expected == [.up, .left] && $0.condition == CorpusBuilder.sequencesOverRoomTone })
  for copy in copies {
    #expect(copy.samples.count == padded.count)
    let quiet = Array(copy.samples.prefix(4_000))
    let level = Signal.frameEnergies(quiet, length: quiet.count)[0]
    #expect(level > -76 && level < -54, "room tone at \(level) dBFS")
  }
  #expect(Set(copies.map(\.samples)).count == copies.count, "each item over its own noise")
  #expect(CorpusBuilder.sequencesOverRoomTone(sequences).map(\.samples) == copies.map(\.samples))
}

@Test("the bench's synthetic speech as the synthesizer writes it: the synthetic items without the 300 ms of silence added around them")
func syntheticAsWritten() throws {
  let (tone, _, items) = syntheticConditionsItems(padding: Int(CorpusBuilder.speechPadding * 16_000))
  let copies = CorpusBuilder.asWritten(items)
  #expect(copies.map(\.id) == ["as written/voice/phrase 0", "as written/voice/phrase 1", "as written/voice/phrase 2"])
  #expect(copies.map(\.expected) == [[.up], [.up], []])
  for copy in copies {
    #expect(copy.condition == CorpusBuilder.syntheticAsWritten)
    #expect(copy.samples == tone, "the added silence gone, the speech whole")
  }
}

/// Where `scripts/setup.sh --voices` unpacks festival's 8 kHz voices.
let festival8k = TestSupport.repositoryRoot.appendingPathComponent("build/voices/festival-8k").path
let hasFestival8k =
  FileManager.default.fileExists(atPath: festival8k + "/usr/share/festival/voices/english/ked_diphone")
  && TestSupport.which("text2wave") != nil

@Test("the bench's festival 8 kHz voices: none without their folder")
func festival8kAbsent() throws {
  let cache = try TestSupport.temporaryFolder("festival-8k")
  defer { try? FileManager.default.removeItem(at: cache) }
  #expect(try CorpusBuilder(cache: cache).festival8k(folder: "/nonexistent").isEmpty)
}

@Test(
  "the bench's festival 8 kHz voices: every phrase by kal and ked, at their own 8 kHz",
  .enabled(if: hasFestival8k, "needs festival and its 8 kHz voices unpacked by scripts/setup.sh --voices"))
func festival8kVoices() throws {
  let folder = try TestSupport.temporaryFolder("festival-8k")
  defer { try? FileManager.default.removeItem(at: folder) }
  let items = try CorpusBuilder(cache: folder).festival8k(folder: festival8k)
  let phrases = CorpusBuilder.commandPhrases.count + CorpusBuilder.carrierPhrases.count + CorpusBuilder.otherPhrases.count
  #expect(items.count == 2 * phrases)
  #expect(Set(items.map(\.condition)) == [CorpusBuilder.festival8kCommands, CorpusBuilder.festival8kOther])
  // The voices' own 8 kHz: nothing above 4 kHz (the 16 kHz kal installed beside them is not used).
  let up = try #require(items.first { $0.id.hasSuffix("kal_diphone/up") })
  #expect(Bandwidth.of(up.samples)?.isNarrowband == true, "\(String(describing: Bandwidth.of(up.samples)))")
  #expect(up.expected == [.up] && up.samples.count > 8_000)
}

@Test(
  "the bench's flite kal items: every phrase in flite's default voice, which speaks at 8 kHz",
  .enabled(if: TestSupport.which("flite") != nil && TestSupport.which("sox") != nil, "needs flite and sox (scripts/setup.sh)"))
func fliteKalItems() throws {
  let folder = try TestSupport.temporaryFolder("flite-kal")
  defer { try? FileManager.default.removeItem(at: folder) }
  let items = try CorpusBuilder(cache: folder).fliteKal()
  #expect(items.count == CorpusBuilder.commandPhrases.count + CorpusBuilder.carrierPhrases.count + CorpusBuilder.otherPhrases.count)
  let commands = items.filter { $0.condition == CorpusBuilder.fliteKalCommands }
  #expect(commands.count == CorpusBuilder.commandPhrases.count + CorpusBuilder.carrierPhrases.count && commands.allSatisfy { !$0.expected.isEmpty })
  let up = try #require(items.first { $0.id == "flite:kal/up" })
  #expect(Bandwidth.of(up.samples)?.isNarrowband == true, "\(String(describing: Bandwidth.of(up.samples)))")
}

@Test("the bench's telephone prompts: single words of digits, letters and the phonetic alphabet, none naming a bracket's side")
func telephonePromptItems() throws {
  let folder = try TestSupport.temporaryFolder("telephone-prompts")
  defer { try? FileManager.default.removeItem(at: folder) }
  let cache = try TestSupport.temporaryFolder("telephone-prompts-cache")
  defer { try? FileManager.default.removeItem(at: cache) }
  #expect(try CorpusBuilder(cache: cache).telephonePrompts(folder: folder.path + "/absent").isEmpty)
  // Each file a tone of its own, so an item shows which file it was read from.
  let files = ["digits/7.wav", "letters/ascii123.wav", "letters/q.wav", "letters/ascii40.wav", "phonetic/d_p.wav", "vm-goodbye.wav", "digits/readme.txt"]
  for (index, file) in files.enumerated() {
    let path = folder.appendingPathComponent(file)
    try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Tools.write([Int16](repeating: Int16(100 * (index + 1)), count: 8_000), to: path.path)
  }
  let items = try CorpusBuilder(cache: cache).telephonePrompts(folder: folder.path)
  #expect(items.map(\.id) == ["telephone prompts/digits/7.wav", "telephone prompts/letters/q.wav", "telephone prompts/phonetic/d_p.wav"])
  #expect(items.map { $0.samples.first } == [100, 300, 500])
  #expect(items.allSatisfy { $0.condition == CorpusBuilder.telephonePrompts && $0.expected.isEmpty })
}

@Test("the bench's dishes clinking: 32 seeded clips of 1 and 3 s, ringing high and low, over silence and water, no command expected")
func clinksAloneItems() throws {
  let cache = try TestSupport.temporaryFolder("clinks")
  defer { try? FileManager.default.removeItem(at: cache) }
  let items = CorpusBuilder(cache: cache).clinksAlone()
  #expect(items.count == 32 && Set(items.map(\.id)).count == 32)
  #expect(items.allSatisfy { $0.condition == CorpusBuilder.clinksAlone && $0.expected.isEmpty })
  #expect(items.map(\.samples.count) == Array(repeating: 16_000, count: 24) + Array(repeating: 48_000, count: 8))
  // The same clips every run; each rings (loud peaks), over digital silence or water in turn.
  #expect(CorpusBuilder(cache: cache).clinksAlone().map(\.samples) == items.map(\.samples))
  #expect(items.allSatisfy { $0.samples.map { abs(Int($0)) }.max()! > 1000 })
  let silentShare = { (item: BenchItem) in Double(item.samples.count { $0 == 0 }) / Double(item.samples.count) }
  #expect(items.enumerated().allSatisfy { $0.offset % 2 == 1 ? silentShare($0.element) < 0.01 : silentShare($0.element) > 0.2 })
}

@Test("other words in noise: each item mixed with one noise, tap, bike, kitchen and babble in turn, no command expected; amid babble alone at 5 dB, the same")
func otherWordsInNoiseMixes() throws {
  let cache = try TestSupport.temporaryFolder("other-words-noise")
  defer { try? FileManager.default.removeItem(at: cache) }
  // Each noise a different steady level (one second, repeated), so a mix shows which was added.
  let levels: [CorpusBuilder.Noise: Int16] = [.tap: 100, .bike: 200, .kitchen: 300, .babble: 400]
  for (kind, level) in levels {
    try Tools.write((0..<16_000).map { $0 % 2 == 0 ? level : -level }, to: cache.appendingPathComponent("noise-\(kind.rawValue).wav").path)
  }
  let builder = CorpusBuilder(cache: cache)
  let speech = (0..<16_000).map { Int16(3000 * sin(Double($0) * 2 * .pi * 200 / 16_000)) }
  let items = (0..<5).map { BenchItem(id: "word\($0)", condition: "dev", expected: [], samples: speech) }
  // The added noise's power against the speech's.
  let noiseShare = { (item: BenchItem) in
    let added = zip(item.samples, speech).map { Double($0) - Double($1) }
    return added.map { $0 * $0 }.reduce(0, +) / speech.map { Double($0) * Double($0) }.reduce(0, +)
  }
  let mixed = try builder.otherWordsInNoise(items)
  #expect(mixed.map(\.id) == ["tap 10 dB/word0", "bike 10 dB/word1", "kitchen 10 dB/word2", "babble 10 dB/word3", "tap 10 dB/word4"])
  #expect(mixed.allSatisfy { $0.condition == CorpusBuilder.otherWordsInNoise && $0.expected.isEmpty })
  // Mixed 10 dB under the speech: the added noise's power is a tenth of the speech's, give or take.
  for item in mixed {
    let ratio = noiseShare(item)
    #expect(ratio > 0.05 && ratio < 0.2, "\(item.id): noise at \(10 * log10(ratio)) dB")
  }
  #expect(try builder.otherWordsInNoise(items).map(\.samples) == mixed.map(\.samples), "the same mixes every run")

  // Amid babble alone at 5 dB: the added noise's power about a third of the speech's.
  let amid = try builder.otherWordsAmidBabble(items)
  #expect(amid.map(\.id) == (0..<5).map { "babble 5 dB/word\($0)" })
  #expect(amid.allSatisfy { $0.condition == CorpusBuilder.otherWordsAmidBabble && $0.expected.isEmpty })
  for item in amid {
    let ratio = noiseShare(item)
    #expect(ratio > 0.2 && ratio < 0.6, "\(item.id): noise at \(10 * log10(ratio)) dB")
    #expect(Set(zip(item.samples, speech).map { abs(Double($0) - Double($1)).rounded() }).count <= 3, "\(item.id): babble's level only")
  }
  #expect(try builder.otherWordsAmidBabble(items).map(\.samples) == amid.map(\.samples), "the same mixes every run")
}

@Test("the bench's real people's babble: made once from the recordings given, the same every run, mixed alone at 10 and 5 dB")
func peopleBabbleMixes() throws {
  let cache = try TestSupport.temporaryFolder("people-babble")
  defer { try? FileManager.default.removeItem(at: cache) }
  // Six "people": tones of different pitches, half a second each.
  let recordings = try (0..<6).map { index in
    let path = cache.appendingPathComponent("other-\(index).wav").path
    try Tools.write((0..<8_000).map { Int16(4000 * sin(Double($0) * 2 * .pi * Double(150 + 40 * index) / 16_000)) }, to: path)
    return path
  }
  let builder = CorpusBuilder(cache: cache)
  #expect(throws: Tools.Failure.self) { try builder.peopleBabble(from: []) }
  let babble = try builder.peopleBabble(from: recordings.reversed())
  #expect(babble.count == 30 * 16_000)
  #expect(power(babble) > 1e6, "people talking, not silence")
  // Made once and kept; another cache, the same recordings in another order: the same babble.
  #expect(FileManager.default.fileExists(atPath: cache.appendingPathComponent("noise-people.wav").path))
  #expect(builder.noiseFingerprints().contains { $0.hasPrefix("people ") })
  let other = try TestSupport.temporaryFolder("people-babble-again")
  defer { try? FileManager.default.removeItem(at: other) }
  #expect(try CorpusBuilder(cache: other).peopleBabble(from: recordings) == babble)

  let speech = (0..<16_000).map { Int16(3000 * sin(Double($0) * 2 * .pi * 200 / 16_000)) }
  let commands = (0..<4).map { BenchItem(id: "up\($0)", condition: "dev", expected: [.up], samples: speech) }
  let others = (0..<4).map { BenchItem(id: "word\($0)", condition: "dev", expected: [], samples: speech) }
  for snr in [10.0, 5.0] {
    let mixed = builder.amidPeople(commands, babble: babble, snr: snr) + builder.amidPeople(others, babble: babble, snr: snr)
    #expect(mixed.map(\.id) == (0..<4).map { "people \(Int(snr)) dB/up\($0)" } + (0..<4).map { "people \(Int(snr)) dB/word\($0)" })
    #expect(mixed.prefix(4).allSatisfy { $0.condition == CorpusBuilder.amidPeople(commands: true, snr: snr) && $0.expected == [.up] })
    #expect(mixed.suffix(4).allSatisfy { $0.condition == CorpusBuilder.amidPeople(commands: false, snr: snr) && $0.expected.isEmpty })
    for item in mixed {
      let added = zip(item.samples, speech).map { Double($0) - Double($1) }
      let ratio = added.map { $0 * $0 }.reduce(0, +) / speech.map { Double($0) * Double($0) }.reduce(0, +)
      #expect(abs(10 * log10(ratio) + snr) < 3, "\(item.id): babble at \(10 * log10(ratio)) dB")
    }
    #expect(builder.amidPeople(commands, babble: babble, snr: snr).map(\.samples) == mixed.prefix(4).map(\.samples), "the same mixes every run")
  }
}

@Test("the bench's sequences: each a different list of clips while the speakers have any left, the same every run")
func benchSequencesDoNotRepeat() throws {
  let cache = try TestSupport.temporaryFolder("bench-sequences")
  defer { try? FileManager.default.removeItem(at: cache) }
  let builder = CorpusBuilder(cache: cache)
  // Six speakers with two commands each: 6 x 2 orders = 12 sequences of one speaker's clips.
  let directions: [Direction] = [.up, .down, .left, .right]
  var items: [BenchItem] = []
  for speaker in 0..<6 {
    for take in 0..<2 {
      let tone = (0..<4_000).map { Int16(3000 * sin(Double($0) * 2 * .pi * Double(200 + 50 * speaker + 20 * take) / 16_000)) }
      items.append(
        BenchItem(
          id: "train/x/s\(speaker)_\(take).wav", condition: "c", expected: [directions[(speaker + take) % 4]], samples: tone,
          speaker: "s\(speaker)"))
    }
  }
  let sequences = builder.sequences(from: items, count: 12, condition: "joined", oneSpeaker: true, pause: 0...0)
  let lists = sequences.map { $0.id.split(separator: ": ").last.map(String.init) ?? $0.id }
  #expect(Set(lists).count == 12, "every one of the 12 possible sequences once: \(lists)")
  for sequence in sequences {
    #expect(sequence.condition == "joined" && sequence.expected.count == 2)
    let names = lists[sequences.firstIndex { $0.id == sequence.id }!].split(separator: "+")
    #expect(names.allSatisfy { $0.hasPrefix("x/") }, "\(sequence.id): each clip with its word's folder")
    #expect(Set(names.map { $0.dropFirst(2).split(separator: "_").first! }).count == 1, "\(sequence.id): one speaker")
    let expected = names.map { name in items.first { $0.id.hasSuffix("/" + name) }!.expected[0] }
    #expect(sequence.expected == expected)
  }
  // More than there are: the rest repeat, and the run is the same every time.
  let more = builder.sequences(from: items, count: 20, condition: "joined", oneSpeaker: true, pause: 0...0)
  #expect(more.count == 20 && Set(more.map(\.samples)).count == 12)
  #expect(builder.sequences(from: items, count: 20, condition: "joined", oneSpeaker: true, pause: 0...0).map(\.samples) == more.map(\.samples))
}

/// The mean power of `samples` (sample units squared).
private func power(_ samples: some Collection<Int16>) -> Double {
  samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
}

@Test("the bench's children's games' recordings: voices and sounds told apart, English voices all, other voices, drums and Serbian variants thinned")
func gameRecordingItems() throws {
  let folder = try TestSupport.temporaryFolder("game-recordings")
  defer { try? FileManager.default.removeItem(at: folder) }
  let cache = try TestSupport.temporaryFolder("game-recordings-cache")
  defer { try? FileManager.default.removeItem(at: cache) }
  #expect(try CorpusBuilder(cache: cache).gameRecordings(folder: folder.path + "/absent").isEmpty)
  let english = [
    "ktuberling/sounds/en/eye.ogg", "klettres/en_GB/alpha/a.wav", "qabcs/abcs/en/sounds/words/top.ogg",
    "tuxpaint/stamps/animals/frog_desc.ogg", "tuxpaint/stamps/symbols/7.wav", "tuxpaint/stamps/symbols/q_filled_en_GB.wav",
  ]
  let sounds = ["tuxpaint/stamps/animals/frog.wav", "tuxpaint/stamps/household/glass.wav", "qabcs/abcs/all/noises/cow.ogg"]
  // Many other-language voices and drums, of which about one in 12 and one in 3 are kept.
  let others = (0..<120).map { "ktuberling/sounds/fr/word\($0).wav" }
  let drums = (0..<60).map { "hydrogen/data/drumkits/Kit/hit\($0).flac" }
  let skipped = ["ktuberling/sounds/sr@latin/eye.ogg", "ktuberling/sounds/en.soundtheme", "tuxpaint/stamps/animals/frog.png"]
  for (index, file) in (english + sounds + others + drums + skipped).enumerated() {
    let path = folder.appendingPathComponent(file)
    try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
    if file.hasSuffix(".ogg") || file.hasSuffix(".wav") || file.hasSuffix(".flac") {
      // WAV content whatever the name says: the reader goes by the content.
      try Tools.write([Int16](repeating: Int16(index + 1), count: 1_600), to: path.path)
    } else {
      try "not audio".write(to: path, atomically: true, encoding: .utf8)
    }
  }
  let items = try CorpusBuilder(cache: cache).gameRecordings(folder: folder.path)
  let voices = items.filter { $0.condition == CorpusBuilder.gameVoices }.map(\.id)
  let heard = items.filter { $0.condition == CorpusBuilder.gameSounds }.map(\.id)
  #expect(Set(english.map { "game voices/" + $0 }).isSubset(of: Set(voices)))
  #expect(Set(sounds.map { "game sounds/" + $0 }).isSubset(of: Set(heard)))
  let keptOthers = voices.filter { $0.contains("/fr/") }.count
  let keptDrums = heard.filter { $0.contains("hydrogen") }.count
  #expect((4...20).contains(keptOthers), "\(keptOthers) of 120 other-language voices")
  #expect((10...35).contains(keptDrums), "\(keptDrums) of 60 drums")
  #expect(!items.contains { $0.id.contains("sr@") || $0.id.hasSuffix(".png") || $0.id.hasSuffix(".soundtheme") })
  #expect(items.allSatisfy { $0.expected.isEmpty && $0.samples.count == 1_600 })
  // The same choice every run.
  #expect(try CorpusBuilder(cache: cache).gameRecordings(folder: folder.path).map(\.id) == items.map(\.id))
}

@Test("the bench's commands over real sounds: every fourth command over a game sound of a second or more, 2 s of it around, 10 dB under the speech; none without sounds")
func commandsOverRealSoundItems() throws {
  let cache = try TestSupport.temporaryFolder("real-sounds-cache")
  defer { try? FileManager.default.removeItem(at: cache) }
  let builder = CorpusBuilder(cache: cache)
  let speech = (0..<8000).map { Int16(clamping: Int(8000 * sin(Double($0) * 0.3))) }
  let commands = (0..<8).map { BenchItem(id: "c\($0)", condition: "x", expected: [.up], samples: speech) }
  let hit = [Int16](repeating: 0, count: 4000) + (0..<12000).map { Int16(clamping: Int(3000 * sin(Double($0) * 0.05))) }
  let sounds = [
    BenchItem(id: "game sounds/a/drum.wav", condition: CorpusBuilder.gameSounds, expected: [], samples: hit),
    BenchItem(id: "game sounds/a/short.wav", condition: CorpusBuilder.gameSounds, expected: [], samples: Array(hit.prefix(8000))),
    BenchItem(id: "game voices/a/word.wav", condition: CorpusBuilder.gameVoices, expected: [], samples: hit),
  ]
  #expect(builder.overRealSounds(commands, sounds: []).isEmpty)
  #expect(builder.overRealSounds(commands, sounds: Array(sounds.suffix(2))).isEmpty)
  let items = builder.overRealSounds(commands, sounds: sounds)
  #expect(items.map(\.id) == ["over drum.wav/c0", "over drum.wav/c4"])
  #expect(items.allSatisfy { $0.condition == CorpusBuilder.commandsOverRealSounds && $0.expected == [.up] })
  // 2 s of the sound before and after the command, under it.
  #expect(items.allSatisfy { $0.samples.count == 8000 + 64_000 })
  #expect(items.allSatisfy { $0.samples.prefix(32_000).contains { $0 != 0 } })
  #expect(builder.overRealSounds(commands, sounds: sounds).map(\.samples) == items.map(\.samples))
}

@Test("the bench's real ambience: landscapes' loops of 5 s or more, each once, cut into 3-s stretches; commands mixed over every fourth from the second at 10 and 5 dB")
func realAmbienceItems() throws {
  let folder = try TestSupport.temporaryFolder("ambience")
  defer { try? FileManager.default.removeItem(at: folder) }
  let cache = try TestSupport.temporaryFolder("ambience-cache")
  defer { try? FileManager.default.removeItem(at: cache) }
  let builder = CorpusBuilder(cache: cache)
  #expect(try builder.realAmbience(folder: folder.path + "/absent").isEmpty)
  let rain = (0..<(7 * Signal.rate)).map { Int16(clamping: Int(2000 * sin(Double($0) * 0.7))) }
  let files: [(String, [Int16])] = [
    ("forest/sounds/rain.ogg", rain),
    ("meadow/sounds/rain.wav", rain),  // the same loop in another landscape: read once
    ("meadow/sounds/owl.wav", Array(rain.prefix(2 * Signal.rate))),  // a short call: left out
    ("meadow/sounds/night.wav", rain.map { $0 / 2 }),
  ]
  for (file, samples) in files {
    let path = folder.appendingPathComponent(file)
    try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Tools.write(samples, to: path.path)
  }
  let ambience = try builder.realAmbience(folder: folder.path)
  #expect(ambience.map(\.name) == ["forest/rain.ogg", "meadow/night.wav"])
  let alone = CorpusBuilder.ambienceAlone(ambience)
  // 7 s: two whole 3-s stretches each.
  #expect(alone.map(\.id) == [
    "ambience/forest/rain.ogg from 0 s", "ambience/forest/rain.ogg from 3 s",
    "ambience/meadow/night.wav from 0 s", "ambience/meadow/night.wav from 3 s",
  ])
  #expect(alone.allSatisfy { $0.expected.isEmpty && $0.condition == CorpusBuilder.ambienceAlone && $0.samples.count == 3 * Signal.rate })
  #expect(alone[1].samples == Array(rain[(3 * Signal.rate)..<(6 * Signal.rate)]))

  let speech = [Int16](repeating: 0, count: 4000) + (0..<8000).map { Int16(clamping: Int(8000 * sin(Double($0) * 0.3))) }
  let commands = (0..<8).map { BenchItem(id: "c\($0)", condition: "x", expected: [.left], samples: speech) }
  #expect(CorpusBuilder.inAmbience(commands, ambience: []).isEmpty)
  let mixed = CorpusBuilder.inAmbience(commands, ambience: ambience)
  #expect(mixed.map(\.id) == ["forest/rain.ogg 10 dB/c1", "meadow/night.wav 10 dB/c5", "forest/rain.ogg 5 dB/c1", "meadow/night.wav 5 dB/c5"])
  #expect(mixed.map(\.condition) == [10, 10, 5, 5].map { CorpusBuilder.commandsInAmbience + ", \($0) dB SNR" })
  #expect(mixed.allSatisfy { $0.expected == [.left] && $0.samples.count == speech.count })
  // The ambience under the speech, louder at 5 dB than at 10 dB.
  let added = mixed.map { item in power(zip(item.samples, speech).map { Int16(clamping: Int($0) - Int($1)) }) }
  #expect(added.allSatisfy { $0 > 0 })
  #expect(added[2] > 2 * added[0] && added[3] > 2 * added[1])
  #expect(CorpusBuilder.inAmbience(commands, ambience: ambience).map(\.samples) == mixed.map(\.samples))
}

@Test("the bench's command then dishes clinking: each clink clip 1 s after one of the commands (every seventh in turn), which is what is expected")
func commandThenClinksItems() throws {
  let cache = try TestSupport.temporaryFolder("clinks-after-cache")
  defer { try? FileManager.default.removeItem(at: cache) }
  let clinks = CorpusBuilder(cache: cache).clinksAlone()
  let commands = (0..<10).map { index in
    BenchItem(
      id: "c\(index)", condition: "x", expected: [index % 2 == 0 ? .up : .left],
      samples: [Int16](repeating: Int16(index + 1), count: 8000), speaker: "s\(index)")
  }
  #expect(CorpusBuilder.commandsThenClinks(clinks, commands: []).isEmpty)
  let items = CorpusBuilder.commandsThenClinks(clinks, commands: commands)
  #expect(items.count == clinks.count)
  for (index, item) in items.enumerated() {
    let command = commands[(index * 7) % commands.count]
    #expect(item.condition == CorpusBuilder.commandThenClinks)
    #expect(item.expected == command.expected && item.speaker == command.speaker)
    #expect(item.id == "\(command.id) then \(clinks[index].id)")
    // The command, 1 s of silence, the clinks.
    #expect(item.samples == command.samples + [Int16](repeating: 0, count: Signal.rate) + clinks[index].samples)
  }
}
