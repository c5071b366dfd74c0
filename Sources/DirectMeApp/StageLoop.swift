import DirectMeCore
import DirectMeDisplay
import Dispatch
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// What the pipeline thread tells the stage.
public enum StageEvent: Sendable {
  case listener(ListenerEvent)
  /// Timings of the instructions of the final result that follows.
  case timings([InstructionTiming])
  /// A problem shown in the window and on stderr (`nil`: it is over).
  case status(String?)
  /// What the user is asked to say (`nil`: nothing), shown in the window.
  case prompt(String?)
  /// The microphone's input level, 0...1 (`nil`: not listening), for the meter under the button.
  case level(Double?)
  /// A line for stdout when there is a window (headless runs print the results instead).
  case note(String)
  case finished(failed: Bool)
}

/// Hands events from the pipeline's threads to the main thread, and the user's wishes back.
public final class StageChannel: @unchecked Sendable {
  private let condition = Condition()
  private var events: [StageEvent] = []
  private var closed = false
  private var stopRequested = false
  private var listening: Bool
  private let wake: (@Sendable () -> Void)?

  public init(listening: Bool, wake: (@Sendable () -> Void)? = nil) {
    self.listening = listening
    self.wake = wake
  }

  public func post(_ event: StageEvent) {
    condition.lock()
    events.append(event)
    condition.signal()
    condition.unlock()
    wake?()
  }

  /// Everything posted so far; waits up to `timeout` seconds when there is nothing.
  public func take(timeout: Double) -> [StageEvent] {
    condition.lock()
    defer { condition.unlock() }
    if events.isEmpty && !closed { _ = condition.wait(seconds: timeout) }
    let taken = events
    events.removeAll()
    return taken
  }

  /// The user quit: producers should stop.
  public func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }

  public var isClosed: Bool { condition.withLock { closed } }

  /// Asks the producer to finish what it has (the run's time is up).
  public func requestStop() { condition.withLock { stopRequested = true } }

  /// Whether the producer should wind up: time is up or the user quit.
  public var shouldStop: Bool { condition.withLock { stopRequested || closed } }

  public var isListening: Bool {
    get { condition.withLock { listening } }
    set { condition.withLock { listening = newValue } }
  }
}

/// The work behind the stage (a microphone pipeline, a replay), run on a thread of its own.
public typealias StageProducer = @Sendable (StageChannel) -> Void

/// How a stage run behaves.
public struct StageSettings {
  /// Pixels the ninja moves per instruction.
  public var step: Double
  /// Listening from the start.
  public var listening: Bool
  /// Space and the button start and stop listening.
  public var pushToTalk: Bool
  /// Ask the producer to stop after this many seconds (its last events are still shown, for
  /// up to two seconds more).
  public var duration: Double?
  /// Write the window's pixels here when the run ends.
  public var screenshot: String?
  /// Record when each instruction was applied and drawn.
  public var timingLog: TimingLog?
  /// Seconds to wait, once the run ends, for the producer to finish what it has heard.
  public var producerGrace: Double = 5

  public init(
    step: Double = 100, listening: Bool, pushToTalk: Bool = false, duration: Double? = nil, screenshot: String? = nil,
    timingLog: TimingLog? = nil
  ) {
    self.step = step
    self.listening = listening
    self.pushToTalk = pushToTalk
    self.duration = duration
    self.screenshot = screenshot
    self.timingLog = timingLog
  }
}

/// How a stage run ended.
public struct StageOutcome: Hashable, Sendable {
  /// The producer reported a failure.
  public var failed: Bool
  /// The user quit (Esc, q, closing the window, SIGINT, SIGTERM).
  public var quit: Bool
  /// Instructions shown.
  public var instructions: Int
}

/// Runs `producer` on a thread of its own and shows what it posts on `display`: in the
/// window, or as lines of `output` when headless. Returns when the producer finishes (in a
/// window, after the last move has played) or the user quits (Esc, q, closing the window,
/// SIGINT, SIGTERM).
public func runStage(
  display: Display, settings: StageSettings, output: Output = .standard, producer: @escaping StageProducer
) throws -> StageOutcome {
  var stage = Stage(
    // Headless too, so that it prints the positions a window would show.
    animator: Animator(
      bounds: display.size, spriteSize: display.spriteSize, step: settings.step,
      covered: (StageWindow.topBarHeight, StageWindow.bottomPanelHeight)),
    isListening: settings.listening)
  let hasWindow = display.isWindow
  let channel = StageChannel(listening: settings.listening, wake: hasWindow ? display.wake : nil)
  let wake = display.wake
  // The first SIGINT/SIGTERM ends the run cleanly; a second one, while it winds up, ends
  // the process at once.
  let signalled = Locked(false)
  let signals = SignalWatcher {
    if signalled.value { exit(1) }
    signalled.value = true
    channel.close()
    if hasWindow { wake() }
  }
  defer { withExtendedLifetime(signals) {} }

  let clock = ContinuousClock()
  let start = clock.now
  func now() -> Double {
    let elapsed = clock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
  }

  let producerDone = DispatchSemaphore(value: 0)
  startThread(stackSize: 8 << 20) {
    producer(channel)
    producerDone.signal()
  }

  var finished = false
  var failed = false
  var quit = false
  var dirty = true
  /// The scene on screen.
  var drawn: Scene?
  var instructionCount = 0
  var nextTimings: [InstructionTiming] = []
  /// Instructions taken and waiting for the frame that shows them, with the keyframe.
  var unshown: [(timing: InstructionTiming, keyframe: Keyframe)] = []
  let timingLog = settings.timingLog

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
            if hasWindow {
              unshown.append((timing, keyframe))
            } else {
              timing.renderedWall = applied
              timingLog?.write(timing)
            }
          }
          nextTimings = []
        }
        if case .final(let utterance) = event {
          if !hasWindow {
            TextReport.lines(for: utterance, alternates: 0).forEach(output.line)
          }
          for keyframe in keyframes {
            instructionCount += 1
            output.line("instruction \(instructionCount): \(keyframe.direction.rawValue) -> \(keyframe.to)")
          }
        }
      case .status(let status):
        stage.status = status
        if let status { output.warning("\(programName): \(status)") }
      case .level(let level):
        stage.level = level
      case .prompt(let prompt):
        stage.prompt = prompt
      case .note(let note):
        if hasWindow { output.line(note) }
      case .finished(let didFail):
        finished = true
        failed = failed || didFail
        // Nothing more is heard: the window (and its screenshot) no longer says "Listening...".
        stage.setListening(false)
      }
      dirty = true
    }
  }

  while !quit {
    let time = now()
    if let duration = settings.duration {
      if time >= duration { channel.requestStop() }
      if time >= duration + 2 { break }
    }
    if hasWindow {
      let animating = stage.isAnimating(at: time)
      var waitFor: Double? = animating ? 1.0 / 60 : (finished ? 0 : nil)
      if let duration = settings.duration, time < duration + 2 { waitFor = min(waitFor ?? 0.1, 0.1) }
      for input in display.waitForInput(waitFor) {
        switch input {
        case .quit: quit = true
        case .toggleListening where settings.pushToTalk:
          stage.setListening(!stage.isListening)
          channel.isListening = stage.isListening
          dirty = true
        case .toggleListening, .wake: dirty = true
        }
      }
    }
    if channel.isClosed { quit = true }
    apply(channel.take(timeout: hasWindow ? 0 : 0.25))
    let drawTime = now()
    // An animation frame that looks like the last one drawn (the ninja against a wall, the
    // first and last steps of a move's easing) is not drawn again.
    let scene = hasWindow && (dirty || stage.isAnimating(at: drawTime)) ? stage.scene(at: drawTime) : nil
    if let scene {
      if dirty || drawn.map({ !$0.looksLike(scene) }) ?? true {
        display.draw(scene)
        drawn = scene
        dirty = false
      }
      if !unshown.isEmpty {
        // The window (just drawn, or already looking so) shows a keyframe once its
        // animation has begun.
        let shownAt = InstructionTiming.now()
        unshown.removeAll { entry in
          guard drawTime > entry.keyframe.start else { return false }
          var timing = entry.timing
          timing.renderedWall = shownAt
          timingLog?.write(timing)
          return true
        }
      }
    }
    // In a window the last move plays out; headless, nothing shows it, and the positions
    // were printed as the instructions came (waiting for each move's animation made a
    // headless replay of a 5-minute recording take 63 s instead of 10).
    if finished && (!hasWindow || !stage.isAnimating(at: now())) { break }
  }

  channel.close()
  // Quitting (SIGTERM included) loses nothing already heard: the producer ends the utterance
  // under way (acting on it, saving it) and its last events are still taken. A producer
  // stuck in a blocking call is not waited for long.
  if producerDone.wait(timeout: .now() + settings.producerGrace) == .success {
    apply(channel.take(timeout: 0))
  }
  // The last frame drawn may be one of the final move's last steps: show where it ended.
  if hasWindow { display.draw(stage.scene(at: now())) }
  if hasWindow, let screenshot = settings.screenshot {
    try display.saveScreenshot(screenshot)
    output.line("screenshot: \(screenshot)")
  }
  return StageOutcome(failed: failed, quit: quit, instructions: instructionCount)
}
