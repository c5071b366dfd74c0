import ArgumentParser
import DirectMeAudio
import DirectMeCore
import DirectMeRecognizer
import Foundation

struct Live: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Direct the ninja live from the microphone (the default).",
    discussion: """
      Press Space or click the button to start and stop listening (push-to-talk), or pass \
      --hands-free to listen all the time. Esc, q or closing the window quits.
      """
  )

  @Option(help: ArgumentHelp("PulseAudio source to record from (default: the default source).", valueName: "name"))
  var device: String?

  @Flag(help: "Listen all the time instead of push-to-talk.")
  var handsFree = false

  @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "seconds"))
  var duration: Double?

  @Option(help: ArgumentHelp("Save each utterance's audio and a JSON Lines log of the session here (0600 files in a 0700 folder).", valueName: "folder"))
  var saveSession: String?

  @Option(help: .hidden)
  var timingLog: String?

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  @OptionGroup(title: "Window")
  var display: DisplayOptions

  func validate() throws {
    if let duration, !(duration > 0 && duration.isFinite) {
      throw ValidationError("--duration must be a positive number of seconds")
    }
  }

  func run() throws {
    try reportingErrors {
      let recognizer = try self.recognizer.makeRecognizer()
      let interpreter = try self.recognizer.makeInterpreter()
      let microphone = try Microphone(device: device)
      let listening = handsFree || display.headless
      let recorder = try saveSession.map { try SessionRecorder(folder: $0) }
      let box = UncheckedBox((recognizer, microphone, recorder))
      let timings = try timingLog.map(TimingLog.init(path:))
      let device = self.device
      print("listening: \(device ?? "the default source")")
      fflush(nil)
      let outcome = try runStage(
        display: display, listening: listening, pushToTalk: !display.headless, duration: duration,
        timings: timings
      ) { channel in
        let (recognizer, microphone, recorder) = box.value
        // An empty chunk says the microphone was lost: the utterance under way ends there.
        let chunks = BlockingQueue<(samples: [Int16], wall: Double)>()
        let chunkSamples = Microphone.sampleRate / 100
        let microphoneBox = UncheckedBox(microphone)
        // What stopped the capture for good: an error that reconnecting cannot cure.
        let fatal = Locked<Error?>(nil)
        let capture = Thread {
          var microphone: Microphone? = microphoneBox.value
          var backoff = 0.25
          defer { chunks.close() }
          while !channel.isClosed {
            guard let current = microphone else {
              // Reconnect with backoff (0.25 s doubling to 4 s) while the server or source
              // is away; any other error ends the capture with its reason.
              let deadline = Date(timeIntervalSinceNow: backoff)
              while Date() < deadline && !channel.isClosed { Thread.sleep(forTimeInterval: 0.05) }
              do {
                microphone = try Microphone(device: device)
                backoff = 0.25
                channel.post(.status(nil))
                warn("directme: microphone back")
              } catch let error as PulseAudioError where error.isConnectionLost {
                backoff = min(backoff * 2, 4)
                channel.post(.status("microphone lost (\(error)); retrying in \(String(format: "%.2g", backoff)) s"))
              } catch {
                fatal.value = error
                return
              }
              continue
            }
            do {
              let samples = try current.read(count: chunkSamples)
              chunks.push((samples, InstructionTiming.now()))
            } catch {
              microphone = nil
              chunks.push(([], InstructionTiming.now()))
              guard (error as? PulseAudioError)?.isConnectionLost ?? false else {
                fatal.value = error
                return
              }
              channel.post(.status("microphone lost (\(error)); reconnecting"))
            }
          }
        }
        capture.start()

        let listener = CommandListener(recognizer: recognizer, interpreter: interpreter)
        var captureTimes = CaptureTimes()
        /// Posts the events, with the timing of each instruction first when asked.
        func post(_ events: [ListenerEvent]) {
          for event in events {
            if timings != nil, case .final(let utterance) = event {
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
              try recorder?.record(event, source: device)
            } catch {
              channel.post(.status("cannot save the session: \(error)"))
            }
          }
        }
        do {
          while !channel.shouldStop {
            // Wake now and then to notice a stop even when no audio arrives.
            guard let chunk = chunks.pop(timeout: 0.1) else {
              if chunks.isClosed { break } else { continue }
            }
            if chunk.samples.isEmpty {
              post(try listener.finish())  // the microphone was lost: keep what was heard
            } else if channel.isListening {
              recorder?.feed(chunk.samples)
              captureTimes.record(
                streamEnd: listener.time + Double(chunk.samples.count) / Double(listener.sampleRate), wall: chunk.wall)
              post(try listener.feed(chunk.samples))
            } else if listener.isInUtterance {
              post(try listener.finish())
            }
          }
          post(try listener.finish())
          if let error = fatal.value {
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
      if outcome.failed { throw ExitCode(1) }
    }
  }
}

/// A value shared between threads behind a lock.
final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value
  init(_ value: Value) { stored = value }
  var value: Value {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }
}

/// Carries a value that is handed to exactly one other thread.
struct UncheckedBox<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}

/// A queue between two threads; `pop` waits for an item, `nil` once closed and empty.
final class BlockingQueue<Element>: @unchecked Sendable {
  private let condition = NSCondition()
  private var items: [Element] = []
  private var head = 0
  private var closed = false

  func push(_ item: Element) {
    condition.lock()
    items.append(item)
    condition.signal()
    condition.unlock()
  }

  /// The next item; `nil` once closed and empty, or after `timeout` seconds without one.
  func pop(timeout: Double? = nil) -> Element? {
    condition.lock()
    defer { condition.unlock() }
    let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
    while head == items.count && !closed {
      if let deadline {
        if !condition.wait(until: deadline) { return nil }
      } else {
        condition.wait()
      }
    }
    guard head < items.count else { return nil }
    let item = items[head]
    head += 1
    if head > 1024 {
      items.removeFirst(head)
      head = 0
    }
    return item
  }

  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  var isClosed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return closed && head == items.count
  }
}
