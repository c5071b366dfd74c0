/// The streaming pipeline from audio to instructions, the same for the microphone and for
/// files: chunks of audio go in, the endpointer finds utterances, the recognizer decodes
/// them, the interpreter turns final results into instructions.
///
/// Time is stream time: the number of samples fed so far, in seconds.
public final class CommandListener {
  public let recognizer: any Recognizer
  public var interpreter: Interpreter
  public private(set) var endpointer: Endpointer
  /// How often (seconds of audio) to look for a new partial result.
  public var partialInterval: Double

  /// Samples fed so far.
  public private(set) var samplesFed = 0
  /// What the last final result cost: the recognizer's final pass and the interpreter,
  /// seconds of processor-clock time, for latency reports.
  public private(set) var lastFinalCost: (decode: Double, interpret: Double) = (0, 0)
  private var pending: [Int16] = []
  private var utteranceStart: Double?
  private var framesSincePartial = 0
  private var lastPartial: Transcription?
  /// An early decision was made in the current pause (none again until speech resumes).
  private var decidedInPause = false
  /// When (seconds into the utterance under way) an early decision was last tried
  /// (`decideEarly`): a word the streaming search ended before then has been looked at (see
  /// `decoderPause`).
  private var lastEarlyTry = -Double.infinity
  /// When (stream time) the final pass last read the audio so far early and nothing came of
  /// it (see `nothingVoicedSinceLooked`).
  private var lastFruitlessRead: Double?
  /// Whether the last utterance was cut out of a sound that never paused (see
  /// `SignalEvidence.endless`), and whether the one under way began in that sound, the
  /// endpointer having heard no pause since.
  private var lastWasCut = false
  private var beganInEndlessSound = false
  /// The instructions of the utterance under way emitted so far (by early decisions).
  private var committed: [Instruction] = []
  /// When (stream time) the word of the last instruction acted on early in the utterance ends.
  private var committedEnd: Double? { committed.map(\.end).max() }
  /// Whether speech came after the last early decision.
  private var speechSinceDecision = true
  /// When the last instruction emitted ended (stream time).
  private var lastInstructionEnd: Double?
  /// The audio of the utterance under way, for its signal evidence.
  private var heard = HeardAudio(sampleRate: 16_000)

  /// An utterance's samples and their pitch, measured as they come, without the microphone's
  /// DC offset: a cheap sound card's offset (a tenth of full scale) under every frame held
  /// the utterance's loud part within a few dB of its background and hid its pitch, and the
  /// gate refused 73% of the checking speakers' commands as holding no voice. (The decoder
  /// hears the audio as it came: blocking the offset there too perturbed every decode, see
  /// the stop-38 notes.)
  private struct HeardAudio {
    private(set) var samples: [Int16] = []
    /// Each whole 10 ms frame's energy (dBFS) above 150 Hz, like the endpointer's: a mains
    /// hum as loud as a quiet speaker (the checking clips' loud frames lie near -33 dBFS)
    /// held the loud part within a few dB of the background, and the gate refused 52 of
    /// the 355 commands as holding no voice (79.2% -> 89.9% right; every bench condition
    /// item for item unchanged).
    private(set) var energies: [Double] = []
    /// The same frames' energies in the speech band (`HighPassEnergy.speechBand`).
    private(set) var speechBandEnergies: [Double] = []
    private var pitch: PitchTracker
    private var dcBlocker = DCBlocker()
    private var aboveRumble = HighPassEnergy()
    private var speechBand = HighPassEnergy.speechBand()

    init(_ samples: [Int16] = [], sampleRate: Int) {
      pitch = PitchTracker(sampleRate: sampleRate)
      append(samples)
    }

    mutating func append(_ more: [Int16]) {
      let blocked = dcBlocker.filter(more)
      samples.append(contentsOf: blocked)
      pitch.append(blocked)
      energies += aboveRumble.frameEnergies(blocked)
      speechBandEnergies += speechBand.frameEnergies(blocked)
    }

    /// The pitch periods of its whole 10 ms frames (`SignalEvidence.pitchPeriods`).
    mutating func pitchPeriods() -> [Int] { pitch.periods() }
  }

  public init(
    recognizer: any Recognizer, interpreter: Interpreter = Interpreter(),
    endpointer: EndpointerSettings = .init(), partialInterval: Double = 0.1
  ) {
    self.recognizer = recognizer
    self.interpreter = interpreter
    self.endpointer = Endpointer(settings: endpointer)
    self.partialInterval = partialInterval
  }

  public var sampleRate: Int { endpointer.settings.sampleRate }
  /// Stream time in seconds.
  public var time: Double { Double(samplesFed) / Double(sampleRate) }
  /// Whether an utterance is under way.
  public var isInUtterance: Bool { utteranceStart != nil }

  /// Feeds the next chunk of 16 kHz mono audio; any length.
  public func feed(_ samples: [Int16]) throws -> [ListenerEvent] {
    pending.append(contentsOf: samples)
    let frameLength = endpointer.settings.frameLength
    var events: [ListenerEvent] = []
    var offset = 0
    while pending.count - offset >= frameLength {
      let frame = Array(pending[offset..<offset + frameLength])
      offset += frameLength
      try events.append(contentsOf: process(frame: frame))
    }
    pending.removeFirst(offset)
    return events
  }

  /// The stream ended: decodes what is left and ends any utterance under way.
  public func finish() throws -> [ListenerEvent] {
    var events: [ListenerEvent] = []
    if isInUtterance {
      if !pending.isEmpty {
        try recognizer.process(pending)
        heard.append(pending)
        samplesFed += pending.count
      }
      if let utterance = try endUtterance(cut: false) { events.append(.final(utterance)) }
    } else {
      samplesFed += pending.count
    }
    pending.removeAll()
    endpointer.reset()
    lastWasCut = false
    return events
  }

  private func process(frame: [Int16]) throws -> [ListenerEvent] {
    samplesFed += frame.count
    switch endpointer.process(frame) {
    case .silence:
      return []
    case .start(let preRoll):
      let start = max(0, time - Double(preRoll.count) / Double(sampleRate))
      utteranceStart = start
      lastEarlyTry = -.infinity
      lastFruitlessRead = nil
      framesSincePartial = 0
      lastPartial = nil
      decidedInPause = false
      beganInEndlessSound = lastWasCut
      committed = []
      speechSinceDecision = true
      try recognizer.startUtterance()
      try recognizer.process(preRoll)
      heard = HeardAudio(preRoll, sampleRate: sampleRate)
      return [.speechStarted(at: start)]
    case .inSpeech:
      try recognizer.process(frame)
      heard.append(frame)
      if endpointer.quietDuration == 0 {
        decidedInPause = false
        speechSinceDecision = true
      }
      if endpointer.quietDuration >= endpointer.settings.quickEndSilence, !decidedInPause,
        !committed.isEmpty || lastWordCompletesCommand()
      {
        // A command and a short pause: act on it now; the utterance may still go on. After
        // a command acted on, any word and a short pause are looked at: the streaming search
        // hears a softer next word, or one in another voice, as no command at all, and the
        // final pass alone finds it (see PocketSphinxRecognizer.finalPassOfUnsettled).
        decidedInPause = true
        if !nothingVoicedSinceLooked(), let utterance = try decideEarly() { return [.final(utterance)] }
      } else if framesSincePartial % Self.decoderPauseStride == 0, decoderPause() {
        if let utterance = try decideEarly(inNoiseOnly: true) { return [.final(utterance)] }
      }
      framesSincePartial += 1
      // After an early decision nothing is shown as heard until speech resumes: the reading so
      // far holds the words already acted on, and an utterance that ends without more speech
      // has no final result to clear it (the window kept showing "hearing: up ...").
      guard committed.isEmpty || speechSinceDecision else { return [] }
      guard Double(framesSincePartial) * endpointer.settings.frameDuration >= partialInterval else { return [] }
      framesSincePartial = 0
      return partialEvent().map { [$0] } ?? []
    case .end(let cut):
      try recognizer.process(frame)
      heard.append(frame)
      return try endUtterance(cut: cut, handingOver: endpointer.handedOver).map { [.final($0)] } ?? []
    }
  }

  /// Whether the best reading so far ends in a direction (or a word that may follow one,
  /// "now", "please"): then a short pause is the end of the command. After a lead word
  /// ("move", "go") the endpointer waits the full `endSilence` for the direction.
  private func lastWordCompletesCommand() -> Bool {
    guard let last = recognizer.partialResult()?.segments.last(where: { !$0.isFiller })?.word else { return false }
    return completesCommand(last)
  }

  private func completesCommand(_ word: String) -> Bool {
    interpreter.vocabulary.direction(of: word) != nil || Self.trailingWords.contains(word)
  }

  static let trailingWords: Set<String> = ["now", "please"]

  /// Whether an early decision now could act on nothing new: no voiced frame has been heard
  /// since the word of the last instruction acted on in the utterance ended, or since the final
  /// pass last read the audio so far and acted on nothing (from `unmeasuredPitch` before it),
  /// where the gate refuses every command word without one (as `cannotBeActedOn` asks of a
  /// whole utterance; measured on the audio as heard, where a mains hum can only add voiced
  /// frames). In a room's noise the endpointer's quiet is broken by the noise's louder frames
  /// again and again, and each quiet run of `quickEndSilence` asked the final pass about the
  /// same audio again: six times in 2 s of a bike's noise after a "left" acted on, and a word
  /// the final pass refused was read again at each, the streaming search still ending in it.
  /// Measured 2026-12-06 (stop 120), with the utterance's end likewise (`cannotBeActedOn`):
  /// `directme-bench accuracy` (17,722 items) and every stream-time latency of `directme-bench
  /// live` the same; seven of its 30-s recordings over room noise ran the final pass 96 -> 53
  /// times and replayed in 5.19-5.38 -> 3.13-3.26 s.
  private func nothingVoicedSinceLooked() -> Bool {
    guard unvoicedWordsAreRefused, let start = utteranceStart,
      let since = [committedEnd, lastFruitlessRead.map { $0 - Self.unmeasuredPitch }].compactMap({ $0 }).max()
    else { return false }
    return !anyVoiced(heard.pitchPeriods(), from: since, start: start)
  }

  /// The pitch tracker measures a frame once its 30-ms window and 14 ms of lag have been
  /// heard: a reading's last frames were still unvoiced to it (see `nothingVoicedSinceLooked`).
  static let unmeasuredPitch = 0.05

  /// Whether the streaming search's reading so far ends in a command word (or a word that may
  /// follow one, "now", "please") not yet looked at, followed by `quickEndSilence` or more of
  /// what it reads as silence: a pause as the decoder hears it. In a room's noise the
  /// endpointer's quiet is broken by the noise's louder frames (a running tap's 6-9 dB of
  /// spread), and a command said into it was acted on only when its utterance ended, 1-2 s
  /// later (`directme-bench live`'s commands over a room noise); the decoder reads the same
  /// stretch as silence after the word. The reading is looked at every `decoderPauseStride`
  /// frames, and the decision is made in noise only (`decideEarly(inNoiseOnly:)`).
  ///
  /// Measured 2026-12-06 (stop 119), against stop 118's build: `directme-bench live`, commands
  /// over a room noise p95 1,300 -> 598 ms (77 -> 79% within 250 ms), the sequences in a room's
  /// quiet the same; `directme-bench accuracy` (17,722 items) 7 gained, 4 lost: 6 commands in
  /// noise gained (room noise at 5 dB 70.4 -> 71.4%), 2 other words in noise, a deer's call and
  /// a reverberant "next now" moving the ninja; held out (`scripts/held-out.sh`), 3 sounds and
  /// other words more moving it and 1 command more right; live through PulseAudio, 5.8 -> 6.7% of
  /// a core in continuous speech (the reading looked at every 20 ms). Also taking a command followed by carrier words
  /// ("down and", "up go") as complete, for this pause and the endpointer's: 19 gained, 22 lost
  /// (alone 12 / 17: people's cries, clipped "eight"s, a checking speaker's extra "up"), not kept.
  /// Nor a word asked to stand 10 dB over the median of what the reading calls its pause: 5
  /// gained, 3 lost (the reverberant "next now" gone, but 2 "up"s in a bike's noise at 5 dB lost
  /// and the deer's call still taken).
  /// A first form, decided at every range but looking at the reading only while the endpointer
  /// heard some quiet: the sequences in a room's quiet p95 197 -> 213 ms, 7 gained and 6 lost
  /// (synthetic "what time is it" read "right", a sequence's last word lost), not kept.
  private func decoderPause() -> Bool {
    // (Not for an end-of-speech rule that waits as long for every word.)
    guard endpointer.settings.quickEndSilence < endpointer.settings.endSilence,
      let start = utteranceStart, let partial = recognizer.partialResult(),
      let word = partial.segments.last(where: { !$0.isFiller }), word.end > lastEarlyTry, completesCommand(word.word),
      let heardTo = partial.segments.last?.end, heardTo - word.end + 1e-9 >= endpointer.settings.quickEndSilence
    else { return false }
    // A word acted on already is not looked at again.
    return !committed.contains { min($0.end, start + word.end) - max($0.start, start + word.start) > 0 }
  }

  static let decoderPauseStride = 2

  private func partialEvent() -> ListenerEvent? {
    guard let start = utteranceStart, let partial = recognizer.partialResult() else { return nil }
    let shifted = partial.shifted(by: start)
    guard shifted.words != lastPartial?.words else { return nil }
    lastPartial = shifted
    return .partial(shifted, at: time)
  }

  /// Ends the utterance under way and decides on it. `handingOver`: the last seconds of it,
  /// a voice rising out of a bed of sound (`EndpointerSettings.riseAfter`), start the next
  /// utterance, which decides on them: a word reaching into them is left to it (the rise's
  /// onset read with the bed before it at the end of this one came out as a second, wrong
  /// command: "up left" for "left").
  private func endUtterance(cut: Bool, handingOver: Double? = nil) throws -> Utterance? {
    guard let start = utteranceStart else { return nil }
    utteranceStart = nil
    let endless = cut || beganInEndlessSound
    lastWasCut = cut
    if !committed.isEmpty && !speechSinceDecision {
      // Nothing was said since the early decision, which stands as the utterance's result.
      try recognizer.cancelUtterance()
      return nil
    }
    let clock = ContinuousClock()
    let decodeStart = clock.now
    let audio = measuredAudio()
    let decoded: RecognitionResult
    if cannotBeActedOn(audio, start: start) {
      try recognizer.cancelUtterance()
      // After words acted on early, what is left of the utterance begins where they end.
      let rest = committedEnd.map { $0 - start } ?? 0
      decoded = RecognitionResult(transcriptions: [], start: rest, end: time - start)
    } else {
      decoded = try recognizer.endUtterance()
    }
    var result = measured(decoded, start: start, endless: endless, audio: audio)
    if let handingOver {
      let handOver = time - handingOver
      for t in result.transcriptions.indices {
        result.transcriptions[t].segments.removeAll { !$0.isFiller && $0.end > handOver + 1e-9 }
      }
    }
    return decided(result, start: start, decodeStart: decodeStart, isEarly: false, cut: cut)
  }

  /// Decides on the audio so far of the utterance under way.
  /// (`inNoiseOnly`: not in an utterance ranging `earlyStandoutRange` or more, a room's quiet,
  /// where the endpointer hears the pauses.)
  private func decideEarly(inNoiseOnly: Bool = false) throws -> Utterance? {
    guard let start = utteranceStart else { return nil }
    lastEarlyTry = time - start
    let clock = ContinuousClock()
    let decodeStart = clock.now
    let audio = measuredAudio()
    if inNoiseOnly, SignalEvidence.dynamicRange(sortedEnergies: audio.energies.sorted()) >= Self.earlyStandoutRange { return nil }
    guard !cannotBeActedOn(audio, start: start), let soFar = try recognizer.resultSoFar() else { return nil }
    lastFruitlessRead = time
    let result = measured(soFar, start: start, endless: beganInEndlessSound, audio: audio)
    // Interpreted once: the rule below and the decision read the same instructions.
    let interpretStart = clock.now
    let interpretation = interpreter.interpret(result, lastCommandEnd: lastInstructionEnd)
    guard
      Self.mayDecideEarly(
        result, instructions: interpretation.instructions, vocabulary: interpreter.vocabulary, committed: committed,
        energies: audio.energies, start: start)
    else { return nil }
    let utterance = decided(
      result, interpreted: (interpretation, interpretStart), start: start, decodeStart: decodeStart, isEarly: true, cut: false)
    if utterance.interpretation.instructions.isEmpty { return nil }
    lastFruitlessRead = nil
    return utterance
  }

  /// Whether `result` (the audio so far of an utterance under way) may be acted on now: in an
  /// utterance ranging `earlyStandoutRange` dB or more (a room's quiet, not noise) and heard by
  /// the people's model (not routed to a synthetic voice's), each command word it would act on
  /// stands `earlyStandout` dB or more over the utterance's median level (measured as
  /// `WordSegment.standout` is, over the median given below); otherwise the utterance's end decides. A word said to the ninja
  /// in a quiet room stands far over the room; a cry, a grunt or an animal's call that the
  /// commands reading heard as "up" is most of its own utterance, and its reading over the
  /// sound so far is not the one its whole sound gets: of the dev sounds' instructions
  /// (`scripts/dev-sounds.sh`: people's cries, music, ambience) 47 of 60 came from early
  /// decisions, and the utterance's end refused 12 of the cries' 16. Measured 2026-12-05
  /// (stop 114): `directme-bench accuracy`, 17,722 items, 10 gained and 8 lost (people's cries
  /// 6.8 -> 5.8% moving the ninja, real sounds in a room 2.4 -> 2.0%; lost, 3 commands in a
  /// reverberant room and 3 of one speaker's sequences said without pauses, whose words stand
  /// less over their utterance); held out (`scripts/held-out.sh`), 10 sounds fewer moving the
  /// ninja (MegaGlest's death cries in a room 5.9 -> 4.3%), babble item for item the same,
  /// real ambience within a command; `directme-bench live`, real people's sequences 140 / 197
  /// ms (p50 / p95; 184 before), every command acted on as before. Synthetic voices are left
  /// out: their sequences' words run closer together, and asked of them the rule left 7 of 179
  /// commands to the utterance's end (p95 260 -> 871 ms). Asked at every range: the dev music
  /// and ambience gained too, but the bench lost commands over music and in continuous noise
  /// (31 gained, 26 lost).
  ///
  /// In noise (an utterance ranging under `earlyStandoutRange`), each command word it would act
  /// on needs a steady voiced run of `earlyVoicedInNoise`, twice the gate's `minimumVoiced`,
  /// even where the gate takes one voiced frame at the utterance's end (a clear margin, or a
  /// long utterance in a room's noise: `Gate.clearVoiced`): the audio so far ends in the middle
  /// of the noise, and one voiced frame of it read as "up" at a margin of -5 was read at -28
  /// once the utterance had ended (a hospital's ambience). See `earlyVoicedInNoise`.
  ///
  /// Each word is measured from its instruction's own time (a word rescued from an alternate
  /// too, which the first form let through unasked), over the median of the utterance less the
  /// other instructions' words: commands said without a pause fill their utterance, and each
  /// stands over the rest of it, not over its neighbours. A word already acted on early in the
  /// utterance is not asked again. Words the final pass did not weigh (no margin: the streaming
  /// search's reading alone) are not asked. Measured 2026-12-05 (stop 115) against the first
  /// form: `directme-bench accuracy`, 17,722 items, 3 gained and none lost (a sequence said
  /// without pauses, "left down left", whole again; a Spanish word and an 8 kHz "go" no longer
  /// moving the ninja); held out, MegaGlest's death cries 8.6 -> 8.0% and OpenClonk's other
  /// sounds 4.6 -> 4.2%, everything else the same.
  ///
  /// `instructions`: what `result` was interpreted as; `vocabulary`: the interpreter's, which
  /// knows its command words.
  static func mayDecideEarly(
    _ result: RecognitionResult, instructions: [Instruction], vocabulary: Vocabulary, committed: [Instruction] = [], energies: [Double],
    start: Double
  ) -> Bool {
    guard result.voiceModel == nil else { return true }
    let inQuiet = (result.signal?.dynamicRange ?? 0) >= earlyStandoutRange
    let weighed = (result.commandsReading ?? result.bestTranscription).segments.filter { $0.margin != nil }
    // Each instruction's frames, for the standout in a room's quiet (noise asks voicing alone).
    let spans = inQuiet ? instructions.map { WordSegment.frames(from: $0.start - start, to: $0.end - start) } : []
    return instructions.indices.allSatisfy { i in
      let instruction = instructions[i]
      if committed.contains(where: { sameWord($0, instruction) }) { return true }
      // A word the final pass did not weigh (the streaming search's reading alone) is not asked.
      let words = weighed.filter { min($0.end, instruction.end) > max($0.start, instruction.start) }
      guard !words.isEmpty else { return true }
      guard inQuiet else {
        return words.allSatisfy { vocabulary.direction(of: $0.word) == nil || ($0.voiced ?? .infinity) + 1e-9 >= earlyVoicedInNoise }
      }
      let elsewhere = energies.indices.filter { frame in !spans.indices.contains { $0 != i && spans[$0].contains(frame) } }
      let median = SignalEvidence.medianLevel(elsewhere.map { energies[$0] })
      return (SignalEvidence.standout(spans[i], of: energies, median: median) ?? .infinity) + 1e-9 >= earlyStandout
    }
  }

  /// The steady voiced run (seconds) an early decision in noise asks of each command word it
  /// acts on (see `mayDecideEarly`). Measured 2026-12-05 (stop 117), against stop 115's build:
  /// with the gate's 20 ms, `directme-bench accuracy` (17,722 items) every item the same, the
  /// dev sounds' music 5.5 -> 5.1% moving the ninja, the held-out ambience alone 3.7 -> 2.9%
  /// (the hospital's two recordings, where the rule was found: not a clean held-out figure);
  /// with 40 ms (chosen on the dev sounds, 30 ms: music 4.7%, ambience alone 7.6%), the bench 7
  /// items gained and 4 lost (other words and sounds no longer moving the ninja in noise, the
  /// dev set's "cat", a slower "go"; a kitchen's, a continuous bike's and a checking speaker's
  /// "up" and a reverberant "right" lost), the dev sounds' music 4.3% and ambience alone 7.6 ->
  /// 6.2%, held out the babble's other words 8.9 -> 8.8%, real ambience's 6.8 -> 6.6% (its
  /// commands 65.2 -> 65.0% right), OpenClonk's other sounds 4.2 -> 3.9%, every other set the
  /// same; `directme-bench live` over room noise 79 -> 77% within 250 ms (one command of 48
  /// left to its utterance's end; p50 / p95 140 / 1,300 ms as before), real people's and
  /// synthetic sequences in a room's quiet the same. Asked in a room's quiet too, real people's
  /// live p95 went 197 -> 547 ms with 20 ms: a creaky vowel in the audio so far holds its
  /// periods briefly, and the standout rule serves there.
  static let earlyVoicedInNoise = 0.04

  /// See `mayDecideEarly`.
  static let earlyStandout = 15.0
  static let earlyStandoutRange = 30.0

  /// Interprets `result`; after an early decision, the instructions already emitted are left
  /// out: an instruction is the same as an emitted one when their words share most of their
  /// time (a later reading may place word boundaries a little differently, or gain or lose
  /// a word before it).
  /// (`interpreted`: `result`'s interpretation and when it began, when interpreted already.)
  private func decided(
    _ result: RecognitionResult, interpreted: (Interpretation, started: ContinuousClock.Instant)? = nil, start: Double,
    decodeStart: ContinuousClock.Instant, isEarly: Bool, cut: Bool
  ) -> Utterance {
    let clock = ContinuousClock()
    let interpretStart = interpreted?.started ?? clock.now
    var interpretation = interpreted?.0 ?? interpreter.interpret(result, lastCommandEnd: lastInstructionEnd)
    let before = interpretation.instructions.count
    interpretation.instructions.removeAll { instruction in
      committed.contains { Self.sameWord($0, instruction) }
    }
    if before > 0 && interpretation.instructions.isEmpty && interpretation.rejection == nil {
      // Everything it holds was acted on early; say what the rest was.
      let last = committedEnd ?? 0
      let after = result.bestTranscription.segments.filter { !$0.isFiller && $0.start >= last - 0.05 }.map(\.word)
      interpretation.rejection = after.isEmpty ? .nothingHeard : .notACommand(heard: after)
    }
    lastFinalCost = ((interpretStart - decodeStart).seconds, (clock.now - interpretStart).seconds)
    if !interpretation.instructions.isEmpty {
      // What comes next is decided on its own.
      if isEarly { recognizer.settle(before: time - start) }
      committed += interpretation.instructions
      speechSinceDecision = false
      lastInstructionEnd = interpretation.lastCommandEnd(after: lastInstructionEnd)
    }
    return Utterance(result: result, interpretation: interpretation, emittedAt: time, wasCut: cut, isEarly: isEarly)
  }

  /// How far (10 ms frames) beyond a command word's ends its steady voiced run is looked for,
  /// into time its reading gives to silence or noise, not to another word: the decoder may
  /// give a short word's vowel to the silence before it and keep only its closure ("up" read
  /// over 0.28-0.39 s after a vowel at 0.18-0.30 s: no voicing in its time, refused as
  /// clatter at margin +6.7). Measured 2026-11-30 (stop 71, `directme-bench accuracy`, 11,197
  /// items, the same cache): 17 commands gained (checking speakers 95.5 -> 95.8%, room noise
  /// 20 / 10 / 5 dB 89.6 / 79.0 / 68.6 -> 90.1 / 79.7 / 69.6%, faster speech 92.2 -> 93.3%,
  /// overdriven and DC offset +0.6, babble 20 dB +0.5), 3 lost (a lower voice's "five" moving
  /// the ninja up, an extra "up" in a room's continuous noise, an extra "right" amid babble);
  /// 10 frames gained 3 more and lost 1 more; reaching 10 frames into other words' time as
  /// well, an "up" borrowed a neighbouring command's vowel and came with it 3 times more, and
  /// a reverberant "go" moved the ninja.
  static let voicingReach = 5
  /// Samples either side of a command word that `SoundClass.likeness` reads with it (the
  /// deltas of its first and last frames look two frames beyond them).
  static let likenessContext = 320

  /// The utterance's audio as its evidence is measured: each 10 ms frame's pitch period
  /// (0: unvoiced), energy and speech-band energy, and the samples themselves.
  private typealias MeasuredAudio = (periods: [Int], energies: [Double], speechBandEnergies: [Double], samples: [Int16])

  /// `heard` as `measured` reads it: without a mains hum under the voice, when it has one
  /// (see `MainsHum`): the hum's period is not the voice's.
  private func measuredAudio() -> MeasuredAudio {
    guard let hum = MainsHum.hum(in: heard.samples) else {
      return (heard.pitchPeriods(), heard.energies, heard.speechBandEnergies, heard.samples)
    }
    let removed = MainsHum.removed(heard.samples, hum: hum)
    var filter = HighPassEnergy()
    var band = HighPassEnergy.speechBand()
    return (SignalEvidence.pitchPeriods(removed), filter.frameEnergies(removed), band.frameEnergies(removed), removed)
  }

  /// Whether the utterance, measured as `audio`, need not be decoded: it holds no voiced
  /// frame (after the word of the last instruction acted on early in it, if any), and the
  /// detector's gate refuses every command word without one whatever its margin. (A running
  /// tap, a fan, rain: about a third of the utterances of the benchmark's continuous room
  /// noise and real ambience alone have no voiced frame; after a command acted on early in
  /// such noise, its utterance went on in the noise for a second or more.)
  private func cannotBeActedOn(_ audio: MeasuredAudio, start: Double) -> Bool {
    unvoicedWordsAreRefused && !anyVoiced(audio.periods, from: committedEnd, start: start)
  }

  /// Whether a command word without a voiced frame is refused whatever its margin: the
  /// recognizer's command words carry margins for the gate to weigh, and the gate asks a
  /// voiced frame of every one (`InterpreterSettings.refusesUnvoicedWords`).
  private var unvoicedWordsAreRefused: Bool { recognizer.weighsCommandWords && interpreter.settings.refusesUnvoicedWords }

  /// Whether any of the pitch `periods` of the utterance begun at `start` is voiced from the
  /// frame stream time `time` falls in (from the first frame when nil).
  private func anyVoiced(_ periods: [Int], from time: Double?, start: Double) -> Bool {
    let first = time.map { min(periods.count, max(0, Int((($0 - start) / endpointer.settings.frameDuration).rounded(.down)))) } ?? 0
    return periods[first...].contains { $0 > 0 }
  }

  /// `result` (times from the utterance's start) in stream time, with what the audio says:
  /// the utterance's signal evidence, and each command word's own voicing (over its time and
  /// `voicingReach` beyond it; none when the word is faint beside the utterance's loudest
  /// frame) and loud part.
  private func measured(_ result: RecognitionResult, start: Double, endless: Bool, audio: MeasuredAudio) -> RecognitionResult {
    var result = result
    let (periods, energies, speechBandEnergies, samples) = audio
    result.signal = SignalEvidence.measure(periods: periods, energies: energies)
    if endless { result.signal?.endless = true }
    let median = SignalEvidence.medianLevel(energies)
    for t in result.transcriptions.indices {
      for w in result.transcriptions[t].segments.indices where result.transcriptions[t].segments[w].margin != nil {
        let word = result.transcriptions[t].segments[w]
        // People's words only: the routed voices' model hears synthetic speech, which the
        // verifier did not learn.
        if let verifier = recognizer.wordVerifier, result.voiceModel == nil, let margin = word.margin, verifier.weighs(margin: margin),
          let p = verifier.probability(of: word.word, in: heard.samples, start: word.start, end: word.end)
        {
          result.transcriptions[t].segments[w].verified = p
          result.transcriptions[t].segments[w].margin = verifier.verifiedMargin(margin, probability: p)
        }
        let frames = word.frames
        let reach = result.transcriptions[t].voicingFrames(ofWordAt: w, reach: Self.voicingReach)
        result.transcriptions[t].segments[w].voiced =
          SignalEvidence.isAudible(frames, of: energies) ? SignalEvidence.longestVoicedRun(periods, in: reach) : 0
        result.transcriptions[t].segments[w].loud = SignalEvidence.loudDuration(frames, of: energies)
        result.transcriptions[t].segments[w].loudRun = SignalEvidence.longestLoudRun(frames, of: energies)
        result.transcriptions[t].segments[w].speechShare = SignalEvidence.speechShare(frames, of: energies, band: speechBandEnergies)
        result.transcriptions[t].segments[w].standout = SignalEvidence.standout(frames, of: energies, median: median)
        result.transcriptions[t].segments[w].toneShare = SignalEvidence.toneShare(frames, of: energies, samples: samples)
        result.transcriptions[t].segments[w].harmonicLead = SignalEvidence.harmonicLead(frames, of: energies, periods: periods, samples: samples)
        // People's words only, as for the verifier: the sound class's speech is people's.
        // Other voices than a personal model's owner: the sound class of the model for them.
        let soundClass = result.voice.map { $0.matches ? recognizer.soundClass : recognizer.otherVoicesSoundClass } ?? recognizer.soundClass
        if let soundClass, result.voiceModel == nil {
          result.transcriptions[t].segments[w].speechLikeness = soundClass.likeness(
            of: samples, from: frames.lowerBound * 160 - Self.likenessContext, to: frames.upperBound * 160 + Self.likenessContext)
        }
      }
    }
    return result.shifted(by: start)
  }

  /// Whether two instructions come from the same spoken word: the same direction, over
  /// at least half of the shorter one's time.
  static func sameWord(_ a: Instruction, _ b: Instruction) -> Bool {
    guard a.direction == b.direction else { return false }
    let overlap = min(a.end, b.end) - max(a.start, b.start)
    let shorter = min(a.end - a.start, b.end - b.start)
    return shorter > 0 ? overlap >= 0.5 * shorter : a.start == b.start
  }
}

extension Duration {
  /// The duration in seconds.
  public var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}
