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
  private var pending: [Int16] = []
  private var utteranceStart: Double?
  private var framesSincePartial = 0
  private var lastPartial: Transcription?

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
        samplesFed += pending.count
      }
      if let utterance = try endUtterance(cut: false) { events.append(.final(utterance)) }
    } else {
      samplesFed += pending.count
    }
    pending.removeAll()
    endpointer.reset()
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
      framesSincePartial = 0
      lastPartial = nil
      try recognizer.startUtterance()
      try recognizer.process(preRoll)
      return [.speechStarted(at: start)]
    case .inSpeech:
      try recognizer.process(frame)
      framesSincePartial += 1
      guard Double(framesSincePartial) * endpointer.settings.frameDuration >= partialInterval else { return [] }
      framesSincePartial = 0
      return partialEvent().map { [$0] } ?? []
    case .end(let cut):
      try recognizer.process(frame)
      return try endUtterance(cut: cut).map { [.final($0)] } ?? []
    }
  }

  private func partialEvent() -> ListenerEvent? {
    guard let start = utteranceStart, let partial = recognizer.partialResult() else { return nil }
    let shifted = partial.shifted(by: start)
    guard shifted.words != lastPartial?.words else { return nil }
    lastPartial = shifted
    return .partial(shifted, at: time)
  }

  private func endUtterance(cut: Bool) throws -> Utterance? {
    guard let start = utteranceStart else { return nil }
    utteranceStart = nil
    let result = try recognizer.endUtterance().shifted(by: start)
    let interpretation = interpreter.interpret(result)
    return Utterance(result: result, interpretation: interpretation, emittedAt: time, wasCut: cut)
  }
}
