#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Whether a recording went through a narrowband (8 kHz) link: a telephone, a Bluetooth
/// headset, festival's 8 kHz voices resampled to 16 kHz. Such speech has nothing above
/// 4 kHz but the link's noise floor (a resampler's dither, or digital silence).
///
/// Two numbers of the loud frames (within 20 dB of the loudest; 512-sample Hann windows,
/// half overlapping), 16 kHz audio:
/// - `edge`: the power at 4.15-4.8 kHz against that at 3.3-3.85 kHz, in dB. Speech falls off
///   gently there (people's recordings: median -5 dB, 1 in 300 under -35; synthetic
///   voices at 16-22 kHz: median -15, none of 300 under -37); a link cuts it off (median
///   -66 dB; a quiet clip's dither brings some to -30).
/// - `rise`: how far the 4.15-6.8 kHz band rises in the loud frames above the quietest
///   tenth of the frames, in dB: speech lifts it (synthetic voices: 32 dB and more), a link
///   leaves it at its floor (within 1 dB for 117 of 120 clips through sox's 8 kHz).
/// Narrowband: `edge` under -45 dB, or under -30 dB with a `rise` under 12 dB. Measured on
/// 120 clips (people's and synthetic) through 8 kHz: 116 narrowband; 300 synthetic and
/// 600 people's clips at their own rate: 0 and 1.
public struct Bandwidth: Equatable, Sendable {
  public var edge: Double
  public var rise: Double

  public var isNarrowband: Bool { edge < -45 || (edge < -30 && rise < 12) }

  static let window = 512
  static let hop = 256
  /// FFT bins (31.25 Hz each at 16 kHz).
  static let belowEdge = 105..<123  // 3.3-3.85 kHz
  static let aboveEdge = 132..<153  // 4.15-4.8 kHz
  static let high = 132..<217  // 4.15-6.8 kHz

  /// The bandwidth of 16 kHz `samples`, or nil when shorter than one window.
  public static func of(_ samples: [Int16]) -> Bandwidth? {
    guard samples.count > window else { return nil }
    let fft = FFT(size: window)
    let hann = FFT.hann(window)
    var total: [Double] = []
    var below: [Double] = []
    var above: [Double] = []
    var high: [Double] = []
    var re = [Double](repeating: 0, count: window)
    var im = [Double](repeating: 0, count: window)
    for start in stride(from: 0, to: samples.count - window, by: hop) {
      for index in 0..<window {
        re[index] = Double(samples[start + index]) * hann[index]
        im[index] = 0
      }
      fft.transform(&re, &im, inverse: false)
      func power(_ bins: Range<Int>) -> Double { bins.reduce(0) { $0 + re[$1] * re[$1] + im[$1] * im[$1] } }
      total.append(power(0..<(window / 2 + 1)))
      below.append(power(belowEdge))
      above.append(power(aboveEdge))
      high.append(power(self.high))
    }
    let loudest = total.max() ?? 0
    let loud = total.indices.filter { total[$0] > loudest * 0.01 }
    let quietest = total.indices.sorted { total[$0] < total[$1] }.prefix(max(1, total.count / 10))
    let floor = quietest.reduce(0) { $0 + high[$1] } / Double(quietest.count)
    let loudHigh = loud.reduce(0) { $0 + high[$1] } / Double(max(1, loud.count))
    let edgeRatio = loud.reduce(0) { $0 + above[$1] } / (loud.reduce(0) { $0 + below[$1] } + 1e-9)
    return Bandwidth(edge: 10 * log10(edgeRatio + 1e-20), rise: 10 * log10(loudHigh / (floor + 1e-3)))
  }
}
