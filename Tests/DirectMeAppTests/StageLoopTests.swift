import DirectMeCore
import DirectMeSystem
import Foundation
import Testing

@testable import DirectMeApp

/// A final result that moves the ninja `directions`.
func final(_ directions: [Direction], at time: Double) -> ListenerEvent {
  let segments = directions.enumerated().map { index, direction in
    WordSegment(word: direction.rawValue, start: time + Double(index) * 0.3, end: time + Double(index) * 0.3 + 0.2)
  }
  let instructions = segments.map { Instruction(direction: Direction(rawValue: $0.word)!, heard: $0.word, start: $0.start, end: $0.end) }
  return .final(
    Utterance(
      result: RecognitionResult(transcriptions: [Transcription(segments: segments, score: -1)], start: time, end: time + 1),
      interpretation: Interpretation(instructions: instructions), emittedAt: time + 1))
}

/// A display that records what it is asked to do; the user's input comes from a script.
final class FakeDisplay: @unchecked Sendable {
  let lock = NSLock()
  var scenes: [Scene] = []
  var screenshots: [String] = []
  var inputs: [DisplayInput]
  var wakes = 0

  init(inputs: [DisplayInput] = []) { self.inputs = inputs }

  func display(window: Bool = true) -> Display {
    Display(
      size: Size(width: 800, height: 600), spriteSize: Size(width: 64, height: 64), isWindow: window,
      waitForInput: { [self] timeout in
        Thread.sleep(forTimeInterval: min(timeout ?? 0.01, 0.01))
        return lock.withLock { inputs.isEmpty ? [] : [inputs.removeFirst()] }
      },
      draw: { [self] scene in lock.withLock { scenes.append(scene) } },
      wake: { [self] in lock.withLock { wakes += 1 } },
      saveScreenshot: { [self] path in lock.withLock { screenshots.append(path) } })
  }
}

/// Lines written by the stage.
final class Lines: @unchecked Sendable {
  let lock = NSLock()
  var lines: [String] = []
  var warnings: [String] = []
  var output: Output {
    Output(
      line: { [self] text in lock.withLock { lines.append(text) } },
      warning: { [self] text in lock.withLock { warnings.append(text) } })
  }
}

@Suite("Stage loop (fake display)")
struct StageLoopTests {
  @Test("a window run draws the moves the producer posts, ends after the last has played, and takes the screenshot")
  func windowRun() throws {
    let fake = FakeDisplay()
    let lines = Lines()
    let outcome = try runStage(
      display: fake.display(), settings: StageSettings(step: 100, listening: true, screenshot: "/tmp/x.png"),
      output: lines.output
    ) { channel in
      channel.post(.listener(.speechStarted(at: 0)))
      channel.post(.level(0.5))
      channel.post(.listener(final([.left, .up], at: 0)))
      channel.post(.finished(failed: false))
    }
    #expect(outcome == StageOutcome(failed: false, quit: false, instructions: 2))
    // The last frame shows the ninja where left then up put it: 100 px left, 100 px up of the centre.
    let last = try #require(fake.scenes.last)
    #expect(last.spritePosition == Point(x: 300, y: 200))
    #expect(last.lastInstructions == [.left, .up])
    #expect(fake.scenes.count > 2, "the move is animated over several frames")
    #expect(last.level == 0.5, "the input level meter")
    #expect(!last.isListening, "once the producer has finished, the window no longer says it is listening")
    #expect(fake.screenshots == ["/tmp/x.png"])
    #expect(lines.lines.contains("instruction 1: left -> (300, 300)"), "\(lines.lines)")
    #expect(lines.lines.contains("screenshot: /tmp/x.png"))
    #expect(fake.wakes >= 3, "each post wakes the window")
  }

  @Test("a finished replay says what it did instead of the listening hint")
  func replaySummary() {
    #expect(StageReplay.summary(files: 1, directions: 2, failed: false) == "Replayed 1 file: 2 directions")
    #expect(StageReplay.summary(files: 3, directions: 1, failed: true) == "Replayed 3 files: 1 direction (problems: see the terminal)")
  }

  @Test("headless: nothing is drawn, the results and positions are printed, a failure is reported")
  func headless() throws {
    let fake = FakeDisplay()
    let lines = Lines()
    let outcome = try runStage(
      display: fake.display(window: false), settings: StageSettings(listening: true), output: lines.output
    ) { channel in
      channel.post(.listener(final([.down], at: 0)))
      channel.post(.status("microphone failed: gone"))
      channel.post(.finished(failed: true))
    }
    #expect(outcome.failed && outcome.instructions == 1)
    #expect(fake.scenes.isEmpty)
    #expect(lines.lines.contains { $0.contains("\"down\"") }, "the transcript is printed: \(lines.lines)")
    #expect(lines.lines.contains("instruction 1: down -> (400, 400)"))
    #expect(lines.warnings == ["\(programName): microphone failed: gone"])
  }

  @Test("the ninja stops at the panels over the window's top and bottom, in a window and headless alike")
  func panels() throws {
    for window in [true, false] {
      let fake = FakeDisplay()
      let lines = Lines()
      _ = try runStage(display: fake.display(window: window), settings: StageSettings(listening: true), output: lines.output) { channel in
        channel.post(.listener(final([.up, .up, .up], at: 0)))
        channel.post(.finished(failed: false))
      }
      // The 64-px sprite's top edge at the 74-px top bar's bottom edge (it used to reach y = 32).
      #expect(lines.lines.contains("instruction 3: up -> (400, 106)"), "\(lines.lines)")
      if window { #expect(fake.scenes.last?.spritePosition == Point(x: 400, y: 106)) }
    }
  }

  @Test("push-to-talk: the button stops listening and tells the producer; quitting ends the run and closes the channel")
  func pushToTalkAndQuit() throws {
    let fake = FakeDisplay(inputs: [.toggleListening, .quit])
    let seen = Locked<[Bool]>([])
    let closed = Locked(false)
    let outcome = try runStage(
      display: fake.display(), settings: StageSettings(listening: true, pushToTalk: true), output: Lines().output
    ) { channel in
      while !channel.isClosed {
        seen.update { $0.append(channel.isListening) }
        Thread.sleep(forTimeInterval: 0.005)
      }
      closed.value = true
    }
    #expect(outcome.quit && !outcome.failed)
    #expect(seen.value.contains(false), "the producer saw listening turned off")
    #expect(fake.scenes.contains { !$0.isListening }, "the window showed it")
  }

  @Test("with a duration the producer is asked to stop, and its last events are still shown")
  func duration() throws {
    let fake = FakeDisplay()
    let outcome = try runStage(
      display: fake.display(), settings: StageSettings(listening: true, duration: 0.2), output: Lines().output
    ) { channel in
      while !channel.shouldStop { Thread.sleep(forTimeInterval: 0.01) }
      channel.post(.listener(final([.right], at: 0)))
      channel.post(.finished(failed: false))
    }
    #expect(outcome.instructions == 1 && !outcome.quit)
    // The last frame shows where the move ended, not one of its last steps.
    #expect(fake.scenes.last?.spritePosition == Point(x: 500, y: 300))
  }
}
