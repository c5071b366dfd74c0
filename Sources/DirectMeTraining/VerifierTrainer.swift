import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// One stretch of audio the decoder took for a command word, as the word verifier hears it,
/// and what was said there (an index into the verifier's classes).
public struct VerifierExample: Sendable {
  public var features: [Double]
  public var label: Int
  public init(features: [Double], label: Int) {
    self.features = features
    self.label = label
  }
}

/// Learns a `WordVerifier` from decoded labelled recordings: a network with one rectified
/// hidden layer and a softmax over the command words and "none", trained by Adam on
/// mini-batches with an L2 penalty, stopped when the accuracy on a held-back tenth of the
/// examples has not risen for `patience` epochs (the best epoch's weights are kept). Seeded:
/// the same examples give the same verifier.
public struct VerifierTrainer: Sendable {
  public var frontEnd = WordVerifier.FrontEnd()
  public var classes = Direction.allCases.map(\.rawValue) + [""]
  public var hiddenUnits = 64
  /// The L2 penalty: `l2 / batchSize` times each weight is added to its gradient.
  public var l2 = 3.0
  /// Margin units per unit of the network's log-odds in the verifier written.
  public var weight = 5.0
  /// The verifier written weighs only words below this margin (nil: every word; `WordVerifier.belowMargin`).
  public var belowMargin: Double?
  public var batchSize = 200
  public var learningRate = 1e-3
  public var maximumEpochs = 200
  public var patience = 10
  public var validationShare = 0.1
  /// Stretches each class needs, at least.
  public var minimumPerClass = 10
  public var seed: UInt64 = 23

  public init() {}

  /// The examples of one decoded recording: each command word of its commands readings (the
  /// words with margins) over its time in `samples`. A word is the class of the command said
  /// when the recording holds that one command, "none" when it holds no command; a command
  /// word in a recording of another command is left out (its stretch may hold either).
  public func examples(of recording: TuningRecording, samples: [Int16]) -> [VerifierExample] {
    guard recording.expected.count <= 1, let none = classes.firstIndex(of: "") else { return [] }
    var examples: [VerifierExample] = []
    for result in recording.results {
      for transcription in result.transcriptions {
        for segment in transcription.segments where segment.margin != nil {
          guard let said = classes.firstIndex(of: segment.word) else { continue }
          let label: Int
          if let expected = recording.expected.first {
            guard expected.rawValue == segment.word else { continue }
            label = said
          } else {
            label = none
          }
          examples.append(
            VerifierExample(features: frontEnd.features(samples, start: segment.start, end: segment.end), label: label))
        }
      }
    }
    return examples
  }

  /// `count` stretches of sound that is no speech, labelled "none": stretches of `noises`
  /// at levels of -45 to -10 dBFS, and tones (a beep, a whistle, a hum's harmonic: 150 Hz to
  /// 4 kHz, 0.1-0.6 s, alone or two together) over faint noise, each stretch over the sound's
  /// time as a decoder would draw a word there. The decoder's stretches hold speech; without
  /// these, the network had never heard a tone, and took a 1 kHz beep for "up" (probability 1.00).
  public func nonSpeechExamples(noises: [[Int16]], count: Int, random: inout Signal.Random) -> [VerifierExample] {
    guard let none = classes.firstIndex(of: "") else { return [] }
    return (0..<count).map { index in
      let length = Double.random(in: 0.1...0.6, using: &random)
      let start = Double.random(in: 0.2...0.35, using: &random)
      let samples: [Int16]
      if index % 2 == 0, !noises.isEmpty {
        samples = NoiseMaterial.stretch(of: noises[Int.random(in: 0..<noises.count, using: &random)], random: &random)
      } else {
        let tones = (0..<Int.random(in: 1...2, using: &random)).map { _ in Double.random(in: 150...4000, using: &random) }
        let level = Double.random(in: 0.02...0.5, using: &random)
        let (from, to) = (Int(start * 16_000), Int((start + length) * 16_000))
        samples = (0..<16_000).map { i in
          var x = Double.random(in: -0.001...0.001, using: &random)
          if i >= from && i < to {
            x += tones.reduce(0) { $0 + level / Double(tones.count) * sin(2 * Double.pi * $1 * Double(i) / 16_000) }
          }
          return Int16(clamping: Int(x * 32767))
        }
      }
      return VerifierExample(features: frontEnd.features(samples, start: start, end: start + length), label: none)
    }
  }

  /// The verifier learned from `examples`, with its accuracy on the held-back ones in `notes`;
  /// `progress` is told each epoch and that accuracy.
  public func train(_ examples: [VerifierExample], notes: [String: String] = [:], progress: (Int, Double) -> Void = { _, _ in })
    throws -> WordVerifier
  {
    let inputs = frontEnd.featureCount
    guard examples.allSatisfy({ $0.features.count == inputs && classes.indices.contains($0.label) }) else {
      throw ToolError("word verifier examples must have \(inputs) features and one of \(classes.count) classes")
    }
    let few = classes.indices.filter { c in examples.filter { $0.label == c }.count < minimumPerClass }
    guard few.isEmpty else {
      let named = few.map { classes[$0].isEmpty ? "none" : classes[$0] }
      throw ToolError(
        "too few stretches of \(named.joined(separator: ", ")) to learn a word verifier from (each needs \(minimumPerClass) or more): label more recordings of each")
    }
    var random = Signal.Random(seed: seed)
    let order = examples.indices.shuffled(using: &random)
    let held = max(1, Int(Double(examples.count) * validationShare))
    let validation = Array(order.prefix(held))
    let training = Array(order.dropFirst(held))
    // Standardization from the training part.
    var mean = [Double](repeating: 0, count: inputs)
    var scale = [Double](repeating: 0, count: inputs)
    for i in training { for f in 0..<inputs { mean[f] += examples[i].features[f] } }
    mean = mean.map { $0 / Double(training.count) }
    for i in training {
      for f in 0..<inputs {
        let d = examples[i].features[f] - mean[f]
        scale[f] += d * d
      }
    }
    scale = scale.map { let s = ($0 / Double(training.count)).squareRoot(); return s > 0 ? s : 1 }
    let x = examples.map { e in (0..<inputs).map { (e.features[$0] - mean[$0]) / scale[$0] } }
    var network = Network(inputs: inputs, hidden: hiddenUnits, outputs: classes.count, random: &random)
    var adam = Adam(count: network.parameters.count, rate: learningRate)
    var best = (accuracy: -1.0, parameters: network.parameters, epoch: 0)
    var epoch = 0
    while epoch < maximumEpochs && epoch - best.epoch < patience {
      epoch += 1
      let shuffled = training.shuffled(using: &random)
      for start in stride(from: 0, to: shuffled.count, by: batchSize) {
        let batch = shuffled[start..<min(shuffled.count, start + batchSize)]
        var gradient = network.gradient(batch.map { (x[$0], examples[$0].label) })
        network.addPenalty(to: &gradient, l2: l2 / Double(batch.count))
        adam.step(&network.parameters, gradient: gradient)
      }
      let right = validation.filter { network.likeliest(x[$0]) == examples[$0].label }.count
      let accuracy = Double(right) / Double(validation.count)
      progress(epoch, accuracy)
      if accuracy > best.accuracy + 1e-4 { best = (accuracy, network.parameters, epoch) }
    }
    network.parameters = best.parameters
    var written = notes
    written["held-back accuracy"] = String(printf: "%.3f of %d examples (epoch %d of %d)", best.accuracy, validation.count, best.epoch, epoch)
    return WordVerifier(
      classes: classes, weight: weight, frontEnd: frontEnd, mean: mean, scale: scale, hidden: network.hiddenRows,
      hiddenBias: network.hiddenBias, output: network.outputRows, outputBias: network.outputBias, belowMargin: belowMargin,
      notes: written)
  }

  /// The weights of a network with one rectified hidden layer, flat: hidden weights (unit by
  /// unit), hidden biases, output weights (class by class), output biases.
  struct Network {
    let inputs: Int
    let hidden: Int
    let outputs: Int
    var parameters: [Double]

    init(inputs: Int, hidden: Int, outputs: Int, random: inout Signal.Random) {
      self.inputs = inputs
      self.hidden = hidden
      self.outputs = outputs
      // Glorot's uniform initialization; biases too, as scikit-learn does.
      let first = (6 / Double(inputs + hidden)).squareRoot()
      let second = (6 / Double(hidden + outputs)).squareRoot()
      parameters = (0..<hidden * inputs + hidden).map { _ in Double.random(in: -first...first, using: &random) }
        + (0..<outputs * hidden + outputs).map { _ in Double.random(in: -second...second, using: &random) }
    }

    var hiddenBiasOffset: Int { hidden * inputs }
    var outputOffset: Int { hidden * inputs + hidden }
    var outputBiasOffset: Int { outputOffset + outputs * hidden }

    var hiddenRows: [[Double]] { (0..<hidden).map { Array(parameters[$0 * inputs..<($0 + 1) * inputs]) } }
    var hiddenBias: [Double] { Array(parameters[hiddenBiasOffset..<outputOffset]) }
    var outputRows: [[Double]] {
      (0..<outputs).map { Array(parameters[outputOffset + $0 * hidden..<outputOffset + ($0 + 1) * hidden]) }
    }
    var outputBias: [Double] { Array(parameters[outputBiasOffset..<parameters.count]) }

    /// The hidden layer's activations and the class probabilities for `x`.
    func forward(_ x: [Double]) -> (hidden: [Double], probabilities: [Double]) {
      parameters.withUnsafeBufferPointer { w in
        var h = [Double](repeating: 0, count: hidden)
        for j in 0..<hidden {
          var sum = w[hiddenBiasOffset + j]
          let row = j * inputs
          for i in 0..<inputs { sum += w[row + i] * x[i] }
          h[j] = max(0, sum)
        }
        var z = [Double](repeating: 0, count: outputs)
        for k in 0..<outputs {
          var sum = w[outputBiasOffset + k]
          let row = outputOffset + k * hidden
          for j in 0..<hidden { sum += w[row + j] * h[j] }
          z[k] = sum
        }
        let top = z.max()!
        let e = z.map { exp($0 - top) }
        let total = e.reduce(0, +)
        return (h, e.map { $0 / total })
      }
    }

    /// The class the network finds likeliest for `x`.
    func likeliest(_ x: [Double]) -> Int {
      let p = forward(x).probabilities
      return p.indices.max { p[$0] < p[$1] }!
    }

    /// The mean gradient of the cross-entropy over `batch`.
    func gradient(_ batch: [([Double], Int)]) -> [Double] {
      var g = [Double](repeating: 0, count: parameters.count)
      let n = Double(batch.count)
      parameters.withUnsafeBufferPointer { w in
        g.withUnsafeMutableBufferPointer { g in
          for (x, label) in batch {
            let (h, p) = forward(x)
            var dz = p
            dz[label] -= 1
            var dh = [Double](repeating: 0, count: hidden)
            for k in 0..<outputs {
              let d = dz[k] / n
              g[outputBiasOffset + k] += d
              let row = outputOffset + k * hidden
              for j in 0..<hidden {
                g[row + j] += d * h[j]
                dh[j] += dz[k] * w[row + j]
              }
            }
            for j in 0..<hidden where h[j] > 0 {
              let d = dh[j] / n
              g[hiddenBiasOffset + j] += d
              let row = j * inputs
              for i in 0..<inputs { g[row + i] += d * x[i] }
            }
          }
        }
      }
      return g
    }

    /// Adds `l2` times each weight (not the biases) to its gradient.
    func addPenalty(to gradient: inout [Double], l2: Double) {
      for i in 0..<hiddenBiasOffset { gradient[i] += l2 * parameters[i] }
      for i in outputOffset..<outputBiasOffset { gradient[i] += l2 * parameters[i] }
    }
  }

  /// Adam (Kingma and Ba), with scikit-learn's defaults.
  struct Adam {
    var rate: Double
    var first: [Double]
    var second: [Double]
    var steps = 0
    let beta1 = 0.9
    let beta2 = 0.999
    let epsilon = 1e-8

    init(count: Int, rate: Double) {
      self.rate = rate
      first = [Double](repeating: 0, count: count)
      second = [Double](repeating: 0, count: count)
    }

    mutating func step(_ parameters: inout [Double], gradient: [Double]) {
      steps += 1
      let correction = rate * (1 - pow(beta2, Double(steps))).squareRoot() / (1 - pow(beta1, Double(steps)))
      for i in parameters.indices {
        first[i] = beta1 * first[i] + (1 - beta1) * gradient[i]
        second[i] = beta2 * second[i] + (1 - beta2) * gradient[i] * gradient[i]
        parameters[i] -= correction * first[i] / (second[i].squareRoot() + epsilon)
      }
    }
  }
}
