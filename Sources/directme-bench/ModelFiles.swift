import ArgumentParser
import DirectMeApp
import DirectMeAudio
import DirectMeBench
import DirectMeCommandLine
import DirectMeCore
import DirectMeRecognizer
import DirectMeSystem
import DirectMeTraining
import Foundation

/// Writes the room noises DirectMe adapts, tunes and benchmarks with.
struct NoiseFiles: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "noises",
    abstract: "Write synthetic room noises (white, pink, brown, tap, bike, kitchen), and babble from real recordings, as WAV files.",
    discussion: "For 'directme adapt --noise' and 'directme tune --noise'. Seeded: the same seed gives the same files."
  )

  @Option(help: ArgumentHelp("The folder to write them to.", valueName: "folder"))
  var out: String

  @Option(help: "Seconds of each noise.")
  var seconds: Double = 60

  @Option(help: "How many different recordings of each noise.")
  var variants: Int = 2

  @Option(help: "Seed of the random numbers.")
  var seed: UInt64 = 1

  @Option(
    help: ArgumentHelp(
      "Also write babble (six people talking) made from the non-command recordings of this labels file.",
      valueName: "labels.tsv"))
  var babbleFrom: String?

  @Option(help: "How many different babble recordings.")
  var babbleVariants: Int = 4

  func validate() throws {
    guard seconds >= 1, seconds <= 3600 else { throw ValidationError("--seconds must be between 1 and 3600") }
    guard variants >= 1 else { throw ValidationError("--variants must be 1 or more") }
  }

  func run() throws {
    try reportingErrors {
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      for room in Signal.Room.allCases {
        for variant in 0..<variants {
          let samples = room.recording(variant, seconds: seconds, seed: seed)
          let path = URL(fileURLWithPath: out).appendingPathComponent("\(room.rawValue)-\(variant + 1).wav").path
          try Tools.write(samples, to: path)
          print(path)
        }
      }
      if let babbleFrom {
        let (recordings, problems) = try LabelledAudioReader.read([babbleFrom])
        if let problem = problems.first { throw Failure("\(babbleFrom): \(problem)") }
        let others = recordings.filter(\.expected.isEmpty).map(\.path)
        guard !others.isEmpty else { throw Failure("\(babbleFrom): no non-command recordings to make babble from") }
        var random = Signal.Random(seed: seed &* 7_919)
        let progress = ProgressBar(total: babbleVariants, label: "babble")
        for variant in 0..<babbleVariants {
          // 400 clips a variant: enough for six talkers for a minute.
          let samples = try Tools.babble(fromFiles: others, seconds: seconds, random: &random)
          let path = URL(fileURLWithPath: out).appendingPathComponent("babble-\(variant + 1).wav").path
          try Tools.write(samples, to: path)
          progress.update(variant + 1)
          progress.interrupt { print(path) }
        }
        progress.finish()
      }
    }
  }
}

/// Writes the labels files DirectMe's model is built from.
struct TrainingLabels: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "training-labels",
    abstract: "Split the Speech Commands training set by speaker into labels files for adapt, tune and checking.",
    discussion: """
      Writes adaptation.tsv (for 'directme adapt'), tuning.tsv (for 'directme tune', which holds \
      out its checking speakers itself with --check-share \(TrainingSet.checkingShare)) and \
      checking.tsv (those held-out speakers alone, for 'directme score'), each line \
      path<TAB>directions<TAB>words<TAB>speaker.
      """
  )

  @Option(help: ArgumentHelp("The training set (manifest.tsv, labels.tsv).", valueName: "folder"))
  var data: String = Resources.path("../shared/data/speech-commands-train")

  @Option(help: ArgumentHelp("Where to write the labels files.", valueName: "folder"))
  var out: String

  func run() throws {
    try reportingErrors {
      let clips = try TrainingSet.read(URL(fileURLWithPath: data))
      try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
      let parts = Dictionary(grouping: clips) { TrainingSet.part(of: $0.speaker) }
      let files: [(String, [LabelledAudio])] = [
        ("adaptation.tsv", parts[.adaptation] ?? []),
        ("tuning.tsv", (parts[.tuning] ?? []) + (parts[.checking] ?? [])),
        ("checking.tsv", parts[.checking] ?? []),
      ]
      for (name, part) in files {
        let path = URL(fileURLWithPath: out).appendingPathComponent(name)
        try TrainingSet.labels(part).write(to: path, atomically: true, encoding: .utf8)
        let speakers = Set(part.map(\.speaker)).count
        print("\(path.path): \(part.count) clips, \(part.filter { !$0.expected.isEmpty }.count) with a command, \(speakers) speakers")
      }
    }
  }
}

/// Writes synthetic recordings for adaptation and their labels file.
struct SyntheticLabels: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "synthetic-labels",
    abstract: "Synthesize commands and other words for adaptation (espeak-ng, flite) with a labels file.",
    discussion: """
      Voices, rates and pitches differ from the accuracy benchmark's synthetic corpus. Writes the \
      WAV files to the folder and synthetic.tsv (path<TAB>directions<TAB>words<TAB>voice) for \
      'directme adapt'.
      """
  )

  @Option(help: ArgumentHelp("Where to write the recordings and synthetic.tsv.", valueName: "folder"))
  var out: String

  @Option(help: ArgumentHelp("Command phrases each voice says (in turn through the list).", valueName: "count"))
  var commandsPerVoice: Int = 6

  @Option(help: ArgumentHelp("Other words and phrases each voice says.", valueName: "count"))
  var othersPerVoice: Int = 6

  @Option(help: ArgumentHelp("espeak-ng voices per variant (each with its own accent, rate and pitch).", valueName: "count"))
  var rounds: Int = 2

  @Option(
    help: ArgumentHelp(
      "Also every N-th clip as an 8 kHz link gives it, in synthetic-narrowband.tsv (0: none).", valueName: "N"))
  var narrowbandEvery: Int = 0

  func validate() throws {
    guard narrowbandEvery >= 0 else { throw ValidationError("--narrowband-every must be 0 or more") }
  }

  func run() throws {
    try reportingErrors {
      let folder = URL(fileURLWithPath: out)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let builder = CorpusBuilder(cache: folder) { FileHandle.standardError.write(Data("synthetic-labels: \($0)\n".utf8)) }
      let clips = try builder.adaptationClips(commandsPerVoice: commandsPerVoice, othersPerVoice: othersPerVoice, rounds: rounds)
      let labels = clips.map {
        LabelledAudio(path: $0.path, expected: $0.expected, transcript: $0.words, speaker: $0.speaker)
      }
      let path = folder.appendingPathComponent("synthetic.tsv")
      try TrainingSet.labels(labels).write(to: path, atomically: true, encoding: .utf8)
      print("\(path.path): \(labels.count) clips, \(labels.filter { !$0.expected.isEmpty }.count) with a command, \(Set(labels.map(\.speaker)).count) voices")
      // A synthetic voice on a telephone or Bluetooth link (or festival's 8 kHz voices) has
      // nothing above 4 kHz; in a file of its own, so that routing's references stay those
      // of synthetic.tsv.
      guard narrowbandEvery > 0 else { return }
      var narrowband: [LabelledAudio] = []
      for (index, clip) in labels.enumerated() where index % narrowbandEvery == 0 {
        let file = folder.appendingPathComponent("8k-" + (clip.path as NSString).lastPathComponent)
        if !FileManager.default.fileExists(atPath: file.path) {
          try Tools.write(VoiceRoutingFile.narrowband(try Tools.samples(clip.path)), to: file.path)
        }
        narrowband.append(LabelledAudio(path: file.path, expected: clip.expected, transcript: clip.transcript, speaker: clip.speaker))
      }
      let narrowbandPath = folder.appendingPathComponent("synthetic-narrowband.tsv")
      try TrainingSet.labels(narrowband).write(to: narrowbandPath, atomically: true, encoding: .utf8)
      print("\(narrowbandPath.path): \(narrowband.count) clips through 8 kHz")
    }
  }
}

/// Writes how people's voices vary (`voices.json`), for personal models' voice checks.
struct VoiceStatistics: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "voices",
    abstract: "Measure how utterances' mean cepstra vary between people (voices.json beside a model).",
    discussion: """
      Reads the recordings of labels files (path<TAB>...), measures each one's voice statistic \
      through the model's front end, and writes their spread: 'directme personalize' scales \
      its voice check by it (see VoiceProfile).
      """
  )

  @Argument(help: ArgumentHelp("Labels files of many people's recordings.", valueName: "labels"))
  var labels: [String]

  @Option(help: ArgumentHelp("The model whose front end measures (default: DirectMe's).", valueName: "folder"))
  var model: String = Resources.defaultModel

  @Option(help: ArgumentHelp("Where to write the statistics (default: voices.json in the model folder).", valueName: "file"))
  var out: String?

  @Option(help: ArgumentHelp("Also write each recording's statistic here (path, then 12 numbers, tab-separated).", valueName: "file"))
  var dump: String?

  func run() throws {
    try reportingErrors {
      let (recordings, problems) = try LabelledAudioReader.read(labels)
      for problem in problems { warn("voices: \(problem)") }
      guard !recordings.isEmpty else { throw Failure("\(labels.joined(separator: ", ")): no recordings") }
      let features = try VoiceFeatures(model: model)
      var rows: [String] = []
      var statistics: [[Double]] = []
      for (index, recording) in recordings.enumerated() {
        if let statistic = features.statistic(try AudioFileSource.readAll(path: recording.path)) {
          statistics.append(statistic)
          rows.append(([recording.path] + statistic.map { String(format: "%.4f", $0) }).joined(separator: "\t"))
        }
        if index % 500 == 499 { warn("voices: \(index + 1) of \(recordings.count)") }
      }
      if let dump { try (rows.joined(separator: "\n") + "\n").write(toFile: dump, atomically: true, encoding: .utf8) }
      let speakers = Set(recordings.map(\.speaker)).count
      guard
        let population = VoicePopulation.measure(
          statistics,
          notes: [
            "recordings": "\(statistics.count) of \(speakers) speakers",
            "made by": "directme-bench voices \(labels.map { ($0 as NSString).lastPathComponent }.joined(separator: " "))",
          ])
      else { throw Failure("too few recordings long enough to measure") }
      let path = out ?? model + "/" + VoicePopulation.fileName
      try population.json().write(to: URL(fileURLWithPath: path), options: .atomic)
      print("\(path): the voice statistic of \(statistics.count) recordings of \(speakers) speakers")
    }
  }
}

/// Learns how far a voice lies above or below the model's people (`warp.json` beside the model).
struct VoiceWarpFile: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "warp",
    abstract: "Write warp.json: how far an utterance's voice lies above or below the model's people, for the final pass to hear it as theirs.",
    discussion: """
      Shifts recordings of the labels files by known amounts (sox's pitch, formants and pitch \
      together, as a shorter or longer vocal tract), measures each copy's mean cepstrum over its \
      loudest frames through the model's front end, and fits a linear model from it to the \
      shift in cents (see VoiceWarp). The final pass then hears a voice predicted beyond the \
      dead zone through a filterbank warped by as much.
      """
  )

  @Argument(help: ArgumentHelp("Labels files of the model's people's recordings (path<TAB>...).", valueName: "labels"))
  var labels: [String]

  @Option(help: ArgumentHelp("The model whose front end measures (default: DirectMe's).", valueName: "folder"))
  var model: String = Resources.defaultModel

  @Option(help: ArgumentHelp("Where to write the warp (default: warp.json in the model folder).", valueName: "file"))
  var out: String?

  @Option(help: "How many recordings to shift (picked at random, seeded).")
  var recordings: Int = 700

  // Unconditional: the list may start with a minus sign ("--cents -300,0,300"), which would
  // otherwise be taken for an option and refused as a missing value.
  @Option(parsing: .unconditional, help: ArgumentHelp("The shifts, in cents, comma-separated.", valueName: "list"))
  var cents: String = "-300,-200,-100,0,100,200,300"

  @Option(help: "Predictions within this many cents of 0 leave the voice as it is.")
  var deadZone: Double = 100

  @Option(help: "Predictions are held within this many cents either way.")
  var limit: Double = 300

  @Option(help: "Warps are rounded to steps of this many cents.")
  var step: Double = 25

  @Option(help: "The share of each recording's frames (the loudest) its statistic is taken over.")
  var loudShare: Double = 0.25

  @Option(help: "Mel filters of the front end that measures (its other options are the model's).")
  var filters: Int = 40

  @Option(help: "Cepstral coefficients of that front end (the statistic: all but c0).")
  var coefficients: Int = 40

  @Option(help: "Seed of the random pick.")
  var seed: UInt64 = 1

  func shifts() throws -> [Double] {
    let values = cents.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard !values.isEmpty, values.allSatisfy({ $0 != nil && abs($0!) <= 1200 }) else {
      throw ValidationError("--cents takes numbers of cents within 1200 either way, comma-separated (got \(cents))")
    }
    let shifts = values.map { $0! }
    guard Set(shifts).count >= 2 else { throw ValidationError("--cents needs at least two different shifts (got \(cents))") }
    return shifts
  }

  func validate() throws {
    _ = try shifts()
    guard recordings >= 20 else { throw ValidationError("--recordings must be 20 or more") }
    // What warp.json may hold, checked where it is read (`VoiceWarp.problem`).
    if let problem = emptyWarp.problem {
      throw ValidationError("--coefficients, --filters, --loud-share, --dead-zone, --limit, --step: \(problem)")
    }
  }

  /// The warp these options describe, its model not fitted yet (coefficients 0).
  var emptyWarp: VoiceWarp {
    VoiceWarp(
      coefficients: [Double](repeating: 0, count: max(0, coefficients - 1)), intercept: 0, filters: filters, cepstra: coefficients,
      loudShare: loudShare, deadZone: deadZone, limit: limit, step: step)
  }

  func run() throws {
    try reportingErrors {
      let shifts = try self.shifts()
      let (read, problems) = try LabelledAudioReader.read(labels)
      for problem in problems { warn("warp: \(problem)") }
      guard !read.isEmpty else { throw Failure("\(labels.joined(separator: ", ")): no recordings") }
      var random = Signal.Random(seed: seed)
      let picked = Array(read.shuffled(using: &random).prefix(recordings))
      var warp = emptyWarp
      let features = try VoiceFeatures(model: model, overriding: warp.frontEndOptions)
      let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("directme-warp-\(getpid())")
      try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: scratch) }
      var examples: [(statistic: [Double], cents: Double)] = []
      let progress = ProgressBar(total: picked.count, label: "warp")
      for (index, recording) in picked.enumerated() {
        for shift in shifts {
          var path = recording.path
          if shift != 0 {
            path = scratch.appendingPathComponent("shifted.wav").path
            _ = try Tools.run(["sox", "-R", recording.path, path, "pitch", String(format: "%.0f", shift)])
          }
          let samples = try AudioFileSource.readAll(path: path)
          if let statistic = VoiceWarp.statistic(features.cepstra(samples), count: coefficients, loudShare: loudShare) {
            examples.append((statistic, shift))
          }
        }
        progress.update(index + 1)
      }
      progress.finish()
      guard let (coefficients, intercept) = VoiceWarp.fit(examples) else {
        throw Failure("too few recordings long enough to measure (\(examples.count) copies)")
      }
      warp.coefficients = coefficients
      warp.intercept = intercept
      // How well it tells the shifts apart on the copies it was fitted to.
      var lines: [String] = []
      for shift in shifts.sorted() {
        let statistics = examples.filter { $0.cents == shift }.map(\.statistic)
        guard !statistics.isEmpty else { continue }
        let predicted = statistics.map(warp.prediction)
        let mean = predicted.reduce(0, +) / Double(predicted.count)
        let spread = (predicted.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(predicted.count)).squareRoot()
        let warped = Double(statistics.filter { warp.factor(cents: warp.cents(statistic: $0)) != 1 }.count) / Double(predicted.count)
        lines.append(String(format: "%+.0f cents: predicted %+.0f (sd %.0f), %.0f%% warped", shift, mean, spread, 100 * warped))
      }
      warp.notes = [
        "recordings": "\(picked.count) of \(Set(picked.map(\.speaker)).count) speakers, each shifted by \(cents) cents",
        "made by": "directme-bench warp \(labels.map { ($0 as NSString).lastPathComponent }.joined(separator: " "))",
        "fit": lines.joined(separator: "; "),
      ]
      let path = out ?? model + "/" + VoiceWarp.fileName
      try warp.json().write(to: URL(fileURLWithPath: path), options: .atomic)
      lines.forEach { print($0) }
      print("\(path): fitted to \(examples.count) copies of \(picked.count) recordings")
    }
  }
}

/// Writes the voice routing beside a model (`routing.json`): which voices go to a model of
/// their own.
struct VoiceRoutingFile: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "routing",
    abstract: "Write routing.json: utterances nearer the given voices than people go to their own model.",
    discussion: """
      Measures the voice statistic of every recording of --people and --voices through the \
      model's front end, and writes them as the references of a routing to --routed-model \
      (a folder relative to the model's; see VoiceRouting).
      """
  )

  @Option(parsing: .upToNextOption, help: ArgumentHelp("Labels files of people's recordings (the model's own voices).", valueName: "labels"))
  var people: [String]

  @Option(parsing: .upToNextOption, help: ArgumentHelp("Labels files of the routed voices' recordings.", valueName: "labels"))
  var voices: [String]

  @Option(help: ArgumentHelp("What the routed voices are, for reports.", valueName: "name"))
  var name: String = "synthetic"

  @Option(help: ArgumentHelp("The routed voices' model folder, relative to the model folder.", valueName: "folder"))
  var routedModel: String = "synthetic-voices"

  @Option(
    help: ArgumentHelp(
      "The routed voices' model for narrowband (8 kHz) utterances, relative to the model folder (default: none).",
      valueName: "folder"))
  var narrowbandModel: String?

  @Option(
    help: ArgumentHelp(
      "People's model for narrowband (8 kHz) utterances that are not routed, relative to the model folder (default: none).",
      valueName: "folder"))
  var peopleNarrowbandModel: String?

  @Option(
    help: ArgumentHelp(
      "With --narrowband-model: every N-th recording of people and of the routed voices through 8 kHz, the references narrowband utterances are measured against.",
      valueName: "N"))
  var narrowbandReferencesEvery: Int = 2

  @Option(
    help: ArgumentHelp(
      "With --narrowband-model: how much nearer the narrowband routed voices must be (0.05 routed 5% of held-out people's clips through 8 kHz).",
      valueName: "distance"))
  var narrowbandMargin: Double = 0.05

  @Option(help: ArgumentHelp("The model (default: DirectMe's); routing.json is written into it.", valueName: "folder"))
  var model: String = Resources.defaultModel

  @Option(help: ArgumentHelp("How much nearer the routed voices must be.", valueName: "distance"))
  var margin: Double = 0.15

  @Option(
    help: ArgumentHelp(
      "An utterance nearer the routed voices by more than this (and not by --margin) is routed when the routed voices' model fits it better by --fit-margin (see VoiceRouting.fitLean).",
      valueName: "distance"))
  var fitLean: Double = 0

  @Option(
    help: ArgumentHelp(
      "How much better the routed voices' model must fit such an utterance: the best senone's log-likelihood per frame over its loud frames (VoiceRouting.loudFit; none of 565 people's utterances near the margin fit the synthetic model better by more than 2.9, 22 of 28 synthetic ones by more than 8).",
      valueName: "score"))
  var fitMargin: Double = 6

  @Option(
    help: ArgumentHelp(
      "Also every N-th recording of people and of the routed voices as a narrowband (8 kHz) microphone gives it (0: none).",
      valueName: "N"))
  var narrowbandEvery: Int = 6

  @Option(
    help: ArgumentHelp(
      "Also every N-th recording of the routed voices over a room's quiet (white noise at -75 to -55 dBFS) (0: none).",
      valueName: "N"))
  var roomToneEvery: Int = 2

  /// `samples` as a narrowband microphone (a Bluetooth headset's 8 kHz link) gives them: nothing
  /// above 4 kHz. Without such references, 208 of 444 people's clips through 8 kHz went to
  /// the synthetic voices' model (some synthetic voices are narrowband) and 73.7% of them
  /// were right, against 89.4% decoded by the people's model.
  static func narrowband(_ samples: [Int16]) -> [Int16] {
    let low = Resampler.resample(samples.map { Float($0) }, from: 16_000, to: 8_000)
    return Resampler.resample(low, from: 8_000, to: 16_000).map { Int16(clamping: Int($0.rounded())) }
  }

  func validate() throws {
    guard narrowbandEvery >= 0 else { throw ValidationError("--narrowband-every must be 0 or more") }
    guard narrowbandReferencesEvery >= 1 else { throw ValidationError("--narrowband-references-every must be 1 or more") }
    guard roomToneEvery >= 0 else { throw ValidationError("--room-tone-every must be 0 or more") }
  }

  func run() throws {
    try reportingErrors {
      let features = try VoiceFeatures(model: model)
      // People's recordings hold their rooms already. The routed voices' come from files, padded
      // with digital silence, which the statistic leaves out (`VoiceFeatures.sounding`);
      // through a microphone that padding is the room's quiet, and its frames count: without
      // references over it, flite kal16's "down" over -70 dBFS went to the people's model
      // and was read "found" (routed: right).
      // Also the narrowband references (`VoiceRouting.narrowbandPeople`), with a narrowband model.
      func statistics(_ labels: [String], roomToneEvery: Int) throws -> ([[Double]], [[Double]], Int) {
        let (recordings, problems) = try LabelledAudioReader.read(labels)
        for problem in problems { warn("routing: \(problem)") }
        var statistics: [[Double]] = []
        var narrowbandStatistics: [[Double]] = []
        var random = Signal.Random(seed: 17)
        for (index, recording) in recordings.enumerated() {
          let samples = try AudioFileSource.readAll(path: recording.path)
          if let statistic = features.routingStatistic(samples) { statistics.append(statistic) }
          if narrowbandEvery > 0 && index % narrowbandEvery == 0, let statistic = features.routingStatistic(Self.narrowband(samples)) {
            statistics.append(statistic)
          }
          if narrowbandModel != nil, index % narrowbandReferencesEvery == 0,
            let statistic = features.routingStatistic(Self.narrowband(samples))
          {
            narrowbandStatistics.append(statistic)
          }
          if roomToneEvery > 0 && index % roomToneEvery == 0 {
            let level = Double.random(in: Signal.roomQuietLevels, using: &random)
            if let statistic = features.routingStatistic(Signal.overRoomTone(samples, level: level, random: &random)) {
              statistics.append(statistic)
            }
          }
        }
        return (statistics, narrowbandStatistics, Set(recordings.map(\.speaker)).count)
      }
      let (people, narrowbandPeople, speakers) = try statistics(self.people, roomToneEvery: 0)
      let (voices, narrowbandVoices, voiceCount) = try statistics(self.voices, roomToneEvery: roomToneEvery)
      guard let population = VoicePopulation.measure(people) else { throw Failure("too few recordings of people") }
      var routing = VoiceRouting(
        name: name, model: routedModel, narrowbandModel: narrowbandModel, scale: population.scale, people: people, voices: voices, margin: margin,
        notes: [
          "people": "\(people.count) recordings of \(speakers) speakers (\(self.people.map { ($0 as NSString).lastPathComponent }.joined(separator: " ")))",
          "voices": "\(voices.count) recordings of \(voiceCount) voices (\(self.voices.map { ($0 as NSString).lastPathComponent }.joined(separator: " ")))",
          "made by": "directme-bench routing",
          "narrowband": narrowbandEvery > 0 ? "every \(narrowbandEvery)th recording of each also through 8 kHz" : "none",
          "room tone": roomToneEvery > 0 ? "every \(roomToneEvery)th recording of the voices also over white noise at -75 to -55 dBFS" : "none",
        ])
      routing.fitLean = fitLean
      routing.fitMargin = fitMargin
      routing.peopleNarrowbandModel = peopleNarrowbandModel
      if narrowbandModel != nil {
        routing.narrowbandPeople = ReferenceTable(VoiceRouting.threeDecimals(narrowbandPeople))
        routing.narrowbandVoices = ReferenceTable(VoiceRouting.threeDecimals(narrowbandVoices))
        routing.narrowbandMargin = narrowbandMargin
        routing.notes["narrowband references"] =
          "every \(narrowbandReferencesEvery)th recording of each through 8 kHz: \(narrowbandPeople.count) of people, \(narrowbandVoices.count) of the voices"
      }
      let path = model + "/" + VoiceRouting.fileName
      try routing.write(toFolder: model)
      let narrowband = narrowbandModel.map { " (narrowband: \($0))" } ?? ""
      let peopleNarrowband = peopleNarrowbandModel.map { "; people through 8 kHz to \($0)" } ?? ""
      print("\(path): \(people.count) people's recordings, \(voices.count) of \(name) voices, routed to \(routedModel)\(narrowband)\(peopleNarrowband)")
    }
  }
}

/// Learns the word verifier beside a model (`verifier.json`).
struct WordVerifierFile: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "verifier",
    abstract: "Write verifier.json: a small network that judges the stretches the decoder takes for command words.",
    discussion: """
      Decodes the recordings of the labels files through the whole pipeline (the model's own \
      verifier left out), takes each command word of the commands readings over its time as \
      a log-mel spectrogram (see WordVerifier), also from a noisy copy of the recording at the \
      same time (--noise), and trains a network with one hidden layer to tell which command \
      was said there, or none. The listener then adds --weight times its log-odds for a word \
      to the word's margin.
      """
  )

  @Argument(help: ArgumentHelp("Labels files (path<TAB>directions[<TAB>words<TAB>speaker]) or folders holding one.", valueName: "labels"))
  var labels: [String]

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  @Option(help: ArgumentHelp("Where to write the verifier (default: verifier.json in the model folder).", valueName: "file"))
  var out: String?

  @Option(help: ArgumentHelp("A folder of noise recordings: each recording is also heard with one of them mixed in.", valueName: "folder"))
  var noise: String?

  @Option(help: ArgumentHelp("The SNR range of the noisy copies, in dB.", valueName: "low:high"))
  var snr = SNRRange(argument: "5:20")!

  @Option(help: "Noisy copies of each recording (with --noise).")
  var noisyCopies = 1

  @Option(help: "Stretches of sound that is no speech (the noises, tones) heard as no command.")
  var nonSpeech = 1000

  @Option(help: "Units of the hidden layer.")
  var hiddenUnits = 64

  @Option(help: "The L2 penalty on the weights.")
  var l2 = 3.0

  @Option(help: "Margin units per unit of the network's log-odds.")
  var weight = 5.0

  @Option(help: "Weigh only words whose margin lies below this (default: every word).")
  var belowMargin: Double?

  @Option(help: "Seed of the noisy copies, the held-back examples and the network's start.")
  var seed: UInt64 = 23

  @Option(help: "Decoding jobs (default: one per core).")
  var jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)

  func validate() throws {
    guard hiddenUnits >= 1 else { throw ValidationError("--hidden-units must be 1 or more") }
    guard nonSpeech >= 0 else { throw ValidationError("--non-speech must be 0 or more") }
    guard noisyCopies >= 0 else { throw ValidationError("--noisy-copies must be 0 or more") }
    guard l2 >= 0, weight >= 0 else { throw ValidationError("--l2 and --weight must be 0 or more") }
    guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
  }

  func run() throws {
    try reportingErrors {
      let (read, problems) = try LabelledAudioReader.read(labels)
      for problem in problems { warn("verifier: \(problem)") }
      guard !read.isEmpty else { throw Failure("\(labels.joined(separator: ", ")): no recordings") }
      let noises = try noise.map { try ModelAdapter.loadNoises($0) } ?? []
      var configuration = try recognizer.decidingConfiguration()
      configuration.usesWordVerifier = false
      let decoding = configuration
      let interpreter = try recognizer.makeInterpreter()
      let progress = ConcurrentProgress(total: read.count, label: "decoding")
      let failures = Locked<[String]>([])
      // A recognizer per job: each scores on its own thread.
      if jobs > 1 { PocketSphinxRecognizer.scoringThreads = 1 }
      let decoded = try TuningDecoder(jobs: jobs).decode(
        read,
        makeListener: { CommandListener(recognizer: try PocketSphinxRecognizer(configuration: decoding), interpreter: interpreter) },
        progress: { done, _ in progress.update(done) },
        failed: { path, error in failures.update { $0.append("\(path): \(error)") } })
      progress.finish()
      for failure in failures.value { warn("verifier: \(failure)") }
      var trainer = VerifierTrainer()
      trainer.hiddenUnits = hiddenUnits
      trainer.l2 = l2
      trainer.weight = weight
      trainer.belowMargin = belowMargin
      trainer.seed = seed
      var random = Signal.Random(seed: seed)
      var examples: [VerifierExample] = []
      var noisy = 0
      for recording in decoded {
        let samples = try AudioFileSource.readAll(path: recording.path)
        examples += trainer.examples(of: recording, samples: samples)
        for _ in 0..<(noises.isEmpty ? 0 : noisyCopies) {
          let mixed = Signal.mixedWithOne(of: noises, samples, snr: snr.range, random: &random).samples
          let more = trainer.examples(of: recording, samples: mixed)
          noisy += more.count
          examples += more
        }
      }
      let sounds = trainer.nonSpeechExamples(noises: noises, count: nonSpeech, random: &random)
      examples += sounds
      let counts = trainer.classes.indices.map { c in examples.filter { $0.label == c }.count }
      print(
        "\(examples.count) stretches (\(noisy) of them noisy copies, \(sounds.count) of noise and tones alone): "
          + zip(trainer.classes, counts).map { "\($0.0.isEmpty ? "none" : $0.0) \($0.1)" }.joined(separator: ", "))
      let verifier: WordVerifier
      do {
        verifier = try trainer.train(
          examples,
          notes: [
            "made by": "directme-bench verifier \(labels.map { ($0 as NSString).lastPathComponent }.joined(separator: " "))"
              + (noise.map { _ in " --noise (\(noisyCopies) noisy copies each, \(snr.defaultValueDescription) dB)" } ?? ""),
            "recordings": "\(decoded.count) of \(Set(decoded.map(\.speaker)).count) speakers, \(examples.count) stretches",
          ],
          progress: { epoch, accuracy in print(String(format: "epoch %d: held-back accuracy %.3f", epoch, accuracy)) })
      } catch let error as ToolError {
        throw Failure("\(labels.joined(separator: ", ")): \(error)")
      }
      let path = out ?? recognizer.modelFolder + "/" + WordVerifier.fileName
      try verifier.json().write(to: URL(fileURLWithPath: path), options: .atomic)
      print("\(path): \(verifier.notes?["held-back accuracy"] ?? "")")
    }
  }
}

struct SharedPhonesFile: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "share-phones",
    abstract: "Give models the parameters some phones have in another model (its codebooks and senones), all else left as it was.",
    discussion: """
      For the routed models (synthetic-voices, synthetic-narrowband): the non-speech phone \
      (+SPN+) adapted once more in the main model after they were made, they get it byte for \
      byte, so that a sound reads the same whichever model hears it. The models must share \
      one model definition (mdef).
      """
  )

  @Option(help: ArgumentHelp("The model whose phones are given.", valueName: "folder"))
  var from: String

  @Option(help: ArgumentHelp("A model that gets them (repeatable).", valueName: "folder"))
  var into: [String]

  @Option(help: ArgumentHelp("The phones, comma-separated.", valueName: "list"))
  var phones: String = "+SPN+"

  func validate() throws {
    guard !into.isEmpty else { throw ValidationError("give at least one --into model folder") }
  }

  func run() throws {
    try reportingErrors {
      let names = phones.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
      guard !names.isEmpty else { throw Failure("--phones: no phone given") }
      guard let definition = AcousticModelFiles.path(of: "mdef", in: from) else { throw Failure("\(from): no mdef (not a model folder?)") }
      for folder in into {
        guard let own = AcousticModelFiles.path(of: "mdef", in: folder) else { throw Failure("\(folder): no mdef (not a model folder?)") }
        guard FileManager.default.contentsEqual(atPath: own, andPath: definition) else {
          throw Failure("\(folder): its model definition (\(own)) is not \(from)'s (\(definition)): the phones lie elsewhere")
        }
      }
      let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("directme-share-\(getpid())")
      try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: scratch) }
      let text = scratch.appendingPathComponent("mdef.txt")
      do {
        try ToolRunner().run("pocketsphinx_mdef_convert", ["-text", definition, text.path], log: scratch.appendingPathComponent("mdef_convert.log"))
      } catch let error as ToolError {
        throw Failure("\(definition): \(error)")
      }
      let selection: PhoneSelection
      do {
        selection = try PhoneSelection(phones: names, modelDefinition: String(contentsOf: text, encoding: .utf8), file: definition)
      } catch let error as ToolError {
        throw Failure("\(error)")
      }
      let files = ["means", "variances", "sendump"]
      for file in files where !FileManager.default.fileExists(atPath: from + "/" + file) {
        throw Failure("\(from): no \(file)")
      }
      for folder in into {
        // The giving model's files, staged inside `folder` (so each is renamed over its old one
        // whole), then everything but the phones put back as `folder` has it.
        let staging = folder + "/.share-phones"
        try? FileManager.default.removeItem(atPath: staging)
        try FileManager.default.createDirectory(atPath: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: staging) }
        for file in files { try FileManager.default.copyItem(atPath: from + "/" + file, toPath: staging + "/" + file) }
        do {
          try selection.keepBase(folder, outside: staging)
        } catch let error as ToolError {
          throw Failure("\(folder): \(error)")
        }
        for file in files where rename(staging + "/" + file, folder + "/" + file) != 0 {
          throw Failure("\(folder)/\(file): cannot replace it (\(String(cString: strerror(errno))))")
        }
        print(
          "\(folder): \(names.joined(separator: " ")) as \(from) has them (codebooks \(selection.codebooks.map(String.init).joined(separator: ",")), "
            + "senones \(selection.senones.map(String.init).joined(separator: ",")))")
      }
    }
  }
}
