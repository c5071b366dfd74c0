import Foundation
import Testing

@testable import DirectMeCore

@Suite("Detector")
struct DetectorTests {
  let detector = Detector(
    calibrations: ["up": .init(slope: 0.1, intercept: 1, minimumDuration: 0.12)],
    fallback: .init(slope: 0.05, intercept: 0, minimumDuration: 0.1),
    gate: .init(minimumVoiced: 0.03, minimumDynamicRange: 6), threshold: 0.6, rescueThreshold: 0.4)
  let voiced = SignalEvidence(voiced: 0.2, longestVoiced: 0.15, dynamicRange: 30)

  @Test("confidence rises with the margin, per word, and is 0 for a word too short to be said")
  func confidence() {
    let low = detector.confidence(word: "up", margin: -20, duration: 0.3, signal: voiced)
    let high = detector.confidence(word: "up", margin: 20, duration: 0.3, signal: voiced)
    #expect(low < high)
    #expect(abs(detector.confidence(word: "up", margin: -10, duration: 0.3, signal: voiced) - 0.5) < 1e-9)
    #expect(abs(detector.confidence(word: "left", margin: 0, duration: 0.3, signal: voiced) - 0.5) < 1e-9)
    #expect(detector.confidence(word: "up", margin: 100, duration: 0.1, signal: voiced) == 0)
    let calibration = detector.calibration(for: "up")
    #expect(abs(calibration.confidence(margin: calibration.margin(forConfidence: 0.8), duration: 1) - 0.8) < 1e-9)
  }

  @Test("below its acting margin a word reaches no confidence that counts: not the operating point, a companion's or a rescue's")
  func actingMargin() {
    var detector = detector
    detector.companionThreshold = 0.3
    // The lowest of the operating point (0.6), the companion's (0.3) and the rescue's (0.4).
    #expect(detector.lowestActing() == 0.3)
    #expect(detector.lowestActing(threshold: 0.2) == 0.2)
    for word in ["up", "left"] {
      let bound = detector.actingMargin(of: word)
      #expect(detector.confidence(word: word, margin: bound - 0.01, duration: 0.3, signal: voiced) < 0.3)
      #expect(detector.confidence(word: word, margin: bound + 0.01, duration: 0.3, signal: voiced) > 0.3)
    }
    // "up" (slope 0.1, intercept 1): logit(0.3) = -0.847, so (-0.847 - 1) / 0.1.
    #expect(abs(detector.actingMargin(of: "up") - (log(0.3 / 0.7) - 1) / 0.1) < 1e-9)
    // By word, each word once.
    #expect(detector.actingMargins(of: ["up", "left", "up"]) == ["up": detector.actingMargin(of: "up"), "left": detector.actingMargin(of: "left")])
  }

  @Test("the gate refuses audio without a steady voiced run or without dynamics")
  func gate() {
    #expect(detector.confidence(word: "up", margin: 100, duration: 0.3, signal: .init(voiced: 0.01, longestVoiced: 0.01, dynamicRange: 30)) == 0)
    #expect(detector.confidence(word: "up", margin: 100, duration: 0.3, signal: .init(voiced: 0.2, longestVoiced: 0.2, dynamicRange: 3)) == 0)
    #expect(detector.confidence(word: "up", margin: 100, duration: 0.3, signal: nil) > 0.99)
  }

  @Test("over other voices the gate asks a wider range; over a room's steady noise or silence, the usual one")
  func gateOverVoices() {
    var detector = detector
    detector.gate.overVoices = .init(share: 0.3, minimumDynamicRange: 10)
    let overVoices = SignalEvidence(voiced: 0.6, longestVoiced: 0.2, dynamicRange: 8, backgroundVoicing: 0.6)
    let overNoise = SignalEvidence(voiced: 0.3, longestVoiced: 0.2, dynamicRange: 8, backgroundVoicing: 0)
    let standingOut = SignalEvidence(voiced: 0.6, longestVoiced: 0.2, dynamicRange: 12, backgroundVoicing: 0.6)
    #expect(detector.confidence(word: "up", margin: 100, duration: 0.3, signal: overVoices) == 0)
    #expect(detector.confidence(word: "up", margin: 100, duration: 0.3, signal: overNoise) > 0.99)
    #expect(detector.confidence(word: "up", margin: 100, duration: 0.3, signal: standingOut) > 0.99)
    // Without the rule (a detector file from before it), the usual range only.
    detector.gate.overVoices = nil
    #expect(detector.confidence(word: "up", margin: 100, duration: 0.3, signal: overVoices) > 0.99)
  }

  @Test("in a room's noise a word needs one voiced frame; in a quiet room or over other voices, a steady voiced run")
  func gateInRoomNoise() {
    let gate = detector.gate
    // A second 22 dB over a tap's noise (unvoiced background), over a quiet room, over babble.
    let inNoise = SignalEvidence(voiced: 0.01, longestVoiced: 0.01, dynamicRange: 22, duration: 1)
    let quiet = SignalEvidence(voiced: 0.01, longestVoiced: 0.01, dynamicRange: 45, duration: 1)
    let overVoices = SignalEvidence(
      voiced: 0.5, longestVoiced: 0.01, dynamicRange: 22, backgroundVoicing: 0.6, duration: 1)
    #expect(gate.isInRoomNoise(inNoise) && !gate.isInRoomNoise(quiet) && !gate.isInRoomNoise(overVoices))
    #expect(gate.passes(inNoise, voiced: 0.01, margin: -5))
    #expect(!gate.passes(quiet, voiced: 0.01, margin: -5))
    #expect(!gate.passes(overVoices, voiced: 0.01, margin: -5))
    // A piece of 0.25 s split off a word ranges as little within itself: it needs the run.
    let piece = SignalEvidence(voiced: 0.01, longestVoiced: 0.01, dynamicRange: 22, duration: 0.25)
    #expect(gate.isInRoomNoise(piece) && !gate.isLongInRoomNoise(piece))
    #expect(!gate.passes(piece, voiced: 0.01, margin: -5))
    // No voiced frame at all: refused in the noise too (a kitchen's clatter read as "up").
    #expect(!gate.passes(inNoise, voiced: 0, margin: -5))
    // A gate that asks less than one frame asks no more in the noise.
    #expect(Detector.Gate.open.passes(inNoise, voiced: 0, margin: -5))
  }

  @Test("in a long stretch of sound a word must stand out of it, from 0.8 s on a little and from 1.2 s a little more; in a shorter utterance it need only reach its median level; without the rule, nothing is asked")
  func continuousSound() {
    var gate = detector.gate
    gate.continuousSound = .init(seconds: 3, minimumStandout: 8)
    let long = SignalEvidence(voiced: 2, longestVoiced: 0.3, dynamicRange: 20, duration: 6)
    let short = SignalEvidence(voiced: 0.3, longestVoiced: 0.3, dynamicRange: 20, duration: 1.5)
    var word = WordSegment(word: "up", start: 1, end: 1.3, margin: 20, voiced: 0.2, loud: 0.1)
    word.standout = 5
    #expect(gate.isBuried(long, word: word))
    #expect(!gate.passes(long, word: word))
    #expect(gate.passes(short, word: word))
    // From 0.8 s on (a one-second clip's utterance), a word as loud as the rest of its
    // utterance is buried in it too; under that the word may be most of it.
    word.standout = 3
    #expect(gate.isBuried(short, word: word))
    #expect(gate.isBuried(SignalEvidence(voiced: 0.3, longestVoiced: 0.3, dynamicRange: 20, duration: 0.8), word: word))
    #expect(!gate.isBuried(SignalEvidence(voiced: 0.3, longestVoiced: 0.3, dynamicRange: 20, duration: 0.75), word: word))
    // From 1.2 s on, 5 dB: a word 4.5 dB over the median is buried in 1.5 s, not in 1 s.
    word.standout = 4.5
    #expect(gate.isBuried(short, word: word))
    #expect(!gate.isBuried(SignalEvidence(voiced: 0.3, longestVoiced: 0.3, dynamicRange: 20, duration: 1), word: word))
    word.standout = 3
    // The standout asked by length, which the final pass's loudest-island reading asks too.
    #expect(Detector.Gate.bed(forSeconds: 0.75) == nil)
    #expect(Detector.Gate.bed(forSeconds: 0.8)?.minimumStandout == 4)
    #expect(Detector.Gate.bed(forSeconds: 1.19)?.minimumStandout == 4)
    #expect(Detector.Gate.bed(forSeconds: 1.2)?.minimumStandout == 5)
    #expect(Detector.Gate.bed(forSeconds: 2.9)?.minimumStandout == 5)
    // A phrase said without a pause over silence drops to the room's level between its words:
    // no bed of sound around the word.
    #expect(!gate.isBuried(SignalEvidence(voiced: 0.9, longestVoiced: 0.3, dynamicRange: 63, duration: 1.5), word: word))
    #expect(gate.isBuried(SignalEvidence(voiced: 0.9, longestVoiced: 0.3, dynamicRange: 54, duration: 1.5), word: word))
    // Fainter than most of its own utterance, however short: buried.
    let brief = SignalEvidence(voiced: 0.3, longestVoiced: 0.3, dynamicRange: 60, duration: 0.7)
    word.standout = -1
    #expect(gate.isBuried(brief, word: word))
    word.standout = 0.5
    #expect(!gate.isBuried(brief, word: word))
    word.standout = 5
    // Short, but cut out of a sound that never paused: asked.
    var cutOut = short
    cutOut.endless = true
    #expect(gate.isBuried(cutOut, word: word))
    word.standout = 9
    #expect(gate.passes(long, word: word))
    // Not measured (evidence or a word from before the rule): not asked.
    word.standout = nil
    #expect(gate.passes(long, word: word))
    word.standout = 5
    #expect(gate.passes(SignalEvidence(voiced: 2, longestVoiced: 0.3, dynamicRange: 20), word: word))
    gate.continuousSound = nil
    #expect(gate.passes(long, word: word))
  }

  @Test("the loud part of a long utterance is a word's vowel, not the 95th percentile of its noise; up to two seconds, that percentile")
  func loudPartOfLongUtterances() {
    // 5 s of noise at -40 dB with a 150-ms vowel at -25 dB: the vowel is 3% of the frames.
    let long = [Double](repeating: -40, count: 200) + [Double](repeating: -25, count: 15) + [Double](repeating: -40, count: 285)
    #expect(SignalEvidence.dynamicRange(sortedEnergies: long.sorted()) == 15)
    // A second of frames rising evenly from -60 to -41 dB: the 95th percentile, as before.
    let ramp = (0..<100).map { -60 + Double($0 / 5) }
    #expect(SignalEvidence.loud(sortedEnergies: ramp.sorted()) == -41)
  }

  @Test("a word's standout: its loud frames over the median of all")
  func standout() {
    // 100 frames at -60 dB, 20 at -40 (a word), 100 at -50.
    let energies = [Double](repeating: -60, count: 100) + [Double](repeating: -40, count: 20) + [Double](repeating: -50, count: 100)
    #expect(SignalEvidence.standout(100..<120, of: energies) == 10)
    #expect(SignalEvidence.standout(0..<50, of: energies) == -10)
    #expect(SignalEvidence.standout(300..<310, of: energies) == nil)
    #expect(SignalEvidence.measure(periods: [Int](repeating: 0, count: 220), energies: energies).duration == 2.2)
  }

  @Test("a detector file round-trips, and a broken one is one clear error naming the file")
  func files() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detector-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let good = folder.appendingPathComponent("detector.json")
    try detector.json().write(to: good)
    #expect(try Detector.load(good.path) == detector)
    let broken = folder.appendingPathComponent("broken.json")
    try Data("{\"threshold\": 0.5}".utf8).write(to: broken)
    #expect(throws: Detector.FileError.self) { try Detector.load(broken.path) }
    do {
      _ = try Detector.load(broken.path)
    } catch {
      #expect("\(error)".hasPrefix(broken.path + ": not a detector file"))
    }
    var bad = detector
    bad.rescueThreshold = 0.9
    try bad.json().write(to: broken)
    #expect(throws: Detector.FileError.self) { try Detector.load(broken.path) }
    #expect(throws: Detector.FileError.self) { try Detector.load(folder.appendingPathComponent("none.json").path) }
  }
}

@Suite("Margins")
struct MarginTests {
  @Test("a reading's score over a stretch spreads each word's score over its time")
  func stretchScore() {
    let reading = Transcription(
      segments: [WordSegment(word: "<sil>", start: 0, end: 0.2, score: -2), WordSegment(word: "go", start: 0.2, end: 0.6, score: -40)],
      score: -42)
    #expect(abs(reading.score(from: 0, to: 0.6) - -42) < 1e-9)
    #expect(abs(reading.score(from: 0.1, to: 0.4) - (-1 + -20)) < 1e-9)
    #expect(reading.score(from: 1, to: 2) == 0)
  }

  @Test("each command word's margin is its score minus the other reading's over the same time")
  func margins() {
    let commands = Transcription(
      segments: [
        WordSegment(word: "move", start: 0, end: 0.3, score: -30), WordSegment(word: "up", start: 0.3, end: 0.6, score: -25),
      ], score: -55)
    let garbage = Transcription(
      segments: [WordSegment(word: "move", start: 0, end: 0.3, score: -30), WordSegment(word: "but", start: 0.3, end: 0.6, score: -20)],
      score: -50)
    let marked = commands.withMargins(over: garbage, for: ["up"])
    #expect(marked.segments[0].margin == nil)
    #expect(abs((marked.segments[1].margin ?? 0) - -5) < 1e-9)
  }
}

@Suite("Phone distance")
struct PhoneDistanceTests {
  @Test("edit distance between pronunciations, and what counts as a near-miss")
  func nearMisses() {
    #expect(PhoneDistance.between(["D", "AW", "N"], ["D", "R", "AW", "N"]) == 1)
    #expect(PhoneDistance.between([], ["AH", "P"]) == 2)
    #expect(PhoneDistance.isNearMiss(["D", "R", "AW", "N"], of: ["D", "AW", "N"]))
    #expect(PhoneDistance.isNearMiss(["K", "AH", "P"], of: ["AH", "P"]))
    #expect(!PhoneDistance.isNearMiss(["AH"], of: ["AH", "P"]))
    #expect(!PhoneDistance.isNearMiss(["G", "OW"], of: ["D", "AW", "N"]))
  }
}

/// A vowel-like sound: a 140 Hz pulse train through a resonance, with some level movement
/// (the signal-evidence and declicker tests').
func vowel(seconds: Double) -> [Int16] {
  let count = Int(seconds * 16_000)
  var out = [Int16](repeating: 0, count: count)
  var resonance = (0.0, 0.0)
  for index in 0..<count {
    let pulse = index % Int(16_000 / 140) == 0 ? 8000.0 : 0
    let y = pulse + 1.6 * cos(2 * .pi * 700 / 16_000) * 0.95 * resonance.0 - 0.95 * 0.95 * resonance.1
    resonance = (y, resonance.0)
    out[index] = Int16(clamping: Int(y * 0.5))
  }
  return out
}

@Suite("Signal evidence")
struct SignalEvidenceTests {

  /// `samples` made louder (or softer) by `dB`.
  func scaled(_ samples: [Int16], dB: Double) -> [Int16] {
    samples.map { Int16(clamping: Int((Double($0) * pow(10, dB / 20)).rounded())) }
  }

  @Test("a vowel between silences has a long steady voiced run; white noise has none")
  func voicedAgainstNoise() {
    let speech = [Int16](repeating: 0, count: 4000) + vowel(seconds: 0.3) + [Int16](repeating: 0, count: 4000)
    let evidence = SignalEvidence.measure(speech)
    #expect(evidence.longestVoiced >= 0.2)
    #expect(evidence.dynamicRange > 20)
    var random = Signal.Random(seed: 3)
    let noise = Signal.whiteNoise(1, level: -25, random: &random)
    let heard = SignalEvidence.measure(noise)
    #expect(heard.longestVoiced < 0.03)
    #expect(heard.dynamicRange < 6)
    #expect(SignalEvidence.measure([1, 2]) == SignalEvidence(voiced: 0, longestVoiced: 0, dynamicRange: 0))
  }


  @Test("a glass or a plate ringing at a few kHz is not voiced, with or without a microphone's DC offset; a vowel is")
  func ringingIsNotVoiced() {
    // Clinks: two partials at 2.6 and 4.1 kHz dying away over a few tens of ms, four a second.
    let clink = (0..<4000).map { index -> Double in
      let t = Double(index) / 16_000
      return (sin(2 * .pi * 2600 * t) + 0.7 * sin(2 * .pi * 4100 * t + 1)) * exp(-t * 25) * 12_000
    }
    let clinks = (0..<4).flatMap { _ in clink.map { Int16(clamping: Int($0)) } }
    #expect(SignalEvidence.measure(clinks).longestVoiced == 0)
    #expect(SignalEvidence.pitchPeriods(clinks).allSatisfy { $0 == 0 })
    // The vowel keeps its voicing, also over a DC offset (the whole band's energy is measured without it).
    let speech = [Int16](repeating: 0, count: 4000) + vowel(seconds: 0.3) + [Int16](repeating: 0, count: 4000)
    #expect(SignalEvidence.measure(speech).longestVoiced >= 0.2)
    let offset = speech.map { Int16(clamping: Int($0) + 3000) }
    #expect(SignalEvidence.pitchPeriods(offset).count { $0 > 0 } >= 20)
  }

  @Test("a vowel keeps its energy in the speech band, a drum's thump and a cymbal's hiss do not; the gate refuses a word without it")
  func speechBandShare() {
    let share = { (samples: [Int16]) -> Double? in
      var whole = HighPassEnergy()
      var band = HighPassEnergy.speechBand()
      let energies = whole.frameEnergies(samples)
      return SignalEvidence.speechShare(0..<energies.count, of: energies, band: band.frameEnergies(samples))
    }
    let silence = [Int16](repeating: 0, count: 1600)
    #expect(share(silence + vowel(seconds: 0.3) + silence)! > 0.6)
    // A tom: a 160 Hz mode dying away; a cymbal: noise over 5 kHz dying away.
    let tom = (0..<8000).map { index -> Int16 in
      let t = Double(index) / 16_000
      return Int16(clamping: Int(sin(2 * .pi * 160 * t) * exp(-t * 12) * 20_000))
    }
    #expect(share(silence + tom)! < Detector.Gate.minimumSpeechShare)
    var random = Signal.Random(seed: 3)
    var hiss = Biquad.highPass(cutoff: 5_000, sampleRate: 16_000)
    var hiss2 = Biquad.highPass(cutoff: 5_000, sampleRate: 16_000)
    let cymbal = (0..<8000).map { index -> Int16 in
      let t = Double(index) / 16_000
      return Int16(clamping: Int(hiss2.filter(hiss.filter(Signal.gaussian(&random))) * exp(-t * 6) * 6_000))
    }
    #expect(share(silence + cymbal)! < Detector.Gate.minimumSpeechShare)
    #expect(share([]) == nil)
    // The gate asks it of a word that says it, and of no word that does not.
    let gate = Detector.Gate(minimumVoiced: 0.03, minimumDynamicRange: 6)
    let evidence = SignalEvidence(voiced: 0.2, longestVoiced: 0.15, dynamicRange: 30)
    var word = WordSegment(word: "up", start: 0, end: 0.3, margin: 20, voiced: 0.1)
    #expect(gate.passes(evidence, word: word))
    word.speechShare = 0.6
    #expect(gate.passes(evidence, word: word))
    word.speechShare = 0.1
    #expect(!gate.passes(evidence, word: word))
    // "up" keeps more of it there than a word with a nasal or a voiced consonant under the band.
    word.speechShare = 0.3
    #expect(!gate.passes(evidence, word: word))
    word.word = "down"
    #expect(gate.passes(evidence, word: word))
    // An "up" that does not stand out of the sound around it (a call or a rattle that goes on)
    // needs more of its energy there; one that stands out, or another word, does not.
    word.word = "up"
    word.speechShare = Detector.Gate.minimumSpeechShareOfFaintUp - 0.05
    #expect(word.speechShare! > Detector.Gate.minimumSpeechShareOfUp)
    word.standout = Detector.Gate.faintUpStandout + 5
    #expect(gate.passes(evidence, word: word))
    word.standout = Detector.Gate.faintUpStandout - 5
    #expect(!gate.passes(evidence, word: word))
    #expect(gate.refusal(evidence, word: word) == .unlikeVoice(.outsideSpeechBand))
    word.speechShare = Detector.Gate.minimumSpeechShareOfFaintUp + 0.05
    #expect(gate.passes(evidence, word: word))
    word.speechShare = Detector.Gate.minimumSpeechShareOfFaintUp - 0.05
    word.word = "down"
    #expect(gate.passes(evidence, word: word))
  }

  @Test("a strained cry holds its first harmonic far over its fourth, a vowel does not; the gate refuses such a high \"up\"")
  func harmonicLead() throws {
    // A harmonic series at `pitch` Hz, the harmonics' amplitudes as given.
    func voice(pitch: Double, amplitudes: [Double]) -> [Int16] {
      (0..<4800).map { index -> Int16 in
        let t = Double(index) / 16_000
        let sum = amplitudes.enumerated().reduce(0.0) { $0 + $1.element * sin(2 * .pi * pitch * Double($1.offset + 1) * t + Double($1.offset)) }
        return Int16(clamping: Int(sum * 4_000))
      }
    }
    let lead = { (samples: [Int16]) -> HarmonicLead? in
      let padded = [Int16](repeating: 0, count: 1600) + samples + [Int16](repeating: 0, count: 1600)
      var whole = HighPassEnergy()
      let energies = whole.frameEnergies(padded)
      return SignalEvidence.harmonicLead(
        0..<energies.count, of: energies, periods: SignalEvidence.pitchPeriods(padded), samples: padded)
    }
    // A vowel's formants lift its third and fourth harmonics over its first; a strained cry's
    // energy sits in its first, the rest falling away.
    let vowel = try #require(lead(voice(pitch: 250, amplitudes: [0.3, 0.6, 1, 0.9, 0.4])))
    let cry = try #require(lead(voice(pitch: 250, amplitudes: [1, 0.3, 0.1, 0.05, 0.02])))
    #expect(abs(vowel.pitch - 250) < 20 && abs(cry.pitch - 250) < 20, "\(vowel.pitch), \(cry.pitch) Hz")
    #expect(vowel.lead < 0 && cry.lead > 20, "vowel \(vowel.lead) dB, cry \(cry.lead) dB")
    #expect(lead([Int16](repeating: 0, count: 4800)) == nil)
    let gate = Detector.Gate(minimumVoiced: 0.03, minimumDynamicRange: 6)
    let evidence = SignalEvidence(voiced: 0.2, longestVoiced: 0.15, dynamicRange: 30)
    var word = WordSegment(word: "up", start: 0, end: 0.3, margin: 20, voiced: 0.1)
    word.harmonicLead = vowel
    #expect(gate.passes(evidence, word: word))
    word.harmonicLead = cry
    #expect(gate.refusal(evidence, word: word) == .unlikeVoice(.strained))
    #expect(Rejection.unlikeVoice(heard: ["up"], why: .strained).reason.contains("first harmonic"))
    // A low voice may hold its first harmonic so (a man's "up", a deep voice); and only "up" is asked.
    word.harmonicLead = HarmonicLead(pitch: Detector.Gate.strainedUp.pitch - 20, lead: cry.lead)
    #expect(gate.passes(evidence, word: word))
    word.harmonicLead = cry
    word.word = "down"
    #expect(gate.passes(evidence, word: word))
  }

  @Test("a vowel spreads its energy over its harmonics, a ringing pot's partials lie in a few sharp peaks; the gate refuses such an \"up\"")
  func toneShare() {
    let share = { (samples: [Int16]) -> Double? in
      var whole = HighPassEnergy()
      let energies = whole.frameEnergies(samples)
      return SignalEvidence.toneShare(0..<energies.count, of: energies, samples: samples)
    }
    let silence = [Int16](repeating: 0, count: 1600)
    let voice = share(silence + vowel(seconds: 0.3) + silence)!
    #expect(voice < 0.9, "a vowel: \(voice)")
    // A pot struck: partials at 410, 1,130 and 2,270 Hz ringing away.
    let pot = (0..<8000).map { index -> Int16 in
      let t = Double(index) / 16_000
      let partials = sin(2 * .pi * 410 * t) + 0.6 * sin(2 * .pi * 1130 * t + 1) + 0.3 * sin(2 * .pi * 2270 * t + 2)
      return Int16(clamping: Int(partials * exp(-t * 9) * 9_000))
    }
    let ringing = share(silence + pot)!
    #expect(ringing >= Detector.Gate.maximumToneShareOfUp, "a pot: \(ringing)")
    #expect(share([]) == nil)
    // The gate asks it of "up" at 98%; of every word at `maximumToneShare`.
    let gate = Detector.Gate(minimumVoiced: 0.03, minimumDynamicRange: 6)
    let evidence = SignalEvidence(voiced: 0.2, longestVoiced: 0.15, dynamicRange: 30)
    var word = WordSegment(word: "up", start: 0, end: 0.3, margin: 20, voiced: 0.1)
    word.toneShare = voice
    #expect(gate.passes(evidence, word: word))
    word.toneShare = ringing
    #expect(!gate.passes(evidence, word: word))
    // Another word may keep more there, as a low, pure voice does, but not all of it.
    word.word = "down"
    word.toneShare = (Detector.Gate.maximumToneShareOfUp + Detector.Gate.maximumToneShare) / 2
    #expect(gate.passes(evidence, word: word))
    #expect(ringing >= Detector.Gate.maximumToneShare, "a pot: \(ringing)")
    word.toneShare = ringing
    #expect(gate.refusal(evidence, word: word) == .unlikeVoice(.pureTones))
    // An "up" whose margin is not clear may keep less of it there than one whose margin is.
    word.word = "up"
    word.toneShare = (Detector.Gate.maximumToneShareOfUnsureUp + Detector.Gate.maximumToneShareOfUp) / 2
    word.margin = Detector.Gate.unsureUpMargin + 5
    #expect(gate.passes(evidence, word: word))
    word.margin = Detector.Gate.unsureUpMargin - 5
    #expect(gate.refusal(evidence, word: word) == .unlikeVoice(.pureTones))
    word.toneShare = Detector.Gate.maximumToneShareOfUnsureUp - 0.01
    #expect(gate.passes(evidence, word: word))
    word.toneShare = (Detector.Gate.maximumToneShareOfUnsureUp + Detector.Gate.maximumToneShareOfUp) / 2
    word.word = "down"
    #expect(gate.passes(evidence, word: word))
  }

  @Test("an \"up\" that is the whole of a brief sound needs a vowel's loud part; in a longer utterance, or another word, it does not")
  func briefUp() {
    let gate = Detector.Gate(minimumVoiced: 0.03, minimumDynamicRange: 6)
    let brief = SignalEvidence(voiced: 0.1, longestVoiced: 0.05, dynamicRange: 30, duration: Detector.Gate.briefUp.utterance - 0.1)
    let longer = SignalEvidence(voiced: 0.1, longestVoiced: 0.05, dynamicRange: 30, duration: Detector.Gate.briefUp.utterance + 0.3)
    var word = WordSegment(word: "up", start: 0.3, end: 0.4, margin: -5, voiced: 0.05, loud: Detector.Gate.briefUp.loud - 0.02)
    #expect(gate.refusal(brief, word: word) == .unlikeVoice(.brief))
    #expect(gate.passes(longer, word: word))
    word.loud = Detector.Gate.briefUp.loud + 0.02
    #expect(gate.passes(brief, word: word))
    word.loud = Detector.Gate.briefUp.loud - 0.02
    word.word = "down"
    #expect(gate.passes(brief, word: word))
    // The reason a user reads.
    #expect(Rejection.unlikeVoice(heard: ["up"], why: .brief).reason.contains("brief sound"))
  }

  @Test("amid other voices, an unsure \"up\" holding its vowel as long as another word's is refused; over a clear background, surer, or another word, it is not")
  func longUpAmidVoices() {
    let gate = Detector.Gate(minimumVoiced: 0.03, minimumDynamicRange: 6)
    let bound = Detector.Gate.longUpAmidVoices
    let amidVoices = SignalEvidence(
      voiced: 0.5, longestVoiced: 0.1, dynamicRange: Detector.Calibration.clearBackground - 5, backgroundVoicing: bound.voicing + 0.1, duration: 1)
    var word = WordSegment(word: "up", start: 0.3, end: 0.6, margin: -20, voiced: 0.1, loud: bound.loud + 0.03)
    #expect(gate.refusal(amidVoices, word: word) == .unlikeVoice(.longAmidVoices))
    // A person's "up" amid the same voices holds its vowel for less.
    word.loud = bound.loud - 0.05
    #expect(gate.passes(amidVoices, word: word))
    word.loud = bound.loud + 0.03
    // Not when the word explains itself better than any other word does...
    word.margin = 5
    #expect(gate.passes(amidVoices, word: word))
    word.margin = -20
    // ...over a background it stands clear of (there the calibration's maximumLoud asks)...
    var clear = amidVoices
    clear.dynamicRange = Detector.Calibration.clearBackground + 5
    #expect(gate.passes(clear, word: word))
    // ...over unvoiced noise (its loud part takes in the noise: a room's tap or fan)...
    var noise = amidVoices
    noise.backgroundVoicing = bound.voicing - 0.1
    #expect(gate.passes(noise, word: word))
    // ...or for another command word.
    word.word = "right"
    #expect(gate.passes(amidVoices, word: word))
    #expect(Rejection.unlikeVoice(heard: ["up"], why: .longAmidVoices).reason.contains("amid other voices"))
  }

  @Test("other voices throughout leave the quieter half of the frames voiced; a word over silence or steady noise does not")
  func backgroundVoicing() {
    var random = Signal.Random(seed: 7)
    let noise = { (seconds: Double) in Signal.whiteNoise(seconds, level: -45, random: &random) }
    // Voices one after another, louder and softer, with no pause between them.
    let voices = (0..<8).flatMap { scaled(vowel(seconds: 0.15), dB: Double($0 % 3) * -3) }
    #expect(SignalEvidence.measure(voices).backgroundVoicing > 0.5)
    let overNoise = noise(0.4) + vowel(seconds: 0.3) + noise(0.4)
    #expect(SignalEvidence.measure(overNoise).backgroundVoicing < 0.1)
    let overSilence = [Int16](repeating: 0, count: 6400) + vowel(seconds: 0.3) + [Int16](repeating: 0, count: 6400)
    #expect(SignalEvidence.measure(overSilence).backgroundVoicing < 0.1)
  }

  @Test("pitch measured as the audio comes, in chunks of any size, equals pitch measured on all of it at once")
  func pitchAsItComes() {
    var random = Signal.Random(seed: 5)
    let audio =
      Signal.whiteNoise(0.2, level: -50, random: &random) + vowel(seconds: 0.4) + Signal.whiteNoise(0.3, level: -25, random: &random)
      + scaled(vowel(seconds: 0.3), dB: -12) + [Int16](repeating: 0, count: 1234)
    let whole = SignalEvidence.pitchPeriods(audio)
    #expect(whole.count { $0 > 0 } >= 50)
    var tracker = PitchTracker()
    var fed = 0
    var step = 37
    var round = 0
    while fed < audio.count {
      let next = min(audio.count, fed + step)
      tracker.append(audio[fed..<next])
      fed = next
      step = step * 7 % 1601 + 1
      round += 1
      // Frames whose window is complete are final; the rest read 0 until their audio comes.
      let frames = fed / 160
      let periods = tracker.periods(frames: frames)
      #expect(periods.count == frames)
      if round % 6 == 0 { #expect(periods == SignalEvidence.pitchPeriods(Array(audio[..<fed]))) }
    }
    #expect(tracker.periods(frames: audio.count / 160) == whole)
  }
  @Test("a word far under the utterance's loudest frame is not said to DirectMe; one a little under is")
  func faintWord() {
    let loud = scaled(vowel(seconds: 0.3), dB: 12)
    let pause = [Int16](repeating: 0, count: 3200)
    // A lead-in 45 dB under the vowel (as a synthesizer's), then the vowel: frames 20-50, 70-100.
    let faintFirst = pause + scaled(loud, dB: -45) + pause + loud + pause
    let energies = Signal.frameEnergies(faintFirst, length: 160, floor: 1e-2, wholeFrames: true)
    #expect(!SignalEvidence.isAudible(20..<50, of: energies))
    #expect(SignalEvidence.isAudible(70..<100, of: energies))
    // A word that ends where the loud one starts is judged without its last frame.
    #expect(!SignalEvidence.isAudible(20..<71, of: energies))
    #expect(SignalEvidence.isAudible(20..<72, of: energies))
    // A second word 20 dB quieter than the first, as a sequence's words can be, is heard.
    let quieter = pause + loud + pause + scaled(loud, dB: -20) + pause
    #expect(SignalEvidence.isAudible(70..<100, of: Signal.frameEnergies(quieter, length: 160, floor: 1e-2, wholeFrames: true)))
  }

  @Test("after a decided word, a softer word is a word of its own; a release, a click or the room's noise is not")
  func wordOfItsOwn() {
    var random = Signal.Random(seed: 5)
    let room = { (seconds: Double) in Signal.whiteNoise(seconds, level: -60, random: &random) }
    let decided = room(0.2) + scaled(vowel(seconds: 0.4), dB: 12) + room(0.15)
    // A word 22 dB softer than the decided one (another take, another speaker).
    #expect(SignalEvidence.holdsWord(room(0.1) + scaled(vowel(seconds: 0.3), dB: -10) + room(0.3), after: decided))
    // A 50 ms release or click: too short to be a word.
    #expect(!SignalEvidence.holdsWord(room(0.1) + scaled(vowel(seconds: 0.05), dB: 6) + room(0.4), after: decided))
    // The room's noise alone, however long.
    #expect(!SignalEvidence.holdsWord(room(0.8), after: decided))
    // A word 45 dB under the decided one: another room's voice, not said to DirectMe.
    #expect(!SignalEvidence.holdsWord(room(0.1) + scaled(vowel(seconds: 0.3), dB: -33) + room(0.3), after: decided))
    #expect(!SignalEvidence.holdsWord([], after: decided))
    // The same through a microphone with a DC offset of a tenth of full scale: the offset
    // under every frame is no word, and does not hide one.
    let offset = { (samples: [Int16]) in samples.map { Int16(clamping: Int($0) + 3277) } }
    let decidedWithOffset = offset(decided)
    let softerWord = SignalEvidence.holdsWord(
      offset(room(0.1) + scaled(vowel(seconds: 0.3), dB: -10) + room(0.3)), after: decidedWithOffset)
    let roomAlone = SignalEvidence.holdsWord(offset(room(0.8)), after: decidedWithOffset)
    #expect(softerWord)
    #expect(!roomAlone)
  }

  @Test("a word's loud part lasts as long as its vowel; a click's, a frame or two, whatever the silence read with it")
  func loudDuration() {
    var random = Signal.Random(seed: 7)
    let room = { (seconds: Double) in Signal.whiteNoise(seconds, level: -60, random: &random) }
    // A 0.25-s vowel with 0.1 s of the room on each side: frames 10..<35 loud.
    let word = room(0.1) + scaled(vowel(seconds: 0.25), dB: 6) + room(0.1)
    let wordLoud = SignalEvidence.loudDuration(0..<45, of: Signal.frameEnergies(word, length: 160, floor: 1e-2, wholeFrames: true))
    #expect(wordLoud >= 0.22 && wordLoud <= 0.27)
    // A 30-ms click read with 0.3 s of the room as one word.
    let click = room(0.1) + scaled(vowel(seconds: 0.03), dB: 6) + room(0.3)
    #expect(SignalEvidence.loudDuration(0..<43, of: Signal.frameEnergies(click, length: 160, floor: 1e-2, wholeFrames: true)) <= 0.04)
    #expect(SignalEvidence.loudDuration(50..<60, of: [-60, -50]) == 0)
  }

  @Test("a loud part's longest unbroken run: a vowel's whole length; a train of clicks, one click's")
  func longestLoudRun() {
    var random = Signal.Random(seed: 7)
    let room = { (seconds: Double) in Signal.whiteNoise(seconds, level: -60, random: &random) }
    let energies = { (samples: [Int16]) in Signal.frameEnergies(samples, length: 160, floor: 1e-2, wholeFrames: true) }
    let word = room(0.1) + scaled(vowel(seconds: 0.25), dB: 6) + room(0.1)
    let wordRun = SignalEvidence.longestLoudRun(0..<45, of: energies(word))
    #expect(wordRun >= 0.22 && wordRun <= 0.27)
    // Four 10-ms clicks 60 ms apart: loud for 40 ms in all (`loudDuration`), never for more than
    // two frames at a time.
    var clicks = room(0.1)
    for _ in 0..<4 { clicks += scaled(vowel(seconds: 0.01), dB: 6) + room(0.05) }
    #expect(SignalEvidence.loudDuration(0..<34, of: energies(clicks)) >= 0.04)
    #expect(SignalEvidence.longestLoudRun(0..<34, of: energies(clicks)) <= 0.02)
    #expect(SignalEvidence.longestLoudRun(50..<60, of: [-60, -50]) == 0)
    #expect(SignalEvidence.longestLoudRun(0..<6, of: [-60, -20, -25, -60, -22, -28]) == 0.02)
  }

  @Test("any command word whose loud part falls away within 20 ms is refused as a click; a vowel's run, or none measured, passes")
  func clickRefused() {
    let gate = Detector.Gate(minimumVoiced: 0.03, minimumDynamicRange: 6)
    let evidence = SignalEvidence(voiced: 0.1, longestVoiced: 0.05, dynamicRange: 30, duration: 1)
    for command in ["up", "down", "left", "right"] {
      var word = WordSegment(word: command, start: 0.3, end: 0.6, margin: 30, voiced: 0.05, loud: 0.1)
      #expect(gate.passes(evidence, word: word))
      word.loudRun = Detector.Gate.briefestVowel - 0.01
      #expect(gate.refusal(evidence, word: word) == .unlikeVoice(.click))
      word.loudRun = Detector.Gate.briefestVowel
      #expect(gate.passes(evidence, word: word))
    }
    // The reason a user reads.
    #expect(Rejection.unlikeVoice(heard: ["up"], why: .click).reason.contains("click"))
  }

  @Test("a command word whose loud part comes in short pieces, the longest under a third of it, is refused as a clatter; a vowel's, or a longer piece, passes")
  func clatterRefused() {
    let gate = Detector.Gate(minimumVoiced: 0.03, minimumDynamicRange: 6)
    let evidence = SignalEvidence(voiced: 0.1, longestVoiced: 0.05, dynamicRange: 30, duration: 1)
    let bound = Detector.Gate.brokenLoudPart
    var word = WordSegment(word: "right", start: 0.3, end: 1.2, margin: 30, voiced: 0.05, loud: 0.3)
    word.loudRun = bound.longestRun
    #expect(gate.refusal(evidence, word: word) == .unlikeVoice(.clatter))
    // Most of it in one run: a vowel with a click beside it.
    word.loud = bound.longestRun / bound.share - 0.01
    #expect(gate.passes(evidence, word: word))
    // A piece longer than a click's, however broken the rest.
    word.loud = 0.5
    word.loudRun = bound.longestRun + 0.01
    #expect(gate.passes(evidence, word: word))
    #expect(Rejection.unlikeVoice(heard: ["right"], why: .clatter).reason.contains("pieces"))
  }

  @Test("a command word other words explain better needs a loud part as long as its vowel, and no longer over a quiet background; one that explains itself better does not")
  func loudPart() {
    let calibration = Detector.Calibration(slope: 0.05, intercept: 2, minimumDuration: 0.1, minimumLoud: 0.08, maximumLoud: 0.3)
    #expect(calibration.confidence(margin: -15, duration: 0.3, loud: 0.05) == 0)
    #expect(calibration.confidence(margin: -15, duration: 0.3, loud: 0.09) > 0.7)
    #expect(calibration.confidence(margin: 3, duration: 0.3, loud: 0.05) > 0.8)
    // A vowel longer than the word's: another word, where the background is quiet enough to tell.
    #expect(calibration.confidence(margin: -15, duration: 0.6, loud: 0.4, dynamicRange: 30) == 0)
    #expect(calibration.confidence(margin: -15, duration: 0.6, loud: 0.4, dynamicRange: 12) > 0.7)
    #expect(calibration.confidence(margin: -15, duration: 0.6, loud: 0.4) > 0.7)
    #expect(calibration.confidence(margin: 3, duration: 0.6, loud: 0.4, dynamicRange: 30) > 0.8)
    // One that explains itself better may hold its vowel a little longer, not a call's or a note's length.
    #expect(calibration.confidence(margin: 3, duration: 0.8, loud: 0.45, dynamicRange: 30) > 0.8)
    #expect(calibration.confidence(margin: 3, duration: 0.8, loud: 0.6, dynamicRange: 30) == 0)
    #expect(calibration.confidence(margin: 3, duration: 0.8, loud: 0.6, dynamicRange: 12) > 0.8)
    // Not measured (a word the listening pipeline did not look at): not asked.
    #expect(calibration.confidence(margin: -15, duration: 0.3) > 0.7)
    var unasked = calibration
    unasked.minimumLoud = nil
    unasked.maximumLoud = nil
    #expect(unasked.confidence(margin: -15, duration: 0.3, loud: 0.05) > 0.7)
    #expect(unasked.confidence(margin: -15, duration: 0.6, loud: 0.4, dynamicRange: 30) > 0.7)
    // A thump's loud part is too short for a vowel at any margin, asked or not.
    #expect(calibration.confidence(margin: 20, duration: 0.3, loud: 0.02) == 0)
    #expect(unasked.confidence(margin: 20, duration: 0.3, loud: 0.02) == 0)
    #expect(unasked.confidence(margin: 20, duration: 0.3, loud: Detector.Calibration.loudFloor) > 0.9)
    // A held note's or a roar's is too long for a command word's vowel, whatever the margin or background.
    #expect(unasked.confidence(margin: 20, duration: 1.2, loud: 0.9, dynamicRange: 12) == 0)
    #expect(unasked.confidence(margin: 20, duration: 1.2, loud: Detector.Calibration.loudCeiling, dynamicRange: 12) > 0.9)
    // Through the interpreter: the word's loud part as the listening pipeline measured it.
    let detector = Detector(
      calibrations: ["up": calibration], fallback: calibration, gate: .open, threshold: 0.6, rescueThreshold: 0.6)
    let interpreter = Interpreter(settings: InterpreterSettings(detector: detector))
    func result(loud: Double) -> RecognitionResult {
      let up = WordSegment(word: "up", start: 0, end: 0.3, score: -20, margin: -15, loud: loud)
      return RecognitionResult(transcriptions: [Transcription(segments: [up], score: -20)], start: 0, end: 1)
    }
    #expect(interpreter.interpret(result(loud: 0.04)).directions.isEmpty)
    #expect(interpreter.interpret(result(loud: 0.12)).directions == [.up])
  }

}
