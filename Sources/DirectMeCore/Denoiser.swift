#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Takes steady background noise (a running tap, a fan, an exercise bike, hiss) out of an
/// utterance before it is decoded, so that the acoustic model hears the voice rather than
/// the room.
///
/// Only steady noise is taken out: babble (other people talking, a television) rises and
/// falls like the voice, and cleaning it cost words (commands in babble at 10 dB SNR: 60%
/// right as they came, 52% cleaned), so audio whose quiet part wavers (`steadiness`) is
/// left alone too.
///
/// A Wiener filter over short-time spectra: the noise's spectrum is the mean of the
/// utterance's quietest frames, each frame's gain follows its a-priori signal-to-noise ratio
/// (decision-directed, which keeps the residual noise from warbling), and no bin is turned
/// down by more than `floor`. Audio whose loud part stands well clear of its background
/// (`dynamicRange` and more) is left as it is: a clean recording has nothing to gain and
/// the filter's small distortions cost words.
///
/// Only the decoder hears the cleaned audio; pauses, voicing and the detector's gate are
/// measured on what the microphone gave.
public struct Denoiser: Hashable, Sendable {
  /// Audio whose loud frames are at least this far (dB) above its quiet ones is not touched.
  public var dynamicRange: Double
  /// Audio is cleaned only when the energies of its quietest third of 10 ms frames spread
  /// (standard deviation, dB) no more than this: steady noise.
  public var steadiness: Double
  /// The largest attenuation of a bin, dB (negative).
  public var floor: Double
  /// The share of frames, quietest first, that make the noise's spectrum.
  public var noiseShare: Double
  /// How much of the previous frame's cleaned spectrum the a-priori SNR keeps (0-1).
  public var smoothing: Double
  /// The noise spectrum is taken this many times over (over-subtraction).
  public var overSubtraction: Double

  public init(
    dynamicRange: Double = 25, steadiness: Double = 1.5, floor: Double = -15, noiseShare: Double = 0.1, smoothing: Double = 0.98,
    overSubtraction: Double = 1
  ) {
    self.dynamicRange = dynamicRange
    self.steadiness = steadiness
    self.floor = floor
    self.noiseShare = noiseShare
    self.smoothing = smoothing
    self.overSubtraction = overSubtraction
  }

  static let frameLength = 512
  static let hop = 128

  /// Whether `samples` (16 kHz) are noisy enough to be cleaned, and their noise steady:
  /// their loud part (95th percentile of 10 ms frame energies) less than `dynamicRange` dB
  /// above their quiet part (10th percentile), and their quietest third of frames within
  /// `steadiness` dB (standard deviation).
  public func applies(to samples: [Int16]) -> Bool {
    // Measured without the microphone's DC offset: an offset is steady, loud and no noise
    // (pre-emphasis takes it out of what the decoder hears); measured with it, the quiet
    // frames of a clean recording with a cheap sound card's offset (a tenth of full scale)
    // lay at -20 dBFS, and the filter cleaned clean speech.
    var blocker = DCBlocker()
    let energies = Signal.frameEnergies(blocker.filter(samples), floor: 1e-2, wholeFrames: true)
    guard energies.count >= 10 else { return false }
    let sorted = energies.sorted()
    guard SignalEvidence.dynamicRange(sortedEnergies: sorted) < dynamicRange else { return false }
    let quietest = sorted.prefix(max(3, sorted.count / 3))
    let mean = quietest.reduce(0, +) / Double(quietest.count)
    let variance = quietest.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(quietest.count)
    return variance.squareRoot() <= steadiness
  }

  /// `samples` with their steady background noise turned down, or `samples` themselves when
  /// they are clean enough (see `applies(to:)`).
  public func cleaned(_ samples: [Int16]) -> [Int16] {
    applies(to: samples) ? filtered(samples) : samples
  }

  /// `samples` through the filter, whatever their noise.
  public func filtered(_ samples: [Int16]) -> [Int16] {
    let n = Self.frameLength
    let hop = Self.hop
    guard samples.count >= n else { return samples }
    let bins = n / 2 + 1
    // Periodic Hann window, for analysis and synthesis.
    let window = (0..<n).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n)) }
    // One frame of padding on each side, so every sample is covered by four frames.
    let padded = [Double](repeating: 0, count: n) + samples.map(Double.init) + [Double](repeating: 0, count: n)
    let frames = (padded.count - n) / hop + 1
    let fft = FFT(size: n)
    var spectra: [[(re: Double, im: Double)]] = []
    spectra.reserveCapacity(frames)
    var powers: [[Double]] = []
    powers.reserveCapacity(frames)
    var re = [Double](repeating: 0, count: n)
    var im = [Double](repeating: 0, count: n)
    for frame in 0..<frames {
      let start = frame * hop
      for i in 0..<n {
        re[i] = padded[start + i] * window[i]
        im[i] = 0
      }
      fft.transform(&re, &im, inverse: false)
      spectra.append((0..<bins).map { (re[$0], im[$0]) })
      powers.append((0..<bins).map { re[$0] * re[$0] + im[$0] * im[$0] })
    }
    // The noise: the mean spectrum of the quietest frames.
    let totals = powers.map { $0.reduce(0, +) }
    let order = (0..<frames).sorted { totals[$0] < totals[$1] }
    let quiet = order.prefix(max(1, Int(Double(frames) * noiseShare)))
    var noise = [Double](repeating: 0, count: bins)
    for frame in quiet {
      for bin in 0..<bins { noise[bin] += powers[frame][bin] }
    }
    for bin in 0..<bins { noise[bin] = max(noise[bin] / Double(quiet.count) * overSubtraction, 1e-9) }

    let minimumGain = pow(10, floor / 20)
    var previous = [Double](repeating: 0, count: bins)
    var output = [Double](repeating: 0, count: padded.count)
    var weight = [Double](repeating: 0, count: padded.count)
    for frame in 0..<frames {
      for bin in 0..<bins {
        let posterior = powers[frame][bin] / noise[bin]
        let prior = smoothing * previous[bin] / noise[bin] + (1 - smoothing) * max(posterior - 1, 0)
        let gain = max(prior / (1 + prior), minimumGain)
        previous[bin] = gain * gain * powers[frame][bin]
        let (r, i) = spectra[frame][bin]
        re[bin] = r * gain
        im[bin] = i * gain
      }
      // The upper half mirrors the lower (a real signal).
      for bin in bins..<n {
        re[bin] = re[n - bin]
        im[bin] = -im[n - bin]
      }
      fft.transform(&re, &im, inverse: true)
      let start = frame * hop
      for i in 0..<n {
        output[start + i] += re[i] / Double(n) * window[i]
        weight[start + i] += window[i] * window[i]
      }
    }
    return (0..<samples.count).map { index in
      let value = output[n + index] / max(weight[n + index], 1e-6)
      return Int16(clamping: Int(value.rounded()))
    }
  }
}

/// An in-place radix-2 complex FFT of one power-of-two size.
struct FFT {
  let size: Int
  private let cosines: [Double]
  private let sines: [Double]
  private let reversed: [Int]

  init(size: Int) {
    precondition(size > 1 && size & (size - 1) == 0, "FFT size must be a power of two")
    self.size = size
    cosines = (0..<size / 2).map { cos(2 * Double.pi * Double($0) / Double(size)) }
    sines = (0..<size / 2).map { sin(2 * Double.pi * Double($0) / Double(size)) }
    let bits = size.trailingZeroBitCount
    reversed = (0..<size).map { index in
      var value = 0
      for bit in 0..<bits where index & (1 << bit) != 0 { value |= 1 << (bits - 1 - bit) }
      return value
    }
  }

  /// A symmetric Hann window of `size` points (zero at both ends).
  static func hann(_ size: Int) -> [Double] {
    (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size - 1)) }
  }

  /// The discrete Fourier transform of `re + i im` (unscaled; the inverse uses +i in the
  /// exponent and is not divided by the size either).
  func transform(_ re: inout [Double], _ im: inout [Double], inverse: Bool) {
    for index in 0..<size where index < reversed[index] {
      re.swapAt(index, reversed[index])
      im.swapAt(index, reversed[index])
    }
    let sign = inverse ? 1.0 : -1.0
    var length = 2
    while length <= size {
      let half = length / 2
      let step = size / length
      var start = 0
      while start < size {
        for k in 0..<half {
          let c = cosines[k * step]
          let s = sign * sines[k * step]
          let a = start + k
          let b = a + half
          let tr = re[b] * c - im[b] * s
          let ti = re[b] * s + im[b] * c
          re[b] = re[a] - tr
          im[b] = im[a] - ti
          re[a] += tr
          im[a] += ti
        }
        start += length
      }
      length *= 2
    }
  }
}
