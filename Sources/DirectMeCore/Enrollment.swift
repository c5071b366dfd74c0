/// Takes one utterance out of a stream of 10 ms chunks: from the pre-roll before speech
/// starts to the end of speech (the endpointer's silence), keeping `tail` seconds of the
/// silence after it, as `directme record` and `directme enroll` save it.
public struct UtteranceTaker: Sendable {
  public let settings: EndpointerSettings
  /// Seconds of the closing silence kept.
  public let tail: Double
  private var endpointer: Endpointer
  private var samples: [Int16] = []
  private var pending: [Int16] = []

  public init(settings: EndpointerSettings = .init(), tail: Double = 0.3) {
    self.settings = settings
    self.tail = tail
    endpointer = Endpointer(settings: settings)
  }

  /// Speech has started.
  public var isInSpeech: Bool { endpointer.inSpeech }

  /// Feeds audio; gives the utterance once it has ended (and starts over).
  public mutating func feed(_ chunk: [Int16]) -> [Int16]? {
    pending.append(contentsOf: chunk)
    let frame = settings.frameLength
    var offset = 0
    defer { pending.removeFirst(offset) }
    while pending.count - offset >= frame {
      let samples = Array(pending[offset..<offset + frame])
      offset += frame
      switch endpointer.process(samples) {
      case .silence:
        continue
      case .start(let preRoll):
        self.samples = preRoll
      case .inSpeech:
        self.samples.append(contentsOf: samples)
      case .end:
        self.samples.append(contentsOf: samples)
        // The endpointer ends after `endSilence` of quiet: keep `tail` of it.
        let extra = max(0, Int((settings.endSilence - tail) * Double(settings.sampleRate)))
        let utterance = Array(self.samples.dropLast(min(extra, self.samples.count)))
        self.samples = []
        return utterance
      }
    }
    return nil
  }

  /// Stops early: what was heard since speech started, if it started.
  public mutating func finish() -> [Int16]? {
    defer { samples = [] }
    return endpointer.inSpeech && !samples.isEmpty ? samples : nil
  }
}

/// Whether a take is worth keeping, and why not.
public enum TakeCheck {
  /// A reason to record the take again, or `nil` when it is fine.
  public static func problem(_ samples: [Int16], sampleRate: Int = 16_000) -> String? {
    let seconds = Double(samples.count) / Double(sampleRate)
    if seconds < 0.25 { return "too short (\(Int(seconds * 1000)) ms): say it again, a little slower" }
    let peak = samples.map { abs(Int($0)) }.max() ?? 0
    if peak < 600 { return "too quiet: come closer to the microphone or speak up" }
    let clipped = samples.filter { abs(Int($0)) >= 32_700 }.count
    if Double(clipped) > 0.002 * Double(samples.count) { return "too loud (clipped): move back a little or speak softer" }
    return nil
  }
}

/// What `directme enroll` asks the user to say: each command several times, a few carrier
/// phrases and sequences, and a few other phrases (so tuning learns what this user's other
/// speech sounds like).
public struct EnrollmentPlan: Hashable, Sendable {
  public struct Prompt: Hashable, Sendable {
    /// What the user reads.
    public var text: String
    /// The directions it holds (empty for other speech).
    public var expected: [Direction]
    /// A file name for its recording.
    public var name: String
  }

  public var prompts: [Prompt]

  public static let carrierPhrases = ["move left", "go up now", "please move the ninja down", "right", "down down right", "up. left."]
  public static let otherPhrases = [
    "good morning", "what time is it", "stop", "go", "off", "yes", "no", "open the door", "the weather is nice today",
    "turn on the light",
  ]

  /// `takes` of each command word, the carrier phrases once each, and the first `others` of
  /// the other phrases.
  public init(takes: Int = 3, carriers: Bool = true, others: Int = 6, vocabulary: Vocabulary = .standard) {
    var prompts: [Prompt] = []
    for take in 1...max(1, takes) {
      for direction in Direction.allCases {
        prompts.append(Prompt(text: direction.rawValue, expected: [direction], name: "\(direction.rawValue)-\(take)"))
      }
    }
    if carriers {
      for (index, phrase) in Self.carrierPhrases.enumerated() {
        let words = phrase.replacing(".", with: " ").split(separator: " ").map(String.init)
        let expected = words.compactMap { vocabulary.commands[$0] }
        prompts.append(Prompt(text: phrase, expected: expected, name: "phrase-\(index + 1)"))
      }
    }
    for (index, phrase) in Self.otherPhrases.prefix(max(0, others)).enumerated() {
      prompts.append(Prompt(text: phrase, expected: [], name: "other-\(index + 1)"))
    }
    self.prompts = prompts
  }
}
