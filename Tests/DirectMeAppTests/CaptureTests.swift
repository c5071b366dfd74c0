import DirectMeCore
import DirectMeSystem
import Foundation
import Testing

@testable import DirectMeApp

struct LostConnection: Error, CustomStringConvertible { var description: String { "connection lost" } }
struct Broken: Error, CustomStringConvertible { var description: String { "no such source" } }

/// A microphone that gives `chunks` chunks of a constant and then fails with `error`.
final class FakeInput: AudioInput {
  let value: Int16
  var chunks: Int
  let error: Error
  let fragmentSamples: Int
  /// How many samples each read asked for.
  var reads: [Int] = []
  init(value: Int16, chunks: Int, then error: Error, fragmentSamples: Int = 160) {
    self.value = value
    self.chunks = chunks
    self.error = error
    self.fragmentSamples = fragmentSamples
  }
  func read(count: Int) throws -> [Int16] {
    guard chunks > 0 else { throw error }
    chunks -= 1
    reads.append(count)
    // value, value + 1, ... so that the order of the samples shows.
    return (0..<count).map { value &+ Int16(truncatingIfNeeded: $0) }
  }
}

@Suite("Live capture (fake microphone)")
struct CaptureTests {
  /// Everything the capture thread queues until it ends.
  func drain(_ capture: CaptureThread, channel: StageChannel) -> [CaptureEvent] {
    var events: [CaptureEvent] = []
    while let event = capture.chunks.pop(timeout: 5) {
      events.append(event)
      if events.count > 10_000 { channel.close() }
    }
    return events
  }

  @Test("a lost connection is said, reconnected with backoff, and the audio after it flows; a permanent error ends the capture with its reason")
  func reconnects() {
    let channel = StageChannel(listening: true)
    let connects = Locked(0)
    let source = AudioSource(
      connect: {
        connects.update { $0 += 1 }
        // The server is still away at the first attempt, back at the second; the third
        // connection finds the source gone for good.
        switch connects.value {
        case 1: throw LostConnection()
        case 2: return FakeInput(value: 2, chunks: 3, then: Broken())
        default: throw Broken()
        }
      }, isConnectionLost: { $0 is LostConnection }, backoff: 0.01...0.04)
    let capture = CaptureThread(
      source: source, first: FakeInput(value: 1, chunks: 2, then: LostConnection()), channel: channel,
      output: Output(line: { _ in }, warning: { _ in }))
    capture.start()
    let events = drain(capture, channel: channel)
    let values: [Int16?] = events.map {
      if case .chunk(let samples, _) = $0 { return samples.first } else { return nil }
    }
    #expect(values == [1, 1, nil, 2, 2, 2, nil], "two chunks, lost, three chunks, lost")
    #expect(connects.value == 2, "reconnected after one failed attempt, no retry after a permanent error")
    #expect("\(capture.fatal.value.map { "\($0)" } ?? "")" == "no such source")
    let statuses = channel.take(timeout: 0).compactMap { event -> String? in
      if case .status(let status) = event { return status ?? "(cleared)" } else { return nil }
    }
    #expect(statuses.first == "microphone lost (connection lost); reconnecting", "\(statuses)")
    #expect(statuses.contains { $0.hasPrefix("microphone lost (connection lost); retrying in") })
    #expect(statuses.contains("(cleared)"), "the status clears when the microphone is back")
  }

  @Test("reads a whole fragment at a time and hands it on as 10 ms chunks, in order")
  func fragments() {
    let channel = StageChannel(listening: true)
    let input = FakeInput(value: 0, chunks: 2, then: Broken(), fragmentSamples: 480)
    let capture = CaptureThread(
      source: AudioSource(connect: { throw Broken() }, isConnectionLost: { _ in false }), first: input,
      channel: channel, output: Output(line: { _ in }, warning: { _ in }))
    capture.start()
    let chunks = drain(capture, channel: channel).compactMap { event -> [Int16]? in
      if case .chunk(let samples, _) = event { return samples } else { return nil }
    }
    #expect(input.reads == [480, 480], "30 ms a read")
    #expect(chunks.map(\.count) == [160, 160, 160, 160, 160, 160])
    #expect(chunks.map { $0.first! } == [0, 160, 320, 0, 160, 320], "each fragment's three chunks in order")
    #expect(chunks.allSatisfy { zip($0, $0.dropFirst()).allSatisfy { $0 + 1 == $1 } })
  }

  @Test("closing the channel ends the capture")
  func closes() {
    let channel = StageChannel(listening: true)
    let capture = CaptureThread(
      source: AudioSource(connect: { throw Broken() }, isConnectionLost: { _ in false }),
      first: FakeInput(value: 1, chunks: .max, then: Broken()), channel: channel)
    capture.start()
    #expect(capture.chunks.pop(timeout: 5) != nil)
    channel.close()
    var count = 0
    while capture.chunks.pop(timeout: 5) != nil { count += 1 }
    #expect(capture.chunks.isClosed)
    #expect(capture.fatal.value == nil)
  }
}

/// A recognizer that counts what it decodes, slowly: decoding lags behind the microphone.
final class SlowRecognizer: Recognizer {
  let secondsPerChunk: Double
  let samples = Locked(0)
  init(secondsPerChunk: Double) { self.secondsPerChunk = secondsPerChunk }
  func startUtterance() throws {}
  func process(_ chunk: [Int16]) throws {
    Thread.sleep(forTimeInterval: secondsPerChunk)
    samples.update { $0 += chunk.count }
  }
  func partialResult() -> Transcription? { nil }
  func endUtterance() throws -> RecognitionResult {
    RecognitionResult(transcriptions: [Transcription(segments: [], score: 0)], start: 0, end: 0)
  }
}

/// A microphone whose reads give the first `delivered` samples of `audio` (all of it unless
/// said) as fast as they are read, and then nothing more (each read waits 10 ms and gives no
/// samples) until the capture stops, while it holds the rest as recorded: only
/// `readAvailable` gives that, as PulseAudio holds what a reader has not yet taken.
final class BurstInput: AudioInput {
  let audio: [Int16]
  let delivered: Int
  let fragmentSamples = 480
  let given = Locked(0)
  let heldTaken = Locked(false)
  init(audio: [Int16], delivered: Int? = nil) {
    self.audio = audio
    self.delivered = delivered ?? audio.count
  }
  func read(count: Int) throws -> [Int16] {
    let from = given.value
    guard from < delivered else {
      Thread.sleep(forTimeInterval: 0.01)
      return []
    }
    let to = min(delivered, from + count)
    given.update { $0 = to }
    return Array(audio[from..<to])
  }
  func readAvailable() throws -> [Int16] {
    heldTaken.update { $0 = true }
    let from = given.value
    given.update { $0 = audio.count }
    return Array(audio[from...])
  }
}

/// 1 s of near-silence, then 1 s of a loud voiced tone (an utterance), without its end.
private func quietThenTone() -> (quiet: [Int16], tone: [Int16]) {
  var random = Signal.Random(seed: 3)
  let quiet = (0..<16_000).map { _ in Int16(Double.random(in: -30...30, using: &random)) }
  let tone = (0..<16_000).map { n -> Int16 in
    let t = Double(n) / 16_000
    var value = 0.0
    for harmonic in 1...4 {
      let h = Double(harmonic)
      value += 6_000 / h * sin(2 * Double.pi * 180 * h * t)
    }
    return Int16(value)
  }
  return (quiet, tone)
}

@Suite("Live pipeline (fake microphone, slow recognizer)")
struct LivePipelineStopTests {
  /// Runs the live pipeline from `input` through `recognizer` on a thread of its own; the
  /// semaphore is signalled when it ends.
  func start(_ input: BurstInput, _ recognizer: SlowRecognizer, _ channel: StageChannel) -> DispatchSemaphore {
    let pipeline = LivePipeline(
      recognizer: recognizer, interpreter: Interpreter(),
      source: AudioSource(connect: { throw Broken() }, isConnectionLost: { _ in false }), first: input,
      output: Output(line: { _ in }, warning: { _ in }))
    let done = DispatchSemaphore(value: 0)
    Thread { pipeline.run(channel); done.signal() }.start()
    return done
  }

  @Test("a stop while the microphone still holds recorded audio: the capture reads it and the pipeline hears it")
  func stopReadsHeldAudio() throws {
    let (quiet, tone) = quietThenTone()
    // The reads give the silence and the tone's first half; the second half is held.
    let input = BurstInput(audio: quiet + tone, delivered: quiet.count + tone.count / 2)
    let recognizer = SlowRecognizer(secondsPerChunk: 0)
    let channel = StageChannel(listening: true)
    let done = start(input, recognizer, channel)
    let deadline = Date(timeIntervalSinceNow: 10)
    while input.given.value < input.delivered, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
    Thread.sleep(forTimeInterval: 0.1)  // the delivered audio is decoded (no lag here)
    let decodedAtStop = recognizer.samples.value
    channel.close()  // quit, as SIGTERM does
    #expect(done.wait(timeout: .now() + 20) == .success, "the pipeline ends")
    #expect(input.heldTaken.value, "the capture asked the microphone for what it held")
    // The held half is heard after the stop, and with the pre-roll before the tone, all of it.
    #expect(
      recognizer.samples.value - decodedAtStop >= tone.count / 2,
      "decoded \(decodedAtStop) samples before the stop and \(recognizer.samples.value) in all")
    #expect(recognizer.samples.value >= tone.count, "decoded \(recognizer.samples.value) samples of the tone's \(tone.count)")
  }

  @Test("a stop while decoding lags behind the microphone: the audio captured before it is still heard")
  func stopDrainsCapturedAudio() throws {
    let (quiet, tone) = quietThenTone()
    let input = BurstInput(audio: quiet + tone)
    // 10 ms a 10-ms chunk: the tone's second of audio takes a second to decode, and all of it
    // is captured at once.
    let recognizer = SlowRecognizer(secondsPerChunk: 0.01)
    let channel = StageChannel(listening: true)
    let done = start(input, recognizer, channel)
    // Stop as soon as the microphone has given everything: decoding is still far behind.
    let deadline = Date(timeIntervalSinceNow: 10)
    while input.given.value < input.audio.count, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
    let decodedAtStop = recognizer.samples.value
    channel.requestStop()
    #expect(done.wait(timeout: .now() + 20) == .success, "the pipeline ends")
    #expect(decodedAtStop < tone.count / 2, "decoding lagged when the stop came (\(decodedAtStop) samples decoded)")
    // The utterance began in the tone (less a pre-roll before it): all of the tone is decoded.
    #expect(recognizer.samples.value >= tone.count, "decoded \(recognizer.samples.value) samples of the tone's \(tone.count)")
  }
}

@Suite("Level meter")
struct LevelMeterTests {
  @Test("reports the loudest 10 ms of each 100 ms, from -60 dBFS (0) to full scale (1), only when it changes, and nothing while not listening")
  func meter() {
    var meter = LevelMeter()
    let quiet = [Int16](repeating: 33, count: 160)  // about -60 dBFS
    let loud = [Int16](repeating: 3277, count: 160)  // -20 dBFS
    var reports: [Double??] = []
    for index in 0..<30 {
      if case .some(let level) = meter.add(index >= 10 && index < 20 && index % 3 == 0 ? loud : quiet) { reports.append(level) }
    }
    #expect(reports.count == 3)
    #expect(reports[0] == .some(0.0))
    #expect(reports[1] == .some(0.65), "-20 dBFS is two thirds of the way, in twentieths")
    #expect(reports[2] == .some(0.0))
    for _ in 0..<10 { #expect(meter.add(quiet) == nil, "no change, no report") }
    let off = meter.add(nil)
    #expect(off == .some(nil), "not listening hides the meter")
    #expect(meter.add(nil) == nil)
  }
}
