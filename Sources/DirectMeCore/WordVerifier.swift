#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// A second, discriminative judge of a command word: a small neural network (one hidden layer)
/// that hears the word's stretch of audio as a log-mel spectrogram and says how likely it is
/// to be each command word or none (`verifier.json` beside the model). The decoder's margin
/// compares two generative readings (a command against one other word); the network was
/// trained on what people actually said in the stretches the decoder took for commands, so
/// it knows the confusions the margin does not ("five" read as "left", "go" as "down").
///
/// The listener adds `weight` times the network's log-odds for the word to the word's margin
/// (`verifiedMargin`); the detector calibrates the sum as it did the margin.
public struct WordVerifier: ModelFolderFile, Hashable, Sendable {
  public static let fileName = "verifier.json"
  public static let kind = "word verifier"

  /// The classes of the network's output, in order: command words, then "" for none.
  public var classes: [String]
  /// Margin units (natural log) per unit of the network's log-odds.
  public var weight: Double
  /// What the network hears of a stretch (`FrontEnd.features`).
  public var frontEnd: FrontEnd
  /// Only words whose margin lies below this are weighed (nil: every word): the words the
  /// decoder is unsure of, where the verifier's opinion can change a decision the margin
  /// would make wrongly; a clear word keeps its margin.
  public var belowMargin: Double?
  /// Standardization of the features (`frames` x `filters` values, frame by frame, then the
  /// log of the stretch's duration): (x - mean) / scale.
  public var mean: [Double]
  public var scale: [Double]
  /// The hidden layer (rectified): `hidden[j]` holds one weight per feature; `hiddenBias[j]`.
  public var hidden: [[Double]]
  public var hiddenBias: [Double]
  /// The output layer (softmax over `classes`): `output[k]` one weight per hidden unit.
  public var output: [[Double]]
  public var outputBias: [Double]
  /// How it was made and what it was measured to do (free text).
  public var notes: [String: String]?

  public init(
    classes: [String], weight: Double, frontEnd: FrontEnd, mean: [Double], scale: [Double], hidden: [[Double]],
    hiddenBias: [Double], output: [[Double]], outputBias: [Double], belowMargin: Double? = nil, notes: [String: String]? = nil
  ) {
    self.belowMargin = belowMargin
    self.classes = classes
    self.weight = weight
    self.frontEnd = frontEnd
    self.mean = mean
    self.scale = scale
    self.hidden = hidden
    self.hiddenBias = hiddenBias
    self.output = output
    self.outputBias = outputBias
    self.notes = notes
  }

  public var featureCount: Int { frontEnd.featureCount }

  public var problem: String? {
    if classes.isEmpty || !classes.contains("") { return "its classes need the empty class (no command)" }
    if let problem = frontEnd.problem { return problem }
    if mean.count != featureCount || scale.count != featureCount || scale.contains(where: { !($0 > 0) }) {
      return "standardization needs \(featureCount) means and positive scales"
    }
    if hidden.isEmpty || hidden.contains(where: { $0.count != featureCount }) || hiddenBias.count != hidden.count {
      return "hidden layer needs \(featureCount) weights a unit and a bias each"
    }
    if output.count != classes.count || output.contains(where: { $0.count != hidden.count }) || outputBias.count != classes.count {
      return "output layer needs one row of \(hidden.count) weights and a bias per class"
    }
    if !weight.isFinite || weight < 0 { return "weight must be 0 or more" }
    return nil
  }

  /// How likely the stretch `start`...`end` (seconds into `samples`, 16 kHz) is `word`; nil
  /// when the network has no class for it.
  public func probability(of word: String, in samples: [Int16], start: Double, end: Double) -> Double? {
    guard let index = classes.firstIndex(of: word) else { return nil }
    return probabilities(frontEnd.features(samples, start: start, end: end))[index]
  }

  /// Whether a word of margin `margin` is weighed (see `belowMargin`).
  public func weighs(margin: Double) -> Bool {
    belowMargin.map { margin < $0 } ?? true
  }

  /// `margin` with the network's opinion `probability` added: `weight` times its log-odds,
  /// the probability held within 1e-4 of 0 and 1.
  public func verifiedMargin(_ margin: Double, probability: Double) -> Double {
    let held = min(1 - 1e-4, max(1e-4, probability))
    return margin + weight * log(held / (1 - held))
  }

  /// The class probabilities for standardized-to-be features.
  public func probabilities(_ features: [Double]) -> [Double] {
    let x = zip(zip(features, mean), scale).map { ($0.0 - $0.1) / $1 }
    let h = zip(hidden, hiddenBias).map { row, bias in max(0, zip(row, x).reduce(bias) { $0 + $1.0 * $1.1 }) }
    let z = zip(output, outputBias).map { row, bias in zip(row, h).reduce(bias) { $0 + $1.0 * $1.1 } }
    let top = z.max() ?? 0
    let e = z.map { exp($0 - top) }
    let sum = e.reduce(0, +)
    return e.map { $0 / sum }
  }
}

/// The word verifier's front end: log mel energies of 25 ms frames every 10 ms over a word's
/// stretch widened by `pad` seconds each side (at least `minimumSeconds` long), each
/// filter's mean over the stretch taken out (the channel and the loudness), resampled to
/// `frames` frames; then the log of the word's duration.
extension WordVerifier {
  public struct FrontEnd: Codable, Hashable, Sendable {
    public var filters: Int
    public var lowHz: Double
    public var highHz: Double
    public var pad: Double
    public var minimumSeconds: Double
    public var frames: Int

    public static let sampleRate = 16000
    static let frameLength = 400
    static let frameShift = 160
    static let fftLength = 512

    public init(filters: Int = 40, lowHz: Double = 100, highHz: Double = 7600, pad: Double = 0.05, minimumSeconds: Double = 0.05, frames: Int = 24) {
      self.filters = filters
      self.lowHz = lowHz
      self.highHz = highHz
      self.pad = pad
      self.minimumSeconds = minimumSeconds
      self.frames = frames
    }

    public var featureCount: Int { frames * filters + 1 }

    var problem: String? {
      if filters < 1 || frames < 2 || !(lowHz >= 0 && lowHz < highHz && highHz <= Double(Self.sampleRate) / 2) || pad < 0 {
        return "bad front end (filters \(filters), frames \(frames), \(lowHz)-\(highHz) Hz, pad \(pad))"
      }
      return nil
    }

    /// The network's input for the stretch `start`...`end` of `samples`.
    public func features(_ samples: [Int16], start: Double, end: Double) -> [Double] {
      let rate = Double(Self.sampleRate)
      let from = max(0, Int((start - pad) * rate))
      var to = min(samples.count, Int((end + pad) * rate))
      let least = Int(minimumSeconds * rate)
      if to - from < least { to = min(samples.count, from + least) }
      let stretch = from < to ? samples[from..<to].map { Double($0) / 32768 } : []
      var spectrogram = logMel(stretch)
      // Each filter's mean over the stretch taken out (the channel and the loudness).
      for band in 0..<filters {
        let average = spectrogram.reduce(0) { $0 + $1[band] } / Double(spectrogram.count)
        for frame in spectrogram.indices { spectrogram[frame][band] -= average }
      }
      // Resampled to `frames` frames by linear interpolation.
      var out: [Double] = []
      out.reserveCapacity(featureCount)
      let last = spectrogram.count - 1
      for i in 0..<frames {
        let position = last == 0 ? 0 : Double(i) * Double(last) / Double(frames - 1)
        let low = min(Int(position), last)
        let high = min(low + 1, last)
        let t = position - Double(low)
        for band in 0..<filters { out.append(spectrogram[low][band] * (1 - t) + spectrogram[high][band] * t) }
      }
      out.append(log(end - start + 1e-3))
      return out
    }

    /// Log mel energies of 25 ms Hamming-windowed frames every 10 ms after a 0.97 pre-emphasis
    /// (at least one frame, the last zero-padded).
    func logMel(_ x: [Double]) -> [[Double]] {
      var emphasized = x
      for i in stride(from: x.count - 1, to: 0, by: -1) { emphasized[i] = x[i] - 0.97 * x[i - 1] }
      let count = max(1, 1 + (emphasized.count - Self.frameLength).floorDivided(by: Self.frameShift))
      let needed = (count - 1) * Self.frameShift + Self.frameLength
      if emphasized.count < needed { emphasized += [Double](repeating: 0, count: needed - emphasized.count) }
      let window = (0..<Self.frameLength).map { 0.54 - 0.46 * cos(2 * Double.pi * Double($0) / Double(Self.frameLength - 1)) }
      let bank = melBank()
      let fft = FFT(size: Self.fftLength)
      return (0..<count).map { f in
        let start = f * Self.frameShift
        var re = (0..<Self.fftLength).map { $0 < Self.frameLength ? emphasized[start + $0] * window[$0] : 0 }
        var im = [Double](repeating: 0, count: Self.fftLength)
        fft.transform(&re, &im, inverse: false)
        let power = (0...Self.fftLength / 2).map { re[$0] * re[$0] + im[$0] * im[$0] }
        return bank.map { filter in log(filter.weights.enumerated().reduce(0) { $0 + $1.element * power[filter.first + $1.offset] } + 1e-8) }
      }
    }

    /// Triangular filters evenly spaced on the mel scale, each as its first FFT bin and weights.
    func melBank() -> [(first: Int, weights: [Double])] {
      let mel = { (hz: Double) in 2595 * log10(1 + hz / 700) }
      let hz = { (m: Double) in 700 * (pow(10, m / 2595) - 1) }
      let (low, high) = (mel(lowHz), mel(highHz))
      let points = (0...filters + 1).map { hz(low + (high - low) * Double($0) / Double(filters + 1)) * Double(Self.fftLength) / Double(Self.sampleRate) }
      return (0..<filters).map { i in
        let (l, c, r) = (points[i], points[i + 1], points[i + 2])
        let first = max(0, Int(l.rounded(.up)))
        let last = min(Self.fftLength / 2, Int(r.rounded(.down)))
        guard first <= last else { return (0, []) }
        return (first, (first...last).map { k in max(0, min((Double(k) - l) / (c - l), (r - Double(k)) / (r - c))) })
      }
    }
  }
}

extension Int {
  /// Division rounding toward minus infinity.
  fileprivate func floorDivided(by divisor: Int) -> Int {
    let q = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? q - 1 : q
  }
}
