#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Whether a stretch of sound is more like people's speech or like other sounds (animals,
/// drums, things, game characters' cries): two mixtures of Gaussians over the same spectral
/// features (`SoundClass.features`), one fitted on speech, one on sounds, and the mean of
/// their log-likelihood ratio over the stretch's loud frames (`likeness`). A command word whose
/// likeness lies under the detector's `Detector.Gate.minimumSpeechLikeness` sounds like a
/// sound, not a word.
///
/// The file beside a model (`sound-class.json`) is written by `directme-bench sound-class`.
public struct SoundClass: ModelFolderFile, Hashable, Sendable {
  public static let fileName = "sound-class.json"
  public static let kind = "sound class"

  /// A mixture of Gaussians with diagonal covariances over standardized features.
  public struct Mixture: Codable, Hashable, Sendable {
    public var weights: [Double]
    public var means: [[Double]]
    public var variances: [[Double]]

    public init(weights: [Double], means: [[Double]], variances: [[Double]]) {
      self.weights = weights
      self.means = means
      self.variances = variances
    }

    /// Each component's log weight minus its normalizing term, and its precisions (for `logLikelihood`).
    func prepared() -> (constants: [Double], precisions: [[Double]]) {
      let constants = weights.indices.map { k in
        log(max(weights[k], 1e-300)) - 0.5 * variances[k].reduce(0) { $0 + log(2 * Double.pi * $1) }
      }
      return (constants, variances.map { $0.map { 1 / $0 } })
    }
  }

  /// The mean and standard deviation of each feature over the speech fitted on (features are
  /// standardized with them before either mixture scores them).
  public var center: [Double]
  public var scale: [Double]
  public var speech: Mixture
  public var sounds: Mixture
  /// The frames scored: those within this many dB of the stretch's loudest.
  public var loudSpan: Double
  /// How it was made.
  public var notes: [String: String]?
  /// See `loudSpan`.
  public static let loudSpanDefault = 15.0

  public init(center: [Double], scale: [Double], speech: Mixture, sounds: Mixture, loudSpan: Double = SoundClass.loudSpanDefault, notes: [String: String]? = nil) {
    self.center = center
    self.scale = scale
    self.speech = speech
    self.sounds = sounds
    self.loudSpan = loudSpan
    self.notes = notes
  }

  public var problem: String? {
    let dimensions = Self.dimensions
    if center.count != dimensions || scale.count != dimensions { return "\(dimensions) centers and scales expected" }
    if scale.contains(where: { !($0 > 0) }) { return "a scale is not positive" }
    for (name, mixture) in [("speech", speech), ("sounds", sounds)] {
      if mixture.weights.isEmpty || mixture.means.count != mixture.weights.count || mixture.variances.count != mixture.weights.count {
        return "\(name): as many weights, means and variances expected"
      }
      if mixture.means.contains(where: { $0.count != dimensions }) || mixture.variances.contains(where: { $0.count != dimensions }) {
        return "\(name): \(dimensions) values per mean and variance expected"
      }
      if mixture.variances.contains(where: { $0.contains { !($0 > 0) } }) { return "\(name): a variance is not positive" }
    }
    return loudSpan > 0 && loudSpan.isFinite ? nil : "the loud span must be a positive number"
  }

  /// How much more like speech than like other sounds the loud frames of `samples[start..<end]`
  /// (16 kHz) are: the mean over them of the two mixtures' log-likelihood ratio (nil: too short).
  public func likeness(of samples: [Int16], from start: Int, to end: Int) -> Double? {
    let frames = Self.loudFeatures(samples, from: start, to: end, span: loudSpan)
    guard !frames.isEmpty else { return nil }
    let speechModel = speech.prepared()
    let soundsModel = sounds.prepared()
    var total = 0.0
    for frame in frames {
      let standard = frame.indices.map { (frame[$0] - center[$0]) / scale[$0] }
      total += Self.logLikelihood(standard, speech, speechModel) - Self.logLikelihood(standard, sounds, soundsModel)
    }
    return total / Double(frames.count)
  }

  /// The features (`features`) of the frames of `samples[start..<end]` within `span` dB of its
  /// loudest: the frames `likeness` scores, and those the mixtures are fitted on.
  public static func loudFeatures(_ samples: [Int16], from start: Int, to end: Int, span: Double) -> [[Double]] {
    let (features, energies) = Self.features(samples, from: start, to: end)
    guard let loudest = energies.max() else { return [] }
    return features.indices.filter { energies[$0] >= loudest - span }.map { features[$0] }
  }

  static func logLikelihood(
    _ x: [Double], _ mixture: Mixture, _ prepared: (constants: [Double], precisions: [[Double]])
  ) -> Double {
    var terms = [Double](repeating: 0, count: mixture.weights.count)
    for k in terms.indices {
      let mean = mixture.means[k]
      let precision = prepared.precisions[k]
      var sum = 0.0
      for d in x.indices {
        let difference = x[d] - mean[d]
        sum += difference * difference * precision[d]
      }
      terms[k] = prepared.constants[k] - 0.5 * sum
    }
    let top = terms.max() ?? 0
    return top + log(terms.reduce(0) { $0 + exp($1 - top) })
  }

  // MARK: - Features

  /// Features per frame: 12 mel cepstra (c1-c12), the deltas of c0-c12 and their deltas.
  public static let dimensions = 38
  static let window = 400
  static let hop = 160
  static let fftSize = 512
  static let bands = 40
  static let cepstra = 13

  /// The features of the 10-ms frames of `samples[start..<end]` (25-ms Hamming windows,
  /// pre-emphasis 0.97, a 512-point spectrum, 40 mel bands from 130 to 6,800 Hz, their log and
  /// cosine transform, deltas over two frames either side), and each frame's energy in dB.
  public static func features(_ samples: [Int16], from start: Int, to end: Int) -> (features: [[Double]], energies: [Double]) {
    let lower = max(0, start)
    let upper = min(samples.count, end)
    guard upper - lower >= window else { return ([], []) }
    var emphasized = [Double](repeating: 0, count: upper - lower)
    emphasized[0] = Double(samples[lower])
    for index in 1..<emphasized.count {
      emphasized[index] = Double(samples[lower + index]) - 0.97 * Double(samples[lower + index - 1])
    }
    let frames = 1 + (emphasized.count - window) / hop
    var re = [Double](repeating: 0, count: fftSize)
    var im = [Double](repeating: 0, count: fftSize)
    var cepstra = [[Double]]()
    var energies = [Double]()
    cepstra.reserveCapacity(frames)
    energies.reserveCapacity(frames)
    for frame in 0..<frames {
      for index in 0..<fftSize {
        re[index] = index < window ? emphasized[frame * hop + index] * hamming[index] : 0
        im[index] = 0
      }
      fft.transform(&re, &im, inverse: false)
      var power = [Double](repeating: 0, count: fftSize / 2 + 1)
      var total = 0.0
      for bin in power.indices {
        power[bin] = re[bin] * re[bin] + im[bin] * im[bin]
        total += power[bin]
      }
      energies.append(10 * log10(total + 1e-3))
      let logBands = filterbank.map { filter in log(filter.weights.enumerated().reduce(0) { $0 + $1.element * power[filter.first + $1.offset] } + 1e-3) }
      cepstra.append(cosines.map { row in zip(row, logBands).reduce(0) { $0 + $1.0 * $1.1 } })
    }
    let deltas = delta(cepstra)
    let accelerations = delta(deltas)
    let features = cepstra.indices.map { Array(cepstra[$0][1...]) + deltas[$0] + accelerations[$0] }
    return (features, energies)
  }

  /// Regression deltas over two frames either side (the ends repeated).
  static func delta(_ rows: [[Double]]) -> [[Double]] {
    let last = rows.count - 1
    return rows.indices.map { index in
      let at = { (offset: Int) in rows[min(last, max(0, index + offset))] }
      let (a1, b1, a2, b2) = (at(1), at(-1), at(2), at(-2))
      return a1.indices.map { (a1[$0] - b1[$0] + 2 * (a2[$0] - b2[$0])) / 10 }
    }
  }

  static let fft = FFT(size: fftSize)
  static let hamming: [Double] = (0..<window).map { 0.54 - 0.46 * cos(2 * Double.pi * Double($0) / Double(window - 1)) }
  static let cosines: [[Double]] = (0..<cepstra).map { i in
    (0..<bands).map { j in cos(Double.pi * Double(i) * (Double(j) + 0.5) / Double(bands)) }
  }
  /// Triangular mel filters: each band's first spectrum bin and its weights from there.
  static let filterbank: [(first: Int, weights: [Double])] = {
    func mel(_ f: Double) -> Double { 2595 * log10(1 + f / 700) }
    func hertz(_ m: Double) -> Double { 700 * (pow(10, m / 2595) - 1) }
    let low = mel(130)
    let high = mel(6800)
    let bins = (0..<(bands + 2)).map { index -> Int in
      let f = hertz(low + (high - low) * Double(index) / Double(bands + 1))
      return Int((Double(fftSize + 1) * f / 16_000).rounded(.down))
    }
    return (0..<bands).map { band in
      let (a, b, c) = (bins[band], bins[band + 1], bins[band + 2])
      var weights = [Double]()
      for k in a..<b { weights.append(Double(k - a) / Double(max(b - a, 1))) }
      for k in b..<c { weights.append(Double(c - k) / Double(max(c - b, 1))) }
      return (a, weights)
    }
  }()
}
