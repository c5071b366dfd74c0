#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Vocal tract length normalization: how far an utterance's voice lies above or below the
/// voices the acoustic model was adapted on, in cents of frequency, predicted from the mean
/// cepstrum of its loudest frames by a linear model (`warp.json` beside the model), and the
/// factor the final pass's front end is warped by to hear it as theirs (a voice whose
/// formants lie 300 cents higher, 19%, is heard through a filterbank warped by 1.19; how
/// sphinxbase warps, which spreads the filters rather than moving the band: `FrontEndWarp`).
///
/// The model is learned by `directme-bench warp` from recordings of the model's people
/// shifted by known amounts (sox's `pitch`, which moves formants and pitch together, as a
/// shorter or longer vocal tract does).
public struct VoiceWarp: ModelFolderFile, Hashable, Sendable {
  public static let fileName = "warp.json"
  public static let kind = "voice warp"

  /// cents = coefficients · statistic + intercept (`statistic`: cepstral coefficients 1 to
  /// `cepstra` - 1).
  public var coefficients: [Double]
  public var intercept: Double
  /// The front end the statistic is measured with: the model's, but for its number of mel
  /// filters and of cepstral coefficients (a finer spectrum than the model's 25 and 13 tells
  /// voices apart better: a voice 300 cents lower was predicted -152 cents on average with
  /// 40 and 40, -62 with 25 and 13).
  public var filters: Int
  public var cepstra: Int
  /// The share of an utterance's frames, the loudest by c0, the statistic is taken over.
  public var loudShare: Double
  /// A voice predicted within this many cents of the model's people is heard as it is.
  public var deadZone: Double
  /// Predictions are held within this many cents either way.
  public var limit: Double
  /// Warps are rounded to steps of this many cents (each a front end of its own).
  public var step: Double
  /// How it was made and what it was measured to do (free text).
  public var notes: [String: String]?

  public init(
    coefficients: [Double], intercept: Double, filters: Int = 40, cepstra: Int = 40, loudShare: Double = 0.25,
    deadZone: Double = 100, limit: Double = 300, step: Double = 25, notes: [String: String]? = nil
  ) {
    self.coefficients = coefficients
    self.intercept = intercept
    self.filters = filters
    self.cepstra = cepstra
    self.loudShare = loudShare
    self.deadZone = deadZone
    self.limit = limit
    self.step = step
    self.notes = notes
  }

  /// The front-end options the statistic is measured with (`VoiceFeatures(overriding:)`).
  public var frontEndOptions: [String: String] { ["-nfilt": String(filters), "-ncep": String(cepstra)] }

  /// The statistic the warp is predicted from (`VoiceStatistic.mean`): coefficients 1 to
  /// `count` - 1 over the loudest `loudShare` of the frames.
  public static func statistic(_ cepstra: [[Float]], count: Int, loudShare: Double) -> [Double]? {
    VoiceStatistic.mean(of: cepstra, count: count, loudShare: loudShare)
  }

  /// The linear model's prediction for `statistic`, in cents, not held within `limit`.
  public func prediction(_ statistic: [Double]) -> Double {
    zip(coefficients, statistic).map(*).reduce(intercept, +)
  }

  /// The voice's predicted distance from the model's people in cents (above: positive),
  /// held within `limit`; nil when the utterance is too short to measure.
  public func cents(_ cepstra: [[Float]]) -> Double? {
    guard let statistic = Self.statistic(cepstra, count: self.cepstra, loudShare: loudShare), statistic.count == coefficients.count
    else { return nil }
    return cents(statistic: statistic)
  }

  /// The same for a statistic measured already.
  public func cents(statistic: [Double]) -> Double {
    min(limit, max(-limit, prediction(statistic)))
  }

  /// The warp factor for a voice `cents` from the model's people: 1 within the dead zone,
  /// otherwise 2^(cents / 1200) with the cents rounded to `step`.
  public func factor(cents: Double) -> Double {
    guard abs(cents) >= deadZone else { return 1 }
    let rounded = step > 0 ? (cents / step).rounded() * step : cents
    return pow(2, rounded / 1200)
  }

  /// The warp factor of an utterance (1 when it cannot be measured).
  public func factor(_ cepstra: [[Float]]) -> Double {
    cents(cepstra).map { factor(cents: $0) } ?? 1
  }

  /// A child's voice: pitch at `childPitch` Hz or more (the median over its voiced frames)
  /// in an utterance the linear model does not place below the model's people. The model
  /// predicts only +150-175 cents for voices whose formants lie 600-900 cents higher (it was
  /// learned on -300..+300, and learned on -300..+900 it warped every voice), while a
  /// child's pitch sets it apart from nearly every adult's (men 85-155 Hz, women 165-255).
  public static let childPitch = 230.0
  /// ...and is heard through a filterbank warped by `childFactor` at least (about +1,020
  /// cents). Measured 2026-12-01 (`directme-bench accuracy`, 14,134 items and the new
  /// "children's voices", the checking speakers' high voices shifted +600 cents: pitch near
  /// 235-360 Hz, formants 41% higher, the nearest to a child's voice the sets give): children's
  /// voices 42.2% -> 63.3% right, false alarms 20.9% before and after; higher voices 90.5% /
  /// 8.7% -> 91.6% / 7.2%; sequences of one speaker each 86 -> 89%; real sounds moving the
  /// ninja 17.6 -> 16.6%, real voices' other words 5.7 -> 6.2%; checking speakers and the dev
  /// set the same; 27 items gained, 24 lost beside the new condition. Warped by 1.6: children
  /// 57.8% / 21.5%, a checking speaker's "five" heard as "up"; by 2.0: children 66.1% / 23.4%,
  /// checking speakers 95.8 -> 95.5%. From 180 Hz (by 1.6): the dev set 95.3 -> 94.3% of items
  /// right (women's "down" read as "don't").
  public static let childFactor = 1.8
  /// Voiced frames an utterance needs for its pitch to count.
  public static let childPitchFrames = 5

  /// How a front end's mel filterbank is warped, in sphinxbase's terms. sphinxbase warps the
  /// frequencies of the filters' edges but keeps the filterbank's lowest and highest edges
  /// (130 and 6,800 Hz) where they are in the signal: a warp spreads the filters otherwise
  /// between them and moves formants by less than its factor (a 3 kHz tone falls in the
  /// model's filter 17 of 25 unwarped, 16 through `inverseLinear` 1.8, 14 through the child's
  /// `piecewiseLinear`; `sphinx_fe -logspec` on tones, model README, stop 123).
  public enum FrontEndWarp: Hashable, Sendable, Codable {
    /// sphinxbase's `inverse_linear`: frequencies divided by `factor`.
    case inverseLinear(factor: Double)
    /// sphinxbase's `piecewise_linear`: frequencies multiplied by `slope` up to `cutoff` (Hz),
    /// above it on a straight line up to the Nyquist frequency.
    case piecewiseLinear(slope: Double, cutoff: Double)

    /// The factor frequencies are divided by (below the cutoff).
    public var factor: Double {
      switch self {
      case .inverseLinear(let factor): factor
      case .piecewiseLinear(let slope, _): 1 / slope
      }
    }

    /// Where a piecewise linear warp stops being linear (Hz); nil for the inverse linear one.
    public var cutoff: Double? {
      if case .piecewiseLinear(_, let cutoff) = self { cutoff } else { nil }
    }
  }

  /// The front end's warp for an utterance warped by `factor` (see `factor(_:medianPitch:)`)
  /// whose loud part stands `dynamicRange` dB over its background
  /// (`SignalEvidence.dynamicRange`), read whole (`soFar` false) or as far as it goes for an
  /// early decision (`soFar` true): the child's (`childFactor`) as a piecewise linear warp up
  /// to `childCutoff` when the utterance ranges `childPiecewiseRange` dB or more and is read
  /// whole, and otherwise an inverse linear warp by the factor. The piecewise warp spreads the
  /// filters nearer to how a child's shorter vocal tract moves formants, but in noise it heard
  /// high-pitched adults worse than the inverse linear one; and in the audio so far, a
  /// high-pitched woman's "left" (median pitch 235 Hz) was read as "watch" at the pause after
  /// it and acted on 0.65 s later, with her next word (`directme-bench live`, real people's
  /// sequences: p95 197 -> 467 ms, one command of 165; read so far through the inverse linear
  /// warp, every latency as before).
  public static func frontEndWarp(forFactor factor: Double, dynamicRange: Double, soFar: Bool = false) -> FrontEndWarp {
    guard factor >= childFactor, dynamicRange >= childPiecewiseRange, !soFar else { return .inverseLinear(factor: factor) }
    return .piecewiseLinear(slope: 1 / factor, cutoff: childCutoff)
  }

  /// Where the child's piecewise warp stops being linear (Hz). Measured 2026-12-06 (stop 123;
  /// model README): of 4,800, 5,600, 6,000, 6,400, 6,800 and 7,000 Hz, 6,400 heard the
  /// bench's children's voices best (6,800, the filterbank's top, is the inverse linear warp
  /// again).
  public static let childCutoff = 6400.0
  /// How far (dB) an utterance's loud part must stand over its background (its 10-ms frames'
  /// levels as the final pass measures them) for the child's warp to be piecewise. Measured
  /// 2026-12-06 (stop 124, `directme-bench accuracy`, 17,722 items, against the inverse
  /// linear warp for every child's voice): with early decisions read through the inverse
  /// linear warp, children's voices 49.5 -> 61.5% right, their other words moving the ninja
  /// 16.5 -> 15.2%, 28 items gained and 11 lost, the checking speakers item for item the same;
  /// piecewise in early decisions too, 63.3% / 12.0%, 42 gained and 26 lost (a high-pitched
  /// checking speaker's "left", 5 reverberant commands). Piecewise at every range (stop 123):
  /// 52 gained, 44 lost, most of the losses high-pitched adults in room noise and babble.
  public static let childPiecewiseRange = 20.0

  /// The warp factor of an utterance whose median pitch over its voiced frames is
  /// `medianPitch` (Hz; nil when it has too few, see `SignalEvidence.medianPitch`): the
  /// linear model's, or `childFactor` for a child's voice (see `childPitch`).
  public func factor(_ cepstra: [[Float]], medianPitch: Double?) -> Double {
    guard let predicted = cents(cepstra) else { return 1 }
    let warp = factor(cents: predicted)
    guard let medianPitch, medianPitch >= Self.childPitch, predicted >= 0 else { return warp }
    return max(warp, Self.childFactor)
  }

  /// The least-squares linear model (ridge `ridge` on the centred statistics) from
  /// statistics to cents; nil without examples or when they do not determine one.
  public static func fit(_ examples: [(statistic: [Double], cents: Double)], ridge: Double = 1) -> (coefficients: [Double], intercept: Double)? {
    guard let width = examples.first?.statistic.count, width > 0, examples.count > width,
      examples.allSatisfy({ $0.statistic.count == width })
    else { return nil }
    let n = Double(examples.count)
    let mean = (0..<width).map { j in examples.map { $0.statistic[j] }.reduce(0, +) / n }
    let meanCents = examples.map(\.cents).reduce(0, +) / n
    // Normal equations (XᵀX + ridge I) w = Xᵀy over centred X and y.
    var a = [[Double]](repeating: [Double](repeating: 0, count: width + 1), count: width)
    for example in examples {
      let x = (0..<width).map { example.statistic[$0] - mean[$0] }
      let y = example.cents - meanCents
      for i in 0..<width {
        for j in 0..<width { a[i][j] += x[i] * x[j] }
        a[i][width] += x[i] * y
      }
    }
    for i in 0..<width { a[i][i] += ridge }
    guard let w = Self.solve(a) else { return nil }
    return (w, meanCents - zip(w, mean).map(*).reduce(0, +))
  }

  /// Gaussian elimination with partial pivoting of an augmented matrix; nil when singular.
  static func solve(_ matrix: [[Double]]) -> [Double]? {
    var a = matrix
    let n = a.count
    for column in 0..<n {
      guard let pivot = (column..<n).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }), abs(a[pivot][column]) > 1e-12 else {
        return nil
      }
      a.swapAt(column, pivot)
      for row in 0..<n where row != column {
        let factor = a[row][column] / a[column][column]
        if factor == 0 { continue }
        for k in column...n { a[row][k] -= factor * a[column][k] }
      }
    }
    return (0..<n).map { a[$0][n] / a[$0][$0] }
  }

  /// Why the warp cannot be used, nil when it can.
  public var problem: String? {
    (2...64).contains(cepstra) && filters >= cepstra && filters <= 128 && coefficients.count == cepstra - 1 && loudShare > 0
      && loudShare <= 1 && deadZone >= 0 && limit >= 0 && limit <= 1200 && step >= 0
      && ([intercept] + coefficients).allSatisfy(\.isFinite)
      ? nil
      : "2-64 cepstra from as many filters or more, one finite coefficient for each but c0, a loud share in (0, 1], a dead zone, limit (at most 1200 cents) and step of 0 or more"
  }
}
