import DirectMeAudio
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem
import Dispatch

/// A microphone: gives the next `count` samples (16 kHz mono), blocking until they are there.
public protocol AudioInput: AnyObject {
  func read(count: Int) throws -> [Int16]
  /// What the input has recorded and `read` not yet returned, without waiting for more (at a
  /// stop: the audio heard before it).
  func readAvailable() throws -> [Int16]
  /// Samples the input delivers at a time: reading fewer wakes the reader more often for nothing.
  var fragmentSamples: Int { get }
}

extension AudioInput {
  /// An input that holds nothing beyond what `read` returns.
  public func readAvailable() throws -> [Int16] { [] }
}

extension Microphone: AudioInput {}

/// Where live audio comes from: connects to the microphone, and tells a lost connection
/// (the server went away: worth reconnecting) from other errors (which end the run).
public struct AudioSource: @unchecked Sendable {
  public var connect: () throws -> AudioInput
  public var isConnectionLost: (Error) -> Bool
  /// Seconds between reconnection attempts: the first, doubling up to the last.
  public var backoff: ClosedRange<Double>

  public init(
    connect: @escaping () throws -> AudioInput, isConnectionLost: @escaping (Error) -> Bool,
    backoff: ClosedRange<Double> = 0.25...4
  ) {
    self.connect = connect
    self.isConnectionLost = isConnectionLost
    self.backoff = backoff
  }

  /// The PulseAudio microphone (`device`: a source name, `nil`: the default source).
  public static func pulseAudio(device: String?) -> AudioSource {
    AudioSource(
      connect: { try Microphone(device: device) },
      isConnectionLost: { ($0 as? PulseAudioError)?.isConnectionLost ?? false })
  }
}

/// What the capture thread hands the pipeline.
public enum CaptureEvent: Sendable {
  /// 10 ms of audio, with the wall-clock time it arrived.
  case chunk([Int16], wall: Double)
  /// The microphone was lost: the utterance under way ends here.
  case lost
}

/// Reads `source` on a thread of its own into a queue of 10 ms chunks until `channel`
/// closes, reconnecting with backoff while the connection is lost (the stage shows it, and
/// that it is back); any other error ends the capture, and `fatal` holds it.
public final class CaptureThread: @unchecked Sendable {
  public let chunks = BlockingQueue<CaptureEvent>()
  /// What stopped the capture for good: an error that reconnecting cannot cure.
  public let fatal = Locked<Error?>(nil)
  private let source: AudioSource
  private let first: AudioInput?
  private let channel: StageChannel
  private let output: Output

  /// - Parameter first: an input already connected (to fail fast before the window opens).
  public init(source: AudioSource, first: AudioInput?, channel: StageChannel, output: Output = .standard) {
    self.source = source
    self.first = first
    self.channel = channel
    self.output = output
  }

  public func start() {
    startThread { [self] in run() }
  }

  private func run() {
    var input = first
    var backoff = source.backoff.lowerBound
    defer { chunks.close() }
    let chunkSamples = Microphone.sampleRate / 100
    /// `samples` handed on as 10 ms chunks at once (each hand-over wakes a thread).
    func hand(_ samples: [Int16]) {
      let wall = InstructionTiming.now()
      chunks.push(contentsOf: stride(from: 0, to: samples.count, by: chunkSamples).map {
        .chunk(Array(samples[$0..<min(samples.count, $0 + chunkSamples)]), wall: wall)
      })
    }
    // Stopping (time up, quit, SIGTERM): what the microphone recorded before the stop and was
    // not read yet is handed on too, and the queue closes (`defer` above) once it is.
    defer {
      if let rest = try? input?.readAvailable(), !rest.isEmpty { hand(rest) }
    }
    while !channel.shouldStop {
      guard let current = input else {
        let deadline = Date(timeIntervalSinceNow: backoff)
        while Date() < deadline && !channel.shouldStop { sleep(seconds: min(0.05, backoff)) }
        do {
          input = try source.connect()
          backoff = source.backoff.lowerBound
          channel.post(.status(nil))
          output.warning("\(programName): microphone back")
        } catch where source.isConnectionLost(error) {
          backoff = min(backoff * 2, source.backoff.upperBound)
          channel.post(.status("microphone lost (\(error)); retrying in \(String(printf: "%.2g", backoff)) s"))
        } catch {
          fatal.value = error
          return
        }
        continue
      }
      do {
        // A fragment at a time (30 ms from PulseAudio): each read wakes a thread.
        hand(try current.read(count: max(1, current.fragmentSamples / chunkSamples) * chunkSamples))
      } catch {
        input = nil
        chunks.push(.lost)
        guard source.isConnectionLost(error) else {
          fatal.value = error
          return
        }
        channel.post(.status("microphone lost (\(error)); reconnecting"))
      }
    }
  }
}

/// The live pipeline: audio from `source` through the listener to the stage, with an
/// optional session recording and instruction timings.
public struct LivePipeline: @unchecked Sendable {
  public var recognizer: Recognizer
  public var interpreter: Interpreter
  public var source: AudioSource
  public var first: AudioInput?
  public var recorder: SessionRecorder?
  public var timings: Bool
  /// Names the audio's source in the session log.
  public var sourceName: String?
  public var output: Output

  public init(
    recognizer: Recognizer, interpreter: Interpreter, source: AudioSource, first: AudioInput? = nil,
    recorder: SessionRecorder? = nil, timings: Bool = false, sourceName: String? = nil, output: Output = .standard
  ) {
    self.recognizer = recognizer
    self.interpreter = interpreter
    self.source = source
    self.first = first
    self.recorder = recorder
    self.timings = timings
    self.sourceName = sourceName
    self.output = output
  }

  /// Seconds to wait at a stop for the capture thread's last audio (it reads within one
  /// fragment, 30 ms, of the stop).
  static let captureGrace = 0.5

  /// The producer for `runStage`.
  public var producer: StageProducer {
    let pipeline = UncheckedBox(self)
    return { channel in pipeline.value.run(channel) }
  }

  func run(_ channel: StageChannel) {
    let capture = CaptureThread(source: source, first: first, channel: channel, output: output)
    capture.start()
    let listener = CommandListener(recognizer: recognizer, interpreter: interpreter)
    var captureTimes = CaptureTimes()
    var meter = LevelMeter()
    /// Posts the events, with the timing of each instruction first when asked.
    func post(_ events: [ListenerEvent]) {
      for event in events {
        if timings, case .final(let utterance) = event {
          let emitted = InstructionTiming.now()
          let records = utterance.interpretation.instructions.map { instruction in
            InstructionTiming(
              direction: instruction.direction.rawValue, wordEnd: instruction.end,
              emittedStream: utterance.emittedAt, capturedWall: captureTimes.wall(at: instruction.end),
              emittedWall: emitted, decodeSeconds: listener.lastFinalCost.decode,
              interpretSeconds: listener.lastFinalCost.interpret)
          }
          if !records.isEmpty { channel.post(.timings(records)) }
        }
        channel.post(.listener(event))
        do {
          try recorder?.record(event, source: sourceName)
        } catch {
          channel.post(.status("cannot save the session: \(error)"))
        }
      }
    }
    func handle(_ event: CaptureEvent) throws {
      switch event {
      case .lost:
        post(try listener.finish())  // keep what was heard
      case .chunk(let samples, let wall):
        if case .some(let level) = meter.add(channel.isListening ? samples : nil) { channel.post(.level(level)) }
        if channel.isListening {
          recorder?.feed(samples)
          captureTimes.record(
            streamEnd: listener.time + Double(samples.count) / Double(listener.sampleRate), wall: wall)
          post(try listener.feed(samples))
        } else if listener.isInUtterance {
          post(try listener.finish())
        }
      }
    }
    do {
      while !channel.shouldStop {
        // Wake now and then to notice a stop even when no audio arrives.
        guard let event = capture.chunks.pop(timeout: 0.1) else {
          if capture.chunks.isClosed { break } else { continue }
        }
        try handle(event)
      }
      // Stopping (time up, quit, SIGTERM): the audio the microphone gave before the stop is
      // heard too, however far decoding lagged behind it on a busy machine, so that the
      // utterance under way ends where its speaker stopped, not where decoding had got to:
      // what was queued, then what the capture thread reads once it sees the stop (it closes
      // the queue then; a microphone stuck in a read is not waited for long).
      while let event = capture.chunks.pop(timeout: Self.captureGrace) { try handle(event) }
      post(try listener.finish())
      if let error = capture.fatal.value {
        channel.post(.status("microphone failed: \(error)"))
        channel.post(.finished(failed: true))
      } else {
        channel.post(.finished(failed: false))
      }
    } catch {
      channel.post(.status("recognizer failed: \(error)"))
      channel.post(.finished(failed: true))
    }
  }
}

/// The input level for the window's meter: the loudest 10 ms of each 100 ms, from -60 dBFS
/// (empty) to 0 dBFS (full), in twentieths, reported only when it changes (each report
/// redraws the window).
struct LevelMeter {
  private var chunks = 0
  private var loudest = -120.0
  private var shown: Double??

  /// Takes a chunk (`nil`: not listening); gives a level to show when there is a new one.
  mutating func add(_ samples: [Int16]?) -> Double?? {
    guard let samples else {
      chunks = 0
      loudest = -120
      return report(nil)
    }
    let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))
    loudest = max(loudest, 10 * log10(max(power, 1e-3) / (32768.0 * 32768.0)))
    chunks += 1
    guard chunks >= 10 else { return nil }
    let level = (min(1, max(0, (loudest + 60) / 60)) * 20).rounded() / 20
    chunks = 0
    loudest = -120
    return report(level)
  }

  private mutating func report(_ level: Double?) -> Double?? {
    if let shown, shown == level { return nil }
    shown = .some(level)
    return .some(level)
  }
}
