import ArgumentParser
import DirectMeCore
import DirectMeRecognizer
import DirectMeTraining
import Foundation

struct Tune: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Learn the detector (calibration, gate, operating point) from labelled recordings.",
    discussion: """
      Every recording goes through the same pipeline as the microphone. Speakers are split: \
      the detector is learned on most of them and checked on the rest (--check-share), and both \
      are reported. A speaker comes from the labels' fourth column, else from a Speech Commands \
      file name (<speaker>_nohash_<n>.wav), else each file is its own. Writes the detector as \
      JSON (default: detector.json in the model folder, which the app loads by default).
      """
  )

  @Argument(help: ArgumentHelp("Labels files, or folders holding a labels.tsv.", valueName: "labels"))
  var labels: [String]

  @Option(help: ArgumentHelp("Where to write the detector (default: detector.json in the model folder).", valueName: "file"))
  var out: String?

  @Option(help: "Share of the speakers held out to check the detector on.")
  var checkShare: Double = 0.25

  @Option(
    help: """
      Most other-speech false alarms allowed on the tuning speakers (0-1, each kind of word \
      weighing the same). Below the 5% wanted: new speakers say words the tuning set has \
      few of (off, yes, no, stop); 5% on tuning speakers was 10% on the dev set, 3.5% was 6.9%.
      """)
  var maxFalseAlarms: Double = 0.035

  @Option(help: "Most noise-only false alarms allowed (0-1), with --noise.")
  var maxNoiseFalseAlarms: Double = 0.01

  @Option(help: ArgumentHelp("Noise recordings (audio files): stretches of them must move nothing, and noisy copies of commands should.", valueName: "folder"))
  var noise: String?

  @Option(help: ArgumentHelp("Keep the decoded results here and reuse them when the model, grammar and recordings are the same.", valueName: "file"))
  var cache: String?

  @Option(help: ArgumentHelp("Also write the full report (JSON) here.", valueName: "file"))
  var report: String?

  @Option(help: "Parallel decoders.")
  var jobs: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  func validate() throws {
    guard checkShare >= 0, checkShare < 1 else { throw ValidationError("--check-share must be in 0..<1") }
    guard maxFalseAlarms > 0, maxFalseAlarms < 1 else { throw ValidationError("--max-false-alarms must be in 0...1") }
    guard jobs >= 1 else { throw ValidationError("--jobs must be 1 or more") }
  }

  func run() throws {
    try reportingErrors {
      var (audio, problems) = try LabelledAudioReader.read(labels)
      for problem in problems { warn("directme: error: \(problem)") }
      if !problems.isEmpty { throw Failure("\(problems.count) problems in the labels; nothing was tuned") }
      guard audio.contains(where: { !$0.expected.isEmpty }) else { throw Failure("no command recordings to tune on") }
      if let noise {
        let noises = try ModelAdapter.loadNoises(noise)
        let copies = try NoiseMaterial.noisyCopies(of: audio, noises: noises, snr: 5...20, every: 3)
        let stretches = NoiseMaterial.noiseOnly(noises, count: max(100, audio.count / 20))
        warn("tune: \(copies.count) noisy copies of commands and \(stretches.count) stretches of noise added")
        audio += copies + stretches
      }

      let configuration = recognizer.configuration
      let key = TuningCache.key(configuration: configuration, audio: audio)
      var decoded = cache.flatMap { TuningCache.load($0, key: key) }
      if decoded == nil {
        let progress = ConcurrentProgress(total: audio.count, label: "decoding")
        let failures = FailureList()
        decoded = try TuningDecoder(jobs: jobs).decode(
          audio,
          makeListener: {
            CommandListener(recognizer: try PocketSphinxRecognizer(configuration: configuration))
          },
          progress: { done, _ in progress.update(done) },
          failed: { path, error in failures.add("\(path): \(error)") })
        progress.finish()
        for failure in failures.all { warn("directme: error: \(failure)") }
        if !failures.all.isEmpty { throw Failure("\(failures.all.count) recordings could not be decoded; nothing was tuned") }
        if let cache { try TuningCache.save(decoded!, key: key, to: cache) }
      }
      let (tuning, checking) = DetectorTuner.split(decoded!, checkingShare: checkShare)
      var options = TuningOptions()
      options.maximumFalseAlarms = maxFalseAlarms
      options.maximumNoiseFalseAlarms = maxNoiseFalseAlarms
      let tuner = DetectorTuner(options: options)
      let date = ISO8601DateFormatter().string(from: Date())
      var detector = tuner.tune(
        tuning,
        notes: [
          "tuned": date, "model": configuration.acousticModel,
          "grammar": (configuration.grammar as NSString).lastPathComponent,
          "recordings": "\(tuning.count) tuning, \(checking.count) checking (split by speaker, share \(checkShare))",
          "labels": labels.joined(separator: " "),
        ])
      let tuningScore = DetectorTuner.evaluate(detector, on: tuning)
      let checkingScore = checking.isEmpty ? nil : DetectorTuner.evaluate(detector, on: checking)
      detector.notes["tuning speakers"] = TuneReport.summary(tuningScore)
      if let checkingScore { detector.notes["checking speakers"] = TuneReport.summary(checkingScore) }
      print(TuneReport.text(detector: detector, tuning: tuningScore, checking: checkingScore))

      let destination = out ?? recognizer.modelFolder + "/detector.json"
      try detector.json().write(to: URL(fileURLWithPath: destination), options: .atomic)
      if let report {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(TuneReport.JSON(detector: detector, tuning: tuningScore, checking: checkingScore))
          .write(to: URL(fileURLWithPath: report), options: .atomic)
      }
      warn("tune: wrote \(destination)")
    }
  }
}

/// What tuning found, for people.
enum TuneReport {
  struct JSON: Codable {
    var detector: Detector
    var tuning: TuningScore
    var checking: TuningScore?
  }

  static func summary(_ score: TuningScore) -> String {
    String(
      format: "%d commands %.1f%% right (%d noisy copies %.1f%%); %d other speech %.1f%% false alarms (%.1f%% pooled); %d noise %.1f%% false alarms; rescues %d right, %d wrong",
      score.commands, score.accuracy * 100, score.noisyCommands, score.noisyAccuracy * 100, score.otherSpeech,
      score.falseAlarms * 100, score.falseAlarmsPooled * 100,
      score.noise, score.noiseFalseAlarms * 100, score.rescuesRight, score.rescuesWrong)
  }

  static func text(detector: Detector, tuning: TuningScore, checking: TuningScore?) -> String {
    var lines: [String] = []
    lines.append(String(format: "operating point: confidence %.2f (rescue of near-misses from %.2f)", detector.threshold, detector.rescueThreshold))
    lines.append(
      String(format: "gate: a steady voiced run of %.0f ms, %.1f dB above the background", detector.gate.minimumVoiced * 1000, detector.gate.minimumDynamicRange))
    for (word, calibration) in detector.calibrations.sorted(by: { $0.key < $1.key }) {
      lines.append(
        String(
          format: "  %-6@ at least %3.0f ms; confidence 0.5 at margin %6.1f, acts from margin %6.1f", word, calibration.minimumDuration * 1000,
          calibration.margin(forConfidence: 0.5), calibration.margin(forConfidence: detector.threshold)))
    }
    lines.append("tuning speakers:   " + summary(tuning))
    if let checking {
      lines.append("checking speakers: " + summary(checking))
      let worst = checking.falseAlarmsByKind.sorted { $0.value > $1.value }.prefix(6)
        .map { String(format: "%@ %.0f%%", $0.key, $0.value * 100) }.joined(separator: ", ")
      lines.append("  most false alarms (checking): " + worst)
      let commands = checking.accuracyByCommand.sorted { $0.key < $1.key }.filter { !$0.key.contains(" ") }
        .map { String(format: "%@ %.0f%%", $0.key, $0.value * 100) }.joined(separator: ", ")
      lines.append("  right per command (checking): " + commands)
    }
    return lines.joined(separator: "\n")
  }
}

/// Decoded tuning recordings kept on disk, valid for one model, grammar and set of recordings.
enum TuningCache {
  struct File: Codable {
    var key: String
    var recordings: [TuningRecording]
  }

  static func key(configuration: RecognizerConfiguration, audio: [LabelledAudio]) -> String {
    var hash: UInt64 = 14_695_981_039_346_656_037
    func mix(_ text: String) { for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 1_099_511_628_211 } }
    mix(configuration.acousticModel)
    mix(configuration.grammar)
    mix(configuration.finalDecoderOptions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    for file in [configuration.grammar, configuration.acousticModel + "/means", configuration.acousticModel + "/sendump", configuration.acousticModel + "/mllr_matrix"] {
      if let attributes = try? FileManager.default.attributesOfItem(atPath: file) {
        mix("\(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
      }
    }
    for item in audio { mix(item.path + item.kind + item.speaker) }
    return String(hash, radix: 16)
  }

  static func load(_ path: String, key: String) -> [TuningRecording]? {
    guard let data = FileManager.default.contents(atPath: path),
      let file = try? JSONDecoder().decode(File.self, from: data), file.key == key
    else { return nil }
    warn("tune: reusing the decoded recordings in \(path)")
    return file.recordings
  }

  static func save(_ recordings: [TuningRecording], key: String, to path: String) throws {
    try JSONEncoder().encode(File(key: key, recordings: recordings)).write(to: URL(fileURLWithPath: path), options: .atomic)
  }
}

/// A progress bar updated from several threads.
final class ConcurrentProgress: @unchecked Sendable {
  private let lock = NSLock()
  private let bar: ProgressBar
  init(total: Int, label: String) { bar = ProgressBar(total: total, label: label) }
  func update(_ done: Int) {
    lock.lock()
    bar.update(done)
    lock.unlock()
  }
  func finish() {
    lock.lock()
    bar.finish()
    lock.unlock()
  }
}

/// Lines collected from several threads.
final class FailureList: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func add(_ line: String) {
    lock.lock()
    lines.append(line)
    lock.unlock()
  }
  var all: [String] {
    lock.lock()
    defer { lock.unlock() }
    return lines
  }
}
