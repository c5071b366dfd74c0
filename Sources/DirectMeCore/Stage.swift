/// Everything the window shows at one moment. Pure data: the display adapter draws it.
public struct Scene: Hashable, Sendable {
  public var spritePosition: Point
  public var isListening: Bool
  /// The best reading of the utterance under way.
  public var partial: String
  /// The last final transcript and what became of it.
  public var lastTranscript: String
  public var lastInstructions: [Direction]
  /// Near-misses taken as commands in the last utterance ("drown -> down").
  public var rescues: [String]
  /// Why the last utterance moved nothing, if it did not.
  public var rejection: String?
  /// A problem to show (the microphone is lost, ...).
  public var status: String?
  /// Input level 0...1, when known.
  public var level: Double?
  /// What the user is asked to say (recording and enrolling), shown instead of the hint.
  public var prompt: String?

  public init(
    spritePosition: Point, isListening: Bool = false, partial: String = "", lastTranscript: String = "",
    lastInstructions: [Direction] = [], rescues: [String] = [], rejection: String? = nil,
    status: String? = nil, level: Double? = nil, prompt: String? = nil
  ) {
    self.spritePosition = spritePosition
    self.isListening = isListening
    self.partial = partial
    self.lastTranscript = lastTranscript
    self.lastInstructions = lastInstructions
    self.rescues = rescues
    self.rejection = rejection
    self.status = status
    self.level = level
    self.prompt = prompt
  }

  /// Whether `other` draws the same pixels: the same texts and the ninja on the same whole
  /// pixel (the window rounds its position).
  public func looksLike(_ other: Scene) -> Bool {
    var rounded = other
    rounded.spritePosition = spritePosition
    return rounded == self && spritePosition.x.rounded() == other.spritePosition.x.rounded()
      && spritePosition.y.rounded() == other.spritePosition.y.rounded()
  }
}

/// The state of the DirectMe window: the ninja's animation and the texts around it, driven
/// by listener events. Pure: time is given.
public struct Stage: Sendable {
  public private(set) var animator: Animator
  public private(set) var isListening: Bool
  public private(set) var partial = ""
  public private(set) var lastUtterance: Utterance?
  /// The directions acted on in the last utterance: an early result's and those its
  /// continuation added ("move left. up." shows "left up", not just "up").
  public private(set) var utteranceDirections: [Direction] = []
  /// What was heard of the last utterance: each early result's reading and the rest's.
  public private(set) var utteranceTranscript = ""
  public var status: String?
  public var level: Double?
  public var prompt: String?

  public init(animator: Animator, isListening: Bool = false) {
    self.animator = animator
    self.isListening = isListening
  }

  public mutating func setListening(_ listening: Bool) {
    isListening = listening
    if !listening { partial = "" }
  }

  /// Applies an event from the listener at `time` (the animation's clock); returns the
  /// keyframes it queued.
  @discardableResult
  public mutating func apply(_ event: ListenerEvent, at time: Double) -> [Keyframe] {
    switch event {
    case .speechStarted:
      partial = ""
      return []
    case .partial(let transcription, _):
      partial = transcription.formattedString
      return []
    case .final(let utterance):
      partial = ""
      // After an early decision the utterance goes on: its rest starts no later than that
      // decision was made (a new utterance starts after the early one's ended).
      let continues = lastUtterance.map { $0.isEarly && utterance.result.start <= $0.emittedAt + 1e-6 } ?? false
      utteranceDirections = (continues ? utteranceDirections : []) + utterance.interpretation.directions
      // What was acted on, not the other words' reading that scored higher.
      let heard = utterance.result.shownReading(acted: !utterance.interpretation.instructions.isEmpty).formattedString
      utteranceTranscript = continues ? [utteranceTranscript, heard].filter { !$0.isEmpty }.joined(separator: " ") : heard
      lastUtterance = utterance
      return utterance.interpretation.instructions.map { animator.enqueue($0.direction, at: time) }
    }
  }

  /// What to draw at `time`.
  public func scene(at time: Double) -> Scene {
    let interpretation = lastUtterance?.interpretation
    return Scene(
      spritePosition: animator.position(at: time),
      isListening: isListening,
      partial: partial,
      lastTranscript: utteranceTranscript,
      lastInstructions: utteranceDirections,
      rescues: interpretation?.rescues.map { "\($0.heard) -> \($0.taken.rawValue)" } ?? [],
      // Nothing new at the end of an utterance that already moved the ninja is no rejection.
      rejection: utteranceDirections.isEmpty ? interpretation?.rejection?.reason : nil,
      status: status,
      level: level,
      prompt: prompt)
  }

  /// Whether frames must keep coming at `time` (the sprite is moving).
  public func isAnimating(at time: Double) -> Bool {
    animator.isAnimating(at: time)
  }
}
