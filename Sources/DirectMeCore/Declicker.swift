#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Clicks taken out of what the final pass hears when someone types as they speak: a key's
/// press and release inside a word break the reading of it (a "left" read as "up" on its own
/// vowel, the clicks before it as "up"s the gate refuses).
///
/// Only an utterance holding `typingOnsets` clicks or more (`clickOnsets`) is declicked:
/// the declicker also takes the edge off a word's stops and onsets (a synthetic voice's above
/// all), which cost clean words when every utterance was declicked (stop 107).
///
/// Every `pieceLength` piece standing more than `jump` dB over the median of the pieces
/// within `context` of it (its own `guardPieces` either side left out), and fallen back
/// under that median's `jump` 10-22 ms on, is brought down to the median. A vowel's pieces
/// stand level with their neighbours; a click stands out of them for a few milliseconds and
/// dies away; a word's onset stands out and goes on into its vowel.
public enum Declicker {
  /// 2.5 ms at 16 kHz.
  public static let pieceLength = 40
  /// Pieces either side looked at: 25 ms.
  public static let context = 10
  /// Pieces either side left out of the median: 5 ms.
  public static let guardPieces = 2
  /// dB over the median a piece must stand to be a click's (and under which it has fallen
  /// 10-22 ms on). Measured 2026-12-05 with `typingOnsets` 3 (stop 108; commands while typing,
  /// the bench's 98 with the keys 10 dB under the voice, and 200 tuning speakers' commands
  /// with the keys' peaks 10 dB under the voice's / at it): 50.0 / 61.0 / 39.5% right
  /// undeclicked; 10 dB 57.1 / 68.5 / 49.5%; 6, 8 and 12 dB within 2 points of it; falling
  /// back under half the jump instead, 55.1 / 62.5 / 46.0%; with no fall asked, 39.8% of the
  /// bench's (its "right"s and "left"s read as "up": their onsets and stops taken down).
  public static let jump = 10.0

  /// Clicks (`clickOnsets`) an utterance must hold before it is declicked: someone typing
  /// presses and releases a key every 0.1-0.2 s. Of 400 of the training set's clean
  /// recordings 3 hold three or more (their microphone's clicks), of 396 espeak-ng words in
  /// 66 voices and 180 synthetic cat imitations none; of 200 commands said while typing (the
  /// keys' peaks 10 dB under the voice's), 176 three or more, 113 six or more. From 3, a fish's
  /// splash (5 clicks in 2.9 s) and a zipline's rattle (4 in 2.7 s) were declicked and moved
  /// the ninja; from 6 the bench's commands while typing are as right (57.1%), those 200
  /// commands 68.5 -> 65.0% (at the voice's peak 49.5% either way).
  public static let typingOnsets = 6

  /// `samples` declicked (`declicked`) when they hold `typingOnsets` clicks or more, as they
  /// are otherwise.
  public static func cleaned(_ samples: [Int16]) -> [Int16] {
    let levels = pieceLevels(samples)
    return clickOnsets(levels: levels) >= typingOnsets ? declicked(samples, levels: levels) : samples
  }

  /// How many clicks `samples` hold: a piece rising more than `onsetRise` dB over the median
  /// of the pieces 5-25 ms before it and `onsetFall` dB under itself 10-22 ms later (a key's
  /// press or release; a word's onset goes on into its vowel), those within 20 ms of the one
  /// before counted once.
  public static func clickOnsets(_ samples: [Int16]) -> Int {
    clickOnsets(levels: pieceLevels(samples))
  }

  /// `clickOnsets` of pieces whose levels are `levels` (`pieceLevels`).
  static func clickOnsets(levels: [Double]) -> Int {
    guard levels.count >= 2 * context else { return 0 }
    var onsets = 0
    var last: Int?
    var before: [Double] = []
    for piece in context..<(levels.count - fallWindow.upperBound) {
      before.removeAll(keepingCapacity: true)
      before.append(contentsOf: levels[(piece - context)..<(piece - guardPieces)])
      guard levels[piece] - median(&before) > onsetRise, levelAfter(piece, in: levels)! < levels[piece] - onsetFall
      else { continue }
      if last.map({ piece - $0 > 8 }) ?? true { onsets += 1 }
      last = piece
    }
    return onsets
  }

  /// See `clickOnsets`.
  public static let onsetRise = 20.0
  public static let onsetFall = 10.0

  /// The pieces after a piece (counted from it) by which a click has died away: 10-22 ms on.
  static let fallWindow = 4..<9

  /// The loudest of `levels` in `piece`'s `fallWindow` (nil: none of it within `levels`).
  static func levelAfter(_ piece: Int, in levels: [Double]) -> Double? {
    levels[min(levels.count, piece + fallWindow.lowerBound)..<min(levels.count, piece + fallWindow.upperBound)].max()
  }

  /// `samples` with their clicks brought down (the same count; the last partial piece as it is).
  public static func declicked(_ samples: [Int16]) -> [Int16] {
    declicked(samples, levels: pieceLevels(samples))
  }

  /// `declicked`, with `samples`' `pieceLevels` measured already.
  static func declicked(_ samples: [Int16], levels: [Double]) -> [Int16] {
    let count = levels.count
    guard count > 2 * guardPieces + 1 else { return samples }
    var output = samples
    var around: [Double] = []
    around.reserveCapacity(2 * context)
    for piece in 0..<count {
      around.removeAll(keepingCapacity: true)
      for other in max(0, piece - context)..<min(count, piece + context + 1) where abs(other - piece) > guardPieces {
        around.append(levels[other])
      }
      let median = median(&around)
      guard levels[piece] - median > jump, let after = levelAfter(piece, in: levels), after < median + jump else { continue }
      let gain = pow(10, -(levels[piece] - median) / 20)
      for index in (piece * pieceLength)..<((piece + 1) * pieceLength) {
        output[index] = Int16(clamping: Int((Double(samples[index]) * gain).rounded()))
      }
    }
    return output
  }

  /// The level (dB) of each whole `pieceLength` piece of `samples`.
  static func pieceLevels(_ samples: [Int16]) -> [Double] {
    (0..<(samples.count / pieceLength)).map { piece in
      var sum = 0.0
      for sample in samples[(piece * pieceLength)..<((piece + 1) * pieceLength)] { sum += Double(sample) * Double(sample) }
      return 10 * log10(sum / Double(pieceLength) + 1)
    }
  }

  /// The median of `levels` (sorted in place; the mean of the middle two of an even count),
  /// `-infinity` when there are none.
  static func median(_ levels: inout [Double]) -> Double {
    guard !levels.isEmpty else { return -.infinity }
    levels.sort()
    let middle = levels.count / 2
    return levels.count % 2 == 1 ? levels[middle] : (levels[middle - 1] + levels[middle]) / 2
  }
}
