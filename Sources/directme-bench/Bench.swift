import ArgumentParser
import DirectMeApp
import DirectMeBench
import DirectMeCommandLine
import DirectMeCore
import DirectMeRecognizer
import DirectMeSystem
import DirectMeTraining
import Foundation

@main
struct DirectMeBenchmarks: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "directme-bench",
    abstract: "DirectMe's benchmarks, which print numbers beside a baseline measured in the same run, and the files its model is built from.",
    discussion: "Not shipped with the app: `directme` runs, replays, scores, adapts and tunes; this measures it.",
    subcommands: [
      AccuracyBench.self, LiveBench.self, EnrollBench.self, NoiseFiles.self, TrainingLabels.self, SyntheticLabels.self,
      VoiceStatistics.self, VoiceWarpFile.self, VoiceRoutingFile.self, WordVerifierFile.self, SharedPhonesFile.self, SoundClassFile.self,
    ]
  )
}

struct AccuracyBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "accuracy",
    abstract: "Command accuracy and false alarms per condition, beside the previous default and the stock baseline.",
    discussion: """
      Conditions: the training set's checking speakers (held out of adaptation and tuning), the \
      real dev set (300 clips of 30 words, held out), their commands mixed with room noises (tap, \
      bike, kitchen) and babble at 20, 10 and 5 dB SNR and in continuous room noise and babble (2 s of it before and after; and 12 commands in a minute of each background, at 10 and at 5 dB), their other words in one of those noises at 10 dB and amid babble alone at 5 dB, their commands and other words amid real people talking (babble of the training set's adaptation speakers' other words) at 10 and 5 dB, the checking speakers' recordings in \
      reverberant rooms (sox reverb), in higher and lower voices (sox pitch, +-300 cents), through a narrowband (8 kHz) \
      microphone, an overdriven one (clipped: sox gain -n 6), one with a DC offset (sox dcshift 0.1) and one that hums (50 or 60 Hz \
      mains hum with harmonics, 10 dB under the speech), a quiet one (sox vol -30dB), said faster and slower (sox tempo 1.25 and 0.8), sequences of 2-4 direction clips with \
      200-400 ms pauses (clips of any held-out speakers, and one speaker's clips per sequence), \
      synthetic speech (flite and espeak-ng voices, carrier phrases; and espeak-ng voices of \
      variants no model was adapted on; flite's default voice kal, at 8 kHz; festival's 8 kHz kal and \
      ked when scripts/setup.sh --voices unpacked them), a real voice neither data set holds saying \
      other words (176 telephone prompts of Debian's asterisk-core-sounds-en-wav, 8 kHz: numbers, months, \
      letters, the phonetic alphabet), real voices saying other words in 30 languages and real \
      sounds of animals, vehicles, things and drums (the recordings of Debian's children's games \
      ktuberling, klettres, qabcs, tuxpaint and of hydrogen's drum kits), \
      silence, noises, clicks and coughs, dishes clinking, and instrumental music alone and under commands said \
      over it (Debian's asterisk-moh-opsound-wav, which scripts/setup.sh --voices installs), and people's cries, grunts and \
      gasps (OpenArena's and Wesnoth's voice actors, in a room's quiet; scripts/setup.sh --voices unpacks them). Beside DirectMe: the stock baseline \
      (pocketsphinx_continuous -jsgf with a four-word grammar) and, with --previous, an earlier \
      directme build. Writes accuracy.txt, accuracy.json and accuracy.html to --out.
      """
  )

  @Option(help: ArgumentHelp("The real-speech dev set (a folder with labels.tsv).", valueName: "folder"))
  var dev: String?

  @Option(help: ArgumentHelp("The training set (manifest.tsv, labels.tsv); its checking speakers are a condition.", valueName: "folder"))
  var train: String?

  @Option(help: ArgumentHelp("An earlier directme build to compare with (the previous default).", valueName: "executable"))
  var previous: String?

  @Option(help: ArgumentHelp("Where to write the report and cache generated audio.", valueName: "folder"))
  var out: String = "bench-out"

  @Flag(help: "Skip the baseline.")
  var noBaseline = false

  @Option(
    help: ArgumentHelp(
      "Where festival's 8 kHz voices are unpacked (scripts/setup.sh --voices; their condition is skipped when absent).",
      valueName: "folder"))
  var festival8k: String = Resources.path("build/voices/festival-8k")

  @Option(
    help: ArgumentHelp(
      "Where OpenArena's and Wesnoth's voice actors' cries are unpacked (scripts/setup.sh --voices; their condition is skipped when absent).",
      valueName: "folder"))
  var cries: String = Resources.path(CorpusBuilder.criesFolder)

  @Flag(help: "A quicker, smaller run: a third of the training-set and noise items, fewer sequences.")
  var quick = false

  enum Part: String, ExpressibleByArgument, CaseIterable {
    case train, dev, noise, reverb, voices, sequences, synthetic, prompts, games, nonspeech
  }

  @Option(
    parsing: .upToNextOption,
    help: ArgumentHelp("Only these parts (\(Part.allCases.map(\.rawValue).joined(separator: ", "))).", valueName: "part"))
  var only: [Part] = []

  @Option(
    help: ArgumentHelp(
      "Write the audio of every item DirectMe got wrong here (16 kHz WAV, with wrong.tsv: file, condition, item, expected, acted on), to listen to or replay.",
      valueName: "folder"))
  var keepWrong: String?

  @Option(help: "Items decoded at once, each job with a recognizer of its own (the results are the same with any number).")
  var jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

  private func includes(_ part: Part) -> Bool { only.isEmpty || only.contains(part) }

  func validate() throws {
    guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
  }

  /// DirectMe's outcome of every item, in the items' order: `jobs` recognizers take every
  /// `jobs`-th item each (an item's outcome does not depend on the items before it: the
  /// recognizer is reset for each).
  private func decode(
    _ items: [BenchItem], recognizers: [PocketSphinxRecognizer], interpreter: Interpreter
  ) throws -> [ItemOutcome] {
    guard !items.isEmpty else { return [] }
    let runners = recognizers.prefix(items.count).map { recognizer in
      DirectMeRunner { CommandListener(recognizer: recognizer, interpreter: interpreter) }
    }
    let progress = ProgressBar(total: items.count, label: "DirectMe")
    // The first failure stops the run: a benchmark missing items would report other figures.
    let outcomes = Striped.map(count: items.count, workers: runners, { runner, index in try runner.run(items[index]) }) {
      _, outcome, done in
      progress.update(done)
      if case .failure = outcome { return false }
      return true
    }
    progress.finish()
    return try zip(items, outcomes).compactMap { item, outcome in
      switch outcome {
      case .success(let (results, emitted)): return ItemOutcome(item: item, results: results, emitted: emitted)
      case .failure(let error): throw Failure("bench: \(item.id): \(error)")
      case nil: return nil
      }
    }
  }

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  func run() throws {
    try reportingErrors {
      let started = Date()
      let outFolder = URL(fileURLWithPath: out)
      let cache = outFolder.appendingPathComponent("cache")
      try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
      // The recognizers are made first: a wrong --model, --grammar or --detector stops the run
      // at once, not after the minutes of synthesis and mixing that building the items takes.
      let interpreter = try self.recognizer.makeInterpreter()
      let recognizers = try self.recognizer.makeRecognizers(jobs)
      let builder = CorpusBuilder(cache: cache) { warn("bench: \($0)") }
      let items = try corpus(builder)
      let noises = builder.noiseFingerprints()
      // The baseline's and the previous build's results are matched to items by id.
      let repeated = Dictionary(grouping: items, by: \.id).filter { $0.value.count > 1 }.keys.sorted()
      guard repeated.isEmpty else {
        throw Failure("bench: \(repeated.count) item ids are not unique (e.g. \(repeated[0])); results would be mixed up")
      }
      // Nothing to measure (the real-speech parts asked for, their sets not found): an empty
      // report would read as a run that measured nothing wrong.
      guard !items.isEmpty else {
        throw Failure(
          "bench: no items to measure: the parts asked for need the training set (\(trainPath)) or the dev set (\(devPath)), found at neither (pass --train and --dev)")
      }
      warn("bench: \(items.count) items")

      // The baseline runs on a thread of its own while DirectMe decodes on this one.
      let baselineBox = BaselineBox()
      let baselineDone = DispatchSemaphore(value: 0)
      if !noBaseline {
        guard BaselineRunner.isAvailable else {
          throw Failure("pocketsphinx_continuous not found (Debian package pocketsphinx); or pass --no-baseline")
        }
        let itemsCopy = items
        let folder = cache
        Thread {
          do {
            var runner = try BaselineRunner(folder: folder)
            for item in itemsCopy {
              let transcript = try runner.transcript(of: item)
              baselineBox.set(item.id, transcript)
            }
          } catch {
            baselineBox.fail("\(error)")
          }
          baselineDone.signal()
        }.start()
      } else {
        baselineDone.signal()
      }

      var outcomes = try decode(items, recognizers: recognizers, interpreter: interpreter)
      if let previous {
        let directions = try PreviousRunner(executable: previous, folder: cache.appendingPathComponent("previous"))
          .run(items) { warn("bench: \($0)") }
        for index in outcomes.indices { outcomes[index].previous = directions[outcomes[index].item.id] }
      }
      if !noBaseline { warn("bench: waiting for the baseline") }
      baselineDone.wait()
      if let failure = baselineBox.failure { throw Failure("baseline: \(failure)") }
      for index in outcomes.indices {
        if let transcript = baselineBox.transcript(outcomes[index].item.id) {
          outcomes[index].baselineTranscript = transcript
          outcomes[index].baseline = BaselineRunner.directions(in: transcript)
        }
      }

      let report = AccuracyReport(
        outcomes: outcomes, interpreter: interpreter,
        settings: self.recognizer.summary + (previous.map { ", previous default \($0)" } ?? "")
          + (noises.isEmpty ? "" : "; noises " + noises.joined(separator: ", ")),
        curveThresholds: [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95],
        seconds: Date().timeIntervalSince(started))
      let text = report.text()
      print(text)
      try text.write(to: outFolder.appendingPathComponent("accuracy.txt"), atomically: true, encoding: .utf8)
      try report.json().write(to: outFolder.appendingPathComponent("accuracy.json"))
      try report.html().write(to: outFolder.appendingPathComponent("accuracy.html"), atomically: true, encoding: .utf8)
      try writeOutcomes(outcomes, interpreter: interpreter, to: outFolder.appendingPathComponent("accuracy-items.tsv"))
      if let keepWrong { try writeWrong(outcomes, interpreter: interpreter, to: URL(fileURLWithPath: keepWrong)) }
      warn("bench: wrote \(out)/accuracy.txt, accuracy.json, accuracy.html, accuracy-items.tsv")
    }
  }

  /// Where the real-speech sets are read from.
  private var trainPath: String { train ?? Resources.path("../shared/data/speech-commands-train") }
  private var devPath: String { dev ?? Resources.path("../shared/data/speech-commands-dev") }

  /// Every item of the parts asked for.
  private func corpus(_ builder: CorpusBuilder) throws -> [BenchItem] {
    var items: [BenchItem] = []
    var realCommands: [BenchItem] = []
    var realOthers: [BenchItem] = []
    // The adaptation speakers' other words, for people's babble (`CorpusBuilder.peopleBabble`).
    var peopleBabbleSources: [String] = []
    let trainFolder = URL(fileURLWithPath: trainPath)
    if FileManager.default.fileExists(atPath: trainFolder.appendingPathComponent("manifest.tsv").path) {
      let clips = try TrainingSet.read(trainFolder)
      var checking = clips.filter { TrainingSet.part(of: $0.speaker) == .checking }
      if quick { checking = checking.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) }
      let trainItems = try checking.map {
        BenchItem(
          // The word's folder too: one speaker's "up" and "right" can share a file name.
          id: "train/" + $0.path.split(separator: "/").suffix(2).joined(separator: "/"), condition: CorpusBuilder.trainChecking,
          expected: $0.expected, samples: try Tools.samples($0.path), speaker: $0.speaker)
      }
      if includes(.train) { items += trainItems }
      if includes(.reverb) { items += try builder.reverberated(trainItems) }
      if includes(.voices) {
        items += try builder.voiceShifted(trainItems) + builder.childVoices(trainItems) + builder.narrowband(trainItems)
        items += try builder.overdriven(trainItems) + builder.offset(trainItems) + builder.hummed(trainItems)
        items += try builder.quiet(trainItems)
        items += try builder.tempoShifted(trainItems)
      }
      realCommands += trainItems.filter { !$0.expected.isEmpty }
      realOthers += trainItems.filter { $0.expected.isEmpty }
      if includes(.noise) {
        peopleBabbleSources = clips.filter { TrainingSet.part(of: $0.speaker) == .adaptation && $0.expected.isEmpty }.map(\.path)
      }
    } else if includes(.train) {
      warn("bench: no training set at \(trainFolder.path) (pass --train); its condition is skipped")
    }
    let devFolder = URL(fileURLWithPath: devPath)
    if FileManager.default.fileExists(atPath: devFolder.appendingPathComponent(LabelsFormat.fileName).path) {
      let devItems = try builder.devSet(devFolder)
      if includes(.dev) { items += devItems }
      realCommands += devItems.filter { !$0.expected.isEmpty }
      realOthers += devItems.filter { $0.expected.isEmpty }
    } else if includes(.dev) || includes(.noise) {
      warn("bench: no dev set at \(devFolder.path) (pass --dev); its conditions are skipped")
    }
    // The noise part's commands (every third, quick), and its halves of the other words: every
    // other one (every sixth, quick), from the first or the second on.
    let noisyCommands = quick ? realCommands.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) : realCommands
    let others = { (first: Int) in realOthers.enumerated().filter { $0.offset % (quick ? 6 : 2) == first }.map(\.element) }
    if includes(.noise) && !noisyCommands.isEmpty {
      items += try builder.noiseMixes(noisyCommands)
      let overMusic = try builder.overMusic(noisyCommands)
      if overMusic.isEmpty { warn("bench: no music at \(CorpusBuilder.musicFolder) (scripts/setup.sh --voices installs it); commands over music are skipped") }
      items += overMusic
      items += try builder.inContinuousNoise(noisyCommands)
      items += try builder.amidVoices(noisyCommands)
      items += try builder.inLongBackground(noisyCommands)
      // The same minutes 5 dB over the background: where DirectMe has listened to a running
      // tap or an exercise bike for a while, a command that faint is often not heard at all
      // (the clip-level conditions start their noise with the clip).
      items += try builder.inLongBackground(noisyCommands, snr: 5)
    }
    if includes(.noise) && !realOthers.isEmpty {
      // ~400 items, the room noises and babble in turn; the other half amid babble alone, at 5 dB.
      items += try builder.otherWordsInNoise(others(0))
      items += try builder.otherWordsAmidBabble(others(1))
    }
    // Real people talking: babble of the training set's adaptation speakers' other words, over
    // the same commands at 10 and 5 dB, and the same halves of the other words (the room-noise
    // half at 10 dB, the babble half at 5 dB).
    if includes(.noise) && !peopleBabbleSources.isEmpty && (!noisyCommands.isEmpty || !realOthers.isEmpty) {
      let babble = try builder.peopleBabble(from: peopleBabbleSources)
      for snr in [10.0, 5.0] where !noisyCommands.isEmpty { items += builder.amidPeople(noisyCommands, babble: babble, snr: snr) }
      if !realOthers.isEmpty {
        items += builder.amidPeople(others(0), babble: babble, snr: 10)
        items += builder.amidPeople(others(1), babble: babble, snr: 5)
      }
    }
    if includes(.sequences) && !realCommands.isEmpty {
      items += builder.sequences(from: realCommands, count: quick ? 30 : 100, condition: "sequences of 2-4 (held-out speakers)")
      let oneSpeaker = builder.sequences(
        from: realCommands, count: quick ? 30 : 100, condition: "sequences of 2-4, one speaker each", seed: 8, oneSpeaker: true)
      // The same over a room's quiet, as a microphone hears them (the clips are joined with
      // digital silence).
      items += oneSpeaker + CorpusBuilder.sequencesOverRoomTone(oneSpeaker)
      // The same with no pause between the clips (each cut to its speech keeps a few tens of
      // milliseconds around it): one speaker's commands run together.
      items += builder.sequences(
        from: realCommands, count: quick ? 30 : 100, condition: "sequences of 2-4, one speaker each, without pauses", seed: 9,
        oneSpeaker: true, pause: 0...0)
    }
    if includes(.synthetic) {
      let synthetic = try builder.synthetic()
      items += synthetic + CorpusBuilder.overRoomTone(synthetic) + CorpusBuilder.asWritten(synthetic)
      // Half the synthetic commands, carried commands and other phrases through an 8 kHz link
      // (a telephone, a Bluetooth microphone; festival's own 8 kHz voices are measured apart:
      // their diphones are a database of their own).
      let spoken = [CorpusBuilder.syntheticCommands, CorpusBuilder.syntheticCarriers, CorpusBuilder.syntheticOther]
      items += try builder.narrowband(synthetic.filter { spoken.contains($0.condition) }, condition: CorpusBuilder.syntheticNarrowband)
      let festival = try builder.festival8k(folder: festival8k)
      if festival.isEmpty { warn("bench: festival's 8 kHz voices are not at \(festival8k) (scripts/setup.sh --voices); their condition is skipped") }
      items += festival
      items += try builder.fliteKal()
    }
    if includes(.prompts) {
      let prompts = try builder.telephonePrompts()
      if prompts.isEmpty {
        warn("bench: no telephone prompts at \(CorpusBuilder.promptsFolder) (scripts/setup.sh --voices installs them); their condition is skipped")
      }
      items += prompts
    }
    if includes(.games) {
      let games = try builder.gameRecordings()
      if games.isEmpty {
        warn("bench: no children's games' recordings under \(CorpusBuilder.gamesFolder) (scripts/setup.sh --voices installs them); their conditions are skipped")
      }
      items += games + CorpusBuilder.gameSoundsInRoom(games)
      // Every fourth real command over those sounds of a second or more, 10 dB under it.
      items += builder.overRealSounds(realCommands, sounds: games)
      let ambience = try builder.realAmbience()
      if ambience.isEmpty {
        warn("bench: no real ambience under \(CorpusBuilder.ambienceFolder) (scripts/setup.sh --voices installs megaglest-data); its conditions are skipped")
      }
      items += CorpusBuilder.ambienceAlone(ambience) + CorpusBuilder.inAmbience(realCommands, ambience: ambience)
    }
    if includes(.nonspeech) {
      let clinks = builder.clinksAlone()
      items += try builder.nonSpeech() + clinks + CorpusBuilder.commandsThenClinks(clinks, commands: realCommands)
      let music = try builder.musicAlone()
      if music.isEmpty { warn("bench: no music at \(CorpusBuilder.musicFolder) (scripts/setup.sh --voices installs it); its condition is skipped") }
      items += music
      let keys = try builder.keyboard()
      if keys.isEmpty { warn("bench: no keyboard's recordings at \(CorpusBuilder.keyboardFolder) (scripts/setup.sh --voices installs bucklespring-data); its conditions are skipped") }
      items += CorpusBuilder.typingAlone(keys: keys) + CorpusBuilder.whileTyping(realCommands, keys: keys)
      let cryItems = try builder.peopleCries(folder: cries)
      if cryItems.isEmpty { warn("bench: no game voices' cries at \(cries) (scripts/setup.sh --voices unpacks them); their condition is skipped") }
      items += cryItems
    }
    return items
  }

  /// The audio of each item whose directions are not the expected ones, numbered in the
  /// items' order, and `wrong.tsv` saying what each is.
  private func writeWrong(_ outcomes: [ItemOutcome], interpreter: Interpreter, to folder: URL) throws {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var index = "file\tcondition\titem\texpected\tdirectme\n"
    var count = 0
    for outcome in outcomes {
      let mine = acted(outcome, interpreter: interpreter)
      guard mine != outcome.item.expected else { continue }
      count += 1
      let file = String(format: "wrong-%05d.wav", count)
      try Tools.write(outcome.item.samples, to: folder.appendingPathComponent(file).path)
      index += "\(file)\t\(outcome.item.condition)\t\(outcome.item.id)\t\(spelled(outcome.item.expected))\t\(spelled(mine))\n"
    }
    try index.write(to: folder.appendingPathComponent("wrong.tsv"), atomically: true, encoding: .utf8)
    warn("bench: wrote \(count) wrong items' audio to \(folder.path)")
  }

  /// What DirectMe acted on for `outcome` (early decisions included), at `interpreter`'s settings.
  private func acted(_ outcome: ItemOutcome, interpreter: Interpreter) -> [Direction] {
    outcome.emitted ?? Scoring.directions(outcome, interpreter: interpreter)
  }

  /// Directions as the item files write them ("up left").
  private func spelled(_ directions: [Direction]) -> String {
    directions.map(\.rawValue).joined(separator: " ")
  }

  /// One line per item: condition, id, expected, DirectMe, baseline, transcripts (for digging).
  private func writeOutcomes(_ outcomes: [ItemOutcome], interpreter: Interpreter, to url: URL) throws {
    var text = "condition\titem\texpected\tdirectme\tprevious\tbaseline\tdirectme heard\tbaseline heard\n"
    for outcome in outcomes {
      let mine = spelled(acted(outcome, interpreter: interpreter))
      let theirs = outcome.baseline.map(spelled) ?? "-"
      let before = outcome.previous.map(spelled) ?? "-"
      let heard = outcome.results.map { result in
        let words = (result.commandsReading ?? result.bestTranscription).segments.filter { !$0.isFiller }
        let commands = words.enumerated().map { index, segment in
          segment.word
            + (segment.margin.map {
              String(
                format: "(m %.1f, c %.2f", $0,
                interpreter.confidence(ofWordAt: index, in: words, result: result) ?? 0)
                + (segment.secondOpinion.map { String(format: ", base: %@ %.1f", $0.word, $0.margin) } ?? "")
                + (segment.verified.map { String(format: ", verified %.2f", $0) } ?? "")
                + (segment.voiced.map { String(format: ", run %.0f ms", $0 * 1000) } ?? "")
                + (segment.loud.map { String(format: ", loud %.0f ms", $0 * 1000) } ?? "")
                + (segment.loudRun.map { String(format: ", loud run %.0f ms", $0 * 1000) } ?? "")
                + (segment.speechShare.map { String(format: ", band %.0f%%", $0 * 100) } ?? "")
                + (segment.toneShare.map { String(format: ", tone %.1f%%", $0 * 100) } ?? "")
                + (segment.harmonicLead.map { String(format: ", f0 %.0f Hz, h1h4 %.1f dB", $0.pitch, $0.lead) } ?? "")
                + (segment.speechLikeness.map { String(format: ", speech %.2f", $0) } ?? "")
                + (segment.standout.map { String(format: ", out %.1f dB", $0) } ?? "") + ")"
            } ?? "")
        }.joined(separator: " ")
        let others = result.transcriptions.first { $0.segments.allSatisfy { $0.margin == nil } }?.formattedString ?? ""
        let voiced = result.signal.map { String(format: ", voiced %.0f ms, range %.0f dB, all voiced %.0f ms, quiet voiced %.0f%%", $0.longestVoiced * 1000, $0.dynamicRange, $0.voiced * 1000, $0.backgroundVoicing * 100) } ?? ""
        let model = (result.voiceModel.map { ", \($0) model" } ?? "") + (result.narrowbandModel ? ", narrowband model" : "") + (result.warp.map { String(format: ", warp %.3f", $0.factor) + ($0.cutoff.map { String(format: " to %.0f Hz", $0) } ?? "") } ?? "")
        // Near-miss rescues: the word heard, the direction taken and how far below it was.
        let rescues = interpreter.interpret(result).rescues.map {
          String(format: " [rescue: %@ -> %@, gap %.1f]", $0.heard, $0.taken.rawValue, $0.scoreGap)
        }.joined()
        return commands + rescues + " / " + others + String(format: " (%.2f s", result.end - result.start) + voiced + model + ")"
      }.joined(separator: " | ")
      text += [
        outcome.item.condition, outcome.item.id, spelled(outcome.item.expected), mine,
        before, theirs, heard, (outcome.baselineTranscript ?? "").replacingOccurrences(of: "\n", with: " | "),
      ].joined(separator: "\t") + "\n"
    }
    try text.write(to: url, atomically: true, encoding: .utf8)
  }
}

/// Baseline transcripts handed from the baseline's thread.
final class BaselineBox: @unchecked Sendable {
  private let lock = NSLock()
  private var transcripts: [String: String] = [:]
  private(set) var failure: String?

  func set(_ id: String, _ transcript: String) {
    lock.lock()
    transcripts[id] = transcript
    lock.unlock()
  }

  func fail(_ message: String) {
    lock.lock()
    failure = message
    lock.unlock()
  }

  func transcript(_ id: String) -> String? {
    lock.lock()
    defer { lock.unlock() }
    return transcripts[id]
  }
}
