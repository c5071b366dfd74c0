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
