/// A word the recognizer heard, with where it lies in the stream.
///
/// The counterpart of `SFTranscriptionSegment` on iOS.
public struct WordSegment: Hashable, Sendable, Codable {
  /// The word as spelled in the grammar (pronunciation variants folded: "read(2)" is "read").
  public var word: String
  /// Start and end in seconds of stream time.
  public var start: Double
  public var end: Double
  /// The word's score in the decoder's log domain (natural log; higher is better).
  public var score: Double
  /// How sure the recognizer is of this word, 0...1, when it can say.
  public var confidence: Double?
  /// For a command word of the commands reading: how much better (natural log) it explains
  /// its stretch of audio than the other-words reading does there. The detector turns it
  /// into a confidence.
  public var margin: Double?
  /// For a word of the other-words reading that sounds like a command (a phone or so apart,
  /// "drown" for "down"): that command word.
  public var soundsLike: String?
  /// For a command word of the commands reading: the longest steady voiced run within its
  /// time or a little beyond it into silence (`Transcription.voicingFrames`), seconds (every
  /// command word holds a vowel). Set by the listening pipeline.
  public var voiced: Double?
  /// For a command word of the commands reading: how long its sound stays within
  /// `SignalEvidence.loudSpan` of its loudest frame, seconds (a vowel's length; a click's or
  /// a lip smack's is a few frames). Set by the listening pipeline.
  public var loud: Double?
  /// For a command word of the commands reading: the longest run of consecutive frames of
  /// its loud part, seconds (`SignalEvidence.longestLoudRun`; `Detector.Gate.briefestVowel`).
  /// Set by the listening pipeline.
  public var loudRun: Double?
  /// For a command word of the commands reading: the share of its loud part's energy in the
  /// speech band, 200-3,400 Hz (`SignalEvidence.speechShare`; `Detector.Gate.minimumSpeechShare`).
  /// Set by the listening pipeline.
  public var speechShare: Double?
  /// For a command word of the commands reading: the share of its loud part's speech-band
  /// energy in three sharp spectral peaks (`SignalEvidence.toneShare`): a ringing dish's or a
  /// whistle's partials, not a voice's harmonics. Set by the listening pipeline.
  public var toneShare: Double?
  /// For a command word of the commands reading: its voiced loud frames' median pitch (Hz)
  /// and how far (dB) their first harmonic stands over their fourth, the median over those
  /// frames (`SignalEvidence.harmonicLead`). Set by the listening pipeline.
  public var harmonicLead: HarmonicLead?
  /// For a command word of the commands reading: how far (dB) its loud frames stand above
  /// the utterance's median level (`SignalEvidence.standout`); in a long stretch of sound
  /// without pauses (music, a television) a word said to DirectMe stands out of it
  /// (`Detector.Gate.ContinuousSound`). Set by the listening pipeline.
  public var standout: Double?
  /// For a command word of the commands reading: how likely the model's word verifier
  /// (`WordVerifier`) found its stretch to be this word; its margin includes that opinion.
  /// Set by the listening pipeline.
  public var verified: Double?
  /// For a command word of the commands reading: how much more like speech than like other
  /// sounds its loud frames are (`SoundClass.likeness`; `Detector.Gate.minimumSpeechLikeness`).
  /// Set by the listening pipeline when the model has a sound class.
  public var speechLikeness: Double?
  /// For a command word of the commands reading, when the recognizer asked a second model
  /// (`RecognizerConfiguration.secondOpinion`): the command word that model hears in the
  /// same stretch of audio, and its margin there.
  public var secondOpinion: SecondOpinion?
  /// For a command word of the commands reading: read where its utterance is loudest, not
  /// where the reading placed it, amid other voices (the recognizer's `loudestIsland`): taken
  /// on its own confidence only, never as a companion of another command (a weak reading of
  /// the louder sound beside a command found elsewhere in the same second of voices).
  public var readElsewhere: Bool?
  /// For a lone command word of the commands reading (no carriers, not one of several
  /// command words run together): the one word the other-words search read over its stretch,
  /// when it read one alone (`Detector.rivals`). Set by the final pass.
  public var otherWord: String?

  /// A second acoustic model's reading of a command word's stretch (see `Detector.SecondOpinion`).
  public struct SecondOpinion: Hashable, Sendable, Codable {
    public var word: String
    public var margin: Double
    public init(word: String, margin: Double) {
      self.word = word
      self.margin = margin
    }
  }

  public init(
    word: String, start: Double, end: Double, score: Double = 0, confidence: Double? = nil, margin: Double? = nil,
    soundsLike: String? = nil, voiced: Double? = nil, loud: Double? = nil
  ) {
    self.word = word
    self.start = start
    self.end = end
    self.score = score
    self.confidence = confidence
    self.margin = margin
    self.soundsLike = soundsLike
    self.voiced = voiced
    self.loud = loud
  }

  public var duration: Double { end - start }

  /// The 10 ms frames the segment's time covers, partial frames at either end included.
  public var frames: Range<Int> { Self.frames(from: start, to: end) }

  /// The 10 ms frames from `start` to `end` seconds, partial frames at either end included
  /// (none when `end` comes before `start`).
  public static func frames(from start: Double, to end: Double) -> Range<Int> {
    let first = Int((start * 100).rounded(.down))
    return first..<max(first, Int((end * 100).rounded(.up)))
  }

  /// Silence and noise markers ("<sil>", "[NOISE]", "+SPN+", "<s>") are not words anyone said.
  public var isFiller: Bool { Self.isFiller(word) }

  public static func isFiller(_ word: String) -> Bool {
    guard let first = word.first else { return true }
    // "(NULL)" marks a null transition in grammar lattices.
    return first == "<" || first == "[" || first == "+" || first == "("
  }

  /// Seconds this segment shares with `other`.
  public func overlap(with other: WordSegment) -> Double {
    max(0, min(end, other.end) - max(start, other.start))
  }

  /// This segment moved by `offset` seconds.
  public func shifted(by offset: Double) -> WordSegment {
    var copy = self
    copy.start += offset
    copy.end += offset
    return copy
  }
}

/// One reading of an utterance: its words in order and the path score.
///
/// The counterpart of `SFTranscription` on iOS.
public struct Transcription: Hashable, Sendable, Codable {
  public var segments: [WordSegment]
  /// The whole path's score in the decoder's log domain (natural log; higher is better).
  public var score: Double

  public init(segments: [WordSegment], score: Double) {
    self.segments = segments
    self.score = score
  }

  /// The words said, fillers left out, separated by spaces.
  public var formattedString: String {
    words.joined(separator: " ")
  }

  /// The words said, fillers left out.
  public var words: [String] {
    segments.filter { !$0.isFiller }.map(\.word)
  }

  public func shifted(by offset: Double) -> Transcription {
    Transcription(segments: segments.map { $0.shifted(by: offset) }, score: score)
  }
}

/// What the recognizer made of one utterance once it ended.
///
/// The counterpart of a final `SFSpeechRecognitionResult`: the best transcription first,
/// then the alternates (n-best), best to worst.
public struct RecognitionResult: Hashable, Sendable, Codable {
  public var transcriptions: [Transcription]
  /// Where the utterance lies in the stream, in seconds.
  public var start: Double
  public var end: Double
  /// Posterior probability of the best transcription, 0...1, when the recognizer can say.
  public var confidence: Double?
  /// What the audio says by itself (voicing, loudness over its background), for the
  /// detector's gate; set by the listening pipeline.
  public var signal: SignalEvidence?
  /// With a personal model: whether the utterance was in its owner's voice (decoded with the
  /// personal model) or not (decoded with the model for other voices).
  public var voice: VoiceMatch?
  /// The voices whose own model decoded the utterance, when not the model's (`VoiceRouting`).
  public var voiceModel: String?
  /// Whether people's model for a narrowband link decoded the utterance
  /// (`VoiceRouting.peopleNarrowbandModel`); heard as people's otherwise.
  public var narrowbandModel: Bool
  /// How the final pass's front end was warped (`VoiceWarp`), when it was.
  public var warp: VoiceWarp.FrontEndWarp?

  public init(
    transcriptions: [Transcription], start: Double, end: Double, confidence: Double? = nil, signal: SignalEvidence? = nil,
    voice: VoiceMatch? = nil, voiceModel: String? = nil, narrowbandModel: Bool = false, warp: VoiceWarp.FrontEndWarp? = nil
  ) {
    self.transcriptions = transcriptions
    self.start = start
    self.end = end
    self.confidence = confidence
    self.signal = signal
    self.voice = voice
    self.voiceModel = voiceModel
    self.narrowbandModel = narrowbandModel
    self.warp = warp
  }

  /// The reading that holds the commands and their margins, when the recognizer decoded
  /// with commands and other words apart.
  public var commandsReading: Transcription? {
    commandsReadingIndex.map { transcriptions[$0] }
  }

  /// Where `commandsReading` is among `transcriptions` (best score first: an alternate when
  /// the other words' reading scored higher, even if a command was acted on).
  public var commandsReadingIndex: Int? {
    transcriptions.firstIndex { $0.segments.contains { $0.margin != nil } }
  }

  /// The reading to show as heard: the commands reading when a command was acted on (the
  /// other words' reading may have scored higher: "of" shown while the ninja went up), else
  /// the best one.
  public func shownReading(acted: Bool) -> Transcription {
    acted ? commandsReading ?? bestTranscription : bestTranscription
  }

  /// The best transcription; empty when nothing was recognized.
  public var bestTranscription: Transcription {
    transcriptions.first ?? Transcription(segments: [], score: 0)
  }

  /// The alternates after the best one.
  public var alternates: ArraySlice<Transcription> {
    transcriptions.dropFirst()
  }

  public func shifted(by offset: Double) -> RecognitionResult {
    RecognitionResult(
      transcriptions: transcriptions.map { $0.shifted(by: offset) },
      start: start + offset, end: end + offset, confidence: confidence, signal: signal, voice: voice,
      voiceModel: voiceModel, narrowbandModel: narrowbandModel, warp: warp)
  }
}

extension Transcription {
  /// The 10 ms frames in which the word at `index` is looked for its voicing: its own time,
  /// widened by up to `reach` frames at each end as far as the nearest other word (silence
  /// and noise markers do not count: the decoder may have given them the word's vowel).
  public func voicingFrames(ofWordAt index: Int, reach: Int) -> Range<Int> {
    let word = segments[index]
    let own = word.frames
    let others = segments.indices.filter { $0 != index && !segments[$0].isFiller }.map { segments[$0] }
    let before = others.filter { $0.end <= word.start + 1e-9 }.map(\.frames.upperBound).max() ?? 0
    let after = others.filter { $0.start >= word.end - 1e-9 }.map(\.frames.lowerBound).min() ?? .max
    let lower = min(own.lowerBound, max(0, before, own.lowerBound - reach))
    let upper = max(own.upperBound, min(after, own.upperBound + reach))
    return lower..<upper
  }

  /// The score of the part of this reading between `start` and `end` (seconds), each
  /// segment's score spread evenly over its time.
  public func score(from start: Double, to end: Double) -> Double {
    var total = 0.0
    for segment in segments where segment.duration > 0 {
      let overlap = max(0, min(end, segment.end) - max(start, segment.start))
      total += segment.score * overlap / segment.duration
    }
    return total
  }

  /// This reading with each of `words` given its margin over `others`: its own score minus
  /// what `others` scores over the same stretch of time. Both readings must be scored
  /// comparably (all senones computed in every frame, so a frame scores the same in both).
  public func withMargins(over others: Transcription, for words: Set<String>) -> Transcription {
    var copy = self
    for index in copy.segments.indices where words.contains(copy.segments[index].word) {
      let segment = copy.segments[index]
      copy.segments[index].margin = segment.score - others.score(from: segment.start, to: segment.end)
    }
    return copy
  }
}

/// A word's pitch and the lead of its first harmonic over its fourth (see
/// `SignalEvidence.harmonicLead`).
public struct HarmonicLead: Hashable, Sendable, Codable {
  /// Median pitch of the voiced loud frames, Hz.
  public var pitch: Double
  /// Median of the first harmonic's level less the fourth's over those frames, dB.
  public var lead: Double

  public init(pitch: Double, lead: Double) {
    self.pitch = pitch
    self.lead = lead
  }
}
