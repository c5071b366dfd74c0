#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// What the audio of an utterance says by itself, before any recognition: whether it holds
/// voiced sound that rises above its own background, as every spoken command does ("up",
/// "down", "left", "right" each carry a vowel). Steady noise (a tap, a fan, white noise),
/// clatter and clicks have little of it; the detector's gate refuses them.
public struct SignalEvidence: Hashable, Sendable, Codable {
  /// Seconds of voiced frames (a clear pitch between 70 and 400 Hz).
  public var voiced: Double
  /// The longest run of voiced frames whose pitch holds steady (within 15% from frame to
  /// frame), seconds. Noise throws up a pitch-like peak now and then, never for long.
  public var longestVoiced: Double
  /// The loud part above the background, dB: the 95th percentile of the frames' levels (in
  /// an utterance longer than two seconds, the 10th loudest frame: a word's vowel) minus the
  /// 10th.
  public var dynamicRange: Double
  /// The share of the quieter half of the frames that is voiced: other voices under the
  /// speech (babble), not a room's steady noise or silence.
  public var backgroundVoicing: Double
  /// Seconds of audio measured (nil: not recorded, in evidence saved before it was).
  public var duration: Double?
  /// Whether the utterance was cut out of a sound that never paused (a steady noise the
  /// endpointer ended it in, or one that ran to the maximum length), however long it is:
  /// nil, not.
  public var endless: Bool?

  public init(
    voiced: Double, longestVoiced: Double, dynamicRange: Double, backgroundVoicing: Double = 0, duration: Double? = nil,
    endless: Bool? = nil
  ) {
    self.voiced = voiced
    self.longestVoiced = longestVoiced
    self.dynamicRange = dynamicRange
    self.backgroundVoicing = backgroundVoicing
    self.duration = duration
    self.endless = endless
  }

  /// Measures 16 kHz mono samples in 10 ms frames.
  public static func measure(_ samples: [Int16], sampleRate: Int = 16_000) -> SignalEvidence {
    measure(
      periods: pitchPeriods(samples, sampleRate: sampleRate),
      energies: Signal.frameEnergies(samples, length: sampleRate / 100, floor: 1e-2, wholeFrames: true))
  }

  /// The evidence of 10 ms frames already measured: their pitch periods (`pitchPeriods`)
  /// and full-band energies (dBFS, `Signal.frameEnergies` of whole frames).
  public static func measure(periods: [Int], energies: [Double]) -> SignalEvidence {
    guard periods.count >= 3 else { return SignalEvidence(voiced: 0, longestVoiced: 0, dynamicRange: 0) }
    let duration = Double(energies.count) / 100
    return SignalEvidence(
      voiced: Double(periods.count { $0 > 0 }) / 100, longestVoiced: longestVoicedRun(periods, in: 0..<periods.count),
      dynamicRange: dynamicRange(sortedEnergies: energies.sorted()),
      backgroundVoicing: backgroundVoicing(periods: periods, energies: energies), duration: duration)
  }

  /// How far (dB) the frames `frames` of `energies` (dB, 10 ms each) stand above the level
  /// of all of them: the 90th percentile of theirs (a word's vowel) over the median of all
  /// (`medianLevel`: what sounds around it, in a long stretch of sound; given when known, as
  /// for each word of one utterance). nil when `frames` holds none.
  public static func standout(_ frames: Range<Int>, of energies: [Double], median: Double? = nil) -> Double? {
    let inside = frames.clamped(to: 0..<energies.count)
    guard !inside.isEmpty, let median = median ?? medianLevel(energies) else { return nil }
    let word = energies[inside].sorted()
    return word[min(word.count - 1, word.count * 9 / 10)] - median
  }

  /// The median of frame levels `energies` (nil: none).
  public static func medianLevel(_ energies: [Double]) -> Double? {
    energies.isEmpty ? nil : energies.sorted()[energies.count / 2]
  }

  /// The `backgroundVoicing` under which a background holds no voices (a room's quiet or its
  /// steady noise; other voices' quieter halves were 28-59% voiced on the bench): the final
  /// pass's quiet background (`isQuiet`) and the gate's long "up" amid voices
  /// (`Detector.Gate.longUpAmidVoices`) part there.
  public static let voicelessBackground = 0.2

  /// The share of the quieter half of the frames (by energy) that is voiced.
  public static func backgroundVoicing(periods: [Int], energies: [Double]) -> Double {
    let count = min(periods.count, energies.count)
    guard count >= 2 else { return 0 }
    let quieter = (0..<count).sorted { energies[$0] < energies[$1] }.prefix(count / 2)
    return Double(quieter.count { periods[$0] > 0 }) / Double(quieter.count)
  }

  /// How far (dB) the loud part of frame energies sorted quietest first stands above the
  /// background.
  public static func dynamicRange(sortedEnergies sorted: [Double]) -> Double {
    guard !sorted.isEmpty else { return 0 }
    return loud(sortedEnergies: sorted) - background(sortedEnergies: sorted)
  }

  /// The background of frame energies sorted quietest first (at least one): their 10th
  /// percentile.
  public static func background(sortedEnergies sorted: [Double]) -> Double { sorted[sorted.count / 10] }

  /// The loud part of frame energies sorted quietest first (at least one): their 95th
  /// percentile, or from two seconds of frames on their `loudFrames`th loudest: a word's vowel
  /// in a long utterance of noise is its loud part (the 95th percentile of 5 s of a room's
  /// noise with a word in it is the noise, and 46% of the commands said in it were refused as
  /// holding no voice).
  public static func loud(sortedEnergies sorted: [Double]) -> Double {
    sorted[min(sorted.count - 1, max(sorted.count * 95 / 100, sorted.count - loudFrames))]
  }

  /// See `loud(sortedEnergies:)`: 100 ms.
  static let loudFrames = 10

  /// The pitch periods of 16 kHz mono samples, one per 10 ms frame (0: not voiced).
  public static func pitchPeriods(_ samples: [Int16], sampleRate: Int = 16_000) -> [Int] {
    var tracker = PitchTracker(sampleRate: sampleRate)
    tracker.append(samples)
    return tracker.periods()
  }

  /// The median pitch (Hz) of the voiced frames among `periods` (`pitchPeriods` of audio at
  /// `sampleRate`), nil with fewer than `minimumFrames` voiced.
  public static func medianPitch(periods: [Int], sampleRate: Int = 16_000, minimumFrames: Int = 5) -> Double? {
    let voiced = periods.filter { $0 > 0 }.sorted()
    guard voiced.count >= max(1, minimumFrames) else { return nil }
    return PitchTracker.periodRate(sampleRate: sampleRate) / Double(voiced[voiced.count / 2])
  }

  /// Whether `next`, the audio that follows a stretch already decided (`before`), holds a
  /// word of its own: at least `wordFrames` 10 ms frames that are loud for it (within
  /// `wordRange` dB of its loudest), stand `aboveBackground` dB above the background (the
  /// 10th percentile of all the frames) and are audible beside the loudest frame before it
  /// (`faintBelowLoudest`). A release, a breath or a click after a word has a few such
  /// frames; a word, even one said much more softly than the one before, has 20 or more.
  public static func holdsWord(_ next: [Int16], after before: [Int16]) -> Bool {
    // Measured without the microphone's DC offset, which would stand under every frame.
    var blocker = DCBlocker()
    let earlier = Signal.frameEnergies(blocker.filter(before))
    let energies = Signal.frameEnergies(blocker.filter(next))
    guard let loudest = energies.max(), let loudestBefore = earlier.max() else { return false }
    let room = background(sortedEnergies: (earlier + energies).sorted())
    let floor = max(loudest - wordRange, loudestBefore - faintBelowLoudest, room + aboveBackground)
    return energies.count { $0 >= floor } >= wordFrames
  }

  /// See `holdsWord(_:after:)`. Chosen on the accuracy bench's sequences and single words
  /// (300 sequences of held-out speakers' clips: 20 frames 69.3% right, 30 frames 68.7%;
  /// checking speakers' single words unchanged by either, where a test against the word's own
  /// loudest alone, without the background, heard noise after a word as another: 91.5 ->
  /// 90.4% right).
  static let wordFrames = 20
  static let wordRange = 20.0
  static let aboveBackground = 15.0

  /// How far (dB) under the utterance's loudest frame a command word's loudest may lie and
  /// the word still be said to DirectMe. Quieter sound is not: the faint lead-in a speech
  /// synthesizer puts before a word (43 dB under its vowel, read as a second "up"), a voice
  /// in the next room under one's own.
  public static let faintBelowLoudest = 40.0

  /// Whether a word over `frames` (10 ms each), less one at each end (a word's edges are
  /// where the next one begins), reaches within `faintBelowLoudest` dB of the loudest of all
  /// the utterance's frame `energies` (dB, `Signal.frameEnergies`).
  public static func isAudible(_ frames: Range<Int>, of energies: [Double]) -> Bool {
    guard let loudest = energies.max() else { return true }
    let inner = frames.count > 2 ? frames.lowerBound + 1..<frames.upperBound - 1 : frames
    let word = inner.clamped(to: energies.indices)
    guard !word.isEmpty else { return false }
    return energies[word].max()! >= loudest - faintBelowLoudest
  }

  /// How far under a word's loudest frame (dB) its sound counts as the word's loud part.
  public static let loudSpan = 10.0

  /// How long (seconds) the frames `frames` of `energies` (dB, 10 ms each) stay within
  /// `loudSpan` of the loudest of them.
  public static func loudDuration(_ frames: Range<Int>, of energies: [Double]) -> Double {
    Double(loudFrames(frames, of: energies).count) / 100
  }

  /// How long (seconds) the longest run of consecutive frames of `frames` (of `energies`, dB,
  /// 10 ms each) within `loudSpan` of the loudest of them lasts: a vowel holds its level for
  /// tens of milliseconds, a key's click, a knock or a clack is over within one or two frames
  /// however many of them follow one another (`loudDuration` counts them all).
  public static func longestLoudRun(_ frames: Range<Int>, of energies: [Double]) -> Double {
    var (longest, run, previous) = (0, 0, Int.min)
    for frame in loudFrames(frames, of: energies) {
      run = frame == previous + 1 ? run + 1 : 1
      longest = max(longest, run)
      previous = frame
    }
    return Double(longest) / 100
  }

  /// The frames of `frames` (those `energies` holds) within `loudSpan` of the loudest of them.
  static func loudFrames(_ frames: Range<Int>, of energies: [Double]) -> [Int] {
    let word = frames.clamped(to: energies.indices)
    guard let loudest = energies[word].max() else { return [] }
    return word.filter { energies[$0] >= loudest - loudSpan }
  }

  /// The share of the energy of the loud part of `frames` (the frames within `loudSpan` of
  /// the loudest of them, by `energies`, dB over 150 Hz) that lies in the speech band
  /// (`band`: the same frames' energies at 200-3,400 Hz, `HighPassEnergy.speechBand`); nil
  /// without frames. A voice's vowel keeps most of its energy there (its first formants): a
  /// kick drum's thump lies under it, a cymbal's hiss over it.
  public static func speechShare(_ frames: Range<Int>, of energies: [Double], band: [Double]) -> Double? {
    var (whole, inBand) = (0.0, 0.0)
    for frame in loudFrames(frames.clamped(to: band.indices), of: energies) {
      whole += pow(10, energies[frame] / 10)
      inBand += pow(10, band[frame] / 10)
    }
    return whole > 0 ? min(1, inBand / whole) : nil
  }

  /// The share of the speech band's energy (200-3,400 Hz) in the loud part of `frames` (the
  /// frames within `loudSpan` of the loudest of them, by `energies`) that lies in its
  /// `tonePeaks` strongest spectral peaks (each with `peakHalfWidth` bins either side of it:
  /// a steady sinusoid's main lobe), the median of those frames (32 ms of `samples`, 16 kHz,
  /// Hann-windowed, around each frame's centre); nil without frames. A voice's vowel spreads
  /// its energy over the harmonics of its pitch under its formants (real people's "up":
  /// 0.78 at the median, 0.96 at the 99th percentile); a pot's, a glass's or a bowl's ringing
  /// partials, a whistle's or a bird's note lie in one to three sharp peaks (0.98-1.0).
  public static func toneShare(_ frames: Range<Int>, of energies: [Double], samples: [Int16]) -> Double? {
    let loud = loudFrames(frames, of: energies)
    guard !loud.isEmpty else { return nil }
    let size = toneWindow
    let band = Int((200.0 * Double(size) / 16_000).rounded(.up))...Int(3_400.0 * Double(size) / 16_000)
    var shares: [Double] = []
    var re = [Double](repeating: 0, count: size)
    var im = [Double](repeating: 0, count: size)
    for frame in loud {
      spectrum(of: frame, samples: samples, re: &re, im: &im)
      var power = band.map { re[$0] * re[$0] + im[$0] * im[$0] }
      let total = power.reduce(0, +)
      guard total > 0 else { continue }
      var peaks = 0.0
      for _ in 0..<tonePeaks {
        guard let top = power.indices.max(by: { power[$0] < power[$1] }) else { break }
        let lobe = max(0, top - peakHalfWidth)...min(power.count - 1, top + peakHalfWidth)
        for bin in lobe {
          peaks += power[bin]
          power[bin] = 0
        }
      }
      shares.append(peaks / total)
    }
    guard !shares.isEmpty else { return nil }
    return shares.sorted()[shares.count / 2]
  }

  /// The pitch of the voiced frames of `frames`'s loud part (within `loudSpan` of its loudest,
  /// by `energies`; voiced by `periods`, `PitchTracker`'s periods) and how far their
  /// first harmonic stands over their fourth (dB: each harmonic's strongest bin within 10% of
  /// its frequency, 32 ms of `samples` Hann-windowed around the frame), each the median over
  /// those frames; nil with fewer than 3 of them. A strained cry or grunt puts its energy in
  /// its first harmonic far more than a word's vowel does.
  public static func harmonicLead(_ frames: Range<Int>, of energies: [Double], periods: [Int], samples: [Int16]) -> HarmonicLead? {
    let voiced = loudFrames(frames, of: energies).filter { $0 < periods.count && periods[$0] > 0 }
    guard voiced.count >= 3 else { return nil }
    let size = toneWindow
    let binWidth = 16_000.0 / Double(size)
    let periodRate = PitchTracker.periodRate(sampleRate: 16_000)
    var re = [Double](repeating: 0, count: size)
    var im = [Double](repeating: 0, count: size)
    var pitches: [Double] = []
    var leads: [Double] = []
    for frame in voiced {
      let pitch = periodRate / Double(periods[frame])
      spectrum(of: frame, samples: samples, re: &re, im: &im)
      func level(_ harmonic: Double) -> Double? {
        let low = Int((0.9 * harmonic * pitch / binWidth).rounded(.up))
        let high = min(size / 2, Int(1.1 * harmonic * pitch / binWidth))
        guard low <= high else { return nil }
        let power = (low...high).map { re[$0] * re[$0] + im[$0] * im[$0] }.max()!
        return 10 * log10(power + 1e-12)
      }
      guard let first = level(1), let fourth = level(4) else { continue }
      pitches.append(pitch)
      leads.append(first - fourth)
    }
    guard !leads.isEmpty else { return nil }
    return HarmonicLead(pitch: pitches.sorted()[pitches.count / 2], lead: leads.sorted()[leads.count / 2])
  }

  /// How much the frames of `tail` keep the spectrum of the frames of
  /// `loud` (10-ms frames of `samples`): the mean over `tail` of each frame's correlation with
  /// the loud frames' mean spectrum, both as 24 log-spaced bands' levels (125 Hz-8 kHz, dB) less
  /// their mean. A room's reverberation smears a word's own spectrum out after it; a cry dying
  /// away changes its vowel (see the final pass's `isReverberant`). Nil when either range is
  /// empty; frames past the samples' end read as silence.
  public static func tailLikeness(loud: Range<Int>, tail: Range<Int>, samples: [Int16]) -> Double? {
    guard !loud.isEmpty, !tail.isEmpty else { return nil }
    let size = toneWindow
    var re = [Double](repeating: 0, count: size)
    var im = [Double](repeating: 0, count: size)
    func levels(_ frame: Int) -> [Double] {
      spectrum(of: frame, samples: samples, re: &re, im: &im)
      let bands = tailBands.indices.dropLast().map { band in
        (tailBands[band]..<tailBands[band + 1]).reduce(1e-3) { $0 + re[$1] * re[$1] + im[$1] * im[$1] }
      }
      let decibels = bands.map { 10 * log10($0) }
      let mean = decibels.reduce(0, +) / Double(decibels.count)
      return decibels.map { $0 - mean }
    }
    var reference = [Double](repeating: 0, count: tailBands.count - 1)
    for frame in loud { for (band, level) in levels(frame).enumerated() { reference[band] += level } }
    let referenceMean = reference.reduce(0, +) / Double(reference.count)
    reference = reference.map { $0 - referenceMean }
    let referenceNorm = sqrt(reference.reduce(0) { $0 + $1 * $1 })
    var total = 0.0
    for frame in tail {
      let frameLevels = levels(frame)
      let norm = sqrt(frameLevels.reduce(0) { $0 + $1 * $1 })
      guard norm > 0, referenceNorm > 0 else { continue }
      total += zip(frameLevels, reference).reduce(0) { $0 + $1.0 * $1.1 } / (norm * referenceNorm)
    }
    return total / Double(tail.count)
  }

  /// See `tailLikeness`: the bands' edges (bins of `toneWindow`), 24 bands log-spaced over
  /// bins 4-256 as numpy's geomspace rounds them.
  static let tailBands: [Int] = {
    var edges: [Int] = []
    for index in 0...24 {
      let edge = Int((4 * pow(64.0, Double(index) / 24)).rounded())
      if edges.last != edge { edges.append(edge) }
    }
    return edges
  }()

  /// The spectrum (into `re` and `im`, `toneWindow` points) of the Hann-windowed `toneWindow`
  /// samples centred on 10-ms frame `frame` of `samples`; samples outside them read as silence.
  static func spectrum(of frame: Int, samples: [Int16], re: inout [Double], im: inout [Double]) {
    let start = frame * 160 + 80 - toneWindow / 2
    for index in 0..<toneWindow {
      let at = start + index
      re[index] = at >= 0 && at < samples.count ? Double(samples[at]) * hann[index] : 0
      im[index] = 0
    }
    toneFFT.transform(&re, &im, inverse: false)
  }

  /// See `toneShare`: 512 samples (32 ms at 16 kHz, 31.25 Hz per bin).
  static let toneWindow = 512
  static let tonePeaks = 3
  static let peakHalfWidth = 2
  private static let hann = FFT.hann(toneWindow)
  private static let toneFFT = FFT(size: toneWindow)

  /// The longest run of voiced frames in `frames` whose pitch holds steady (within 15%
  /// from frame to frame), in seconds.
  public static func longestVoicedRun(_ periods: [Int], in frames: Range<Int>) -> Double {
    var run = 0
    var longest = 0
    var previous = 0
    for frame in frames.clamped(to: periods.indices) {
      let period = periods[frame]
      if period > 0 {
        run = run > 0 && abs(period - previous) * 100 <= 15 * previous ? run + 1 : 1
        longest = max(longest, run)
      } else {
        run = 0
      }
      previous = period
    }
    return Double(longest) / 100
  }

}

/// The pitch period of each 10 ms frame (in samples at 4 kHz), 0 where it is not voiced:
/// the signal, band-passed to ~120-900 Hz and taken down to 4 kHz, correlates with itself
/// at a local peak between 70 and 400 Hz by 0.6 or more. The high-pass keeps rumble and
/// pink or brown noise, which correlate with themselves at any short lag, from looking voiced.
///
/// Audio is appended as it comes and each frame is measured once, as soon as the audio its
/// window needs is there (the filters run forward only, so a frame's period does not depend
/// on what follows it): an utterance measured at each early decision and at its end costs
/// its length once, not once per decision.
public struct PitchTracker: Sendable {
  private let factor: Int
  /// Samples per 10 ms frame.
  private let frameLength: Int
  private let alpha: Double
  private let pole: Double
  private let hop: Int
  private let window: Int
  private let shortest: Int
  private let longest: Int
  private var low1 = 0.0
  private var low2 = 0.0
  private var high1 = (input: 0.0, output: 0.0)
  private var high2 = (input: 0.0, output: 0.0)
  /// The whole band's energy of each 10 ms frame appended (a microphone's DC offset taken
  /// out), and of the frame being appended.
  private var wholeBandEnergies: [Double] = []
  private var frameEnergy = 0.0
  private var dcBlocker: DCBlocker
  /// Samples appended so far.
  private var count = 0
  /// The band-passed signal at 4 kHz.
  private var reduced: [Double] = []
  /// The periods of the frames whose window is complete.
  private var measured: [Int] = []

  /// The rate periods are counted in (samples a second): the audio is reduced to about 4 kHz.
  public static func periodRate(sampleRate: Int) -> Double { Double(sampleRate / max(1, sampleRate / 4000)) }

  public init(sampleRate: Int = 16_000) {
    factor = max(1, sampleRate / 4000)
    frameLength = sampleRate / 100
    let rate = Self.periodRate(sampleRate: sampleRate)
    alpha = 1 - exp(-2 * Double.pi * 900 / Double(sampleRate))
    pole = exp(-2 * Double.pi * 120 / Double(sampleRate))
    hop = Int(rate / 100)
    window = Int(rate * 0.030)
    shortest = Int(rate / 400)
    longest = Int(rate / 70)
    dcBlocker = DCBlocker(pole: exp(-2 * Double.pi * 13 / Double(sampleRate)))
    // From silence before the first sample (not from the first sample as the offset).
    _ = dcBlocker.filter(0.0)
  }

  /// The share of a frame's energy (its whole band, DC offset out) that its pitch band
  /// (120-900 Hz, the band the periods are measured in) must hold for the frame to count as
  /// voiced: -15 dB. A tone is periodic at every lag, and a glass or plate ringing at 2-6 kHz
  /// came through the band-pass weakened but periodic, steadily "voiced" for 0.1-0.2 s, and
  /// the gate took the "up" the decoder read in it. People's voiced frames hold -4 dB of their
  /// energy there (median of 60 checking speakers' commands; 1% under -15 dB), ringing partials
  /// at 0.8-6 kHz -20 dB. Measured 2026-12-01 (`directme-bench accuracy`, 11,373 items, same
  /// cache): commands in a room's continuous noise 82.8 -> 84.8% (two kitchen clatters no
  /// longer heard as an extra "up"), one "up left" in a kitchen's noise now "left", every
  /// other item the same; 120 synthetic clink clips (damped partials 0.2-6 kHz, with and
  /// without running water) moving the ninja 39 -> 37%: most that still do ring under 1.5
  /// kHz. At -12 dB, 36%, and a command in a kitchen's noise lost.
  static let minimumPitchShare = 0.0316

  /// Takes the next samples of the audio.
  public mutating func append(_ samples: some Collection<Int16>) {
    reduced.reserveCapacity(reduced.count + samples.count / factor + 1)
    for sample in samples {
      low1 += alpha * (Double(sample) - low1)
      low2 += alpha * (low1 - low2)
      // Two one-pole high-pass sections.
      let h1 = (1 + pole) / 2 * (low2 - high1.input) + pole * high1.output
      high1 = (low2, h1)
      let h2 = (1 + pole) / 2 * (h1 - high2.input) + pole * high2.output
      high2 = (h1, h2)
      if count % factor == 0 { reduced.append(h2) }
      let level = dcBlocker.filter(Double(sample))
      frameEnergy += level * level
      count += 1
      if count % frameLength == 0 {
        wholeBandEnergies.append(frameEnergy)
        frameEnergy = 0
      }
    }
  }

  /// The periods of the whole 10 ms frames appended so far (see `periods(frames:)`).
  public mutating func periods() -> [Int] { periods(frames: count / frameLength) }

  /// The periods of the first `frames` frames; frames whose window runs past the audio so
  /// far are 0.
  public mutating func periods(frames: Int) -> [Int] {
    measureCompleteFrames(upTo: frames)
    return Array(measured.prefix(frames)) + Array(repeating: 0, count: max(0, frames - measured.count))
  }

  private mutating func measureCompleteFrames(upTo frames: Int) {
    let (hop, window, shortest, longest) = (hop, window, shortest, longest)
    let windowFrames = window * factor / frameLength
    var correlations = [Double](repeating: 0, count: longest + 2)
    var measured = self.measured
    self.measured = []
    defer { self.measured = measured }
    reduced.withUnsafeBufferPointer { x in
      for frame in measured.count..<max(measured.count, frames) {
        let start = frame * hop
        guard start + window + longest + 1 <= x.count else { break }
        var energy0 = 0.0
        for n in start..<start + window { energy0 += x[n] * x[n] }
        // A frame whose pitch band (120-900 Hz) holds little of its energy is not a voice:
        // a clinking glass or plate rings at a few kHz, periodic at every lag (`minimumPitchShare`).
        let whole = wholeBandEnergies[min(frame, wholeBandEnergies.count)..<min(frame + windowFrames, wholeBandEnergies.count)]
          .reduce(0, +)
        guard energy0 > 1e3, energy0 * Double(factor) >= Self.minimumPitchShare * whole else {
          measured.append(0)
          continue
        }
        for lag in shortest - 1...longest + 1 {
          var cross = 0.0
          var energy1 = 0.0
          for n in start..<start + window {
            cross += x[n] * x[n + lag]
            energy1 += x[n + lag] * x[n + lag]
          }
          correlations[lag] = cross / ((energy0 * energy1).squareRoot() + 1e-9)
        }
        var best = 0.0
        var period = 0
        for lag in shortest...longest
        where correlations[lag] >= correlations[lag - 1] && correlations[lag] >= correlations[lag + 1] && correlations[lag] > best {
          best = correlations[lag]
          period = lag
        }
        measured.append(best >= 0.6 ? period : 0)
      }
    }
  }
}
