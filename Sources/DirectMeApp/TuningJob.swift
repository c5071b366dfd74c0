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

/// `directme tune`: decodes labelled recordings (and noisy copies, and noise alone) through
/// the live pipeline, learns the detector on some speakers, checks it on the others, reports
/// both and writes the detector.
public struct TuningJob {
  public var labels: [String]
  /// Where the detector goes.
  public var out: String
  public var checkShare: Double
  public var options: TuningOptions
  public var noise: String?
  /// Every how many-th recording also goes in reverberant (0: none; see `NoiseMaterial.reverberantCopies`).
  public var reverbEvery = 0
  public var cache: String?
  public var report: String?
  public var jobs: Int
  public var configuration: RecognizerConfiguration

  public init(
    labels: [String], out: String, checkShare: Double, options: TuningOptions, noise: String?, cache: String?,
    report: String?, jobs: Int, configuration: RecognizerConfiguration
  ) {
    self.labels = labels
    self.out = out
    self.checkShare = checkShare
    self.options = options
    self.noise = noise
    self.cache = cache
    self.report = report
    self.jobs = jobs
    self.configuration = configuration
  }

  public func run(output: Output = .standard) throws {
    var (audio, problems) = try LabelledAudioReader.read(labels)
    for problem in problems { output.warning("\(programName): error: \(problem)") }
    if !problems.isEmpty { throw Failure.problems(problems.count, in: "the labels", "nothing was tuned") }
    guard audio.contains(where: { !$0.expected.isEmpty }) else { throw Failure("no command recordings to tune on") }
    let joined = try NoiseMaterial.joined(audio)
    let rooms = try NoiseMaterial.reverberantCopies(of: audio, every: reverbEvery)
    if !rooms.isEmpty {
      output.warning("tune: \(rooms.filter { !$0.expected.isEmpty }.count) commands and \(rooms.filter { $0.expected.isEmpty }.count) other recordings copied as heard in a room")
    }
    if !joined.isEmpty {
      output.warning("tune: \(joined.filter { $0.joined == .sequence }.count) sequences and \(joined.filter { $0.joined == .besideOtherWords }.count) commands beside other words joined from each speaker's recordings")
    }
    if let noise {
      let noises = try ModelAdapter.loadNoises(noise)
      let copies = try NoiseMaterial.noisyCopies(of: audio, noises: noises, snr: 5...20, every: 3)
      let stretches = NoiseMaterial.noiseOnly(noises, count: max(100, audio.count / 20))
      output.warning("tune: \(copies.count) noisy copies of commands and \(stretches.count) stretches of noise added")
      audio += copies + stretches
    }
    audio += rooms + joined

    let key = TuningCache.key(configuration: configuration, audio: audio)
    var decoded = cache.flatMap { TuningCache.load($0, key: key) }
    if decoded == nil {
      let configuration = self.configuration
      let progress = ConcurrentProgress(total: audio.count, label: "decoding")
      let failures = Locked<[String]>([])
      // A recognizer per job: each scores on its own thread.
      if jobs > 1 { PocketSphinxRecognizer.scoringThreads = 1 }
      decoded = try TuningDecoder(jobs: jobs).decode(
        audio,
        makeListener: {
          CommandListener(recognizer: try PocketSphinxRecognizer(configuration: configuration))
        },
        progress: { done, _ in progress.update(done) },
        failed: { path, error in failures.update { $0.append("\(path): \(error)") } })
      progress.finish()
      for failure in failures.value { output.warning("\(programName): error: \(failure)") }
      if !failures.value.isEmpty { throw Failure("\(failures.value.count) recordings could not be decoded; nothing was tuned") }
      if let cache { try TuningCache.save(decoded!, key: key, to: cache) }
    }
    let (tuning, checking) = DetectorTuner.split(decoded!, checkingShare: checkShare)
    let tuner = DetectorTuner(options: options)
    let date = Date().ISO8601Format()
    var detector = tuner.tune(
      tuning,
      notes: [
        "tuned": date, "model": configuration.acousticModel,
        "grammar": URL(fileURLWithPath: configuration.grammar).lastPathComponent,
        "recordings": "\(tuning.count) tuning, \(checking.count) checking (split by speaker, share \(checkShare))",
        "labels": labels.joined(separator: " "),
      ])
    let tuningScore = DetectorTuner.evaluate(detector, on: tuning)
    let checkingScore = checking.isEmpty ? nil : DetectorTuner.evaluate(detector, on: checking)
    detector.notes["tuning speakers"] = TuneReport.summary(tuningScore)
    if let checkingScore {
      detector.notes["checking speakers"] = TuneReport.summary(checkingScore)
      if checkingScore.sequences > 0 { detector.notes["checking speakers, joined"] = TuneReport.joinedSummary(checkingScore) }
    }
    output.line(TuneReport.text(detector: detector, tuning: tuningScore, checking: checkingScore))
    // A model adapted from a stock one is asked the base's second opinion on unsure "up"s;
    // its settings were measured with `directme-bench accuracy`, not learned here (the tuner's
    // figures above are without it).
    detector.secondOpinion = Detector.SecondOpinion.forModel(in: configuration.acousticModel)
    // The rivals too were measured with the benchmark (`Detector.measuredRivals`).
    detector.rivals = Detector.measuredRivals

    try detector.json().write(to: URL(fileURLWithPath: out), options: .atomic)
    if let report {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      try encoder.encode(TuneReport.JSON(detector: detector, tuning: tuningScore, checking: checkingScore))
        .write(to: URL(fileURLWithPath: report), options: .atomic)
    }
    output.warning("tune: wrote \(out)")
  }
}

/// What tuning found, for people.
public enum TuneReport {
  public struct JSON: Codable {
    var detector: Detector
    var tuning: TuningScore
    var checking: TuningScore?
  }

  public static func summary(_ score: TuningScore) -> String {
    String(
      printf: "%d commands %.1f%% right (%d noisy copies %.1f%%); %d other speech %.1f%% false alarms (%.1f%% pooled); %d noise %.1f%% false alarms; rescues %d right, %d wrong",
      score.commands, score.accuracy * 100, score.noisyCommands, score.noisyAccuracy * 100, score.otherSpeech,
      score.falseAlarms * 100, score.falseAlarmsPooled * 100,
      score.noise, score.noiseFalseAlarms * 100, score.rescuesRight, score.rescuesWrong)
  }

  public static func joinedSummary(_ score: TuningScore) -> String {
    String(
      printf: "%d sequences %.1f%% right; %d commands beside other words, %.1f%% moved it more",
      score.sequences, score.sequenceAccuracy * 100, score.besideOtherWords, score.besideExtra * 100)
  }

  public static func text(detector: Detector, tuning: TuningScore, checking: TuningScore?) -> String {
    var lines: [String] = []
    lines.append(String(printf: "operating point: confidence %.2f (rescue of near-misses from %.2f)", detector.threshold, detector.rescueThreshold))
    lines.append(
      String(printf: "gate: a steady voiced run of %.0f ms, %.1f dB above the background", detector.gate.minimumVoiced * 1000, detector.gate.minimumDynamicRange)
        + (detector.gate.overVoices.map { String(printf: " (%.1f dB over other voices)", $0.minimumDynamicRange) } ?? ""))
    for (word, calibration) in detector.calibrations.sorted(by: { $0.key < $1.key }) {
      lines.append(
        "  " + word + String(repeating: " ", count: max(0, 6 - word.count))
          + String(
            printf: " at least %3.0f ms; confidence 0.5 at margin %6.1f, acts from margin %6.1f", calibration.minimumDuration * 1000,
            calibration.margin(forConfidence: 0.5), calibration.margin(forConfidence: detector.threshold))
          + (calibration.minimumLoud.map { String(printf: "; below margin 0, loud for %.0f ms", $0 * 1000) } ?? "")
          + (calibration.maximumLoud.map { String(printf: " to %.0f ms", $0 * 1000) } ?? ""))
    }
    if let companion = detector.companionThreshold {
      lines.append(String(printf: "beside or just after a sure command, a command needs confidence %.2f", companion))
    }
    lines.append("tuning speakers:   " + summary(tuning))
    if tuning.sequences > 0 { lines.append("  " + joinedSummary(tuning)) }
    if let checking {
      lines.append("checking speakers: " + summary(checking))
      if checking.sequences > 0 { lines.append("  " + joinedSummary(checking)) }
      let worst = checking.falseAlarmsByKind.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(6)
        .map { $0.key + String(printf: " %.0f%%", $0.value * 100) }.joined(separator: ", ")
      lines.append("  most false alarms (checking): " + worst)
      let commands = checking.accuracyByCommand.sorted { $0.key < $1.key }.filter { !$0.key.contains(" ") }
        .map { $0.key + String(printf: " %.0f%%", $0.value * 100) }.joined(separator: ", ")
      lines.append("  right per command (checking): " + commands)
    }
    return lines.joined(separator: "\n")
  }
}

/// Decoded tuning recordings kept on disk, valid for one model, grammar and set of recordings
/// (the audio itself for recordings made in memory: noisy copies, stretches of noise, joined
/// and reverberant ones).
public enum TuningCache {
  public struct File: Codable {
    var key: String
    var recordings: [TuningRecording]
  }

  public static func key(configuration: RecognizerConfiguration, audio: [LabelledAudio]) -> String {
    var hash = StableHash()
    hash.mix(configuration.acousticModel)
    hash.mix(configuration.grammar)
    hash.mix(configuration.finalDecoderOptions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
    hash.mix(configuration.denoiser.map { "denoise \($0)" } ?? "no denoise")
    hash.mix(configuration.removesHum ? "hum out" : "hum kept")
    for file in [configuration.grammar, configuration.acousticModel + "/means", configuration.acousticModel + "/sendump", configuration.acousticModel + "/mllr_matrix"] {
      if let attributes = try? FileManager.default.attributesOfItem(atPath: file) {
        hash.mix("\(attributes[.size] ?? 0) \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
      }
    }
    for item in audio {
      hash.mix(item.path + item.kind + item.speaker)
      // Audio made in memory is named, not stored: "noise #3" or "... + noise at 12 dB" is
      // another sound with another noise folder, under the same name.
      if let samples = item.samples { hash.mix(String(StableHash.of(samples), radix: 16)) }
    }
    return String(hash.value, radix: 16)
  }

  public static func load(_ path: String, key: String) -> [TuningRecording]? {
    guard let data = FileManager.default.contents(atPath: path),
      let file = try? JSONDecoder().decode(File.self, from: data), file.key == key
    else { return nil }
    warn("tune: reusing the decoded recordings in \(path)")
    return file.recordings
  }

  public static func save(_ recordings: [TuningRecording], key: String, to path: String) throws {
    try JSONEncoder().encode(File(key: key, recordings: recordings)).write(to: URL(fileURLWithPath: path), options: .atomic)
  }
}
