/// A speech recognizer that decodes one utterance at a time, streamed in small chunks of
/// 16 kHz mono 16-bit audio. Times in its results are seconds from the utterance's start.
///
/// The PocketSphinx adapter implements it; tests can drive the pipeline with a fake.
public protocol Recognizer: AnyObject {
  /// Begins a new utterance.
  func startUtterance() throws
  /// Decodes more audio of the current utterance.
  func process(_ samples: [Int16]) throws
  /// The best reading so far, while the utterance goes on.
  func partialResult() -> Transcription?
  /// Ends the utterance and gives what was recognized: the best transcription and the
  /// alternates.
  func endUtterance() throws -> RecognitionResult
  /// The final result of the audio so far, while the utterance goes on (`nil`: not
  /// supported, the listener then decides only at the end of the utterance).
  func resultSoFar() throws -> RecognitionResult?
  /// The audio of the current utterance before `time` (seconds from its start) is decided:
  /// an early decision acted on it. Later results hold only words after it (they may still
  /// decode some of the audio before it, as context).
  func settle(before time: Double)
  /// Ends the utterance without a result (its early decisions stand).
  func cancelUtterance() throws
  /// Forgets what was learned of the channel (cepstral means), as for a new speaker or file,
  /// so that results do not depend on what was decoded before.
  func resetAdaptation()
  /// The discriminative judge of command words that goes with the recognizer's model, if any
  /// (`WordVerifier`): the listener adds its opinion to each command word's margin.
  var wordVerifier: WordVerifier? { get }
  /// Speech against other sounds, for the model (`SoundClass`), if it has one.
  var soundClass: SoundClass? { get }
  /// With a personal model's voice check: the sound class of the model that decides other
  /// voices, for their utterances (`RecognitionResult.voice` not the owner's).
  var otherVoicesSoundClass: SoundClass? { get }
  /// Whether its results' command words carry margins that the detector weighs (a final
  /// pass). Only then does the gate refuse every command word of an utterance without a
  /// voiced frame, and the listener need not decode such an utterance at all.
  var weighsCommandWords: Bool { get }
}

extension Recognizer {
  public func resetAdaptation() {}
  public var wordVerifier: WordVerifier? { nil }
  public var soundClass: SoundClass? { nil }
  public var otherVoicesSoundClass: SoundClass? { nil }
  public var weighsCommandWords: Bool { false }
  public func resultSoFar() throws -> RecognitionResult? { nil }
  public func settle(before time: Double) {}
  public func cancelUtterance() throws { _ = try endUtterance() }
}

/// The final word on one utterance: what was recognized, what it means, and when (in
/// stream time) the pipeline said so.
public struct Utterance: Hashable, Sendable, Codable {
  public var result: RecognitionResult
  public var interpretation: Interpretation
  /// Stream time (seconds) at which the final result and its instructions were emitted.
  public var emittedAt: Double
  /// The utterance was cut at the maximum length instead of ending in silence.
  public var wasCut: Bool
  /// Decided at a short pause after a command, before the end of speech was certain. If
  /// speech goes on, a later `Utterance` with the same start covers the whole utterance and
  /// carries only the instructions spoken after this one was emitted.
  public var isEarly: Bool

  public init(
    result: RecognitionResult, interpretation: Interpretation, emittedAt: Double, wasCut: Bool = false,
    isEarly: Bool = false
  ) {
    self.result = result
    self.interpretation = interpretation
    self.emittedAt = emittedAt
    self.wasCut = wasCut
    self.isEarly = isEarly
  }
}

/// What the listening pipeline reports as audio flows through it.
public enum ListenerEvent: Hashable, Sendable {
  /// Speech began at this stream time.
  case speechStarted(at: Double)
  /// The best reading so far changed.
  case partial(Transcription, at: Double)
  /// An utterance ended: its result, interpretation and instructions.
  case final(Utterance)
}
