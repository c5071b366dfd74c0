import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

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
    let hash = StableHash.of(speaker)
    return Double(hash % 10_000) / 10_000 < share
  }

  // MARK: Learning

  /// Margins beyond this (natural log) are clipped for fitting: one side found nothing at all.
  static let marginLimit = 300.0
  /// The most the gate may ask for, whatever the recordings: a steady voiced run of 60 ms
  /// (a short vowel) and 7 dB above the background: a voice 5 dB over a room's noise lies
  /// 5-10 dB above it (at 10 dB the bench's room noise lost 49 commands at 5-10 dB SNR).
  static let gateLimits = (voiced: 0.06, dynamicRange: 7.0)
  /// The gate asks at least this: one voiced frame is no evidence of a voice.
  static let shortestVoicedRun = 0.02
  /// The longest a minimum word duration may be (seconds).
  static let longestMinimumDuration = 0.2
  /// The longest loud part a word other words explain better may be asked for (seconds): a
  /// short vowel.
  static let longestMinimumLoud = 0.1

  /// A command word of a commands reading, and whether it was really said.
  struct WordSample {
    var word: String
    var margin: Double
    var duration: Double
    var signal: SignalEvidence?
    /// The word's own steady voiced run (seconds), else the utterance's.
    var voiced: Double?
    /// The word's loud part (seconds, see `WordSegment.loud`), when measured.
    var loud: Double?
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
    let kindWeight = { (count: Int) in Double(count) / (Double(count) + Self.kindPrior) }
    // Summed in the kinds' order, not the dictionary's (which changes from run to run, and
    // with it the last digits of every weight).
    let totalKindWeight = kinds.keys.sorted().reduce(0) { $0 + kindWeight(kinds[$1]!) }
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
      let count = kinds[recording.kind] ?? 1
      let weight =
        recording.isCommand
        ? 1.0 : Double(positives) * kindWeight(count) / max(totalKindWeight, 1e-9) / Double(count)
      for (index, word) in words.enumerated() {
        result.append(
          WordSample(
            word: word.segment.word, margin: max(-Self.marginLimit, min(Self.marginLimit, word.segment.margin!)),
            duration: word.segment.duration, signal: word.signal, voiced: word.segment.voiced ?? word.signal?.longestVoiced,
            loud: word.segment.loud, correct: correct[index], weight: weight))
      }
    }
    return result
  }

  /// Learns a detector from `recordings` (the tuning part).
  public func tune(_ recordings: [TuningRecording], notes: [String: String] = [:]) -> Detector {
    // Joined recordings (sequences, a command beside other words) only set the companion
    // threshold: the operating point and the rescue threshold are judged on single recordings.
    let single = recordings.filter { $0.joined == nil }
    // The gate is set on every real command, noisy copies included; the calibration and
    // durations on the recordings as they were made (noisy copies would teach it to take
    // weak evidence from clean audio too).
    let right = samples(single.filter { !$0.isNoise }).filter(\.correct)
    // The minimum durations keep `keep` of the commands said as they were made, alone and in
    // the joined sequences (a command in a sequence is said shorter than alone).
    let rightAsMade = samples(recordings.filter { !$0.isNoise && !$0.isNoisyCopy }).filter(\.correct)
    let rightAlone = samples(single.filter { !$0.isNoise && !$0.isNoisyCopy }).filter(\.correct)
    let all = options.calibrateOnNoisyCopies
      ? samples(single.filter { !$0.isNoise }) : samples(single.filter { !$0.isNoise && !$0.isNoisyCopy })

    // The gate keeps `keep` of the real commands: its bounds are low quantiles of theirs.
    let voiced = right.compactMap(\.voiced)
    let ranges = right.compactMap(\.signal?.dynamicRange)
    // Capped, so recordings all made alike (synthetic voices padded with digital silence)
    // cannot make it refuse ordinary speech.
    let gate = Detector.Gate(
      minimumVoiced: max(Self.shortestVoicedRun, min(Self.quantile(voiced, 1 - options.keep), Self.gateLimits.voiced)),
      minimumDynamicRange: min(Self.quantile(ranges, 1 - options.keep), Self.gateLimits.dynamicRange),
      clearMargin: options.clearMargin, overVoices: options.overVoices, continuousSound: options.continuousSound)

    var calibrations: [String: Detector.Calibration] = [:]
    for word in vocabulary.commands.keys.sorted() {
      let mine = all.filter { $0.word == word }
      let durations = rightAsMade.filter { $0.word == word }.map(\.duration)
      guard durations.count >= 5 else { continue }
      let minimumDuration = min(Self.quantile(durations, 1 - options.keep), Self.longestMinimumDuration)
      // The loud part keeps `keep` of the real commands other words explain better, as said;
      // its maximum, of those said alone over a quiet background (see `maximumLoud`).
      let louds = rightAsMade.filter { $0.word == word && $0.margin < 0 }.compactMap(\.loud)
      let aloneLouds = rightAlone.filter {
        $0.word == word && $0.margin < 0 && ($0.signal?.dynamicRange ?? 0) + 1e-9 >= Detector.Calibration.clearBackground
      }.compactMap(\.loud)
      var calibration = Detector.Calibration(
        slope: 0, intercept: 0, minimumDuration: minimumDuration,
        minimumLoud: options.asksLoudPart && louds.count >= 5 ? min(Self.quantile(louds, 1 - options.keep), Self.longestMinimumLoud) : nil,
        maximumLoud: options.asksLoudPart && aloneLouds.count >= 5 ? Self.quantile(aloneLouds, options.keep) : nil)
      let usable = mine.filter {
        $0.duration + 1e-9 >= minimumDuration && Self.passes(gate, $0)
          && calibration.fitsLoudPart($0.loud, margin: $0.margin, dynamicRange: $0.signal?.dynamicRange)
      }
      (calibration.slope, calibration.intercept) = Self.logistic(
        usable.map(\.margin), usable.map { $0.correct ? 1 : 0 }, weights: usable.map(\.weight))
      calibrations[word] = calibration
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
      let score = Self.evaluate(detector, on: single, vocabulary: vocabulary)
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
      let score = Self.evaluate(detector, on: single, vocabulary: vocabulary)
      let fired = score.rescuesRight + score.rescuesWrong
      guard score.falseAlarms <= options.maximumFalseAlarms, score.noiseFalseAlarms <= options.maximumNoiseFalseAlarms,
        fired == 0 || Double(score.rescuesRight) / Double(fired) >= options.minimumRescuePrecision
      else { break }
      rescue = candidate
    }
    detector.rescueThreshold = rescue

    // The companion threshold: the one that gets the most sequences right among those that
    // keep commands beside other words from moving the ninja more (within a margin), and
    // keep the false alarms in bounds; none when nothing is gained.
    let joined = recordings.filter { $0.joined != nil }
    if joined.contains(where: { $0.joined == .sequence }) {
      let base = Self.evaluate(detector, on: joined, vocabulary: vocabulary)
      var best = (threshold: Double?.none, accuracy: base.sequenceAccuracy)
      for candidate in grid.reversed() where candidate < chosen {
        detector.companionThreshold = candidate
        let score = Self.evaluate(detector, on: joined, vocabulary: vocabulary)
        guard score.besideExtra <= base.besideExtra + options.maximumCompanionExtra else { break }
        if score.sequenceAccuracy > best.accuracy + 1e-9 { best = (candidate, score.sequenceAccuracy) }
      }
      detector.companionThreshold = best.threshold
      if best.threshold != nil {
        let score = Self.evaluate(detector, on: recordings, vocabulary: vocabulary)
        if score.falseAlarms > options.maximumFalseAlarms || score.noiseFalseAlarms > options.maximumNoiseFalseAlarms {
          detector.companionThreshold = nil
        }
      }
    }
    return detector
  }

  /// The gate's verdict on a sample (its `voiced` is already the word's or the utterance's).
  static func passes(_ gate: Detector.Gate, _ sample: WordSample) -> Bool {
    gate.passes(sample.signal, voiced: sample.voiced, margin: sample.margin)
  }
}
