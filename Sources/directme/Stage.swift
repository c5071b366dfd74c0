import ArgumentParser
import DirectMeCore
import DirectMeDisplay
import Dispatch
import Foundation

/// How the ninja is shown.
struct DisplayOptions: ParsableArguments {
  @Flag(help: "No window: print the ninja's position after each instruction.")
  var headless = false

  @Option(help: ArgumentHelp("Write the window's pixels to this .png or .bmp file when the run ends.", valueName: "file"))
  var screenshot: String?

  @Option(help: "Pixels the ninja moves per instruction.")
  var step: Int = 100

  @Option(help: ArgumentHelp("Window size.", valueName: "WIDTHxHEIGHT"))
  var size: String = "800x600"

  @Option(help: ArgumentHelp("The ninja sprite, a BMP (default: Assets/ninja.bmp).", valueName: "file"))
  var sprite: String?

  func validate() throws {
    guard windowSize != nil else { throw ValidationError("--size must look like 800x600 (got '\(size)')") }
    guard step > 0, step <= 10_000 else { throw ValidationError("--step must be between 1 and 10000 (got \(step))") }
    if let screenshot {
      let folder = URL(fileURLWithPath: screenshot).deletingLastPathComponent().path
      guard FileManager.default.isWritableFile(atPath: folder) else {
        throw ValidationError("cannot write the screenshot into \(folder)")
      }
      if headless { throw ValidationError("--screenshot needs the window; drop --headless") }
    }
  }

  var windowSize: Size? {
    let parts = size.lowercased().split(separator: "x")
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
      (160...8192).contains(width), (120...8192).contains(height)
    else { return nil }
    return Size(width: width, height: height)
  }

  var spritePath: String { sprite ?? Resources.defaultSprite }
}

/// What the pipeline thread tells the stage.
enum StageEvent: Sendable {
  case listener(ListenerEvent)
  /// Timings of the instructions of the final result that follows.
  case timings([InstructionTiming])
  case status(String?)
  case note(String)
  case finished(failed: Bool)
}

/// Hands events from the pipeline's threads to the main thread, and the user's wishes back.
final class StageChannel: @unchecked Sendable {
  private let condition = NSCondition()
  private var events: [StageEvent] = []
  private var closed = false
  private var stopRequested = false
  private var listening: Bool
  private let wakesWindow: Bool

  init(listening: Bool, wakesWindow: Bool) {
    self.listening = listening
    self.wakesWindow = wakesWindow
  }

  func post(_ event: StageEvent) {
    condition.lock()
    events.append(event)
    condition.signal()
    condition.unlock()
    if wakesWindow { StageWindow.wake() }
  }

  /// Everything posted so far; waits up to `timeout` seconds when there is nothing.
  func take(timeout: Double) -> [StageEvent] {
    condition.lock()
    defer { condition.unlock() }
    if events.isEmpty && !closed { _ = condition.wait(until: Date(timeIntervalSinceNow: timeout)) }
    let taken = events
    events.removeAll()
    return taken
  }

  /// The user quit: producers should stop.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  var isClosed: Bool {
    condition.lock()
    defer { condition.unlock() }
    return closed
  }

  /// Asks the producer to finish what it has (the run's time is up).
  func requestStop() {
    condition.lock()
    stopRequested = true
    condition.unlock()
  }

  /// Whether the producer should wind up: time is up or the user quit.
  var shouldStop: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopRequested || closed
  }

  var isListening: Bool {
    get {
      condition.lock()
      defer { condition.unlock() }
      return listening
    }
    set {
      condition.lock()
      listening = newValue
      condition.unlock()
    }
  }
}

typealias StageProducer = @Sendable (StageChannel) -> Void

/// Runs `producer` on a thread of its own and shows what it posts: in the window, or as
/// lines on stdout with `--headless`. Returns when the producer finishes (after the last
/// move has played) or the user quits (Esc, q, closing the window, SIGINT, SIGTERM).
///
/// With a `duration`, the producer is asked to stop after that many seconds; its last events
/// are still shown (for up to two seconds more).
func runStage(
  display: DisplayOptions, listening: Bool, pushToTalk: Bool = false, duration: Double? = nil,
  timings timingLog: TimingLog? = nil, producer: @escaping StageProducer
) throws -> (failed: Bool, quit: Bool) {
  let size = display.windowSize ?? Size(width: 800, height: 600)
  let window: StageWindow?
  if display.headless {
    window = nil
  } else {
    window = try StageWindow(size: size, assets: WindowAssets(sprite: display.spritePath))
  }
  let spriteSize = try window?.spriteSize ?? StageWindow.spriteSize(ofBMP: display.spritePath)
  var stage = Stage(
    animator: Animator(bounds: size, spriteSize: spriteSize, step: Double(display.step)), isListening: listening)
  let channel = StageChannel(listening: listening, wakesWindow: window != nil)
  let hasWindow = window != nil
  let signals = SignalWatcher {
    channel.close()
    if hasWindow { StageWindow.wake() }
  }
  defer { withExtendedLifetime(signals) {} }

  let clock = ContinuousClock()
  let start = clock.now
  func now() -> Double {
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  let thread = Thread { producer(channel) }
  thread.stackSize = 8 << 20
  thread.start()

  var finished = false
  var failed = false
  var quit = false
  var dirty = true
  var instructionCount = 0
  var nextTimings: [InstructionTiming] = []
  /// Instructions taken and waiting for the frame that shows them, with the keyframe.
  var unshown: [(timing: InstructionTiming, keyframe: Keyframe)] = []

  func apply(_ events: [StageEvent]) {
    for event in events {
      switch event {
      case .timings(let timings):
        nextTimings = timings
      case .listener(let event):
        let wasAnimating = stage.isAnimating(at: now())
        let keyframes = stage.apply(event, at: now())
        if timingLog != nil, !keyframes.isEmpty {
          let applied = InstructionTiming.now()
          for (index, keyframe) in keyframes.enumerated() where index < nextTimings.count {
            var timing = nextTimings[index]
            timing.appliedWall = applied
            timing.queued = wasAnimating || index > 0
            if window == nil {
              timing.renderedWall = applied
              timingLog?.write(timing)
            } else {
              unshown.append((timing, keyframe))
            }
          }
          nextTimings = []
        }
        if case .final(let utterance) = event {
          if display.headless || window == nil {
            TextReport.lines(for: utterance, alternates: 0).forEach { print($0) }
          }
          for keyframe in keyframes {
            instructionCount += 1
            print("instruction \(instructionCount): \(keyframe.direction.rawValue) -> \(keyframe.to)")
          }
          fflush(nil)
        }
      case .status(let status):
        stage.status = status
        if let status { warn("directme: \(status)") }
      case .note(let note):
        if window != nil { print(note) }
      case .finished(let didFail):
        finished = true
        failed = failed || didFail
      }
      dirty = true
    }
  }

  while !quit {
    let time = now()
    if let duration {
      if time >= duration { channel.requestStop() }
      if time >= duration + 2 { break }
    }
    if let window {
      let animating = stage.isAnimating(at: time)
      var waitFor: Double? = animating ? 1.0 / 60 : (finished ? 0 : nil)
      if let duration, time < duration + 2 { waitFor = min(waitFor ?? 0.1, 0.1) }
      for input in window.waitForInput(timeout: waitFor) {
        switch input {
        case .quit: quit = true
        case .toggleListening where pushToTalk:
          stage.setListening(!stage.isListening)
          channel.isListening = stage.isListening
          dirty = true
        case .toggleListening, .wake: dirty = true
        }
      }
    }
    if channel.isClosed { quit = true }
    apply(channel.take(timeout: window == nil ? 0.25 : 0))
    let drawTime = now()
    if let window, dirty || stage.isAnimating(at: drawTime) {
      window.draw(stage.scene(at: drawTime))
      dirty = false
      if !unshown.isEmpty {
        // The frame just drawn shows a keyframe once its animation has begun.
        let drawn = InstructionTiming.now()
        unshown.removeAll { entry in
          guard drawTime > entry.keyframe.start else { return false }
          var timing = entry.timing
          timing.renderedWall = drawn
          timingLog?.write(timing)
          return true
        }
      }
    }
    if finished && !stage.isAnimating(at: now()) { break }
  }

  channel.close()
  if let window, let screenshot = display.screenshot {
    window.draw(stage.scene(at: now()))
    try window.saveScreenshot(to: screenshot)
    print("screenshot: \(screenshot)")
  }
  // The producer stops at its next chunk; a blocked microphone read ends with the process.
  return (failed, quit)
}

/// Turns SIGINT and SIGTERM into a call of `handler` on a background queue.
final class SignalWatcher: @unchecked Sendable {
  private var sources: [DispatchSourceSignal] = []

  init(handler: @escaping @Sendable () -> Void) {
    for signalNumber in [SIGINT, SIGTERM] {
      signal(signalNumber, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
      source.setEventHandler(handler: handler)
      source.resume()
      sources.append(source)
    }
  }

  deinit {
    for source in sources { source.cancel() }
    signal(SIGINT, SIG_DFL)
    signal(SIGTERM, SIG_DFL)
  }
}
