/// Everything the pipeline made of one audio stream (a file, a saved session).
public struct StreamResult: Hashable, Sendable {
  public var utterances: [Utterance]
  /// Seconds of audio fed.
  public var duration: Double

  public init(utterances: [Utterance], duration: Double) {
    self.utterances = utterances
    self.duration = duration
  }

  /// Every instruction in order, each with the stream time at which it was emitted.
  public var instructions: [(instruction: Instruction, emittedAt: Double)] {
    utterances.flatMap { utterance in
      utterance.interpretation.instructions.map { ($0, utterance.emittedAt) }
    }
  }

  public var directions: [Direction] { instructions.map(\.instruction.direction) }
}

extension CommandListener {
  /// Runs a whole stream through the pipeline: `next` gives chunks until it returns `nil`.
  /// `onEvent` sees every event as it happens.
  public func run(
    next: () throws -> [Int16]?, onEvent: (ListenerEvent) -> Void = { _ in }
  ) throws -> StreamResult {
    var utterances: [Utterance] = []
    func handle(_ events: [ListenerEvent]) {
      for event in events {
        onEvent(event)
        if case .final(let utterance) = event { utterances.append(utterance) }
      }
    }
    let start = time
    while let chunk = try next() {
      handle(try feed(chunk))
    }
    handle(try finish())
    return StreamResult(utterances: utterances, duration: time - start)
  }
}

extension CommandListener {
  /// Runs `samples` through the pipeline in `chunk`-sample pieces (10 ms by default), as a
  /// file or microphone would feed them.
  public func run(samples: [Int16], chunk: Int = 160) throws -> StreamResult {
    var offset = 0
    return try run(next: {
      guard offset < samples.count else { return nil }
      let end = min(offset + chunk, samples.count)
      defer { offset = end }
      return Array(samples[offset..<end])
    })
  }
}
