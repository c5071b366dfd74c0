import DirectMeCore
import Foundation

/// One labelled recording as the pipeline heard it: the final result of each utterance, so
/// that any detector can be tried on it without decoding again.
public struct TuningRecording: Hashable, Sendable, Codable {
  public var path: String
  public var speaker: String
  public var expected: [Direction]
  /// What kind of recording it is, for weighing false alarms evenly across kinds: the words
  /// said ("go", "zero", "smart mirror"), "noise", or the directions for a command.
  public var kind: String
  public var results: [RecognitionResult]

  public init(path: String, speaker: String, expected: [Direction], kind: String, results: [RecognitionResult]) {
    self.path = path
    self.speaker = speaker
    self.expected = expected
    self.kind = kind
    self.results = results
  }

  public var isCommand: Bool { !expected.isEmpty }
  public var isNoise: Bool { kind == TuningRecording.noiseKind }
  /// A command recording with noise mixed in by tuning.
  public var isNoisyCopy: Bool { kind.hasSuffix(TuningRecording.noisySuffix) }
  public static let noiseKind = "noise"
  public static let noisySuffix = " + noise"
}

/// How well a detector does on a set of recordings.
public struct TuningScore: Hashable, Sendable, Codable {
  public var commands: Int
  /// Share of command recordings whose directions came out exactly.
  public var accuracy: Double
  public var noisyCommands: Int
  /// The same for the noisy copies of command recordings (5-20 dB SNR).
  public var noisyAccuracy: Double
  public var otherSpeech: Int
  /// Share of other-speech recordings that moved the ninja, each kind of recording weighing
  /// the same ("go" and "yes" count alike however many of each there are; a rare kind's rate
  /// is drawn towards the pooled one).
  public var falseAlarms: Double
  /// The same, counted over recordings.
  public var falseAlarmsPooled: Double
  public var noise: Int
  /// Share of noise-only recordings that moved the ninja.
  public var noiseFalseAlarms: Double
  /// Rescued near-misses that were right (the command was said) and wrong.
  public var rescuesRight: Int
  public var rescuesWrong: Int
  /// False alarm rate per kind of other speech, for the report.
  public var falseAlarmsByKind: [String: Double]
  /// Accuracy per expected direction sequence, for the report.
  public var accuracyByCommand: [String: Double]
}

/// Targets and safety margins of tuning.
public struct TuningOptions: Sendable {
  /// The most other-speech false alarms (evenly weighted across kinds) the operating point
  /// may cause on the tuning recordings.
  public var maximumFalseAlarms = 0.035
  /// The most noise-only false alarms.
  public var maximumNoiseFalseAlarms = 0.01
  /// The share of correct command words the gate and the minimum durations must keep.
  public var keep = 0.99
  /// A near-miss rescue threshold is used only if at least this share of its rescues is right.
  public var minimumRescuePrecision = 0.8
  /// Whether noisy copies of commands count in the calibration (they always count for the gate).
  public var calibrateOnNoisyCopies = false
  public init() {}
}

/// Learns a detector from recordings: per-word minimum durations and a voicing gate that
/// keep almost every real command, a logistic calibration of each command word's margin into
/// the probability that it was said, and the operating point, the lowest confidence that
/// keeps false alarms within the targets.
public struct DetectorTuner: Sendable {
  public var options: TuningOptions
  public var vocabulary: Vocabulary

  public init(options: TuningOptions = TuningOptions(), vocabulary: Vocabulary = .standard) {
    self.options = options
    self.vocabulary = vocabulary
  }

  // MARK: Splitting

  /// Recordings split by speaker, a speaker wholly in one part: about `checkingShare` of the
  /// speakers (chosen by a hash of their id, so the split is stable) are held out for checking.
  public static func split(_ recordings: [TuningRecording], checkingShare: Double) -> (tuning: [TuningRecording], checking: [TuningRecording]) {
    var tuning: [TuningRecording] = []
    var checking: [TuningRecording] = []
    for recording in recordings {
      if isChecking(speaker: recording.speaker, share: checkingShare) {
        checking.append(recording)
      } else {
        tuning.append(recording)
      }
    }
    return (tuning, checking)
  }

  /// Whether a speaker falls in the checking part (a stable hash of the id).
  public static func isChecking(speaker: String, share: Double) -> Bool {
    let hash = speaker.utf8.reduce(UInt64(14_695_981_039_346_656_037)) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    return Double(hash % 10_000) / 10_000 < share
  }

  // MARK: Learning

  /// Margins beyond this (natural log) are clipped for fitting: one side found nothing at all.
  static let marginLimit = 300.0
  /// The most the gate may ask for, whatever the recordings: a steady voiced run of 60 ms
  /// (a short vowel) and 10 dB above the background.
  static let gateLimits = (voiced: 0.06, dynamicRange: 10.0)
  /// The gate asks at least this: one voiced frame is no evidence of a voice.
  static let shortestVoicedRun = 0.02
  /// The longest a minimum word duration may be (seconds).
  static let longestMinimumDuration = 0.2

  /// A command word of a commands reading, and whether it was really said.
  struct WordSample {
    var word: String
    var margin: Double
    var duration: Double
    var signal: SignalEvidence?
    /// The word's own steady voiced run (seconds), else the utterance's.
    var voiced: Double?
    var correct: Bool
    var weight: Double
  }

  /// Every command word of every commands reading, each marked right when it lines up with
  /// an expected direction, weighted so that commands and other speech weigh the same and
  /// every kind of other speech weighs the same.
  func samples(_ recordings: [TuningRecording]) -> [WordSample] {
    let negatives = recordings.filter { !$0.isCommand }
    let kinds = Dictionary(grouping: negatives, by: \.kind).mapValues(\.count)
    let positives = max(1, recordings.count - negatives.count)
    var result: [WordSample] = []
    for recording in recordings {
      var words: [(segment: WordSegment, signal: SignalEvidence?)] = []
      for outcome in recording.results {
        guard let reading = outcome.commandsReading else { continue }
        for segment in reading.segments where segment.margin != nil && vocabulary.direction(of: segment.word) != nil {
          words.append((segment, outcome.signal))
        }
      }
      guard !words.isEmpty else { continue }
      let recognized = words.compactMap { vocabulary.direction(of: $0.segment.word) }
      var correct = [Bool](repeating: false, count: words.count)
      if recording.isCommand {
        var index = 0
        for step in Alignment(expected: recording.expected, recognized: recognized).steps {
          switch step {
          case .match:
            correct[index] = true
            index += 1
          case .substitution, .insertion:
            index += 1
          case .deletion:
            break
          }
        }
      }
      // Every kind of other speech weighs alike, a rare kind a little less (see `kindPrior`);
      // other speech in all weighs as much as the commands.
      let kindWeight = { (count: Int) in Double(count) / (Double(count) + Self.kindPrior) }
      let totalKindWeight = kinds.values.reduce(0) { $0 + kindWeight($1) }
      let count = kinds[recording.kind] ?? 1
      let weight =
        recording.isCommand
        ? 1.0 : Double(positives) * kindWeight(count) / max(totalKindWeight, 1e-9) / Double(count)
      for (index, word) in words.enumerated() {
        result.append(
          WordSample(
            word: word.segment.word, margin: max(-Self.marginLimit, min(Self.marginLimit, word.segment.margin!)),
            duration: word.segment.duration, signal: word.signal, voiced: word.segment.voiced ?? word.signal?.longestVoiced,
            correct: correct[index], weight: weight))
      }
    }
    return result
  }

  /// Learns a detector from `recordings` (the tuning part).
  public func tune(_ recordings: [TuningRecording], notes: [String: String] = [:]) -> Detector {
    // The gate is set on every real command, noisy copies included; the calibration and
    // durations on the recordings as they were made (noisy copies would teach it to take
    // weak evidence from clean audio too).
    let right = samples(recordings.filter { !$0.isNoise }).filter(\.correct)
    let all = options.calibrateOnNoisyCopies
      ? samples(recordings.filter { !$0.isNoise }) : samples(recordings.filter { !$0.isNoise && !$0.isNoisyCopy })

    // The gate keeps `keep` of the real commands: its bounds are low quantiles of theirs.
    let voiced = right.compactMap(\.voiced)
    let ranges = right.compactMap(\.signal?.dynamicRange)
    // Capped, so recordings all made alike (synthetic voices padded with digital silence)
    // cannot make it refuse ordinary speech.
    let gate = Detector.Gate(
      minimumVoiced: max(Self.shortestVoicedRun, min(Self.quantile(voiced, 1 - options.keep), Self.gateLimits.voiced)),
      minimumDynamicRange: min(Self.quantile(ranges, 1 - options.keep), Self.gateLimits.dynamicRange))

    var calibrations: [String: Detector.Calibration] = [:]
    for word in vocabulary.commands.keys.sorted() {
      let mine = all.filter { $0.word == word }
      let durations = right.filter { $0.word == word }.map(\.duration)
      guard durations.count >= 5 else { continue }
      let minimumDuration = min(Self.quantile(durations, 1 - options.keep), Self.longestMinimumDuration)
      let usable = mine.filter { $0.duration + 1e-9 >= minimumDuration && Self.passes(gate, $0) }
      let (slope, intercept) = Self.logistic(
        usable.map(\.margin), usable.map { $0.correct ? 1 : 0 }, weights: usable.map(\.weight))
      calibrations[word] = Detector.Calibration(slope: slope, intercept: intercept, minimumDuration: minimumDuration)
    }
    let usable = all.filter { Self.passes(gate, $0) }
    let pooled = Self.logistic(usable.map(\.margin), usable.map { $0.correct ? 1 : 0 }, weights: usable.map(\.weight))
    let fallback = Detector.Calibration(
      slope: pooled.slope, intercept: pooled.intercept,
      minimumDuration: min(calibrations.values.map(\.minimumDuration).min() ?? 0, 0.1))

    var detector = Detector(
      calibrations: calibrations, fallback: fallback, gate: gate, threshold: 0.5, rescueThreshold: 0.5, notes: notes)

    // The operating point: the lowest threshold within the false-alarm targets.
    let grid = stride(from: 0.02, through: 0.98, by: 0.01).map { $0 }
    var chosen = grid.last!
    for threshold in grid {
      detector.threshold = threshold
      detector.rescueThreshold = threshold
      let score = Self.evaluate(detector, on: recordings, vocabulary: vocabulary)
      if score.falseAlarms <= options.maximumFalseAlarms && score.noiseFalseAlarms <= options.maximumNoiseFalseAlarms {
        chosen = threshold
        break
      }
    }
    detector.threshold = chosen

    // The rescue threshold: as low as rescues stay mostly right and false alarms in bounds.
    var rescue = chosen
    for candidate in grid.reversed() where candidate < chosen {
      detector.rescueThreshold = candidate
      let score = Self.evaluate(detector, on: recordings, vocabulary: vocabulary)
      let fired = score.rescuesRight + score.rescuesWrong
      guard score.falseAlarms <= options.maximumFalseAlarms, score.noiseFalseAlarms <= options.maximumNoiseFalseAlarms,
        fired == 0 || Double(score.rescuesRight) / Double(fired) >= options.minimumRescuePrecision
      else { break }
      rescue = candidate
    }
    detector.rescueThreshold = rescue
    return detector
  }

  static func passes(_ gate: Detector.Gate, _ sample: WordSample) -> Bool {
    (sample.voiced ?? 1) + 1e-9 >= gate.minimumVoiced
      && (sample.signal.map { $0.dynamicRange + 1e-9 >= gate.minimumDynamicRange } ?? true)
  }

  // MARK: Scoring

  /// How `detector` does on `recordings`, deciding on each utterance's final result.
  public static func evaluate(_ detector: Detector, on recordings: [TuningRecording], vocabulary: Vocabulary = .standard) -> TuningScore {
    let interpreter = Interpreter(vocabulary: vocabulary, settings: InterpreterSettings(detector: detector))
    var exact = 0
    var commands = 0
    var noisyExact = 0
    var noisyCommands = 0
    var noise = 0
    var noiseMoved = 0
    var byKind: [String: (moved: Int, total: Int)] = [:]
    var byCommand: [String: (right: Int, total: Int)] = [:]
    var rescuesRight = 0
    var rescuesWrong = 0
    for recording in recordings {
      let interpretations = recording.results.map { interpreter.interpret($0) }
      let directions = interpretations.flatMap(\.directions)
      for instruction in interpretations.flatMap(\.instructions) where instruction.rescue != nil {
        if recording.expected.contains(instruction.direction) { rescuesRight += 1 } else { rescuesWrong += 1 }
      }
      if recording.isNoisyCopy {
        noisyCommands += 1
        if directions == recording.expected { noisyExact += 1 }
      } else if recording.isCommand {
        commands += 1
        let key = recording.expected.map(\.rawValue).joined(separator: " ")
        let right = directions == recording.expected
        if right { exact += 1 }
        byCommand[key, default: (0, 0)].right += right ? 1 : 0
        byCommand[key, default: (0, 0)].total += 1
      } else if recording.isNoise {
        noise += 1
        if !directions.isEmpty { noiseMoved += 1 }
      } else {
        byKind[recording.kind, default: (0, 0)].total += 1
        if !directions.isEmpty { byKind[recording.kind, default: (0, 0)].moved += 1 }
      }
    }
    let rates = byKind.mapValues { Double($0.moved) / Double($0.total) }
    let otherCount = byKind.values.reduce(0) { $0 + $1.total }
    let otherMoved = byKind.values.reduce(0) { $0 + $1.moved }
    let pooled = otherCount == 0 ? 0 : Double(otherMoved) / Double(otherCount)
    // Each kind's rate is drawn towards the pooled rate by `kindPrior` recordings' worth, so
    // a kind heard four times does not swing the average by a quarter with one false alarm.
    let smoothed = byKind.values.map { (Double($0.moved) + kindPrior * pooled) / (Double($0.total) + kindPrior) }
    return TuningScore(
      commands: commands, accuracy: commands == 0 ? 0 : Double(exact) / Double(commands),
      noisyCommands: noisyCommands, noisyAccuracy: noisyCommands == 0 ? 0 : Double(noisyExact) / Double(noisyCommands),
      otherSpeech: otherCount, falseAlarms: smoothed.isEmpty ? 0 : smoothed.reduce(0, +) / Double(smoothed.count),
      falseAlarmsPooled: otherCount == 0 ? 0 : Double(otherMoved) / Double(otherCount),
      noise: noise, noiseFalseAlarms: noise == 0 ? 0 : Double(noiseMoved) / Double(noise),
      rescuesRight: rescuesRight, rescuesWrong: rescuesWrong, falseAlarmsByKind: rates,
      accuracyByCommand: byCommand.mapValues { Double($0.right) / Double($0.total) })
  }

  /// How many recordings' worth a kind's false-alarm rate is drawn towards the pooled rate by.
  static let kindPrior = 10.0

  // MARK: Numerics

  /// The `q` quantile (0...1) of `values`, 0 for none.
  static func quantile(_ values: [Double], _ q: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let position = max(0, min(Double(sorted.count - 1), q * Double(sorted.count - 1)))
    let low = Int(position.rounded(.down))
    let high = min(sorted.count - 1, low + 1)
    return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
  }

  /// Weighted logistic regression of `labels` (0 or 1) on one feature, by Newton's method with
  /// a little ridge: `p = 1 / (1 + exp(-(slope * x + intercept)))`.
  static func logistic(_ x: [Double], _ labels: [Double], weights: [Double]) -> (slope: Double, intercept: Double) {
    guard !x.isEmpty else { return (0.1, 0) }
    // Standardize for a well-conditioned fit.
    let totalWeight = weights.reduce(0, +)
    let mean = zip(x, weights).reduce(0) { $0 + $1.0 * $1.1 } / max(totalWeight, 1e-12)
    let variance = zip(x, weights).reduce(0) { $0 + ($1.0 - mean) * ($1.0 - mean) * $1.1 } / max(totalWeight, 1e-12)
    let scale = max(variance.squareRoot(), 1e-9)
    var a = 0.0
    var b = 0.0
    let ridge = 1e-3 * totalWeight
    for _ in 0..<50 {
      var ga = 0.0, gb = 0.0, haa = ridge, hab = 0.0, hbb = 1e-9
      for index in x.indices {
        let z = (x[index] - mean) / scale
        let p = 1 / (1 + exp(-(a * z + b)))
        let w = weights[index]
        ga += w * (p - labels[index]) * z
        gb += w * (p - labels[index])
        let h = w * p * (1 - p)
        haa += h * z * z
        hab += h * z
        hbb += h
      }
      ga += ridge * a
      let determinant = haa * hbb - hab * hab
      guard abs(determinant) > 1e-12 else { break }
      let da = (hbb * ga - hab * gb) / determinant
      let db = (haa * gb - hab * ga) / determinant
      a -= da
      b -= db
      if abs(da) < 1e-9 && abs(db) < 1e-9 { break }
    }
    return (a / scale, b - a * mean / scale)
  }
}
