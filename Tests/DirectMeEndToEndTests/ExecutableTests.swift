import DirectMeCore
import DirectMeRecognizer
import DirectMeTestSupport
import Foundation
import Testing
import DirectMeAudio

let executable = TestSupport.executable
let flite = TestSupport.Voice(.flite, "slt")
let modelAvailable = FileManager.default.fileExists(atPath: "/usr/share/pocketsphinx/model/en-us/en-us/mdef")

/// Command files spoken by flite, with what they say.
let commandFiles: [(name: String, text: String, expected: [Direction])] = [
  ("left", "move left", [.left]),
  ("up", "move the ninja up", [.up]),  // a lone "up" is often refused at the operating point (issue 3)
  ("sequence", "down. down. right.", [.down, .down, .right]),
]

/// `directme-bench`, built beside `directme` (the test stops when it is not).
func benchExecutable() throws -> URL {
  let bench = executable!.deletingLastPathComponent().appendingPathComponent("directme-bench")
  try #require(FileManager.default.isExecutableFile(atPath: bench.path), "build directme-bench first (swift build)")
  return bench
}

func makeCommandFiles(in folder: URL) throws -> [URL] {
  try commandFiles.map {
    let url = folder.appendingPathComponent("\($0.name).wav")
    try TestSupport.speak($0.text, voice: flite, to: url)
    return url
  }
}

/// "instruction 3: right -> (500, 300)" lines: the last position printed.
func lastPosition(in output: String) -> Point? {
  let lines = output.split(separator: "\n").filter { $0.hasPrefix("instruction ") }
  guard let line = lines.last, let open = line.lastIndex(of: "("), let close = line.lastIndex(of: ")") else { return nil }
  let numbers = line[line.index(after: open)..<close].split(separator: ",").compactMap {
    Double($0.trimmingCharacters(in: .whitespaces))
  }
  return numbers.count == 2 ? Point(x: numbers[0], y: numbers[1]) : nil
}

/// The position after `directions` from the centre of an 800x600 window, 100 px a step.
func expectedPosition(after directions: [Direction]) -> Point {
  var animator = Animator(bounds: Size(width: 800, height: 600), spriteSize: Size(width: 64, height: 64))
  for direction in directions { animator.enqueue(direction, at: 0) }
  return animator.destination
}

@Suite(
  "directme executable", .serialized,
  .enabled(if: executable != nil, "build the directme executable first (swift build)"),
  .enabled(if: modelAvailable, "needs pocketsphinx-en-us (scripts/setup.sh)"),
  .enabled(if: flite.isAvailable, "needs flite and sox (scripts/setup.sh)"))
struct ExecutableTests {
  @Test("replay --json gives each file's instructions and exits 0")
  func replayJSON() throws {
    let folder = try TestSupport.temporaryFolder("replay")
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = try makeCommandFiles(in: folder)
    let run = try TestSupport.run([executable!.path, "replay", "--json"] + files.map(\.path))
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let lines = run.stdout.split(separator: "\n")
    try #require(lines.count == files.count, "\(run.stdout)")
    for (line, (file, spec)) in zip(lines, zip(files, commandFiles)) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["file"] as? String == file.path)
      #expect(object["instructions"] as? [String] == spec.expected.map(\.rawValue), "\(spec.text): \(line)")
      let emitted = try #require(object["emitted_at"] as? [Double])
      #expect(emitted.count == spec.expected.count)
      #expect(zip(emitted, emitted.dropFirst()).allSatisfy { $0 <= $1 })
      let utterances = try #require(object["utterances"] as? [[String: Any]])
      #expect(!utterances.isEmpty)
      for utterance in utterances {
        #expect(utterance["transcript"] is String)
        #expect(utterance["alternates"] is [Any])
        #expect((utterance["start"] as? Double ?? -1) >= 0)
        #expect((utterance["end"] as? Double ?? -1) >= (utterance["start"] as? Double ?? 0))
      }
    }
  }

  @Test(
    "replay --streaming-only (the bench's measure of the final pass's cost) decides without the final pass; DIRECTME_SEARCH_TIMES=1 says what each final pass's searches cost"
  )
  func replayStreamingOnly() throws {
    let folder = try TestSupport.temporaryFolder("streaming-only")
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = try makeCommandFiles(in: folder)
    for (streamingOnly, expectsAlternates) in [(true, false), (false, true)] {
      let run = try TestSupport.run(
        [executable!.path, "replay", "--json"] + (streamingOnly ? ["--streaming-only"] : []) + files.map(\.path),
        environment: ["DIRECTME_SEARCH_TIMES": "1"])
      #expect(run.status == 0, "stderr: \(run.stderr)")
      // One line per final pass: the commands reading scores the audio, the other words'
      // reading reads those scores; none without a final pass.
      let costs = run.stderr.split(separator: "\n").filter { $0.hasPrefix("search times: ") }
      if streamingOnly {
        #expect(costs.isEmpty, "\(run.stderr)")
      } else {
        #expect(!costs.isEmpty && costs.allSatisfy { $0.contains("commands") }, "\(run.stderr)")
        #expect(costs.contains { $0.contains("commands+scoring 1x") } && costs.contains { $0.contains("garbage") }, "\(run.stderr)")
        // Each line reads back as `directme-bench live` reads it.
        #expect(costs.allSatisfy { SearchCost.parse($0).map { !$0.isEmpty } == true }, "\(run.stderr)")
      }
      let lines = run.stdout.split(separator: "\n")
      try #require(lines.count == files.count, "\(run.stdout)")
      for (line, spec) in zip(lines, commandFiles) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        // The streaming reading alone is not checked (flite's "move left" is "lot" to it:
        // the final pass, routing flite to the synthetic voices' model, is what hears it).
        if !streamingOnly {
          #expect(object["instructions"] as? [String] == spec.expected.map(\.rawValue), "\(spec.text): \(line)")
        }
        // Without the final pass there is no other-words reading to give as an alternate.
        let utterances = try #require(object["utterances"] as? [[String: Any]])
        let alternates = utterances.map { ($0["alternates"] as? [Any])?.count ?? 0 }
        #expect(alternates.contains { $0 > 0 } == expectsAlternates, "streaming only: \(streamingOnly): \(line)")
      }
    }
  }

  @Test("replay takes FLAC, OGG/Vorbis, MP3 and A-law/mu-law WAV recordings and gives their instructions")
  func replayFormats() throws {
    let folder = try TestSupport.temporaryFolder("formats")
    defer { try? FileManager.default.removeItem(at: folder) }
    let spoken = folder.appendingPathComponent("spoken.wav")
    try TestSupport.speak("move left", voice: flite, to: spoken)
    let samples = try AudioFileSource.readAll(path: spoken.path)
    let kinds: [AudioFileWriter.Kind] = [.flac, .ogg, .mp3, .alaw, .mulaw]
    let files = try kinds.map { kind in
      let url = folder.appendingPathComponent("left-\(kind.rawValue).\(kind == .alaw || kind == .mulaw ? "wav" : kind.rawValue)")
      try AudioFileWriter.write(samples: samples, to: url.path, kind: kind)
      return url
    }
    let run = try TestSupport.run([executable!.path, "replay", "--json"] + files.map(\.path))
    #expect(run.status == 0, "stderr: \(run.stderr)")
    let lines = run.stdout.split(separator: "\n")
    try #require(lines.count == files.count, "\(run.stdout)")
    for (line, file) in zip(lines, files) {
      let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
      #expect(object["file"] as? String == file.path)
      #expect(object["instructions"] as? [String] == ["left"], "\(file.lastPathComponent): \(line)")
    }
  }

  @Test("a folder is replayed file by file, and a bad file is named while the others still run")
  func replayFolderWithBadFile() throws {
    let folder = try TestSupport.temporaryFolder("folder")
    defer { try? FileManager.default.removeItem(at: folder) }
    _ = try makeCommandFiles(in: folder)
    try Data("not audio".utf8).write(to: folder.appendingPathComponent("broken.wav"))
    let run = try TestSupport.run([executable!.path, "replay", "--json", folder.path])
    #expect(run.status == 1)
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.count == commandFiles.count + 1)
    #expect(run.stderr.contains("broken.wav: not an audio file"), "\(run.stderr)")
    #expect(run.stderr.contains("1 of 4 files had problems"), "\(run.stderr)")
    #expect(!run.stderr.contains("Fatal error"))
  }

  @Test("replay --json with the stage is refused, not printed as text")
  func replayJSONWithStage() throws {
    for stage in [["--headless"], ["--window"], ["--screenshot", "/tmp/never.png"]] {
      let run = try TestSupport.run([executable!.path, "replay", "--json"] + stage + ["missing.wav"])
      #expect(run.status != 0 && run.stdout.isEmpty, "\(stage): \(run.stdout)")
      #expect(run.stderr.contains("--json prints one object per file without the stage"), "\(stage): \(run.stderr)")
    }
  }

  @Test("score reads a labels file (or the folder holding it) and reports accuracy, false alarms and the confusion matrix")
  func score() throws {
    let folder = try TestSupport.temporaryFolder("score")
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = try makeCommandFiles(in: folder)
    let other = folder.appendingPathComponent("other.wav")
    try TestSupport.speak("what time is it", voice: flite, to: other)
    let labels = LabelsFormat.format(
      zip(files, commandFiles).map { ($0.0.lastPathComponent, $0.1.expected) } + [("other.wav", [])])
    let labelsFile = folder.appendingPathComponent("labels.tsv")
    try labels.write(to: labelsFile, atomically: true, encoding: .utf8)

    let text = try TestSupport.run([executable!.path, "score", labelsFile.path])
    #expect(text.status == 0, "\(text.stderr)")
    #expect(text.stdout.contains("recordings: 4 (3 with a command, 1 without)"))
    #expect(text.stdout.contains("confusion"))

    let json = try TestSupport.run([executable!.path, "score", "--json", labelsFile.path])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
    #expect(object["recordings"] as? Int == 4)
    let accuracy = try #require(object["utterance_accuracy"] as? Double)
    #expect(accuracy >= 2.0 / 3)
    #expect(object["false_alarm_rate"] is Double)

    // Several recordings at once, each job with a recognizer of its own: the same report, in
    // the same order (each recording starts afresh).
    let together = try TestSupport.run([executable!.path, "score", "--json", "--jobs", "3", labelsFile.path])
    let alone = try TestSupport.run([executable!.path, "score", "--json", "--jobs", "1", labelsFile.path])
    #expect(together.status == 0 && alone.status == 0, "\(together.stderr) \(alone.stderr)")
    #expect(together.stdout == alone.stdout)
    #expect(together.stdout == json.stdout, "the default (one job per core) gives it too")
    // The folder holding labels.tsv names it (as enroll writes it, as the data sets keep it).
    let byFolder = try TestSupport.run([executable!.path, "score", "--json", folder.path])
    #expect(byFolder.status == 0 && byFolder.stdout == json.stdout, "\(byFolder.stderr)")
    let empty = folder.appendingPathComponent("empty")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let noLabels = try TestSupport.run([executable!.path, "score", empty.path])
    #expect(
      noLabels.status != 0 && noLabels.stderr.contains("\(empty.path)/labels.tsv: cannot read the labels file (no such file)"),
      "\(noLabels.stderr)")
    let noJobs = try TestSupport.run([executable!.path, "score", "--jobs", "0", labelsFile.path])
    #expect(noJobs.status != 0 && noJobs.stderr.contains("--jobs must be 1 or more"), "\(noJobs.stderr)")

    // A misspelt direction: that line is named and left out, the rest scored, exit 1.
    try (labels + "other.wav\tupp\n").write(to: labelsFile, atomically: true, encoding: .utf8)
    let bad = try TestSupport.run([executable!.path, "score", labelsFile.path])
    #expect(bad.status == 1)
    #expect(bad.stdout.contains("recordings: 4 (3 with a command, 1 without)"), "\(bad.stdout)")
    #expect(bad.stderr.contains("line 5: unknown direction 'upp'"), "\(bad.stderr)")
    #expect(bad.stderr.contains("\(labelsFile.path): 1 bad line left out\n"), "\(bad.stderr)")
    #expect(!bad.stderr.contains("0 recordings"), "\(bad.stderr)")
  }

  @Test("a melody goes on for seconds: the notes the commands grammar reads as \"up\" stand out of nothing, and move nothing")
  func melody() throws {
    let folder = try TestSupport.temporaryFolder("melody")
    defer { try? FileManager.default.removeItem(at: folder) }
    // 6 s of chords and notes on a triangle wave (sox synth), a quarter second each or so.
    let notes: [(Double, [String])] = [
      (0.25, ["C5", "G4"]), (0.25, ["E5", "D4"]), (0.25, ["G5", "C4"]), (0.25, ["F4", "E4"]), (0.25, ["F3"]), (0.25, ["A4"]),
      (0.125, ["E4"]), (0.125, ["F4", "E4"]), (0.5, ["D4", "F4"]), (0.25, ["B4", "F4"]), (0.125, ["B4", "G4"]), (0.25, ["B4"]),
      (0.25, ["F4"]), (0.25, ["G5"]), (0.5, ["A3"]), (0.25, ["C5", "F3"]), (0.5, ["C4", "B4"]), (0.125, ["B4", "D4"]),
      (0.25, ["C4", "F4"]), (0.5, ["G4", "B4"]), (0.5, ["A3", "G5"]),
    ]
    var parts: [String] = []
    for (index, (length, chord)) in notes.enumerated() {
      let part = folder.appendingPathComponent("note-\(index).wav").path
      let made = try TestSupport.run(
        ["sox", "-n", "-r", "16000", "-c", "1", part, "synth", "\(length)"] + chord.flatMap { ["triangle", $0] }
          + ["fade", "0.005", "\(length)", "0.03", "vol", "\(0.3 / Double(chord.count))"])
      try #require(made.status == 0, "sox: \(made.stderr)")
      parts.append(part)
    }
    let melody = folder.appendingPathComponent("melody.wav").path
    let joined = try TestSupport.run(["sox"] + parts + [melody, "gain", "-n", "-20", "pad", "0.3", "0.3"])
    try #require(joined.status == 0, "sox: \(joined.stderr)")

    // The shipped detector without the rule: the utterance it refuses as buried is decided
    // otherwise. (Before the endpointer cut a voice rising out of a bed of sound, stop 68,
    // the melody moved the ninja without the rule; its louder notes now come in utterances
    // of their own, and the rest is read as no command at all.)
    let shipped = TestSupport.shippedModel.appendingPathComponent("detector.json")
    var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: shipped)) as? [String: Any])
    var gate = try #require(object["gate"] as? [String: Any])
    #expect(gate["continuousSound"] != nil, "the shipped detector asks words to stand out of continuous sound")
    gate["continuousSound"] = nil
    object["gate"] = gate
    let without = folder.appendingPathComponent("without.json")
    try JSONSerialization.data(withJSONObject: object).write(to: without)
    let moved = try TestSupport.run([executable!.path, "replay", "--json", "--detector", without.path, melody])
    #expect(moved.status == 0, "\(moved.stderr)")
    #expect(!moved.stdout.contains("\"code\":\"buried\""), "\(moved.stdout)")

    let run = try TestSupport.run([executable!.path, "replay", "--json", melody])
    #expect(run.status == 0, "\(run.stderr)")
    let result = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
    #expect((result["instructions"] as? [String]) == [], "\(run.stdout)")
    #expect(run.stdout.contains("\"code\":\"buried\""), "\(run.stdout)")
  }

  @Test("replay in the window moves the ninja, and the screenshot shows it where the instructions put it")
  func window() throws {
    let folder = try TestSupport.temporaryFolder("window")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("sequence.wav")
    try TestSupport.speak("left. up.", voice: flite, to: file)
    let shot = folder.appendingPathComponent("shot.bmp")
    let run = try TestSupport.run(
      [executable!.path, "replay", "--window", "--screenshot", shot.path, file.path],
      environment: ["SDL_VIDEODRIVER": "dummy"])
    #expect(run.status == 0, "\(run.stderr)")
    let position = try #require(lastPosition(in: run.stdout), "no instruction printed: \(run.stdout)")
    #expect(position != Point(x: 400, y: 300))
    let image = try TestSupport.bmpPixels(shot)
    let centre = try #require(TestSupport.spriteCentre(in: image), "no ninja in the screenshot")
    #expect(abs(centre.x - position.x) <= 2 && abs(centre.y - position.y) <= 2, "ninja at \(centre), instructions put it at \(position)")
    // The replay is over: the button is green ("Record Directions"), not red ("End Recording").
    #expect(image[20, 20] == (39, 174, 96), "button colour \(image[20, 20]) after the replay ended")
  }

  @Test("live from a virtual microphone: the ninja ends where the spoken commands say")
  func live() throws {
    try #require(PulseAudioServer.isAvailable, "needs pulseaudio and pactl (scripts/setup.sh)")
    let pulse = try PulseAudioServer()
    let folder = try TestSupport.temporaryFolder("live")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("commands.wav")
    try TestSupport.speak("move left. down.", voice: flite, to: file, pad: 0.5)
    let samples = try TestSupport.samples(of: file)

    let player = Thread {
      Thread.sleep(forTimeInterval: 1.0)  // let directme connect first
      try? pulse.play(samples + [Int16](repeating: 0, count: 16000))
    }
    player.start()
    let duration = 1.0 + Double(samples.count) / 16000 + 1.5
    let run = try TestSupport.run(
      [executable!.path, "--headless", "--duration", String(duration)],
      environment: ["PULSE_SERVER": pulse.server], timeout: 60)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(lastPosition(in: run.stdout) == expectedPosition(after: [.left, .down]), "\(run.stdout)\n\(run.stderr)")
  }

  @Test("the PulseAudio server dies mid-session: live says the microphone is lost, reconnects when it is back, and hears commands after it")
  func microphoneLostAndBack() throws {
    try #require(PulseAudioServer.isAvailable, "needs pulseaudio and pactl (scripts/setup.sh)")
    let pulse = try PulseAudioServer()
    let folder = try TestSupport.temporaryFolder("lost")
    defer { try? FileManager.default.removeItem(at: folder) }
    let before = folder.appendingPathComponent("before.wav")
    let after = folder.appendingPathComponent("after.wav")
    try TestSupport.speak("move left.", voice: flite, to: before, pad: 0.5)
    try TestSupport.speak("move the ninja up.", voice: flite, to: after, pad: 0.5)
    let first = try TestSupport.samples(of: before) + [Int16](repeating: 0, count: 16000)
    let second = try TestSupport.samples(of: after) + [Int16](repeating: 0, count: 16000)
    let session = folder.appendingPathComponent("session")

    let player = Thread {
      Thread.sleep(forTimeInterval: 1.0)
      try? pulse.play(first)
      pulse.stop()  // the server crashes
      Thread.sleep(forTimeInterval: 1.5)
      try? pulse.restart()
      Thread.sleep(forTimeInterval: 4.5)  // reconnecting backs off up to 4 s
      try? pulse.play(second)
    }
    player.start()
    let duration = 1.0 + Double(first.count + second.count) / 16000 + 1.5 + 4.5 + 5  // with time for the restart
    let run = try TestSupport.run(
      [executable!.path, "--headless", "--duration", String(duration), "--save-session", session.path],
      environment: ["PULSE_SERVER": pulse.server], timeout: 90)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("microphone lost"), "\(run.stderr)")
    #expect(run.stderr.contains("microphone back"), "\(run.stderr)")
    #expect(lastPosition(in: run.stdout) == expectedPosition(after: [.left, .up]), "\(run.stdout)\n\(run.stderr)")
    // Both commands are in the saved session.
    let saved = try SessionRecorder.utterances(in: session.path)
    #expect(saved.flatMap(\.instructions) == [.left, .up], "\(saved)")
  }

  @Test("SIGTERM while a command is still being heard: it is acted on and saved, nothing heard is lost, exit 0")
  func terminateDuringSession() throws {
    try #require(PulseAudioServer.isAvailable, "needs pulseaudio and pactl (scripts/setup.sh)")
    let pulse = try PulseAudioServer()
    let folder = try TestSupport.temporaryFolder("sigterm")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("commands.wav")
    try TestSupport.speak("move left. move the ninja up", voice: flite, to: file, pad: 0.3)
    // No silence after "up": the utterance is still open when the signal comes.
    let samples = Array(try TestSupport.samples(of: file).dropLast(4_000))
    let session = folder.appendingPathComponent("session")
    let app = try TestSupport.launch(
      [executable!.path, "--headless", "--hands-free", "--save-session", session.path],
      environment: ["PULSE_SERVER": pulse.server])
    Thread.sleep(forTimeInterval: 1.0)  // let directme connect first
    try pulse.play(samples)
    Thread.sleep(forTimeInterval: 0.05)
    app.terminate()
    let run = app.finish(timeout: 30)
    #expect(run.status == 0, "\(run.stderr)")
    let saved = try SessionRecorder.utterances(in: session.path)
    #expect(saved.flatMap(\.instructions) == [.left, .up], "\(saved)\n\(run.stderr)")
    for utterance in saved {
      #expect(FileManager.default.fileExists(atPath: utterance.file), "the audio of every utterance is saved")
    }
    #expect(lastPosition(in: run.stdout) == expectedPosition(after: [.left, .up]), "\(run.stdout)")
  }

  @Test("record and enroll from a virtual microphone: each prompt's take is saved and labelled, and score reads the enrollment as is")
  func recordAndEnroll() throws {
    try #require(PulseAudioServer.isAvailable, "needs pulseaudio and pactl (scripts/setup.sh)")
    let pulse = try PulseAudioServer()
    let folder = try TestSupport.temporaryFolder("enroll")
    defer { try? FileManager.default.removeItem(at: folder) }
    let plan = EnrollmentPlan(takes: 1, carriers: false, others: 2)
    var stream = [Int16](repeating: 0, count: 16_000)
    for (index, prompt) in plan.prompts.enumerated() {
      let url = folder.appendingPathComponent("prompt-\(index).wav")
      try TestSupport.speak(prompt.text, voice: flite, to: url, pad: 0.1)
      stream += try TestSupport.samples(of: url) + [Int16](repeating: 0, count: 19_200)
    }
    let enrollment = folder.appendingPathComponent("me")
    let app = try TestSupport.launch(
      [executable!.path, "enroll", enrollment.path, "--takes", "1", "--no-carriers", "--others", "2", "--headless", "--timeout", "20"],
      environment: ["PULSE_SERVER": pulse.server])
    Thread.sleep(forTimeInterval: 1.0)
    try pulse.play(stream)
    let run = app.finish(timeout: 30)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("1/6 say: up"), "\(run.stdout)")
    let labels = try String(contentsOf: enrollment.appendingPathComponent("labels.tsv"), encoding: .utf8)
    let lines = labels.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    #expect(lines.map { $0[0] } == plan.prompts.map { $0.name + ".wav" }, "\(labels)")
    #expect(lines.map { $0[1] } == plan.prompts.map { $0.expected.map(\.rawValue).joined(separator: " ") })
    #expect(lines.map { $0[2] } == plan.prompts.map(\.text))
    #expect(lines.allSatisfy { $0[3] == "me" })
    for (line, prompt) in zip(lines, plan.prompts) {
      // Each take holds its prompt: the speech and a little silence, not the stream.
      let spoken = try TestSupport.samples(of: folder.appendingPathComponent("prompt-\(plan.prompts.firstIndex(of: prompt)!).wav"))
      let take = try AudioFileSource.readAll(path: enrollment.appendingPathComponent(line[0]).path)
      #expect(abs(take.count - spoken.count) < 16_000, "\(line[0]): \(take.count) vs \(spoken.count) samples")
    }
    let scored = try TestSupport.run([executable!.path, "score", enrollment.appendingPathComponent("labels.tsv").path])
    #expect(scored.status == 0, "\(scored.stderr)")
    #expect(scored.stdout.contains("recordings: 6 (4 with a command, 2 without)"), "\(scored.stdout)")

    // record: one utterance, then it stops by itself.
    let recorded = folder.appendingPathComponent("one.wav")
    let recorder = try TestSupport.launch(
      [executable!.path, "record", recorded.path, "--headless", "--timeout", "10"], environment: ["PULSE_SERVER": pulse.server])
    Thread.sleep(forTimeInterval: 1.0)
    let left = folder.appendingPathComponent("left.wav")
    try TestSupport.speak("move left", voice: flite, to: left, pad: 0.1)
    try pulse.play(try TestSupport.samples(of: left) + [Int16](repeating: 0, count: 16_000))
    let recordRun = recorder.finish(timeout: 20)
    #expect(recordRun.status == 0, "\(recordRun.stderr)")
    let replayed = try TestSupport.run([executable!.path, "replay", "--json", recorded.path])
    #expect(replayed.stdout.contains("\"instructions\":[\"left\"]"), "\(replayed.stdout)")
  }

  @Test("personalize adapts to an enrollment, scores it before and after, and becomes the default until reset")
  func personalize() throws {
    try #require(TestSupport.which("bw") != nil || FileManager.default.fileExists(atPath: "/usr/lib/sphinxtrain/bw"), "needs sphinxtrain (scripts/setup.sh)")
    let folder = try TestSupport.temporaryFolder("personal")
    defer { try? FileManager.default.removeItem(at: folder) }
    // An enrollment as `directme enroll` writes it, spoken by one voice.
    let enrollment = folder.appendingPathComponent("me")
    try FileManager.default.createDirectory(at: enrollment, withIntermediateDirectories: true)
    let plan = EnrollmentPlan(takes: 2, carriers: true, others: 4)
    var labels: [LabeledRecording] = []
    for prompt in plan.prompts {
      try TestSupport.speak(prompt.text, voice: TestSupport.Voice(.flite, "rms"), to: enrollment.appendingPathComponent(prompt.name + ".wav"))
      labels.append(
        LabeledRecording(
          path: prompt.name + ".wav", expected: prompt.expected, line: labels.count + 1,
          transcript: prompt.text.replacingOccurrences(of: ".", with: ""), speaker: "me"))
    }
    try LabelsFormat.format(labels).write(to: enrollment.appendingPathComponent("labels.tsv"), atomically: true, encoding: .utf8)
    let environment = ["XDG_CONFIG_HOME": folder.appendingPathComponent("config").path]
    let model = folder.appendingPathComponent("model")
    let run = try TestSupport.run(
      [executable!.path, "personalize", enrollment.path, "--out", model.path], environment: environment, timeout: 300)
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stdout.contains("before: commands"), "\(run.stdout)")
    #expect(run.stdout.contains("after : commands"), "\(run.stdout)")
    // A voice the shipped model hears well is heard as it is (no warp of its own).
    #expect(run.stdout.contains("your voice is heard as it is"), "\(run.stdout)")
    #expect(FileManager.default.fileExists(atPath: model.appendingPathComponent("mdef").path))
    #expect(FileManager.default.fileExists(atPath: model.appendingPathComponent("detector.json").path))
    let settings = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("config/directme/settings.json"))) as? [String: Any]
    #expect(settings?["model"] as? String == model.path, "\(String(describing: settings))")

    // Plain replay uses it and still hears the commands.
    let file = enrollment.appendingPathComponent(plan.prompts[0].name + ".wav").path
    let replayed = try TestSupport.run([executable!.path, "replay", "--json", file], environment: environment)
    #expect(replayed.status == 0, "\(replayed.stderr)")
    #expect(replayed.stdout.contains("\"instructions\":[\"up\"]"), "\(replayed.stdout)")
    // The voice check: the enrolled voice is the owner's; a voice far from it (a woman's,
    // not the enrolled man's) is decided by the shipped model.
    #expect(run.stdout.contains("voice check: utterances within"), "\(run.stdout)")
    #expect(FileManager.default.fileExists(atPath: model.appendingPathComponent(VoiceProfile.fileName).path))
    #expect(replayed.stdout.contains("\"owner\":true"), "\(replayed.stdout)")
    let stranger = folder.appendingPathComponent("stranger.wav")
    try TestSupport.speak("go left", voice: TestSupport.Voice(.flite, "slt"), to: stranger)
    let strangers = try TestSupport.run([executable!.path, "replay", "--json", stranger.path], environment: environment)
    #expect(strangers.stdout.contains("\"owner\":false"), "\(strangers.stdout)")
    // A voice check naming a model for other voices that is gone: one line naming the file.
    let broken = folder.appendingPathComponent("broken")
    try FileManager.default.copyItem(at: model, to: broken)
    var profile = try VoiceProfile.load(modelFolder: broken.path)!
    profile.otherVoicesModel = folder.appendingPathComponent("gone").path
    try profile.json().write(to: broken.appendingPathComponent(VoiceProfile.fileName))
    let brokenRun = try TestSupport.run([executable!.path, "replay", "--model", broken.path, file], environment: environment)
    #expect(brokenRun.status == 1)
    #expect(
      brokenRun.stderr.split(separator: "\n").count == 1 && brokenRun.stderr.contains("voice.json")
        && brokenRun.stderr.contains("other voices"), "\(brokenRun.stderr)")
    // A personal model gone missing is one clear line; --no-personal-model and --reset go back.
    try FileManager.default.moveItem(at: model, to: folder.appendingPathComponent("moved"))
    let missing = try TestSupport.run([executable!.path, "replay", file], environment: environment)
    #expect(missing.status != 0)
    #expect(missing.stderr.contains("personal model") && missing.stderr.contains("--reset"), "\(missing.stderr)")
    let ignoring = try TestSupport.run([executable!.path, "replay", "--no-personal-model", file], environment: environment)
    #expect(ignoring.status == 0, "\(ignoring.stderr)")
    let reset = try TestSupport.run([executable!.path, "personalize", "--reset"], environment: environment)
    #expect(reset.status == 0, "\(reset.stderr)")
    let after = try TestSupport.run([executable!.path, "replay", file], environment: environment)
    #expect(after.status == 0, "\(after.stderr)")
  }

  /// A personal model as `personalize` writes one when no adaptation did better, in `folder`:
  /// the shipped acoustic model (linked) and detector (without a second opinion of its own),
  /// none of the shipped folder's warp, sound class, routing or routed models, and no voice
  /// check yet (each test writes its own `voice.json`).
  func personalFolder(in folder: URL) throws -> URL {
    let model = folder.appendingPathComponent("personal")
    try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
    for name in ["means", "variances", "sendump", "transition_matrices", "feat.params", "noisedict", "adaptation.json"] {
      try FileManager.default.createSymbolicLink(
        at: model.appendingPathComponent(name), withDestinationURL: TestSupport.shippedModel.appendingPathComponent(name))
    }
    var detector = try Detector.load(TestSupport.shippedModel.appendingPathComponent("detector.json").path)
    detector.secondOpinion = nil
    try detector.json().write(to: model.appendingPathComponent("detector.json"))
    return model
  }

  @Test(
    "a personal model's other voices are decided as the model for them decides alone: its warp, sound class and second opinions",
    .enabled(if: TestSupport.devSet != nil, "needs ../shared/data/speech-commands-dev"))
  func personalModelsOtherVoices() throws {
    let dev = try #require(TestSupport.devSet)
    let folder = try TestSupport.temporaryFolder("other-voices")
    defer { try? FileManager.default.removeItem(at: folder) }
    // A personal model as `personalize` writes one when no adaptation did better, with a voice
    // check that no voice passes, naming the shipped model for other voices.
    let model = try personalFolder(in: folder)
    #expect(
      try Detector.load(TestSupport.shippedModel.appendingPathComponent("detector.json").path).secondOpinion != nil,
      "the shipped detector asks second opinions (else this test checks less)")
    let profile = VoiceProfile(
      mean: [Double](repeating: 1000, count: 12), scale: [Double](repeating: 1, count: 12), threshold: 0.01,
      otherVoicesModel: TestSupport.shippedModel.path)
    try profile.json().write(to: model.appendingPathComponent(VoiceProfile.fileName))
    // Real people's commands and other words.
    let labels = try String(contentsOf: dev.appendingPathComponent("labels.tsv"), encoding: .utf8)
    let files = labels.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
      .filter { ["up/", "left/", "off/", "go/"].contains(where: $0.hasPrefix) }.map { dev.appendingPathComponent($0).path }
    try #require(files.count >= 30)
    /// Each file's JSON line, without the voice check's verdict.
    func decisions(_ arguments: [String]) throws -> [String] {
      let run = try TestSupport.run([executable!.path, "replay", "--json"] + arguments + files, timeout: 300)
      #expect(run.status == 0, "\(run.stderr)")
      return try run.stdout.split(separator: "\n").map { line in
        var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        object["utterances"] = (object["utterances"] as? [[String: Any]])?.map { utterance in
          var utterance = utterance
          utterance["voice"] = nil
          return utterance
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
      }
    }
    let personal = try decisions(["--model", model.path])
    #expect(personal.joined().contains("\"owner\"") == false)
    let shipped = try decisions(["--model", TestSupport.shippedModel.path])
    #expect(personal.count == files.count && shipped.count == files.count)
    let differing = zip(files, zip(personal, shipped)).filter { $1.0 != $1.1 }
    #expect(differing.isEmpty, "\(differing.count) of \(files.count) decided otherwise: \(differing.prefix(2))")
    // The evidence compared holds what the model for other voices adds.
    #expect(shipped.joined().contains("speech_likeness"), "the sound class weighed some word")
    #expect(shipped.joined().contains("\"warp\""), "some voice was warped")
  }

  @Test("a personal model's owner is heard through the warp chosen for their voice; other voices are not")
  func personalModelsOwnerWarp() throws {
    let folder = try TestSupport.temporaryFolder("owner-warp")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("left.wav")
    try TestSupport.speak("left", voice: flite, to: file)
    // A personal model as `personalize` writes one when no adaptation did better, with a voice
    // check that `owner` passes (every voice) or that no voice passes.
    let model = try personalFolder(in: folder)
    func replay(warp: Double?, owner: Bool) throws -> (status: Int32, stdout: String, stderr: String) {
      var profile = VoiceProfile(
        mean: [Double](repeating: owner ? 0 : 1000, count: 12), scale: [Double](repeating: 1, count: 12),
        threshold: owner ? 1e6 : 0.01, otherVoicesModel: TestSupport.shippedModel.path)
      profile.warp = warp
      try profile.json().write(to: model.appendingPathComponent(VoiceProfile.fileName))
      let run = try TestSupport.run([executable!.path, "replay", "--json", "--model", model.path, file.path])
      return (run.status, run.stdout, run.stderr)
    }
    let warped = try replay(warp: 1.41, owner: true)
    #expect(warped.status == 0, "\(warped.stderr)")
    #expect(warped.stdout.contains("\"owner\":true") && warped.stdout.contains("\"warp\":1.41"), "\(warped.stdout)")
    #expect(warped.stdout.contains("\"instructions\":[\"left\"]"), "\(warped.stdout)")
    let asItIs = try replay(warp: nil, owner: true)
    #expect(asItIs.stdout.contains("\"owner\":true") && !asItIs.stdout.contains("\"warp\""), "\(asItIs.stdout)")
    let stranger = try replay(warp: 1.41, owner: false)
    #expect(stranger.stdout.contains("\"owner\":false") && !stranger.stdout.contains("\"warp\":1.41"), "\(stranger.stdout)")
    // A warp no front end could use: one line naming the file.
    let broken = try replay(warp: 7, owner: true)
    #expect(broken.status == 1)
    #expect(broken.stderr.split(separator: "\n").count == 1 && broken.stderr.contains("voice.json"), "\(broken.stderr)")
  }

  @Test("a model's voice routing sends utterances nearer its voices than people to their own model; a broken one is one line")
  func voiceRouting() throws {
    let folder = try TestSupport.temporaryFolder("routing")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("left.wav")
    try TestSupport.speak("left", voice: flite, to: file)
    // The shipped model, with a routed model of its own (Debian's, named by its folder).
    let model = folder.appendingPathComponent("model")
    try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
    for name in try FileManager.default.contentsOfDirectory(atPath: TestSupport.shippedModel.path) where !name.hasPrefix("routing") {
      try FileManager.default.createSymbolicLink(
        at: model.appendingPathComponent(name), withDestinationURL: TestSupport.shippedModel.appendingPathComponent(name))
    }
    let statistic = try #require(
      try VoiceFeatures(model: TestSupport.shippedModel.path).routingStatistic(try TestSupport.samples(of: file)))
    func write(voices: [[Double]], people: [[Double]], routed: String, peopleNarrowband: String? = nil) throws {
      var routing = VoiceRouting(
        name: "test voices", model: routed, scale: [Double](repeating: 10, count: statistic.count), people: people, voices: voices,
        neighbours: 1)
      routing.peopleNarrowbandModel = peopleNarrowband
      try routing.json().write(to: model.appendingPathComponent(VoiceRouting.fileName))
    }
    let far = statistic.map { $0 + 50 }
    try write(voices: [statistic], people: [far], routed: "/usr/share/pocketsphinx/model/en-us/en-us")
    let routed = try TestSupport.run([executable!.path, "replay", "--json", "--model", model.path, file.path])
    #expect(routed.status == 0, "\(routed.stderr)")
    #expect(routed.stdout.contains("\"voice_model\":\"test voices\""), "\(routed.stdout)")
    #expect(routed.stdout.contains("\"instructions\":[\"left\"]"), "\(routed.stdout)")
    // Nearer people: the model's own decoder, no mention.
    try write(voices: [far], people: [statistic], routed: "/usr/share/pocketsphinx/model/en-us/en-us")
    let own = try TestSupport.run([executable!.path, "replay", "--json", "--model", model.path, file.path])
    #expect(own.status == 0, "\(own.stderr)")
    #expect(!own.stdout.contains("voice_model"), "\(own.stdout)")
    // A routing to a model that is not there: one line naming routing.json.
    try write(voices: [statistic], people: [far], routed: "no-such-model")
    let broken = try TestSupport.run([executable!.path, "replay", "--model", model.path, file.path])
    #expect(broken.status == 1)
    #expect(broken.stderr.split(separator: "\n").count == 1 && broken.stderr.contains("routing.json"), "\(broken.stderr)")
    // So is a people's narrowband model that is not there.
    try write(voices: [far], people: [statistic], routed: "/usr/share/pocketsphinx/model/en-us/en-us", peopleNarrowband: "no-such-model")
    let brokenNarrowband = try TestSupport.run([executable!.path, "replay", "--model", model.path, file.path])
    #expect(brokenNarrowband.status == 1)
    #expect(
      brokenNarrowband.stderr.split(separator: "\n").count == 1 && brokenNarrowband.stderr.contains("routing.json")
        && brokenNarrowband.stderr.contains("narrowband"), "\(brokenNarrowband.stderr)")
  }

  @Test("--save-session writes each utterance and a log, private to the user; replaying the folder gives the same instructions")
  func saveSession() throws {
    let folder = try TestSupport.temporaryFolder("session")
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = try makeCommandFiles(in: folder)
    let session = folder.appendingPathComponent("saved")
    let first = try TestSupport.run([executable!.path, "replay", "--json", "--save-session", session.path] + files.map(\.path))
    #expect(first.status == 0, "\(first.stderr)")
    let attributes = try FileManager.default.attributesOfItem(atPath: session.path)
    #expect((attributes[.posixPermissions] as? Int) == 0o700)
    let contents = try FileManager.default.contentsOfDirectory(atPath: session.path)
    #expect(contents.contains(SessionRecorder.logName))
    #expect(contents.filter { $0.hasSuffix(".wav") }.count >= commandFiles.count)
    for name in contents {
      let mode = try FileManager.default.attributesOfItem(atPath: session.appendingPathComponent(name).path)[.posixPermissions] as? Int
      #expect(mode == 0o600, "\(name)")
    }
    let log = try String(contentsOf: session.appendingPathComponent(SessionRecorder.logName), encoding: .utf8)
    #expect(log.contains("\"event\":\"speech_started\""))
    #expect(log.contains("\"alternates\""))

    let expected = commandFiles.flatMap(\.expected).map(\.rawValue)
    func directions(_ output: String) -> [String] {
      output.split(separator: "\n").flatMap { line -> [String] in
        let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        return object?["instructions"] as? [String] ?? []
      }
    }
    #expect(directions(first.stdout) == expected)
    let again = try TestSupport.run([executable!.path, "replay", "--json", session.path])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(directions(again.stdout) == expected, "\(again.stdout)")
  }

  @Test("no PulseAudio server: one clear line saying how to start one, exit 1")
  func noServer() throws {
    let run = try TestSupport.run(
      [executable!.path, "--headless", "--duration", "1"], environment: ["PULSE_SERVER": "unix:/nonexistent/pulse"])
    #expect(run.status == 1)
    let lines = run.stderr.split(separator: "\n")
    #expect(lines.count == 1, "\(run.stderr)")
    #expect(run.stderr.contains("pulseaudio --start"))
  }

  @Test("no display: a clear error that suggests --headless")
  func noDisplay() throws {
    let folder = try TestSupport.temporaryFolder("display")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("up.wav")
    try TestSupport.speak("up", voice: flite, to: file)
    let run = try TestSupport.run(
      [executable!.path, "replay", "--window", file.path],
      environment: ["SDL_VIDEODRIVER": "x11", "DISPLAY": ":99", "WAYLAND_DISPLAY": ""])
    #expect(run.status == 1)
    #expect(run.stderr.contains("--headless"), "\(run.stderr)")
  }

  @Test("no display and no driver asked for: the same error, not a window drawn offscreen that no one sees")
  func noDisplayAtAll() throws {
    let folder = try TestSupport.temporaryFolder("nodisplay")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("up.wav")
    try TestSupport.speak("up", voice: flite, to: file)
    let run = try TestSupport.run(
      [executable!.path, "replay", "--window", file.path], environment: ["SDL_VIDEODRIVER": "", "DISPLAY": "", "WAYLAND_DISPLAY": ""])
    #expect(run.status == 1)
    #expect(run.stderr.contains("no display to open the window on") && run.stderr.contains("--headless"), "\(run.stderr)")
    #expect(run.stdout.isEmpty, "nothing replayed into no window: \(run.stdout)")
  }

  @Test("a program copied away from DirectMe's folder says where it looked for its grammar and model, and DIRECTME_HOME finds them")
  func copiedAwayFromItsFolder() throws {
    let folder = try TestSupport.temporaryFolder("away")
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("directme")
    try FileManager.default.copyItem(at: executable!, to: copy)
    let file = folder.appendingPathComponent("up.wav")
    try TestSupport.speak("move the ninja up", voice: flite, to: file)
    try "up.wav\tup\n".write(to: folder.appendingPathComponent("labels.tsv"), atomically: true, encoding: .utf8)
    // Run from the copy's own folder, which holds no grammars/ or models/.
    let away = ["/usr/bin/env", "-C", folder.path, copy.path, "score", "labels.tsv"]
    // Neither the grammar nor the model: refused before any work, naming where it looked.
    let bare = try TestSupport.run(away)
    #expect(bare.status == 64, "\(bare.stderr)")
    #expect(bare.stderr.contains("DIRECTME_HOME") && bare.stderr.contains(folder.path), "\(bare.stderr)")
    #expect(bare.stdout.isEmpty)
    // A grammar given, no model: refused too, not heard with Debian's stock model and no detector.
    let grammarOnly = try TestSupport.run(away + ["--grammar", TestSupport.repositoryRoot.appendingPathComponent("grammars/directme.gram").path])
    #expect(grammarOnly.status == 64 && grammarOnly.stderr.contains("DIRECTME_HOME"), "\(grammarOnly.stderr)")
    // DIRECTME_HOME names the folder: the recording is scored with the shipped grammar and model.
    let home = try TestSupport.run(away + ["--json"], environment: ["DIRECTME_HOME": TestSupport.repositoryRoot.path])
    #expect(home.status == 0, "\(home.stderr)")
    let report = try #require(try JSONSerialization.jsonObject(with: Data(home.stdout.utf8)) as? [String: Any], "\(home.stdout)")
    #expect(report["recordings"] as? Int == 1)
    #expect(report["utterance_accuracy"] as? Double == 1, "\(home.stdout)")
  }

  @Test("directme-bench warp learns warp.json from recordings shifted by known amounts; bad shifts are refused in one line")
  func benchWarp() throws {
    let bench = try benchExecutable()
    let folder = try TestSupport.temporaryFolder("bench-warp")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Eight clips, seven shifts each: 56 statistics for 39 coefficients and an intercept.
    var lines: [String] = []
    for (index, word) in ["up", "down", "left", "right", "go", "stop", "yes", "no"].enumerated() {
      let clip = folder.appendingPathComponent("\(word).wav")
      try TestSupport.speak(word, voice: index % 2 == 0 ? flite : TestSupport.Voice(.flite, "rms"), to: clip)
      let direction = index < 4 ? word : ""
      lines.append("\(clip.path)\t\(direction)\t\(word)\tspeaker\(index % 2)")
    }
    let labels = folder.appendingPathComponent("labels.tsv")
    try (lines.joined(separator: "\n") + "\n").write(to: labels, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("warp.json")
    let run = try TestSupport.run([bench.path, "warp", labels.path, "--out", out.path, "--recordings", "20"])
    #expect(run.status == 0, "\(run.stderr)")
    let warp = try VoiceWarp.load(out.path)
    #expect(warp.coefficients.count == 39 && warp.filters == 40 && warp.cepstra == 40)
    #expect(warp.notes?["recordings"]?.hasPrefix("8 of 2 speakers") == true, "\(warp.notes ?? [:])")
    #expect(run.stdout.contains("+300 cents: predicted"), "\(run.stdout)")
    let bad = try TestSupport.run([bench.path, "warp", labels.path, "--out", out.path, "--cents", "0,0"])
    #expect(bad.status != 0)
    #expect(bad.stderr.contains("--cents needs at least two different shifts"), "\(bad.stderr)")
  }

  @Test("directme-bench accuracy asked for the real-speech parts without their sets stops in one line, writing no report")
  func benchAccuracyWithoutData() throws {
    let bench = try benchExecutable()
    let folder = try TestSupport.temporaryFolder("bench-no-data")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("out")
    let run = try TestSupport.run([
      bench.path, "accuracy", "--only", "dev", "--only", "train", "--no-baseline", "--dev", folder.appendingPathComponent("no-dev").path,
      "--train", folder.appendingPathComponent("no-train").path, "--out", out.path,
    ])
    #expect(run.status != 0)
    let lines = run.stderr.split(separator: "\n").filter { $0.contains("error") }
    #expect(lines.count == 1 && lines[0].hasPrefix("directme-bench: error: bench: no items to measure"), "\(run.stderr)")
    #expect(lines.first?.contains("no-dev") == true && lines.first?.contains("no-train") == true, "names where it looked")
    #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("accuracy.txt").path), "no empty report")
  }

  @Test("directme-bench accuracy with a folder that is no model stops in one line before building any item")
  func benchAccuracyWithoutModel() throws {
    let bench = try benchExecutable()
    let folder = try TestSupport.temporaryFolder("bench-no-model")
    defer { try? FileManager.default.removeItem(at: folder) }
    let model = folder.appendingPathComponent("empty-model")
    try FileManager.default.createDirectory(at: model, withIntermediateDirectories: true)
    let out = folder.appendingPathComponent("out")
    // The synthetic part would synthesize hundreds of clips first (minutes without a cache).
    let run = try TestSupport.run([
      bench.path, "accuracy", "--only", "synthetic", "--no-baseline", "--model", model.path, "--out", out.path,
    ])
    #expect(run.status != 0)
    let lines = run.stderr.split(separator: "\n").filter { $0.contains("error") }
    #expect(lines.count == 1 && lines[0].contains(model.path) && lines[0].contains("not an acoustic model"), "\(run.stderr)")
    let cached = (try? FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("cache").path)) ?? []
    #expect(cached.isEmpty, "nothing synthesized: \(cached)")
    #expect(!run.stderr.contains("synthesizing"), "\(run.stderr)")
  }

  @Test("directme-bench share-phones gives a model another's +SPN+ and leaves the rest; a folder that is no model is refused in one line")
  func benchSharePhones() throws {
    let bench = try benchExecutable()
    let folder = try TestSupport.temporaryFolder("bench-share")
    defer { try? FileManager.default.removeItem(at: folder) }
    // A copy of the shipped model, whose routed models have its +SPN+ byte for byte.
    let shipped = TestSupport.repositoryRoot.appendingPathComponent("models/en-us-directme")
    let model = folder.appendingPathComponent("en-us-directme")
    try FileManager.default.copyItem(at: shipped, to: model)
    let routed = model.appendingPathComponent("synthetic-voices")
    let files = ["means", "variances", "sendump"]
    let before = try files.map { try Data(contentsOf: routed.appendingPathComponent($0)) }
    // Debian's +SPN+ (the same model definition): the routed model's files change...
    let stock = "/usr/share/pocketsphinx/model/en-us/en-us"
    let given = try TestSupport.run([bench.path, "share-phones", "--from", stock, "--into", routed.path])
    #expect(given.status == 0, "\(given.stderr)")
    #expect(given.stdout.contains("+SPN+ as \(stock) has them (codebooks 1, senones 3,4,5)"), "\(given.stdout)")
    let changed = try files.map { try Data(contentsOf: routed.appendingPathComponent($0)) }
    for (index, file) in files.enumerated() {
      #expect(changed[index] != before[index], "\(file) unchanged")
      #expect(changed[index].count == before[index].count, "\(file)'s size")
    }
    // ...and the shipped model's +SPN+ given back restores them byte for byte: nothing else moved.
    let back = try TestSupport.run([bench.path, "share-phones", "--from", model.path, "--into", routed.path])
    #expect(back.status == 0, "\(back.stderr)")
    let restored = try files.map { try Data(contentsOf: routed.appendingPathComponent($0)) }
    #expect(restored == before)
    let bad = try TestSupport.run([bench.path, "share-phones", "--from", model.path, "--into", folder.appendingPathComponent("none").path])
    #expect(bad.status != 0)
    #expect(bad.stderr.contains("none: no mdef (not a model folder?)"), "\(bad.stderr)")
  }

  @Test("directme-bench sound-class fits speech against sounds, sets the detector's bound from other speakers' commands, and names a missing labels file in one line")
  func benchSoundClass() throws {
    let bench = try benchExecutable()
    let folder = try TestSupport.temporaryFolder("bench-sound-class")
    defer { try? FileManager.default.removeItem(at: folder) }
    // Speech: flite's voices saying words; sounds: sox's noise bursts, tones and plucked strings.
    var speechLines = ""
    var checkLines = ""
    for (index, word) in ["up", "down", "left", "right", "seven", "hello", "yes", "stop"].enumerated() {
      for voice in ["slt", "rms", "awb"] {
        let name = "\(word)-\(voice).wav"
        try TestSupport.speak(word, voice: TestSupport.Voice(.flite, voice), to: folder.appendingPathComponent(name))
        if voice == "awb" && index < 4 { checkLines += "\(name)\t\(word)\n" } else { speechLines += "\(name)\t\n" }
      }
    }
    let speech = folder.appendingPathComponent("speech.tsv")
    let check = folder.appendingPathComponent("check.tsv")
    try speechLines.write(to: speech, atomically: true, encoding: .utf8)
    try checkLines.write(to: check, atomically: true, encoding: .utf8)
    var soundLines = ""
    let sounds: [[String]] = [
      ["synth", "0.4", "whitenoise", "fade", "0", "0.4", "0.35"], ["synth", "0.6", "pinknoise", "fade", "0.01", "0.6", "0.5"],
      ["synth", "0.8", "sine", "440"], ["synth", "0.5", "square", "220", "fade", "0", "0.5", "0.45"],
      ["synth", "1", "pluck", "110"], ["synth", "1", "pluck", "330"], ["synth", "0.3", "brownnoise"], ["synth", "0.7", "sine", "1200-300"],
    ]
    for (index, effect) in sounds.enumerated() {
      let name = "sound\(index).wav"
      let made = try TestSupport.run(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", folder.appendingPathComponent(name).path] + effect + ["gain", "-n", "-6"])
      try #require(made.status == 0, "\(made.stderr)")
      soundLines += "\(name)\t\n"
    }
    let soundsLabels = folder.appendingPathComponent("sounds.tsv")
    try soundLines.write(to: soundsLabels, atomically: true, encoding: .utf8)
    // The shipped detector without its second opinion, which only an adapted model can give:
    // the checked commands are replayed through the stock model.
    let detector = folder.appendingPathComponent("detector.json")
    var shipped = try Detector.load(TestSupport.repositoryRoot.appendingPathComponent("models/en-us-directme/detector.json").path)
    shipped.secondOpinion = nil
    try shipped.json().write(to: detector)
    let out = folder.appendingPathComponent("sound-class.json")
    let arguments = [
      bench.path, "sound-class", "--speech", speech.path, "--sounds", soundsLabels.path, "--out", out.path, "--components", "2",
      "--check", check.path, "--detector", detector.path, "--refuse", "0.25", "--refuse-word", "up=0.5",
      "--model", "/usr/share/pocketsphinx/model/en-us/en-us",
    ]
    let run = try TestSupport.run(arguments)
    #expect(run.status == 0, "\(run.stderr)")
    let soundClass = try SoundClass.load(out.path)
    #expect(soundClass.speech.weights.count == 2 && soundClass.sounds.weights.count == 2)
    // Unheard: another voice's word is more like the speech, a plucked string and a noise burst like the sounds.
    let word = folder.appendingPathComponent("word.wav")
    try TestSupport.speak("seven", voice: TestSupport.Voice(.espeak, "en-us"), to: word)
    let wordSamples = try TestSupport.samples(of: word)
    let pluck = folder.appendingPathComponent("pluck.wav")
    _ = try TestSupport.run(["sox", "-R", "-n", "-r", "16000", "-c", "1", "-b", "16", pluck.path, "synth", "1", "pluck", "165", "gain", "-n", "-6"])
    let pluckSamples = try TestSupport.samples(of: pluck)
    let wordLikeness = try #require(soundClass.likeness(of: wordSamples, from: 0, to: wordSamples.count))
    let pluckLikeness = try #require(soundClass.likeness(of: pluckSamples, from: 0, to: pluckSamples.count))
    #expect(wordLikeness > 0 && pluckLikeness < 0, "word \(wordLikeness), pluck \(pluckLikeness)")
    // The same recordings and seed give the same file.
    let first = try Data(contentsOf: out)
    #expect(try TestSupport.run(arguments).status == 0)
    #expect(try Data(contentsOf: out) == first)
    // The bounds: set from the commands the detector takes from the four checked recordings
    // (as many as refused by the share of them), "up"'s from its own.
    let gate = try Detector.load(detector.path).gate
    let bound = try #require(gate.minimumSpeechLikeness)
    let taken = try #require(run.stdout.firstMatch(of: /minimumSpeechLikeness (-?[0-9.]+) \(refuses ([0-9]+) of ([0-9]+) commands\)/), "\(run.stdout)")
    #expect(Double(taken.1) == bound)
    let (refused, count) = (Int(taken.2)!, Int(taken.3)!)
    #expect((1...4).contains(count) && refused == Int(Double(count) * 0.25), "\(run.stdout)")
    let upBound = try #require(gate.minimumSpeechLikenessByWord?["up"], "\(run.stdout)")
    #expect(run.stdout.contains("minimumSpeechLikenessByWord up \(upBound) (refuses 0 of 1 ups)"), "\(run.stdout)")
    #expect(gate.minimumSpeechLikeness(of: "up") == upBound && gate.minimumSpeechLikeness(of: "down") == bound)
    let badShare = try TestSupport.run(arguments + ["--refuse-word", "sideways=0.1"])
    #expect(badShare.status != 0 && badShare.stderr.contains("--refuse-word sideways=0.1: expected word=share"), "\(badShare.stderr)")
    let missing = try TestSupport.run([bench.path, "sound-class", "--speech", folder.appendingPathComponent("none.tsv").path, "--sounds", soundsLabels.path, "--out", out.path])
    #expect(missing.status != 0)
    #expect(missing.stderr.contains("none.tsv: cannot read the labels file (no such file)"), "\(missing.stderr)")
    // One line, named by the program that printed it.
    #expect(missing.stderr.hasPrefix("directme-bench: error: "), "\(missing.stderr)")
  }

  @Test("directme loads FoundationEssentials only, not Foundation and its ICU (7 MB of every run's memory)")
  func leanLibraries() throws {
    // The dynamic loader lists what the program would load, without running it (as ldd).
    let run = try TestSupport.run([executable!.path], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
    #expect(run.stdout.contains("libFoundationEssentials.so"), "\(run.stdout)")
    #expect(!run.stdout.contains("libFoundation.so"), "\(run.stdout)")
    #expect(!run.stdout.contains("libFoundationInternationalization.so"), "\(run.stdout)")
    #expect(!run.stdout.contains("lib_FoundationICU.so"), "\(run.stdout)")
  }

  @Test("bad options are refused before any work, with the reason")
  func badOptions() throws {
    let run = try TestSupport.run([executable!.path, "replay", "--alternates", "0", "x.wav"])
    #expect(run.status != 0)
    #expect(run.stderr.contains("--alternates"))
    // At most two readings exist: asking for more is refused, not silently ignored.
    let more = try TestSupport.run([executable!.path, "replay", "--alternates", "5", "x.wav"])
    #expect(more.status != 0)
    #expect(more.stderr.contains("--alternates must be 1 or 2"), "\(more.stderr)")
    let unknown = try TestSupport.run([executable!.path, "--frobnicate"])
    #expect(unknown.status != 0)
    #expect(unknown.stderr.contains("frobnicate"))
  }

  @Test("adapt and tune: missing tools, bad labels and a taken output folder are one clear line each, exit 1")
  func trainingErrors() throws {
    let folder = try TestSupport.temporaryFolder("training-errors")
    defer { try? FileManager.default.removeItem(at: folder) }
    let clip = folder.appendingPathComponent("up.wav")
    try TestSupport.speak("up", voice: flite, to: clip)
    let labels = folder.appendingPathComponent("labels.tsv")
    try "up.wav\tup\nmissing.wav\tleft\n".write(to: labels, atomically: true, encoding: .utf8)
    let missing = try TestSupport.run([executable!.path, "adapt", labels.path, "--out", folder.appendingPathComponent("m").path])
    #expect(missing.status == 1)
    #expect(missing.stderr.contains("missing.wav: no such file"), "\(missing.stderr)")

    try "up.wav\tup\tup\n".write(to: labels, atomically: true, encoding: .utf8)
    let noTools = try TestSupport.run(
      [executable!.path, "adapt", folder.path, "--out", folder.appendingPathComponent("m").path],
      environment: ["DIRECTME_SPHINXTRAIN": "/nonexistent"])
    #expect(noTools.status == 1)
    #expect(noTools.stderr.contains("sphinxtrain is missing"), "\(noTools.stderr)")
    #expect(noTools.stderr.split(separator: "\n").count == 1, "\(noTools.stderr)")

    let taken = folder.appendingPathComponent("taken")
    try FileManager.default.createDirectory(at: taken, withIntermediateDirectories: true)
    try "keep me".write(to: taken.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
    let refused = try TestSupport.run([executable!.path, "adapt", labels.path, "--out", taken.path])
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("already exists and is not empty"), "\(refused.stderr)")
    #expect(FileManager.default.fileExists(atPath: taken.appendingPathComponent("notes.txt").path))

    // A prior weight is MAP's: asked of MLLR, or not a weight, it is refused before any work; so
    // is a count of noisy copies under 1.
    for (arguments, problem) in [
      (["--method", "mllr", "--prior-weight", "1000"], "--prior-weight is for MAP"), (["--prior-weight", "0"], "must be a number above 0"),
      (["--noisy-copies", "0"], "--noisy-copies must be 1 or more"),
    ] {
      let wrong = try TestSupport.run([executable!.path, "adapt", labels.path, "--out", folder.appendingPathComponent("w").path] + arguments)
      #expect(wrong.status != 0 && wrong.stderr.contains(problem), "\(wrong.stderr)")
      #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("w").path))
    }

    let noCommands = folder.appendingPathComponent("others.tsv")
    try "up.wav\t\thello\n".write(to: noCommands, atomically: true, encoding: .utf8)
    let tune = try TestSupport.run([executable!.path, "tune", noCommands.path, "--out", folder.appendingPathComponent("d.json").path])
    #expect(tune.status == 1)
    #expect(tune.stderr.contains("no command recordings"), "\(tune.stderr)")
  }

  @Test("replaying several files headless gives the same instructions as replaying them to text")
  func headlessMatchesText() throws {
    let folder = try TestSupport.temporaryFolder("headless")
    defer { try? FileManager.default.removeItem(at: folder) }
    let files = try makeCommandFiles(in: folder)
    let text = try TestSupport.run([executable!.path, "replay", "--json"] + files.map(\.path))
    let fromText = text.stdout.split(separator: "\n").flatMap { line -> [String] in
      let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
      return object?["instructions"] as? [String] ?? []
    }
    let headless = try TestSupport.run([executable!.path, "replay", "--headless"] + files.map(\.path))
    #expect(headless.status == 0, "\(headless.stderr)")
    let fromHeadless = headless.stdout.split(separator: "\n").filter { $0.hasPrefix("instruction ") }.compactMap {
      $0.split(separator: " ").dropFirst(2).first.map(String.init)
    }
    #expect(!fromText.isEmpty)
    #expect(fromHeadless == fromText, "headless \(fromHeadless), text \(fromText)")
  }
}
