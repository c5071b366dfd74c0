import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

extension DetectorTuner {
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
    var sequences = 0
    var sequencesRight = 0
    var beside = 0
    var besideExtra = 0
    for recording in recordings {
      let interpretations = interpreter.interpret(recording.results)
      let directions = interpretations.flatMap(\.directions)
      let rescued = interpretations.flatMap(\.rescues).map(\.taken)
      let right = ScoredRecording.rightRescues(rescued, expected: recording.expected)
      rescuesRight += right
      rescuesWrong += rescued.count - right
      if let joined = recording.joined {
        switch joined {
        case .sequence:
          sequences += 1
          if directions == recording.expected { sequencesRight += 1 }
        case .besideOtherWords:
          beside += 1
          if directions.count > recording.expected.count { besideExtra += 1 }
        }
      } else if recording.isNoisyCopy {
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
    let smoothed = byKind.keys.sorted().map { byKind[$0]! }.map { (Double($0.moved) + kindPrior * pooled) / (Double($0.total) + kindPrior) }
    var score = TuningScore(
      commands: commands, accuracy: commands == 0 ? 0 : Double(exact) / Double(commands),
      noisyCommands: noisyCommands, noisyAccuracy: noisyCommands == 0 ? 0 : Double(noisyExact) / Double(noisyCommands),
      otherSpeech: otherCount, falseAlarms: smoothed.isEmpty ? 0 : smoothed.reduce(0, +) / Double(smoothed.count),
      falseAlarmsPooled: otherCount == 0 ? 0 : Double(otherMoved) / Double(otherCount),
      noise: noise, noiseFalseAlarms: noise == 0 ? 0 : Double(noiseMoved) / Double(noise),
      rescuesRight: rescuesRight, rescuesWrong: rescuesWrong, falseAlarmsByKind: rates,
      accuracyByCommand: byCommand.mapValues { Double($0.right) / Double($0.total) })
    score.sequences = sequences
    score.sequenceAccuracy = sequences == 0 ? 0 : Double(sequencesRight) / Double(sequences)
    score.besideOtherWords = beside
    score.besideExtra = beside == 0 ? 0 : Double(besideExtra) / Double(beside)
    return score
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

extension DetectorTuner {
  /// A speaker's own operating point, from their enrollment: the base detector with a lower
  /// threshold when that gets more of their commands right while none of their other phrases
  /// moves the ninja, even 0.1 below it; then `margin` lower still where that stays safe
  /// (their commands vary from take to take). Never below `floor`; the base detector when
  /// lowering gains nothing.
  public static func personalOperatingPoint(
    base: Detector, recordings: [TuningRecording], floor: Double = 0.3, margin: Double = 0.15
  ) -> (detector: Detector, before: TuningScore, after: TuningScore) {
    func with(_ threshold: Double) -> Detector {
      var detector = base
      detector.threshold = threshold
      detector.rescueThreshold = min(base.rescueThreshold, threshold)
      return detector
    }
    let before = evaluate(base, on: recordings)
    var best = (detector: base, score: before)
    var threshold = base.threshold - 0.02
    while threshold >= floor - 1e-9 {
      let candidate = with(threshold)
      let score = evaluate(candidate, on: recordings)
      let safe = score.falseAlarmsPooled == 0 && evaluate(with(max(0.01, threshold - 0.1)), on: recordings).falseAlarmsPooled == 0
      if safe && score.accuracy > best.score.accuracy + 1e-9 { best = (candidate, score) }
      threshold -= 0.02
    }
    // The highest threshold that gets the enrollment right is at the edge of this speaker's
    // takes: go `margin` lower (other days, other takes), as far as stays safe.
    if best.detector != base {
      var threshold = best.detector.threshold - margin
      while threshold < best.detector.threshold - 1e-9 {
        let candidate = with(max(floor, threshold))
        let safe = evaluate(with(max(0.01, candidate.threshold - 0.1)), on: recordings).falseAlarmsPooled == 0
        if safe {
          best = (candidate, evaluate(candidate, on: recordings))
          break
        }
        threshold += 0.02
      }
    }
    if best.detector != base {
      best.detector.notes["personal operating point"] =
        String(printf: "%.2f (base %.2f): commands %.0f%% -> %.0f%% right on the enrollment", best.detector.threshold, base.threshold, before.accuracy * 100, best.score.accuracy * 100)
    }
    return (best.detector, before, best.score)
  }
}
