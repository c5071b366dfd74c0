#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// The words that mean something to DirectMe.
public struct Vocabulary: Hashable, Sendable {
  /// Command words and the direction each stands for.
  public var commands: [String: Direction]
  /// Words allowed around commands and ignored ("move", "the ninja", "please").
  public var carriers: Set<String>

  public init(commands: [String: Direction], carriers: Set<String>) {
    self.commands = commands
    self.carriers = carriers
  }

  public static let standard = Vocabulary(
    commands: Dictionary(uniqueKeysWithValues: Direction.allCases.map { ($0.rawValue, $0) }),
    carriers: ["move", "go", "please", "now", "the", "ninja", "then", "and"]
  )

  public func direction(of word: String) -> Direction? { commands[word] }
  public func isCarrier(_ word: String) -> Bool { carriers.contains(word) }
}

/// A near-miss turned into a command: the best transcription heard a word that is not a
/// command, and a close alternate heard a command at the same time.
public struct Rescue: Hashable, Sendable, Codable {
  /// The word in the best transcription.
  public var heard: String
  /// The command taken from the alternate.
  public var taken: Direction
  /// Which transcription it came from (1 is the first alternate after the best).
  public var alternate: Int
  /// How far the alternate's score is below the best's (natural log, >= 0).
  public var scoreGap: Double

  public init(heard: String, taken: Direction, alternate: Int, scoreGap: Double) {
    self.heard = heard
    self.taken = taken
    self.alternate = alternate
    self.scoreGap = scoreGap
  }
}

/// One move for the ninja, with the word it came from.
public struct Instruction: Hashable, Sendable, Codable {
  public var direction: Direction
  /// The word as heard in the best transcription ("drown" when rescued to down).
  public var heard: String
  /// Where the word lies in the stream, in seconds.
  public var start: Double
  public var end: Double
  /// Set when the instruction came from an alternate.
  public var rescue: Rescue?
  /// How sure the detector was that the command was said, when it could say.
  public var confidence: Double?

  public init(
    direction: Direction, heard: String, start: Double, end: Double, rescue: Rescue? = nil, confidence: Double? = nil
  ) {
    self.direction = direction
    self.heard = heard
    self.start = start
    self.end = end
    self.rescue = rescue
    self.confidence = confidence
  }
}

/// Why an utterance moved nothing.
public enum Rejection: Hashable, Sendable, Codable {
  /// Nothing but silence or noise was recognized.
  case nothingHeard
  /// No word was recognized in audio that holds a voice (a steady pitch for 0.1 s or more):
  /// nothing in it came near enough to a command for the commands search to keep a reading.
  case noCommand
  /// The audio holds no voiced sound above its background: noise, clatter, a click.
  case noVoice
  /// The audio is voiced throughout (other voices, babble) and no voice stands out of it
  /// enough (`Detector.Gate.OverVoices`).
  case amidVoices
  /// The audio is a long stretch of sound without a pause (music, a television) and no
  /// command word stands out of it (`Detector.Gate.ContinuousSound`).
  case buried
  /// The command words heard have a voice's dynamics and voicing, but their sound is not a
  /// voice's (`Detector.Gate.unlikeVoice`): a drum, a cymbal, a ringing dish, a whistle.
  case unlikeVoice(heard: [String], why: Detector.Gate.UnlikeVoice)
  /// Words were recognized, none of them a command.
  case notACommand(heard: [String])
  /// Command words were recognized, but none with enough confidence.
  case lowConfidence(heard: [String], confidence: Double, threshold: Double)
  /// Commands were buried in too much other speech to be meant as commands.
  case tooMuchOtherSpeech(heard: [String], otherWords: Int, limit: Int)
  /// An unsure command word (`word`, at `confidence`) that the model the detector's model was
  /// adapted from hears as another command (`baseHeard`): the second opinion refused it.
  case overruled(heard: [String], word: String, confidence: Double, baseHeard: String)
  /// A command word (`word`) that one of its rivals (`rival`: a word people say that is not
  /// a command, "go" for "down") explains better alone (`Detector.rivals`).
  case rival(heard: [String], word: String, rival: String)

  /// A short human-readable reason.
  public var reason: String {
    switch self {
    case .nothingHeard:
      "nothing but silence or noise"
    case .noCommand:
      "no command heard in it"
    case .noVoice:
      "no voice in it (noise or clatter)"
    case .amidVoices:
      "no voice standing out of the voices around it (babble)"
    case .buried:
      "no word standing out of the sound around it (music, a television?)"
    case .unlikeVoice(let heard, let why):
      switch why {
      case .outsideSpeechBand:
        "\"\(heard.joined(separator: " "))\" is no voice's sound: its energy lies outside the speech band (a drum, a cymbal?)"
      case .pureTones:
        "\"\(heard.joined(separator: " "))\" is no voice's sound: its energy lies in a few pure tones (a ringing dish, a whistle, a bird?)"
      case .brief:
        "\"\(heard.joined(separator: " "))\" is no voice's sound: a brief sound, shorter than a vowel (a knock, a click?)"
      case .click:
        "\"\(heard.joined(separator: " "))\" is no voice's sound: its loud part falls away within 20 ms, shorter than any vowel (a key's click, a clack?)"
      case .clatter:
        "\"\(heard.joined(separator: " "))\" is no voice's sound: its loud part comes in pieces, none as long as a vowel (typing, a clatter?)"
      case .strained:
        "\"\(heard.joined(separator: " "))\" is no word's vowel: a high, strained voice with its energy in the first harmonic (a cry, a grunt?)"
      case .longAmidVoices:
        "\"\(heard.joined(separator: " "))\" holds its vowel too long for \"up\" amid other voices (another word: one, five, no?)"
      case .likeASound:
        "\"\(heard.joined(separator: " "))\" is no voice's sound: its spectrum is more like other sounds' than speech's (an animal, a drum, a cry?)"
      }
    case .notACommand(let heard):
      "not a command: \"\(heard.joined(separator: " "))\""
    case .lowConfidence(let heard, let confidence, let threshold):
      "not sure enough of \"\(heard.joined(separator: " "))\" (confidence \(confidence.formatted(digits: 2)) < \(threshold.formatted(digits: 2)))"
    case .tooMuchOtherSpeech(let heard, let other, let limit):
      "too much other speech around the command: \"\(heard.joined(separator: " "))\" (\(other) other words > \(limit))"
    case .overruled(_, let word, let confidence, let baseHeard):
      "second opinion: the base model hears \"\(baseHeard)\" where \"\(word)\" was heard (confidence \(confidence.formatted(digits: 2)))"
    case .rival(_, let word, let rival):
      "\"\(rival)\" fits it better than \"\(word)\" (a word people say that is not a command)"
    }
  }

  /// A stable machine-readable code.
  public var code: String {
    switch self {
    case .nothingHeard: "nothing-heard"
    case .noCommand: "no-command"
    case .noVoice: "no-voice"
    case .amidVoices: "amid-voices"
    case .buried: "buried"
    case .unlikeVoice: "unlike-voice"
    case .notACommand: "not-a-command"
    case .lowConfidence: "low-confidence"
    case .tooMuchOtherSpeech: "too-much-other-speech"
    case .overruled: "overruled"
    case .rival: "rival"
    }
  }
}

/// What an utterance means: the instructions taken from it, or why it was refused.
public struct Interpretation: Hashable, Sendable, Codable {
  public var instructions: [Instruction]
  public var rejection: Rejection?

  public init(instructions: [Instruction], rejection: Rejection? = nil) {
    self.instructions = instructions
    self.rejection = rejection
  }

  public var directions: [Direction] { instructions.map(\.direction) }
  public var rescues: [Rescue] { instructions.compactMap(\.rescue) }

  /// When the last command acted on ends (stream time), counting these instructions after
  /// `previous` (nil: none before): the next utterance's `lastCommandEnd`.
  public func lastCommandEnd(after previous: Double?) -> Double? {
    guard let end = instructions.map(\.end).max() else { return previous }
    return max(previous ?? end, end)
  }
}

/// Settings of the interpreter.
public struct InterpreterSettings: Hashable, Sendable {
  /// Turns the recognizer's margins into confidences and decides (learned by `directme tune`).
  public var detector: Detector
  /// How far (natural log) an alternate's score may lie below the best's for a near-miss
  /// in it to be rescued, for results without margins (a recognizer without the
  /// commands/other-words final pass).
  public var rescueMargin: Double
  /// How much of the shorter word two words must share in time to be counterparts.
  public var minimumOverlap: Double
  /// Overrides the detector's threshold: command words less sure than this are dropped
  /// (`nil`: the detector's own).
  public var minimumConfidence: Double?
  /// An utterance with more words than this that are neither commands nor carriers is
  /// refused as a whole (`nil`: no limit).
  public var maximumOtherWords: Int?
  /// With a personal model: the detector of the model other voices are decoded with (their
  /// utterances are decided as that model decides them; see `VoiceProfile`).
  public var otherVoices: Detector?
  /// A command word spoken within a phrase (a carrier word right before or after it, with no
  /// pause between: "go up now") needs only this share of the detector's minimum duration:
  /// words said on the way are shorter than words said alone, and a word beside another
  /// word is not a click or a breath.
  public var phraseDurationShare = 0.6

  public init(
    detector: Detector = .untrained, rescueMargin: Double = 2.0, minimumOverlap: Double = 0.5,
    minimumConfidence: Double? = nil, maximumOtherWords: Int? = nil, otherVoices: Detector? = nil
  ) {
    self.detector = detector
    self.otherVoices = otherVoices
    self.rescueMargin = rescueMargin
    self.minimumOverlap = minimumOverlap
    self.minimumConfidence = minimumConfidence
    self.maximumOtherWords = maximumOtherWords
  }

  /// The confidence a command needs.
  public var threshold: Double { minimumConfidence ?? detector.threshold }
  /// The confidence a near-miss's command needs to be rescued.
  public var rescueThreshold: Double { min(detector.rescueThreshold, threshold) }
  /// The confidence a command needs beside a sure one in the same utterance.
  public var companionThreshold: Double { min(detector.companionThreshold ?? threshold, threshold) }
  /// Whether every command word without a voiced frame is refused, by whichever detector
  /// decides (`Detector.Gate.refusesUnvoicedWords`): the gate gives it confidence 0, which
  /// acts only at a threshold of 0 (a command's, a rescue's or a companion's).
  public var refusesUnvoicedWords: Bool {
    detector.gate.refusesUnvoicedWords && otherVoices.map(\.gate.refusesUnvoicedWords) != false
      && min(threshold, rescueThreshold, companionThreshold) > 0
  }
}

/// Turns final recognition results into instructions for the ninja.
public struct Interpreter: Sendable {
  public var vocabulary: Vocabulary
  public var settings: InterpreterSettings

  /// An utterance read as no word at all whose steady voiced run lasts this long (seconds)
  /// held a voice: it is refused as holding no command, not as silence or noise.
  static let voiceWithoutWords = 0.1

  public init(vocabulary: Vocabulary = .standard, settings: InterpreterSettings = .init()) {
    self.vocabulary = vocabulary
    self.settings = settings
  }

  /// The instructions in each of a recording's utterances (in order), each read after the
  /// commands of the ones before it (`interpret(_:lastCommandEnd:)`), as the listening pipeline does.
  public func interpret(_ results: [RecognitionResult]) -> [Interpretation] {
    var lastCommandEnd: Double?
    return results.map { result in
      let interpretation = interpret(result, lastCommandEnd: lastCommandEnd)
      lastCommandEnd = interpretation.lastCommandEnd(after: lastCommandEnd)
      return interpretation
    }
  }

  /// The instructions in `result`, in the order spoken, with near-misses rescued from the
  /// alternates, or the reason it moves nothing.
  ///
  /// When the recognizer decoded commands and other words apart (its command words carry
  /// margins), each command word of the commands reading is taken when the detector is sure
  /// enough of it, or when it is nearly sure enough and the other-words reading heard a
  /// near-miss of it there. Otherwise the best transcription is read as it stands.
  ///
  /// `lastCommandEnd` is when the last command acted on before this utterance ended (stream
  /// time): a command word starting `companionPause` to `companionWindow` after it is taken as
  /// a companion, as beside a sure command in the same utterance ("left. up." said with a pause).
  public func interpret(_ result: RecognitionResult, lastCommandEnd: Double? = nil) -> Interpretation {
    if let voice = result.voice, !voice.matches, let other = settings.otherVoices {
      var forOthers = self
      forOthers.settings.detector = other
      forOthers.settings.otherVoices = nil
      return forOthers.interpret(result, lastCommandEnd: lastCommandEnd)
    }
    let reading = result.commandsReading ?? result.bestTranscription
    let spoken = reading.segments.filter { !$0.isFiller }
    guard !spoken.isEmpty else {
      let voiced = (result.signal?.longestVoiced ?? 0) >= Self.voiceWithoutWords
      return Interpretation(instructions: [], rejection: voiced ? .noCommand : .nothingHeard)
    }
    let detector = settings.detector
    var voiced = false

    var instructions: [Instruction] = []
    var unsure: [(word: String, confidence: Double, overruledBy: Overrule?)] = []
    var companions: [Instruction] = []
    var otherWords = 0
    for (index, segment) in spoken.enumerated() {
      if let direction = vocabulary.direction(of: segment.word) {
        let passes = detector.gate.passes(result.signal, word: segment)
        voiced = voiced || passes
        let assessed = assess(wordAt: index, in: spoken, result: result)
        let confidence = assessed.confidence
        guard let confidence, confidence < settings.threshold else {
          instructions.append(
            Instruction(
              direction: direction, heard: segment.word, start: segment.start, end: segment.end, confidence: confidence))
          continue
        }
        if segment.margin != nil, confidence >= settings.rescueThreshold,
          let (index, nearMiss) = nearMiss(of: segment, in: result, excluding: reading)
        {
          let gap = max(0, nearMiss.score - segment.score)
          instructions.append(
            Instruction(
              direction: direction, heard: nearMiss.word, start: segment.start, end: segment.end,
              rescue: Rescue(heard: nearMiss.word, taken: direction, alternate: index, scoreGap: gap),
              confidence: confidence))
          continue
        }
        if segment.margin != nil, confidence >= settings.companionThreshold, segment.readElsewhere != true {
          companions.append(
            Instruction(
              direction: direction, heard: segment.word, start: segment.start, end: segment.end, confidence: confidence))
        }
        // Overruled only when sure enough without the second opinion or the rival; otherwise,
        // too unsure.
        let overruled = assessed.detected >= settings.threshold ? assessed.overruledBy : nil
        unsure.append((segment.word, assessed.detected, overruled))
      } else if vocabulary.isCarrier(segment.word) {
        continue
      } else if result.commandsReading == nil, let rescue = rescue(segment, in: result) {
        instructions.append(
          Instruction(
            direction: rescue.taken, heard: segment.word, start: segment.start, end: segment.end,
            rescue: rescue))
      } else {
        otherWords += 1
      }
    }

    if instructions.contains(where: { $0.rescue == nil }) && !companions.isEmpty {
      // A companion stands apart from the commands beside it by a pause, as one after a command
      // acted on before this utterance does.
      let sure = instructions
      let apart = companions.filter { companion in
        sure.allSatisfy { $0.end + Self.companionPause <= companion.start || companion.end + Self.companionPause <= $0.start }
      }
      instructions = (instructions + apart).sorted { $0.start < $1.start }
    } else if var last = lastCommandEnd {
      // Each companion must follow the command before it after such a pause.
      for companion in companions where (Self.companionPause...Self.companionWindow).contains(companion.start - last) {
        instructions.append(companion)
        last = companion.end
      }
      instructions.sort { $0.start < $1.start }
    }
    let heard = spoken.map(\.word)
    if let limit = settings.maximumOtherWords, otherWords > limit, !instructions.isEmpty {
      return Interpretation(
        instructions: [], rejection: .tooMuchOtherSpeech(heard: heard, otherWords: otherWords, limit: limit))
    }
    if instructions.isEmpty {
      if result.commandsReading != nil && !voiced {
        let refusals = spoken.filter { vocabulary.direction(of: $0.word) != nil }
          .compactMap { detector.gate.refusal(result.signal, word: $0) }
        // Voiced enough, but none standing out of the sound it lies in.
        if refusals.contains(.buried) { return Interpretation(instructions: [], rejection: .buried) }
        // Voiced and standing out, but not a voice's sound.
        for case .unlikeVoice(let why) in refusals {
          return Interpretation(instructions: [], rejection: .unlikeVoice(heard: heard, why: why))
        }
        let rejection: Rejection = detector.gate.isAmidVoices(result.signal) ? .amidVoices : .noVoice
        return Interpretation(instructions: [], rejection: rejection)
      }
      if let most = unsure.max(by: { $0.confidence < $1.confidence }) {
        switch most.overruledBy {
        case .base(let baseHeard)?:
          return Interpretation(
            instructions: [],
            rejection: .overruled(heard: heard, word: most.word, confidence: most.confidence, baseHeard: baseHeard))
        case .rival(let rival)?:
          return Interpretation(instructions: [], rejection: .rival(heard: heard, word: most.word, rival: rival))
        case nil:
          break
        }
        return Interpretation(
          instructions: [],
          rejection: .lowConfidence(heard: heard, confidence: most.confidence, threshold: settings.threshold))
      }
      return Interpretation(instructions: [], rejection: .notACommand(heard: heard))
    }
    return Interpretation(instructions: instructions)
  }

  /// How sure the detector is of the command word at `index` of `spoken` (the non-filler
  /// words of `result`'s commands reading): its margin calibrated with its weighed duration;
  /// 0 when the word holds no voice. Without a margin, the recognizer's own confidence, if any.
  public func confidence(ofWordAt index: Int, in spoken: [WordSegment], result: RecognitionResult) -> Double? {
    assess(wordAt: index, in: spoken, result: result).confidence
  }

  /// What refused a command word its calibration would take: the base model's second
  /// opinion, hearing another command, or a rival of the word (`Detector.rivals`).
  private enum Overrule {
    case base(String)
    case rival(String)
  }

  /// The command word at `index`'s confidence (as `confidence(ofWordAt:in:result:)`), and when
  /// the base model's second opinion or a rival overrules it (confidence 0): the calibrated
  /// confidence it had (`detected`) and what overruled it (`overruledBy`).
  private func assess(
    wordAt index: Int, in spoken: [WordSegment], result: RecognitionResult
  ) -> (confidence: Double?, detected: Double, overruledBy: Overrule?) {
    let segment = spoken[index]
    guard let margin = segment.margin else { return (segment.confidence, segment.confidence ?? 0, nil) }
    let detector = settings.detector
    guard detector.gate.passes(result.signal, word: segment) else { return (0, 0, nil) }
    let confidence = detector.calibration(for: segment.word).confidence(
      margin: margin, duration: weighedDuration(index, of: spoken, signal: result.signal), loud: segment.loud, dynamicRange: result.signal?.dynamicRange)
    // The model it was adapted from hears another command there: refused.
    if let second = detector.secondOpinion, !second.stands(segment, confidence: confidence, signal: result.signal) {
      return (0, confidence, segment.secondOpinion.map { .base($0.word) })
    }
    // One of its rivals, a word said that is not a command, explains its stretch better.
    if let rival = detector.rival(of: segment) { return (0, confidence, .rival(rival)) }
    return (confidence, confidence, nil)
  }

  /// Whether the word at `index` has a carrier word right before or after it (`joinedGap`).
  /// Conjunctions do not count: noise heard as commands comes joined by them ("right and
  /// right" in babble).
  public func isInPhrase(_ index: Int, of words: [WordSegment]) -> Bool {
    Self.runsInto(index, of: words) { vocabulary.isCarrier($0.word) && !Self.conjunctions.contains($0.word) }
  }

  /// Whether the word at `index` runs into another command word (`joinedGap`): commands said
  /// one after another without pauses, each shorter than alone (the final pass splits such
  /// words only when each is a syllable of its own, see `FinalPass.fluentWords`).
  public func isInSequence(_ index: Int, of words: [WordSegment]) -> Bool {
    Self.runsInto(index, of: words) { vocabulary.direction(of: $0.word) != nil }
  }

  /// Two words this close (seconds) are said as one run.
  static let joinedGap = 0.03

  /// Whether a word right before or after the word at `index` (within `joinedGap`) is one `kind` takes.
  private static func runsInto(_ index: Int, of words: [WordSegment], where kind: (WordSegment) -> Bool) -> Bool {
    let word = words[index]
    if index > 0, kind(words[index - 1]), word.start - words[index - 1].end <= joinedGap { return true }
    if index + 1 < words.count, kind(words[index + 1]), words[index + 1].start - word.end <= joinedGap { return true }
    return false
  }

  /// The margin a command word running into another needs to weigh its duration as within a
  /// phrase: heard better as the command than as any other word. Babble read as two command
  /// words without a pause ("up right" for a "right" at 10 dB) gave its extra word a margin
  /// of -12 to -2; commands said without pauses by synthetic voices, 7 and more.
  public static let sequenceMargin = 0.0

  /// The words that join commands ("left then right", "up and down").
  public static let conjunctions: Set<String> = ["and", "then"]

  /// A command word starting this soon (seconds) after the end of a command acted on is a
  /// companion of it (`InterpreterSettings.companionThreshold`): people pause 200-400 ms
  /// between the commands of a sequence.
  public static let companionWindow = 1.0
  /// ...and at least this long after it: a word starting as the command ends is more often
  /// its own tail or a noise read as a word (a "left" clip's last 0.2 s read "up" at 0.60;
  /// a "right" in babble followed at once by a "down" at 0.42) than a command said after a pause.
  public static let companionPause = 0.1

  /// The duration the detector weighs for the word at `index` of `words` (the non-filler
  /// words of a reading): its own, lengthened within a phrase (`phraseDurationShare`) or a
  /// sequence said without pauses (`isInSequence`, with a margin of `sequenceMargin`), and so
  /// for a word with a clear margin (`Detector.Gate.clearMargin`): the decoder may give part
  /// of a short, clearly heard "up" to the silence around it; and so for every word of an
  /// utterance said in a room's noise (`signal`, the utterance's evidence; see
  /// `Detector.Gate.isInRoomNoise`).
  public func weighedDuration(_ index: Int, of words: [WordSegment], signal: SignalEvidence?) -> Double {
    let word = words[index]
    let inSequence = isInSequence(index, of: words) && (word.margin ?? -.infinity) >= Self.sequenceMargin
    let gate = settings.detector.gate
    let lengthened = isInPhrase(index, of: words) || inSequence || gate.isClear(word.margin) || gate.isInRoomNoise(signal)
    return lengthened ? word.duration / settings.phraseDurationShare : word.duration
  }

  /// A word of another reading, at the same time as `segment`, that sounds like it.
  func nearMiss(of segment: WordSegment, in result: RecognitionResult, excluding reading: Transcription) -> (Int, WordSegment)? {
    for (index, transcription) in result.transcriptions.enumerated() where transcription != reading {
      if let counterpart = counterpart(of: segment, in: transcription), counterpart.soundsLike == segment.word {
        return (index, counterpart)
      }
    }
    return nil
  }

  /// The first close alternate that heard a command where the best heard `segment` (results
  /// without margins).
  func rescue(_ segment: WordSegment, in result: RecognitionResult) -> Rescue? {
    let bestScore = result.bestTranscription.score
    for (index, alternate) in result.transcriptions.enumerated().dropFirst() {
      let gap = bestScore - alternate.score
      guard gap <= settings.rescueMargin else { continue }
      guard let counterpart = counterpart(of: segment, in: alternate),
        let direction = vocabulary.direction(of: counterpart.word)
      else { continue }
      if let confidence = counterpart.confidence, confidence < settings.threshold {
        continue
      }
      return Rescue(heard: segment.word, taken: direction, alternate: index, scoreGap: max(0, gap))
    }
    return nil
  }

  /// The word of `transcription` that shares the most time with `segment`, if it shares enough.
  func counterpart(of segment: WordSegment, in transcription: Transcription) -> WordSegment? {
    var bestMatch: WordSegment?
    var bestOverlap = 0.0
    for candidate in transcription.segments where !candidate.isFiller {
      let overlap = candidate.overlap(with: segment)
      if overlap > bestOverlap {
        bestOverlap = overlap
        bestMatch = candidate
      }
    }
    guard let match = bestMatch else { return nil }
    let shorter = min(match.duration, segment.duration)
    guard shorter > 0, bestOverlap / shorter >= settings.minimumOverlap else { return nil }
    return match
  }
}

extension Int {
  /// This count with its noun, singular for one ("1 bad line", "2 bad lines"); `plural`
  /// when adding an "s" does not make it.
  public func counting(_ noun: String, plural: String? = nil) -> String {
    "\(self) \(self == 1 ? noun : plural ?? noun + "s")"
  }
}

extension Double {
  /// This number with `digits` digits after the point ("0.50").
  public func formatted(digits: Int) -> String {
    String(printf: "%.\(digits)f", self)
  }
}
