import Foundation
import Testing

@testable import DirectMeCore

/// 10 ms frames of a sine (speech stand-in) or low noise (silence).
func frames(_ kind: String, count: Int, amplitude: Double = 8000, seed: inout UInt64) -> [[Int16]] {
  (0..<count).map { frameIndex in
    (0..<160).map { n in
      let t = Double(frameIndex * 160 + n) / 16000
      seed = seed &* 6364136223846793005 &+ 1442695040888963407
      let noise = Double(Int64(bitPattern: seed) >> 40) / Double(1 << 23) * 30
      switch kind {
      case "tone": return Int16(clamping: Int(amplitude * sin(2 * .pi * 440 * t) + noise))
      default: return Int16(clamping: Int(noise))
      }
    }
  }
}

@Suite("Endpointer")
struct EndpointerTests {
  @Test("finds the start and end of a burst of sound, with pre-roll")
  func startAndEnd() throws {
    var seed: UInt64 = 1
    let input = frames("quiet", count: 50, seed: &seed) + frames("tone", count: 40, seed: &seed)
      + frames("quiet", count: 80, seed: &seed)
    var endpointer = Endpointer(settings: EndpointerSettings(endSilence: 0.3, preRoll: 0.2))
    var decisions: [(Int, EndpointDecision)] = []
    for (index, frame) in input.enumerated() {
      let decision = endpointer.process(frame)
      if decision != .silence && decision != .inSpeech { decisions.append((index, decision)) }
    }
    try #require(decisions.count == 2)
    // Starts once the tone has lasted the minimum (3 frames), with 20 + 3 frames of audio.
    #expect(decisions[0].0 == 52)
    if case .start(let preRoll) = decisions[0].1 {
      #expect(preRoll.count == 23 * 160)
    } else {
      Issue.record("expected a start, got \(decisions[0].1)")
    }
    // Ends after 30 quiet frames following the tone (which stops at frame 90; frame 90
    // still holds the high-pass filter's ringing).
    #expect(decisions[1].0 == 91 + 29)
    #expect(decisions[1].1 == .end(cut: false))
  }

  @Test("a click shorter than the minimum speech is ignored")
  func clicks() {
    var seed: UInt64 = 2
    // 10 ms of sound, and the filter's ringing in the next frame: 20 ms, under 30.
    let input = frames("quiet", count: 30, seed: &seed) + frames("tone", count: 1, seed: &seed)
      + frames("quiet", count: 30, seed: &seed)
    var endpointer = Endpointer()
    #expect(input.allSatisfy { endpointer.process($0) == .silence })
  }

  @Test("endless sound is cut at the maximum length, and the floor rises to it")
  func maximumLength() {
    var seed: UInt64 = 3
    let input = frames("quiet", count: 10, seed: &seed) + frames("tone", count: 300, seed: &seed)
    var endpointer = Endpointer(settings: EndpointerSettings(maximumUtterance: 1.0))
    let decisions = input.map { endpointer.process($0) }
    #expect(decisions.contains(.end(cut: true)))
    let cutIndex = decisions.firstIndex(of: .end(cut: true))!
    // The tone does not start a new utterance at once: it is now the background.
    #expect(decisions[(cutIndex + 1)...].prefix(50).allSatisfy { $0 == .silence })
  }

  @Test("speech from the very first frame is found")
  func speechAtStart() {
    var seed: UInt64 = 4
    let input = frames("tone", count: 30, seed: &seed) + frames("quiet", count: 80, seed: &seed)
    var endpointer = Endpointer()
    let decisions = input.map { endpointer.process($0) }
    #expect(decisions.firstIndex { if case .start = $0 { true } else { false } } == 2)
    #expect(decisions.contains(.end(cut: false)))
  }

  /// 10 ms frames of white noise of `noise` amplitude, with a voice-like sound (200 Hz and its
  /// harmonics, falling 6 dB an octave) of `level` from frame `from` to frame `to`.
  private func hissy(count: Int, noise: Double, voice level: Double, from: Int, to: Int) -> [[Int16]] {
    var random = Signal.Random(seed: 9)
    return (0..<count).map { frame in
      (0..<160).map { n in
        let t = Double(frame * 160 + n) / 16000
        var value = Double.random(in: -noise...noise, using: &random)
        if frame >= from && frame < to {
          for harmonic in 1...10 { value += level / Double(harmonic) * sin(2 * .pi * 200 * Double(harmonic) * t) }
        }
        return Int16(clamping: Int(value))
      }
    }
  }

  @Test("a voice 12 dB above hiss starts an utterance (pre-emphasis tilted it below the hiss)")
  func voiceInHiss() {
    // Hiss of RMS 81 (-52 dBFS, just under the highest starting floor); the voice's RMS 325.
    let input = hissy(count: 200, noise: 140, voice: 370, from: 100, to: 150)
    var endpointer = Endpointer()
    let decisions = input.map { endpointer.process($0) }
    let start = decisions.firstIndex { if case .start = $0 { true } else { false } }
    #expect(start.map { $0 >= 100 && $0 < 110 } == true, "started at \(String(describing: start))")
  }

  @Test("a 50 Hz hum swelling to 20 dB above the room's hiss starts nothing")
  func humIsNoSpeech() {
    var random = Signal.Random(seed: 11)
    let input: [[Int16]] = (0..<300).map { frame in
      // Hiss of RMS 170 (-46 dBFS) and a hum that swells to RMS 1800 (-25 dBFS) every second.
      let swell = 200 + 2400 * max(0, sin(2 * .pi * Double(frame) / 100))
      return (0..<160).map { n in
        let t = Double(frame * 160 + n) / 16000
        return Int16(clamping: Int(swell * sin(2 * .pi * 50 * t) + Double.random(in: -300...300, using: &random)))
      }
    }
    var endpointer = Endpointer()
    #expect(input.allSatisfy { endpointer.process($0) == .silence })
  }

  @Test("a faint tail 30 dB under the word is a pause for the early decision, not the end of the utterance")
  func faintTailIsAPause() {
    var seed: UInt64 = 5
    // A loud tone, then the same tone 36 dB down (well above the floor's 6 dB margin), then quiet.
    let input = frames("quiet", count: 30, seed: &seed) + frames("tone", count: 30, seed: &seed)
      + frames("tone", count: 60, amplitude: 125, seed: &seed) + frames("quiet", count: 60, seed: &seed)
    var endpointer = Endpointer()
    var pauseDuringTail = 0.0
    var endedDuringTail = false
    for (index, frame) in input.enumerated() {
      let decision = endpointer.process(frame)
      if index >= 60 && index < 120 {
        pauseDuringTail = max(pauseDuringTail, endpointer.quietDuration)
        if case .end = decision { endedDuringTail = true }
      }
    }
    #expect(pauseDuringTail >= 0.5, "the tail counted as a pause for \(pauseDuringTail) s")
    #expect(!endedDuringTail)
    // With the depth set past the tail, the tail is speech going on.
    var deep = Endpointer(settings: EndpointerSettings(pauseDepth: 60))
    var deepPause = 0.0
    for (index, frame) in input.enumerated() {
      _ = deep.process(frame)
      if index >= 62 && index < 120 { deepPause = max(deepPause, deep.quietDuration) }
    }
    #expect(deepPause == 0)
  }

  @Test("a room's steady noise there from the start ends its utterance, and a voice in it later is an utterance of its own")
  func steadyNoiseFromTheStart() {
    // Hiss of RMS 1700 (-26 dBFS, far above the highest starting floor) from the first
    // frame; a voice about 14 dB over it from 3 s to 3.5 s.
    let input = hissy(count: 600, noise: 3000, voice: 10_000, from: 300, to: 350)
    let events = boundaries(of: input)
    // The hiss starts an utterance at once (the floor's first guess is -50 dBFS), which ends
    // once 1.5 s of it proved steady, not at the 10-s limit.
    #expect(events.first.map { if case .start = $0.1 { $0.0 < 10 } else { false } } == true, "\(events)")
    #expect(events.dropFirst().first.map { $0.1 == .end(cut: true) && $0.0 >= 150 && $0.0 <= 200 } == true, "\(events)")
    // The voice starts the next one and ends it.
    let starts = events.filter { if case .start = $0.1 { true } else { false } }.map(\.0)
    #expect(starts.count == 2 && starts.last.map { $0 >= 300 && $0 < 310 } == true, "\(events)")
    #expect(events.last.map { $0.1 == .end(cut: false) && $0.0 > 350 && $0.0 < 450 } == true, "\(events)")
    // Off, the hiss runs on as one utterance.
    var off = Endpointer(settings: EndpointerSettings(steadyWindow: 0))
    #expect(!input.map { off.process($0) }.contains { $0 == .end(cut: true) || $0 == .end(cut: false) })
  }

  @Test("speech rising and falling for 3 s without a pause is not taken for a steady noise")
  func longSpeechIsNotSteady() {
    var seed: UInt64 = 6
    // Syllables: 150 ms of a tone, 50 ms of it 20 dB down (a consonant), over and over.
    var input = frames("quiet", count: 30, seed: &seed)
    for _ in 0..<15 {
      input += frames("tone", count: 15, seed: &seed) + frames("tone", count: 5, amplitude: 800, seed: &seed)
    }
    input += frames("quiet", count: 80, seed: &seed)
    var endpointer = Endpointer()
    let decisions = input.map { endpointer.process($0) }
    #expect(!decisions.contains(.end(cut: true)))
    #expect(decisions.count { $0 == .end(cut: false) } == 1)
  }

  @Test("in a noise the floor has learned, whose frames spread wider than the floor's margin, an utterance ends once the noise has held steady")
  func learnedNoiseEndsUtterance() {
    var random = Signal.Random(seed: 12)
    // Hiss whose level wanders +-3.5 dB from frame to frame (a running tap), about -35 dBFS;
    // a voice-like tone 15 dB over it from 5 s to 5.5 s; 6 s of the hiss after it.
    let input: [[Int16]] = (0..<1150).map { frame in
      let gain = pow(10, Double.random(in: -3.5...3.5, using: &random) / 20)
      return (0..<160).map { n in
        let t = Double(frame * 160 + n) / 16000
        var value = Double.random(in: -1000...1000, using: &random) * gain
        if frame >= 500 && frame < 550 { value += 5_000 * sin(2 * .pi * 300 * t) }
        return Int16(clamping: Int(value))
      }
    }
    let events = boundaries(of: input)
    // The voice's utterance starts with it and ends within 2 s of it.
    let voice = events.firstIndex { $0.0 >= 500 && $0.0 < 510 && $0.1 == .start(preRoll: []) }
    #expect(voice != nil, "\(events)")
    if let voice {
      #expect(events.dropFirst(voice + 1).first.map { $0.0 < 750 } == true, "\(events)")
    }
  }

  @Test("a voice rising out of a bed of other sound starts an utterance of its own, which ends once the sound is back at the bed")
  func riseOutOfABed() {
    let input = bedOfSound(frames: 800, voiceFrom: 400, to: 450)
    var endpointer = Endpointer()
    var events: [(Int, EndpointDecision, Double?)] = []
    for (index, frame) in input.enumerated() {
      let decision = endpointer.process(frame)
      if case .start = decision { events.append((index, .start(preRoll: []), nil)) }
      if case .end = decision { events.append((index, decision, endpointer.handedOver)) }
    }
    // The bed wanders 10 dB (never steady, never paused): one utterance from the first frame,
    // cut within 0.1 s of the voice's onset; the rise's first frames are handed over.
    let cut = events.firstIndex { $0.0 >= 400 && $0.1 == .end(cut: true) }
    #expect(cut.map { events[$0].0 <= 410 } == true, "\(events.map { ($0.0, $0.1) })")
    guard let cut, cut + 2 < events.count else { return }
    #expect(events[cut].2.map { $0 >= 0.05 && $0 <= 0.1 } == true, "\(events[cut])")
    #expect(!events[..<cut].contains { $0.0 > 0 && $0.0 < 400 && $0.1 != .start(preRoll: []) }, "no boundary before the voice")
    // The voice's utterance starts with the next frame and ends within 0.6 s of the voice's end.
    #expect(events[cut + 1].0 == events[cut].0 + 1 && events[cut + 1].1 == .start(preRoll: []))
    #expect(events[cut + 2].1 == .end(cut: true) && events[cut + 2].0 > 450 && events[cut + 2].0 < 510, "\(events[cut + 2])")
    // Off, the voice lies inside the bed's utterance.
    var off = Endpointer(settings: EndpointerSettings(riseAfter: 0))
    #expect(!input[..<600].map { off.process($0) }.contains { $0 == .end(cut: true) || $0 == .end(cut: false) })
  }

  @Test("one speaker's syllables for 3 s are no bed: no rise cuts them")
  func syllablesAreNoBed() {
    var seed: UInt64 = 8
    // Syllables at three loudnesses, each with a consonant 20 dB down: a sentence said on.
    var input = frames("quiet", count: 30, seed: &seed)
    for index in 0..<15 {
      input += frames("tone", count: 15, amplitude: [3000, 9000, 27_000][index % 3], seed: &seed)
      input += frames("tone", count: 5, amplitude: 300, seed: &seed)
    }
    input += frames("quiet", count: 80, seed: &seed)
    var endpointer = Endpointer()
    let decisions = input.map { endpointer.process($0) }
    #expect(!decisions.contains(.end(cut: true)))
    #expect(decisions.count { $0 == .end(cut: false) } == 1)
  }

  /// `frames` of a bed of sound about -35 dBFS whose level wanders +-5 dB from frame to
  /// frame (other voices, a clattering room), with a voice-like tone 15 dB over it over
  /// `voiceFrom..<to`.
  func bedOfSound(frames count: Int, voiceFrom: Int, to: Int) -> [[Int16]] {
    var random = Signal.Random(seed: 21)
    return (0..<count).map { frame in
      let gain = pow(10, Double.random(in: -5...5, using: &random) / 20)
      return (0..<160).map { n in
        let t = Double(frame * 160 + n) / 16000
        var value = Double.random(in: -1000...1000, using: &random) * gain
        if frame >= voiceFrom && frame < to { value += 5_000 * sin(2 * .pi * 300 * t) }
        return Int16(clamping: Int(value))
      }
    }
  }

  /// Where utterances start and end in `input` (frame index, decision; starts without
  /// their pre-roll).
  private func boundaries(of input: [[Int16]]) -> [(Int, EndpointDecision)] {
    var endpointer = Endpointer()
    var events: [(Int, EndpointDecision)] = []
    for (index, frame) in input.enumerated() {
      let decision = endpointer.process(frame)
      if case .start = decision { events.append((index, .start(preRoll: []))) }
      if case .end = decision { events.append((index, decision)) }
    }
    return events
  }
}
