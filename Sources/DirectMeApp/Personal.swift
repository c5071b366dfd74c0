import DirectMeAudio
import DirectMeCore
import DirectMeRecognizer
import DirectMeTraining
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// The user's saved settings: which acoustic model plain `directme` uses. A small JSON file
/// in `$XDG_CONFIG_HOME/directme` (or `~/.config/directme`).
public struct UserSettings: Codable, Hashable, Sendable {
  /// The personal model made by `directme personalize`.
  public var model: String?

  public init(model: String? = nil) { self.model = model }

  /// The settings file.
  public static var path: String {
    let environment = ProcessInfo.processInfo.environment
    let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config"
    return config + "/directme/settings.json"
  }

  /// Where personal models go by default: `$XDG_DATA_HOME/directme` (or `~/.local/share/directme`).
  public static var dataFolder: String {
    let environment = ProcessInfo.processInfo.environment
    let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? (environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.local/share"
    return data + "/directme"
  }

  /// The saved settings; none saved is the defaults. A broken file is an error naming it.
  public static func load() throws -> UserSettings {
    guard let data = FileManager.default.contents(atPath: path) else { return UserSettings() }
    do {
      return try JSONDecoder().decode(UserSettings.self, from: data)
    } catch {
      throw Failure("\(path): not a DirectMe settings file (\(error)); fix or delete it")
    }
  }

  public func save() throws {
    let folder = URL(fileURLWithPath: Self.path).deletingLastPathComponent()
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(self).write(to: URL(fileURLWithPath: Self.path), options: .atomic)
  }

  /// Forgets the saved settings.
  public static func reset() throws {
    if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
  }
}

/// `directme personalize DIR`: adapts the model in use to the recordings `directme enroll`
/// made (MLLR for a few minutes of audio, MAP for more), keeps its detector (or tunes one on
/// the recordings with `tune`), scores the recordings before and after, and saves the new
/// model as the user's default.
public struct PersonalizeJob {
  public var labels: String
  public var base: String
  public var dictionary: String
  public var grammar: String
  public var out: String
  public var tune: Bool
  public var save: Bool
  public var output: Output

  public init(
    labels: String, base: String, dictionary: String, grammar: String, out: String, tune: Bool, save: Bool,
    output: Output = .standard
  ) {
    self.labels = labels
    self.base = base
    self.dictionary = dictionary
    self.grammar = grammar
    self.out = out
    self.tune = tune
    self.save = save
    self.output = output
  }

  /// Command accuracy and other-speech false alarms of `model` on the recordings.
  func score(model: String, recordings: [LabelledAudio]) throws -> EnrollmentScore {
    try Self.score(model: model, dictionary: dictionary, grammar: grammar, recordings: recordings)
  }

  /// Command accuracy and other-speech false alarms of `model` (with its detector) on the
  /// recordings.
  public static func score(
    model: String, dictionary: String, grammar: String, recordings: [LabelledAudio]
  ) throws -> EnrollmentScore {
    let configuration = RecognizerConfiguration(acousticModel: model, dictionary: dictionary, grammar: grammar)
    let recognizer = try PocketSphinxRecognizer(configuration: configuration)
    let detectorPath = model + "/detector.json"
    let detector = FileManager.default.fileExists(atPath: detectorPath) ? try Detector.load(detectorPath) : .untrained
    let interpreter = Interpreter(
      settings: InterpreterSettings(detector: detector, otherVoices: try Detector.otherVoices(ofModel: model)))
    var result = EnrollmentScore()
    for recording in recordings {
      let heard = try replayFile(recording.path, recognizer: recognizer, interpreter: interpreter).get().0.directions
      if recording.expected.isEmpty {
        result.others += 1
        if !heard.isEmpty { result.falseAlarms += 1 }
      } else {
        result.commands += 1
        if heard == recording.expected { result.right += 1 }
      }
    }
    return result
  }

  /// MLLR (one transform of the whole model) or MAP (each sound of the model moved toward the
  /// speaker's own: a "down" said like "doon" becomes "down", but a minute of audio teaches it
  /// those recordings rather than the voice), chosen on recordings held out of adapting: every
  /// third recording (a take of each kind) is held out, both methods adapt `source` on the
  /// rest, and MAP is used only when it gets more of the held-out recordings right, at the
  /// speaker's own operating point, with no more false alarms.
  /// `detector` is the base model's (a model for routed voices has none of its own), as for
  /// choosing among the adapted models; without it (or with `tune`) the usual method.
  func adaptationMethod(
    from source: String, detector: Detector?, recordings: [LabelledAudio], work: URL
  ) throws -> AdaptationOptions.Method {
    let fallback: AdaptationOptions.Method = .auto
    guard let detector, recordings.count >= 9 else { return fallback }
    let heldOut = recordings.enumerated().filter { $0.offset % 3 == 2 }.map(\.element)
    let (training, _) = AdaptationItem.items(from: recordings.enumerated().filter { $0.offset % 3 != 2 }.map(\.element))
    var scores: [AdaptationOptions.Method: TuningScore] = [:]
    for method in [AdaptationOptions.Method.mllr, .map] {
      var options = AdaptationOptions(baseModel: source, dictionary: dictionary)
      options.method = method
      let folder = URL(fileURLWithPath: out + ".trial")
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: work)
      defer { try? FileManager.default.removeItem(at: folder) }
      let bar = StageProgress()
      do {
        _ = try ModelAdapter(options: options).adapt(training, output: folder, work: work) { progress in
          bar.update("trying \(method.rawValue.uppercased()) on two thirds: " + progress.stage, progress.done, progress.total)
        }
      } catch {
        // Too little audio without the held-out third: the usual method on all of it.
        bar.finish()
        return fallback
      }
      bar.finish()
      scores[method] = try personalPoint(folder.path, detector: detector, recordings: heldOut).after
    }
    guard let mllr = scores[.mllr], let map = scores[.map] else { return fallback }
    let useMAP = map.falseAlarmsPooled <= mllr.falseAlarmsPooled + 1e-9 && map.accuracy > mllr.accuracy + 1e-9
    output.line(
      "held-out third of your recordings, adapted from \(source): "
        + String(printf: "MLLR %.0f%% of the commands right, MAP %.0f%% -> ", mllr.accuracy * 100, map.accuracy * 100)
        + (useMAP ? "MAP" : "MLLR"))
    // MLLR when it won, whatever the amount of audio (`.auto` would take MAP above 10 minutes).
    return useMAP ? .map : .mllr
  }

  /// `detector` at the speaker's own operating point on `recordings` decoded by `model`: lower
  /// when that gets more of their commands right and none of their other phrases moves the
  /// ninja (see `DetectorTuner.personalOperatingPoint`).
  /// `warp`: every recording heard through a front end warped by it (nil: as the model hears
  /// each voice).
  func personalPoint(
    _ model: String, detector: Detector, recordings: [LabelledAudio], warp: Double? = nil
  ) throws -> (detector: Detector, before: TuningScore, after: TuningScore) {
    var warped = RecognizerConfiguration(acousticModel: model, dictionary: dictionary, grammar: grammar)
    warped.everyUtteranceWarp = warp
    let configuration = warped
    let decoded = try TuningDecoder().decode(
      recordings,
      makeListener: { CommandListener(recognizer: try PocketSphinxRecognizer(configuration: configuration)) },
      progress: { _, _ in }, failed: { _, _ in })
    return DetectorTuner.personalOperatingPoint(base: detector, recordings: decoded)
  }

  /// The warps tried for the enrolled voice (sphinxbase's inverse linear warp, frequencies
  /// divided by the factor): about 1,200, 900, 600 and 300 cents down, 300, 600 and 900 up,
  /// and the child's warp (`VoiceWarp.childFactor`, about 1,020 up). Measured 2026-12-08
  /// (stop 136, `directme-bench enroll`, four real people's voices shifted 600 cents down):
  /// 0.71 the lowest, 23 errors of 81; 0.59, 19; 0.5, 16. 2.0 beside 1.8 changed nothing at
  /// 600 cents up (17 of 81), and is not tried.
  public static let warpCandidates: [Double] = [0.5, 0.59, 0.71, 0.84, 1.19, 1.41, 1.68, VoiceWarp.childFactor]
  /// How many fewer of the enrollment's recordings a warp must get wrong than the model as it
  /// hears every voice, at least, and as a share of the recordings: a voice the model hears
  /// well keeps being heard as it is (a warp that fixes one take of 25 is chance).
  public static let clearGain = (recordings: 3, share: 0.1)

  /// The fewest errors fewer that `clearGain` asks on `recordings` recordings.
  public static func clearGain(recordings: Int) -> Int {
    max(clearGain.recordings, Int((Double(recordings) * clearGain.share).rounded(.up)))
  }

  /// The warp the enrolled voice is heard best through, nil when none is clearly better than
  /// `base` as it hears every voice (its own `VoiceWarp` per utterance): each candidate scores
  /// the recordings with `base`'s detector as it is (see `chosenWarp`). Also what each did, and
  /// `base`'s personal point with the warp kept (`personalPoint`, not decoded again).
  func ownerWarp(
    detector: Detector, recordings: [LabelledAudio]
  ) throws -> (factor: Double?, tried: String, point: (detector: Detector, before: TuningScore, after: TuningScore)) {
    let bar = StageProgress()
    let total = Self.warpCandidates.count + 1
    bar.update("trying warps for your voice", 0, total)
    let asHeard = try personalPoint(base, detector: detector, recordings: recordings)
    let asItIs = asHeard.before.errors
    // No warp can make `clearGain` fewer errors than a voice heard this well makes.
    guard asItIs >= Self.clearGain(recordings: recordings.count) else {
      bar.finish()
      output.line("your voice is heard as it is (\(asItIs) errors of \(recordings.count) recordings: no warp tried)")
      return (nil, "none: \(asItIs) errors of \(recordings.count) recordings as heard", asHeard)
    }
    var points: [(detector: Detector, before: TuningScore, after: TuningScore)] = []
    for (index, factor) in Self.warpCandidates.enumerated() {
      bar.update("trying warps for your voice", index + 1, total)
      points.append(try personalPoint(base, detector: detector, recordings: recordings, warp: factor))
    }
    bar.finish()
    let tried = zip(Self.warpCandidates, points).map { (factor: $0, errors: $1.before.errors) }
    let chosen = Self.chosenWarp(asItIs: asItIs, tried: tried, recordings: recordings.count)
    let summary =
      "errors of \(recordings.count) recordings: as heard \(asItIs), "
      + tried.map { String(printf: "%.2f: %d", $0.factor, $0.errors) }.joined(separator: ", ")
    output.line(
      "warps tried for your voice (\(summary))"
        + (chosen.map { String(printf: " -> your voice is heard through a warp of %.2f", $0) } ?? " -> as it is"))
    let point = chosen.flatMap { Self.warpCandidates.firstIndex(of: $0) }.map { points[$0] } ?? asHeard
    return (chosen, summary, point)
  }

  /// The warp with the fewest errors on the enrollment's recordings (the nearer 1 of two
  /// alike), when it makes `clearGain` fewer than the model as it hears every voice (`asItIs`).
  public static func chosenWarp(asItIs: Int, tried: [(factor: Double, errors: Int)], recordings: Int) -> Double? {
    guard let best = tried.min(by: { ($0.errors, abs(log($0.factor))) < ($1.errors, abs(log($1.factor))) }) else { return nil }
    let needed = clearGain(recordings: recordings)
    return asItIs - best.errors >= needed ? best.factor : nil
  }

  public func run() throws {
    let (recordings, problems) = try LabelledAudioReader.read([labels])
    for problem in problems { output.warning("\(programName): error: \(problem)") }
    if !problems.isEmpty { throw Failure.problems(problems.count, in: labels, "nothing was adapted") }
    let (items, _) = AdaptationItem.items(from: recordings)
    guard !items.isEmpty else { throw Failure("\(labels): no recordings with their words to adapt on") }

    output.warning("personalize: scoring the recordings with \(base)")
    let before = try score(model: base, recordings: recordings)

    // Adapted from the base model, and (without --tune) also from the base's model for routed
    // voices (synthetic speech): whichever does best on the recordings is kept.
    let routing = try VoiceRouting.load(modelFolder: base)
    let outURL = URL(fileURLWithPath: out)
    let staging = URL(fileURLWithPath: out + ".new")
    let work = URL(fileURLWithPath: out + ".work")
    try? FileManager.default.removeItem(at: staging)
    try? FileManager.default.removeItem(at: work)
    defer { try? FileManager.default.removeItem(at: work) }
    try FileManager.default.createDirectory(at: outURL.deletingLastPathComponent(), withIntermediateDirectories: true)
    // The base model's detector, at the speaker's own operating point (without --tune: a full
    // `tune` needs more recordings than an enrollment usually has).
    let baseDetector = base + "/detector.json"
    let detector = !tune && FileManager.default.fileExists(atPath: baseDetector) ? try Detector.load(baseDetector) : nil
    // A voice far from the model's people is heard through a warp of its own, applied when the
    // voice check says it is the owner's (so only with one); the model is then kept as it is:
    // measured on four real people's voices shifted 600 cents up, the warp brought their errors
    // from 25 to 14 of 81 test recordings, adapting on their warped recordings too to 15.
    let population = try VoicePopulation.load(modelFolder: base)
    let warping = try detector.flatMap { population == nil ? nil : try ownerWarp(detector: $0, recordings: recordings) }
    let warp = warping?.factor
    let sources = warp != nil ? [] : [base] + (tune ? [] : routing.map { [$0.modelPath(in: base)] } ?? [])
    let methods = try sources.map { try adaptationMethod(from: $0, detector: detector, recordings: recordings, work: work) }
    var adaptations: [(source: String, folder: URL, summary: AdaptationSummary)] = []
    for (index, source) in sources.enumerated() {
      var options = AdaptationOptions(baseModel: source, dictionary: dictionary)
      options.method = methods[index]
      let folder = index == 0 ? staging : URL(fileURLWithPath: out + ".new\(index)")
      try? FileManager.default.removeItem(at: folder)
      try? FileManager.default.removeItem(at: work)
      let bar = StageProgress()
      let summary = try ModelAdapter(options: options).adapt(items, output: folder, work: work) { progress in
        bar.update(progress.stage, progress.done, progress.total)
      }
      bar.finish()
      adaptations.append((source, folder, summary))
    }
    defer { for extra in adaptations.dropFirst() { try? FileManager.default.removeItem(at: extra.folder) } }
    var summary = adaptations.first?.summary
    var keptAdaptation = true
    var adaptedFromRouted = false
    if let detector {
      func better(_ a: TuningScore, than b: TuningScore) -> Bool {
        a.falseAlarmsPooled < b.falseAlarmsPooled - 1e-9
          || abs(a.falseAlarmsPooled - b.falseAlarmsPooled) < 1e-9 && a.accuracy > b.accuracy + 1e-9
      }
      // Adapting on a minute of audio can also make things worse (a voice whose "up" the
      // adapted model reads as "up up"): an adapted model is kept only when it does better
      // on the recordings than the base model as it is (routing included), each at the
      // speaker's own point. (Asking it to do so by `clearGain`, as a warp must, changed one
      // of `directme-bench enroll`'s choices and no test recording: stop 136.)
      var personal = try warping?.point ?? personalPoint(base, detector: detector, recordings: recordings, warp: warp)
      var chosen: Int?
      for (index, adaptation) in adaptations.enumerated() {
        let candidate = try personalPoint(adaptation.folder.path, detector: detector, recordings: recordings)
        if better(candidate.after, than: personal.after) {
          personal = candidate
          chosen = index
        }
      }
      if let chosen {
        if chosen > 0 {
          try FileManager.default.removeItem(at: staging)
          try FileManager.default.moveItem(at: adaptations[chosen].folder, to: staging)
          summary = adaptations[chosen].summary
          adaptedFromRouted = true
          output.line("your voice is heard best by a model adapted from \(adaptations[chosen].source)")
        }
      } else {
        keptAdaptation = false
        if warp == nil {
          output.line(
            String(
              printf: "no adapted acoustic model did better on your recordings (%.0f%% of the commands right as it is): ",
              personal.after.accuracy * 100) + "keeping \(base)'s, at your own operating point")
        }
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        for file in ["means", "variances", "sendump", "mixture_weights", "mllr_matrix", "transition_matrices", "mdef", "feat.params", "noisedict"] {
          let target = staging.appendingPathComponent(file).path
          try? FileManager.default.removeItem(atPath: target)
          if let source = AcousticModelFiles.path(of: file, in: base) {
            try FileManager.default.copyItem(atPath: source, toPath: target)
          }
        }
        // The base as it is routes voices to their own models: so does this copy.
        try routing?.withModelPaths(in: base).write(toFolder: staging.path)
      }
      // The base model's second opinion (see `Detector.SecondOpinion`) is not asked about a
      // model adapted to its owner's voice: that model is to hear them better than the base.
      var written = personal.detector
      written.secondOpinion = nil
      try written.json().write(to: staging.appendingPathComponent("detector.json"), options: .atomic)
      output.line(
        String(printf: "operating point: %.2f (DirectMe's: %.2f)", personal.detector.threshold, detector.threshold)
          + (personal.detector.threshold < detector.threshold ? "; lower for your voice, none of your other phrases moves the ninja" : ""))
    }
    if tune {
      let tuning = TuningOptions()
      try TuningJob(
        labels: [labels], out: staging.appendingPathComponent("detector.json").path, checkShare: 0, options: tuning,
        noise: nil, cache: nil, report: nil, jobs: 1,
        configuration: RecognizerConfiguration(acousticModel: staging.path, dictionary: dictionary, grammar: grammar)
      ).run(output: output)
    }
    // The voice check: other people's utterances are decided by the base model, as if
    // there were no personal model (it is made for one voice, and hears other people's other
    // words as commands more often).
    if let population {
      let statistics = try Self.voiceStatistics(recordings.map(\.path), model: staging.path)
      if var profile = VoiceProfile.enroll(
        statistics.means, recordings: statistics.routing, references: routing, population: population, otherVoicesModel: base)
      {
        if adaptedFromRouted { profile.routedOnly = true }
        profile.warp = warp
        if let warping { profile.notes["warps tried"] = warping.tried }
        try profile.json().write(to: staging.appendingPathComponent(VoiceProfile.fileName), options: .atomic)
        let nearer = profile.recordingsMargin.map {
          String(printf: ", and at most %.2f farther from your recordings than from other voices',", $0)
        } ?? ""
        output.line(
          String(printf: "voice check: utterances within %.2f of your recordings' voice", profile.threshold)
            + "\(nearer) use your model, others \(base)'s (\(profile.notes["enrollment distances"] ?? ""))")
      } else {
        output.line(
          "voice check: not enough usable recordings; your model decides every voice"
            + (warp == nil ? "" : ", each as it is (a warp for your voice needs the voice check)"))
      }
    } else {
      output.line("voice check: \(base) has no \(VoicePopulation.fileName); your model decides every voice")
    }
    output.warning("personalize: scoring the recordings with the new model")
    let after = try score(model: staging.path, recordings: recordings)
    // Replace the old personal model only now that the new one works.
    try? FileManager.default.removeItem(at: outURL)
    try FileManager.default.moveItem(at: staging, to: outURL)

    func line(_ name: String, _ score: EnrollmentScore) -> String {
      "\(name): commands \(score.right)/\(score.commands) right, other phrases \(score.falseAlarms)/\(score.others) moved the ninja"
    }
    if keptAdaptation, let summary {
      output.line(
        "adapted \(summary.baseModel) by \(summary.method.uppercased()) on \(summary.recordings) recordings (\((summary.seconds / 60).formatted(digits: 1)) min) -> \(out)")
    } else {
      let warped = warp.map { String(printf: ", your voice's warp %.2f", $0) } ?? ""
      output.line("your model (\(base)'s acoustic model, your operating point\(warped)) -> \(out)")
    }
    output.line(line("before", before) + " (the enrollment recordings themselves: a check, not a measure)")
    output.line(line("after ", after))
    if save {
      var settings = try UserSettings.load()
      settings.model = out
      try settings.save()
      output.line("saved in \(UserSettings.path): plain `directme` now uses your model; `--no-personal-model` or `directme personalize --reset` go back")
    }
  }
}

extension PersonalizeJob {
  /// The voice statistics of each recording through `model`'s front end: the voice check's
  /// (`VoiceStatistic.of`) and the routing's (`VoiceStatistic.routing`), each leaving out a
  /// recording too short to tell. Each recording is read, and its cepstra computed, once.
  public static func voiceStatistics(_ paths: [String], model: String) throws -> (means: [[Double]], routing: [[Double]]) {
    let features = try VoiceFeatures(model: model)
    var means: [[Double]] = []
    var routing: [[Double]] = []
    for path in paths {
      let samples = try AudioFileSource.readAll(path: path)
      let cepstra = features.cepstra(samples)
      if let statistic = VoiceStatistic.of(cepstra) { means.append(statistic) }
      if let statistic = VoiceFeatures.routingStatistic(cepstra, of: samples) { routing.append(statistic) }
    }
    return (means, routing)
  }
}

/// How a model does on a voice's recordings.
public struct EnrollmentScore: Hashable, Sendable {
  public var right = 0
  public var commands = 0
  public var falseAlarms = 0
  public var others = 0
  public init() {}
  /// Recordings handled wrongly: commands not exactly right, other speech that moved the ninja.
  public var errors: Int { commands - right + falseAlarms }
  public var total: Int { commands + others }

  /// Two scores together, as one set of recordings.
  public static func + (lhs: Self, rhs: Self) -> Self {
    var sum = lhs
    sum.right += rhs.right
    sum.commands += rhs.commands
    sum.falseAlarms += rhs.falseAlarms
    sum.others += rhs.others
    return sum
  }
}
