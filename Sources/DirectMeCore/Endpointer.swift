#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Settings of the endpointer. Times are in seconds.
public struct EndpointerSettings: Hashable, Sendable {
  public var sampleRate: Int
  /// Length of one analysis frame.
  public var frameDuration: Double
  /// How far (dB) a frame's energy must rise above the noise floor to count as speech.
  public var onsetMargin: Double
  /// Below this margin (dB) above the noise floor, a frame counts as silence again.
  public var offsetMargin: Double
  /// Speech must last this long before an utterance starts (rejects clicks).
  public var minimumSpeech: Double
  /// Silence this long ends an utterance.
  public var endSilence: Double
  /// Silence this long may end an utterance early when whoever drives the endpointer knows
  /// that what was said so far is complete (a command word was the last thing heard): the
  /// listener decides early once `Endpointer.quietDuration` reaches it. 140 ms: at 100 ms
  /// the dip inside a word ("ei-ght", "st-op", "ze-ro") was taken for a pause, and the word's
  /// first part acted on (dev set: 8.5% of other words moved the ninja; 7.7% at 130 ms, 7.3%
  /// at 140, 6.9% at 150; the same commands right; real people's reaction p50 131, 142 and
  /// 152 ms).
  public var quickEndSilence: Double
  /// For that early decision a frame also counts as quiet when it is this far (dB) below the
  /// utterance's loudest frame: a word's faint tail and the room's own noise under it are a
  /// pause to a listener, though still above the noise floor's margin.
  public var pauseDepth: Double
  /// Audio before the detected start handed to the recognizer with it.
  public var preRoll: Double
  /// An utterance is cut here, whatever the energy says (a fan, a running tap).
  public var maximumUtterance: Double
  /// The quietest the noise floor may be thought to be (dBFS): digital silence is not a floor.
  public var lowestFloor: Double
  /// The loudest the starting guess of the floor may be (dBFS).
  public var highestInitialFloor: Double
  /// How fast the floor may rise (dB per second) outside and inside speech.
  public var floorRise: Double
  public var floorRiseInSpeech: Double
  /// Inside an utterance, sound whose last `steadyWindow` seconds of frames lie within
  /// `steadySpread` dB (10th to 90th percentile) is a steady noise, not speech: the utterance
  /// is cut there and the floor raised to it. Speech rises and falls by 15 dB and more within a second and a half (a
  /// syllable's vowel and the closure of the next), a running tap, a fan or an exercise bike
  /// by 2-5 dB; a room whose noise was there before the stream began made its first
  /// utterance run to `maximumUtterance`, and the floor rose under it at
  /// `floorRiseInSpeech` only; where the floor had learned a noise that spreads over 6-9 dB
  /// (a tap), its louder frames kept an utterance going for seconds after a command, into
  /// the next one (0: off).
  public var steadyWindow: Double
  public var steadySpread: Double
  /// A voice rising out of a bed of sound: in an utterance heard for `riseAfter` seconds or
  /// more whose last `steadyWindow` of frames spread `bedSpread` dB or less (10th to 90th
  /// percentile: other voices, music, a clattering room, which never pause), `riseDuration`
  /// of frames `riseMargin` dB or more over the window's median is someone speaking up over
  /// it: the utterance is cut there and a new one starts with the rise (its pre-roll taking
  /// in the onset), which ends once the sound's power over the last `fallDuration` is back
  /// under the bed's median + `fallMargin`. Without it a command said into a television's
  /// talk or music lay in the middle of an utterance of 3-10 s of it (0: off; off too with
  /// `steadyWindow` 0, whose window it reads). A rise of 8 dB:
  /// the bench's commands amid babble 71.7% right (10 dB: 69.7%, 6 dB: 70.7% and music 1
  /// point lower). A bed of 18 dB: music spreads 4-18 dB and more (a quiet passage's notes),
  /// babble 6-9 dB; over music 51.5% right with 12 dB, 55.6% with 18 and 57.6% with 24, the
  /// minute of background 41.7, 35.4 and 34.4% instruction errors, one speaker's sequences
  /// the same (their pauses spread 40 dB and more).
  public var riseAfter: Double
  public var bedSpread: Double
  public var riseMargin: Double
  public var riseDuration: Double
  public var fallMargin: Double
  public var fallDuration: Double

  public init(
    sampleRate: Int = 16_000, frameDuration: Double = 0.010, onsetMargin: Double = 10,
    offsetMargin: Double = 6, minimumSpeech: Double = 0.030, endSilence: Double = 0.5,
    quickEndSilence: Double = 0.14, pauseDepth: Double = 30,
    preRoll: Double = 0.3, maximumUtterance: Double = 10, lowestFloor: Double = -85,
    highestInitialFloor: Double = -50, floorRise: Double = 5, floorRiseInSpeech: Double = 0.5,
    steadyWindow: Double = 1.5, steadySpread: Double = 6, riseAfter: Double = 2, bedSpread: Double = 18,
    riseMargin: Double = 8, riseDuration: Double = 0.05, fallMargin: Double = 4, fallDuration: Double = 0.3
  ) {
    self.sampleRate = sampleRate
    self.frameDuration = frameDuration
    self.onsetMargin = onsetMargin
    self.offsetMargin = offsetMargin
    self.minimumSpeech = minimumSpeech
    self.endSilence = endSilence
    self.quickEndSilence = quickEndSilence
    self.pauseDepth = pauseDepth
    self.preRoll = preRoll
    self.maximumUtterance = maximumUtterance
    self.lowestFloor = lowestFloor
    self.highestInitialFloor = highestInitialFloor
    self.floorRise = floorRise
    self.floorRiseInSpeech = floorRiseInSpeech
    self.steadyWindow = steadyWindow
    self.steadySpread = steadySpread
    self.riseAfter = riseAfter
    self.bedSpread = bedSpread
    self.riseMargin = riseMargin
    self.riseDuration = riseDuration
    self.fallMargin = fallMargin
    self.fallDuration = fallDuration
  }

  public var frameLength: Int { Int((Double(sampleRate) * frameDuration).rounded()) }
  func frames(_ seconds: Double) -> Int { max(1, Int((seconds / frameDuration).rounded())) }
}

/// What the endpointer made of one frame.
public enum EndpointDecision: Hashable, Sendable {
  /// Not in an utterance.
  case silence
  /// An utterance starts; `preRoll` holds the samples before and including this frame that
  /// belong to it, oldest first.
  case start(preRoll: [Int16])
  /// The utterance goes on; this frame belongs to it.
  case inSpeech
  /// The utterance ended with this frame (which belongs to it); `cut` when it was cut at the
  /// maximum length rather than ended by silence.
  case end(cut: Bool)
}

/// Finds where utterances start and end in a stream of 16-bit frames, from energy above an
/// adaptive noise floor. Pure: feed it frames, it says what they are.
public struct Endpointer: Sendable {
  public let settings: EndpointerSettings
  /// The current noise floor estimate, dBFS.
  public private(set) var floor: Double?
  public private(set) var inSpeech = false

  private var history: [[Int16]] = []  // recent frames, for the pre-roll
  private var highPass: (Biquad, Biquad)
  private var loudRun = 0
  private var quietRun = 0
  /// Frames in a row quiet enough for the early decision, and the utterance's loudest frame.
  private var pauseRun = 0
  private var peak = -100.0
  private var utteranceFrames = 0
  /// The utterance's latest frame energies (up to `steadyWindow`), oldest first.
  private var recent: [Double] = []
  /// The median of `recent` when it last spread `bedSpread` or less (nil: no bed).
  private var bed: Double?
  /// Frames in a row over the bed by `riseMargin`.
  private var riseRun = 0
  /// A rise cut the last utterance: the bed it rose from (the next utterance starts with the next frame).
  private var pendingRise: Double?
  /// The bed the utterance under way rose from (nil: it did not start with a rise).
  private var risenFrom: Double?
  /// When the last `.end(cut: true)` came from a voice rising out of a bed: the seconds at
  /// the end of the cut utterance since the sound left the bed (`fallMargin` over its
  /// median), which start the next utterance too (nil otherwise).
  public private(set) var handedOver: Double?

  public init(settings: EndpointerSettings = .init()) {
    self.settings = settings
    highPass = Self.highPass(sampleRate: settings.sampleRate)
  }

  /// Energy of a frame in dBFS after a high-pass at 150 Hz (two second-order sections: 38 dB
  /// down at 50 Hz), which keeps rumble and hum from looking like speech while the voice's
  /// own harmonics still count: in hiss (a running tap, a fan) the pre-emphasis used before
  /// tilted the voice 15 dB below the hiss, and 6% of commands at 5 dB SNR started no
  /// utterance at all. The filter runs on across frames, so a step between frames is no click.
  private mutating func energy(of frame: [Int16]) -> Double {
    guard !frame.isEmpty else { return -100 }
    var sum = 0.0
    for sample in frame {
      sum += highPass.1.filter(highPass.0.filter(Double(sample))).squared
    }
    let meanSquare = sum / Double(frame.count) / (32768.0 * 32768.0)
    return 10 * log10(max(meanSquare, 1e-10))
  }

  /// Classifies the next frame (`settings.frameLength` samples).
  public mutating func process(_ frame: [Int16]) -> EndpointDecision {
    handedOver = nil
    let energy = energy(of: frame)
    let floor = updateFloor(with: energy)

    history.append(frame)
    let keep = settings.frames(settings.preRoll) + settings.frames(settings.minimumSpeech)
    if history.count > keep { history.removeFirst(history.count - keep) }

    if !inSpeech {
      if energy >= floor + settings.onsetMargin {
        loudRun += 1
      } else {
        loudRun = 0
      }
      guard loudRun >= settings.frames(settings.minimumSpeech) || pendingRise != nil else { return .silence }
      inSpeech = true
      risenFrom = pendingRise
      pendingRise = nil
      bed = nil
      riseRun = 0
      quietRun = 0
      pauseRun = 0
      peak = energy
      utteranceFrames = loudRun
      loudRun = 0
      recent.removeAll(keepingCapacity: true)
      let preRoll = history.suffix(settings.frames(settings.preRoll) + settings.frames(settings.minimumSpeech))
      history.removeAll(keepingCapacity: true)
      return .start(preRoll: Array(preRoll.joined()))
    }

    utteranceFrames += 1
    peak = max(peak, energy)
    if let steady = steadySoundFloor(after: energy) {
      // A steady noise, not speech: the utterance ends here, and the floor is the noise's.
      inSpeech = false
      quietRun = 0
      self.floor = max(floor, steady)
      risenFrom = nil
      return .end(cut: true)
    }
    if let risen = risenFrom {
      // A voice that rose out of a bed: it ends once the sound is back at the bed (its
      // power over the last `fallDuration`, which the bed's own ups and downs do not lift).
      let span = settings.frames(settings.fallDuration)
      if recent.count >= span,
        10 * log10(recent.suffix(span).reduce(0) { $0 + pow(10, $1 / 10) } / Double(span)) < risen + settings.fallMargin
      {
        inSpeech = false
        quietRun = 0
        risenFrom = nil
        self.floor = max(floor, risen)
        return .end(cut: true)
      }
    } else if settings.riseAfter > 0, let bed {
      riseRun = energy >= bed + settings.riseMargin ? riseRun + 1 : 0
      if riseRun >= settings.frames(settings.riseDuration), utteranceFrames >= settings.frames(settings.riseAfter) {
        // Someone speaks up over the bed: a new utterance starts with the rise, from where
        // the sound left the bed.
        inSpeech = false
        quietRun = 0
        self.floor = max(floor, bed)
        pendingRise = bed
        let foot = recent.reversed().prefix { $0 >= bed + settings.fallMargin }.count
        handedOver = Double(foot) * settings.frameDuration
        return .end(cut: true)
      }
    }
    if energy < floor + settings.offsetMargin {
      quietRun += 1
    } else {
      quietRun = 0
    }
    if energy < max(floor + settings.offsetMargin, peak - settings.pauseDepth) {
      pauseRun += 1
    } else {
      pauseRun = 0
    }
    if quietRun >= settings.frames(settings.endSilence) {
      inSpeech = false
      quietRun = 0
      risenFrom = nil
      return .end(cut: false)
    }
    if utteranceFrames >= settings.frames(settings.maximumUtterance) {
      inSpeech = false
      quietRun = 0
      risenFrom = nil
      // Whatever kept it going is the new background.
      self.floor = max(floor, energy - settings.offsetMargin)
      return .end(cut: true)
    }
    return .inSpeech
  }

  /// When the utterance's last `steadyWindow` of sound is steady (see
  /// `EndpointerSettings.steadyWindow`), the floor that sound asks for: its frames within
  /// `offsetMargin` of it but for the loudest tenth, less 2 dB. Measures the same window for
  /// `bed` (see `EndpointerSettings.riseAfter`), and keeps `recent`, which the fall reads.
  private mutating func steadySoundFloor(after energy: Double) -> Double? {
    guard settings.steadyWindow > 0 else { return nil }
    let window = settings.frames(settings.steadyWindow)
    recent.append(energy)
    if recent.count > window { recent.removeFirst(recent.count - window) }
    // Every 10th frame once the window is full: the test needs no finer step.
    guard recent.count == window, utteranceFrames % 10 == 0 else { return nil }
    let sorted = recent.sorted()
    let high = sorted[window * 9 / 10]
    let spread = high - sorted[window / 10]
    bed = spread <= settings.bedSpread ? sorted[window / 2] : nil
    guard spread < settings.steadySpread else { return nil }
    return high + 2 - settings.offsetMargin
  }

  /// How long the utterance under way has been quiet, in seconds (0 outside an utterance).
  /// Quiet here is below the floor's margin or `pauseDepth` below the utterance's loudest frame.
  public var quietDuration: Double { inSpeech ? Double(pauseRun) * settings.frameDuration : 0 }

  /// The endpointer's high-pass: two Butterworth sections at 150 Hz (see `energy(of:)`);
  /// the listener's evidence measures loudness through the same (`HighPassEnergy`).
  static func highPass(sampleRate: Int) -> (Biquad, Biquad) {
    let section = Biquad.highPass(cutoff: 150, sampleRate: Double(sampleRate))
    return (section, section)
  }

  /// Forgets the stream so far (a new stream begins); the floor is kept.
  public mutating func reset() {
    inSpeech = false
    loudRun = 0
    quietRun = 0
    pauseRun = 0
    utteranceFrames = 0
    history.removeAll()
    recent.removeAll()
    bed = nil
    riseRun = 0
    pendingRise = nil
    risenFrom = nil
    highPass = Self.highPass(sampleRate: settings.sampleRate)
  }

  private mutating func updateFloor(with energy: Double) -> Double {
    let clamped = max(energy, settings.lowestFloor)
    guard var floor else {
      let initial = min(clamped, settings.highestInitialFloor)
      self.floor = initial
      return initial
    }
    if clamped < floor {
      floor += 0.5 * (clamped - floor)
    } else {
      let rise = (inSpeech ? settings.floorRiseInSpeech : settings.floorRise) * settings.frameDuration
      floor += min(clamped - floor, rise)
    }
    self.floor = floor
    return floor
  }
}

/// A second-order IIR filter section (direct form I), with its state.
struct Biquad: Sendable {
  let b0, b1, b2, a1, a2: Double
  private var x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0

  init(b0: Double, b1: Double, b2: Double, a1: Double, a2: Double) {
    (self.b0, self.b1, self.b2, self.a1, self.a2) = (b0, b1, b2, a1, a2)
  }

  /// A Butterworth high-pass (Q = 1/sqrt 2) at `cutoff` Hz.
  static func highPass(cutoff: Double, sampleRate: Double) -> Biquad {
    let w0 = 2 * Double.pi * cutoff / sampleRate
    let alpha = sin(w0) / 2.0.squareRoot()
    let a0 = 1 + alpha
    return Biquad(
      b0: (1 + cos(w0)) / 2 / a0, b1: -(1 + cos(w0)) / a0, b2: (1 + cos(w0)) / 2 / a0,
      a1: -2 * cos(w0) / a0, a2: (1 - alpha) / a0)
  }

  /// A Butterworth low-pass (Q = 1/sqrt 2) at `cutoff` Hz.
  static func lowPass(cutoff: Double, sampleRate: Double) -> Biquad {
    let w0 = 2 * Double.pi * cutoff / sampleRate
    let alpha = sin(w0) / 2.0.squareRoot()
    let a0 = 1 + alpha
    return Biquad(
      b0: (1 - cos(w0)) / 2 / a0, b1: (1 - cos(w0)) / a0, b2: (1 - cos(w0)) / 2 / a0,
      a1: -2 * cos(w0) / a0, a2: (1 - alpha) / a0)
  }

  mutating func filter(_ x: Double) -> Double {
    let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2
    (x2, x1, y2, y1) = (x1, x, y1, y)
    return y
  }
}

/// The energies (dBFS) of whole 10 ms frames at 16 kHz after the endpointer's high-pass at
/// 150 Hz, measured as the audio comes (the filter runs on across chunks).
struct HighPassEnergy: Sendable {
  private var highPass = Endpointer.highPass(sampleRate: 16_000)
  /// After the high-pass, when measuring the speech band only (`speechBand()`).
  private var band: [Biquad] = []
  private var sum = 0.0
  private var count = 0
  static let frameLength = 160

  init() {}

  /// The energies of the band where a voice's vowels lie, 200-3,400 Hz (fourth-order edges),
  /// within the same 150 Hz high-pass: see `SignalEvidence.speechShare`.
  static func speechBand() -> HighPassEnergy {
    var energy = HighPassEnergy()
    let high = Biquad.highPass(cutoff: 200, sampleRate: 16_000)
    let low = Biquad.lowPass(cutoff: 3_400, sampleRate: 16_000)
    energy.band = [high, high, low, low]
    return energy
  }

  mutating func frameEnergies(_ samples: [Int16]) -> [Double] {
    var energies: [Double] = []
    for sample in samples {
      var value = highPass.1.filter(highPass.0.filter(Double(sample)))
      for index in band.indices { value = band[index].filter(value) }
      sum += value.squared
      count += 1
      if count == Self.frameLength {
        energies.append(10 * log10(max(sum / Double(count), 1e-2) / (32768.0 * 32768.0)))
        sum = 0
        count = 0
      }
    }
    return energies
  }
}

extension Double {
  fileprivate var squared: Double { self * self }
}
