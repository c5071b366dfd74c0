import ArgumentParser
import DirectMeApp
import DirectMeAudio
import DirectMeBench
import DirectMeCommandLine
import DirectMeCore
import DirectMeRecognizer
import DirectMeTraining
import Foundation

struct LiveBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "live",
    abstract: "Reaction time, decode speed and the cost of listening, beside baselines from the same run.",
    discussion: """
      1. Latency in stream time, from the end of each spoken command to the instruction, on \
      sequences of 2-4 commands with 200-400 ms pauses (real people: the training set's \
      checking speakers, when --train names it; and four flite voices), and on the same real \
      people's commands said one every 4 s over a room noise that goes on (tap, bike, kitchen, \
      pink), beside the v1 end-of-speech rule (0.5 s of silence). 2. Decode speed: `directme replay` of one long \
      recording (and its streaming pass alone, without the final pass) beside \
      `pocketsphinx_continuous -infile` with the same grammar and with a four-word grammar, \
      and the final pass's time by search (one more replay with DIRECTME_SEARCH_TIMES=1). \
      3. Live, through a private PulseAudio daemon whose virtual \
      microphone is fed in real time, the window on SDL's dummy driver: start-up time, CPU \
      while listening to silence and to continuous speech, resident memory, and the \
      end-to-end latency to the first frame that shows the move, split by stage.
      """
  )

  @Option(help: ArgumentHelp("Where to write live.txt and the long recording.", valueName: "folder"))
  var out: String = "bench-out"

  @Option(help: "Sequences for the stream-time latency (of real people, and of synthetic voices).")
  var sequences: Int = 60

  @Option(help: ArgumentHelp("The training set: its checking speakers' command clips make the real people's sequences (skipped with a note when absent).", valueName: "folder"))
  var train: String = Resources.path("../shared/data/speech-commands-train")

  @Option(help: "SNR (dB) of the real people's commands said over a room noise, one every 4 s.")
  var backgroundSnr: Double = 10

  @Flag(help: "Skip the commands said over a room noise.")
  var noBackground = false

  @Option(help: "Minutes of audio in the long recording (0: skip the decode-speed part).")
  var longMinutes: Double = 5

  @Option(help: "Runs of each program in the decode-speed part (their median counts).")
  var decodeRuns: Int = 3

  @Option(help: "Commands played into the virtual microphone for the end-to-end latency.")
  var commands: Int = 100

  @Option(help: "Seconds of silence, of continuous speech and of commands over room noise, for the live CPU figures.")
  var cpuSeconds: Double = 30

  @Option(help: "Minutes of soak after the live figures: commands, room noise and silence in turn, resident memory sampled (0: none).")
  var soakMinutes: Double = 0

  @Option(
    help: "The soak's first cycle (as numbered in soak-memory.tsv): each cycle's sequences and noise follow from its number, so a short soak from cycle N plays what a long one plays there.")
  var soakFirstCycle: Int = 1

  @Flag(help: "Skip the live part (PulseAudio, window).")
  var noLive = false

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  func validate() throws {
    guard decodeRuns >= 1 else { throw ValidationError("--decode-runs must be 1 or more") }
    guard soakFirstCycle >= 1 else { throw ValidationError("--soak-first-cycle must be 1 or more (soak-memory.tsv's first cycle is 1)") }
  }

  func run() throws {
    try reportingErrors {
      let outFolder = URL(fileURLWithPath: out)
      let cache = outFolder.appendingPathComponent("cache")
      try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
      let builder = CorpusBuilder(cache: cache) { warn("bench: \($0)") }
      var report = ["DirectMe live benchmark (\(self.recognizer.summary))", ""]
      func emit(_ line: String) {
        print(line)
        fflush(nil)
        report.append(line)
      }

      // 1. Stream-time latency.
      warn("bench: making \(sequences) sequences")
      var corpora: [(String, [TimedRecording])] = []
      // The commands over a room noise, for the live CPU figure in noise too.
      var overNoise: [TimedRecording] = []
      if FileManager.default.fileExists(atPath: URL(fileURLWithPath: train).appendingPathComponent("manifest.tsv").path) {
        let clips = try TrainingSet.read(URL(fileURLWithPath: train), part: .checking)
          .filter { $0.expected.count == 1 }.sorted { $0.path < $1.path }
          .map { (id: ($0.path as NSString).lastPathComponent, direction: $0.expected[0], samples: try Tools.samples($0.path)) }
        corpora.append(("\(sequences) sequences of 2-4 commands, 200-400 ms pauses, real people (\(clips.count) command clips of the training set's checking speakers)", TimedRecording.sequences(of: clips, count: sequences, pause: 0.2...0.4)))
        if !noBackground {
          // One command every 4 s over 30 s of each noise: 48 commands, a pause under the
          // endpointer's floor never coming.
          var random = Signal.Random(seed: 7)
          let backgrounds = TimedRecording.backgrounds().map {
            TimedRecording.overBackground(of: clips, background: $0, snr: backgroundSnr, random: &random)
          }
          overNoise = backgrounds
          corpora.append(("\(backgrounds.count) recordings of 30 s, the same real people, one command every 4 s over a room noise that goes on (tap, bike, kitchen, pink), \(String(format: "%g", backgroundSnr)) dB under them", backgrounds))
        }
      } else {
        emit("(real people skipped: no training set at \(train); --train names it)")
      }
      corpora.append(("\(sequences) sequences of 2-4 commands, 200-400 ms pauses, synthetic voices (flite slt, rms, awb, kal16)", try builder.timedSequences(count: sequences, pause: 0.2...0.4)))
      let recognizer = try self.recognizer.makeRecognizer()
      let interpreter = try self.recognizer.makeInterpreter()
      emit("1. Latency, end of the spoken command to the instruction (stream time)")
      let rules: [(String, EndpointerSettings)] = [
        ("DirectMe (acts \(EndpointerSettings().quickEndSilence) s after a command; ends at 0.5 s)", EndpointerSettings()),
        ("v1 baseline (acts at the end: 0.5 s of silence)", EndpointerSettings(endSilence: 0.5, quickEndSilence: 0.5)),
      ]
      for (corpus, recordings) in corpora {
        emit("\(corpus):")
        emit(latencyRow("end-of-speech rule", "p50", "p95", "slowest", "<= 250 ms", "commands acted on", "recordings exact", "extra"))
        for (name, settings) in rules {
          var measurement = LatencyMeasurement()
          for (number, recording) in recordings.enumerated() {
            recognizer.resetAdaptation()
            let listener = CommandListener(recognizer: recognizer, interpreter: interpreter, endpointer: settings)
            let result = try listener.run(samples: recording.samples)
            measurement.add(recording, utterances: result.utterances)
            // DIRECTME_BENCH_DEBUG=1 keeps each sequence that came out wrong, for listening.
            if ProcessInfo.processInfo.environment["DIRECTME_BENCH_DEBUG"] != nil {
              let got = result.directions.map(\.rawValue).joined(separator: " ")
              let want = recording.expected.map(\.rawValue).joined(separator: " ")
              if got != want {
                let misses = outFolder.appendingPathComponent("misses")
                try FileManager.default.createDirectory(at: misses, withIntermediateDirectories: true)
                let file = misses.appendingPathComponent("\(corpora.firstIndex { $0.0 == corpus } ?? 0)-recording-\(number + 1).wav").path
                try Tools.write(recording.samples, to: file)
                warn("\(name.prefix(8)) \(file): want [\(want)] got [\(got)]")
              }
            }
            if ProcessInfo.processInfo.environment["DIRECTME_BENCH_LATENCIES"] != nil {
              // Each instruction as direction@its word's end>emitted, and each word said as direction@end.
              let acted = result.utterances.flatMap { utterance in
                utterance.interpretation.instructions.map { String(format: "%@@%.2f>%.2f", $0.direction.rawValue, $0.end, utterance.emittedAt) }
              }
              warn(
                "latency \(name.prefix(8)) \(recording.id): \(acted.joined(separator: " ")) said \(recording.words.map { String(format: "%@@%.2f", $0.direction.rawValue, $0.end) }.joined(separator: " "))")
            }
          }
          emit(
            latencyRow(
              name, milliseconds(LatencyMeasurement.percentile(measurement.latencies, 0.5)),
              milliseconds(LatencyMeasurement.percentile(measurement.latencies, 0.95)), milliseconds(measurement.latencies.max()),
              String(format: "%.0f%%", 100 * Double(measurement.latencies.filter { $0 <= 0.25 }.count) / Double(max(1, measurement.latencies.count))),
              "\(measurement.latencies.count)/\(measurement.expectedWords)",
              "\(measurement.exactSequences)/\(measurement.sequences)", "\(measurement.extraInstructions)"))
        }
      }
      emit("")

      // 2. Decode speed on one long recording.
      if longMinutes <= 0 {
        emit("2. Decode speed: skipped (--long-minutes 0)")
        emit("")
      } else {
        let long = try longRecording(builder: builder, folder: outFolder)
        emit("2. Decode speed: one recording of \(String(format: "%.1f", long.seconds / 60)) min (\(long.path))")
        emit(row("program", "seconds", "runs", "x real time", "vs stock, same grammar", "CPU seconds"))
        let grammar = self.recognizer.grammar ?? Resources.defaultGrammar
        // DirectMe's shipped model reads its mdef from the model it was adapted from.
        let folder = self.recognizer.modelFolder
        let modelDefinition = FileManager.default.fileExists(atPath: folder + "/mdef")
          ? [] : AcousticModelFiles.path(of: "mdef", in: folder).map { ["-mdef", $0] } ?? []
        // pocketsphinx_continuous reads one dictionary: the grammar's companion (its words the
        // main dictionary lacks, such as "nonspeech") is added to a copy of the main one.
        let dictionary = try RecognizerConfiguration.companionDictionary(of: grammar).map {
          try ModelAdapter.combineDictionaries(self.recognizer.dict, adding: $0, into: cache.appendingPathComponent("grammar-and-companion.dict"))
        } ?? self.recognizer.dict
        let fourWords = cache.appendingPathComponent("four-directions.gram")
        try "#JSGF V1.0;\ngrammar directions;\npublic <direction> = up | down | left | right;\n"
          .write(to: fourWords, atomically: true, encoding: .utf8)
        // The streaming pass alone (no final pass: its commands are not checked against other
        // words, so not a configuration to use) shows what the final pass costs.
        let programs: [(name: String, arguments: [String])] = [
          ("directme replay", [Self.executable, "replay", "--json", long.path] + recognizerArguments),
          ("directme replay, streaming pass alone", [Self.executable, "replay", "--json", "--streaming-only", long.path] + recognizerArguments),
          ("pocketsphinx_continuous, directme.gram", [
            "pocketsphinx_continuous", "-infile", long.path, "-jsgf", grammar, "-dict", dictionary,
            "-hmm", self.recognizer.modelFolder,
          ] + modelDefinition),
          ("pocketsphinx_continuous, four words", [
            "pocketsphinx_continuous", "-infile", long.path, "-jsgf", fourWords.path, "-hmm", self.recognizer.modelFolder,
          ] + modelDefinition),
        ]
        // Each program runs `decodeRuns` times, the three in turn, and its median counts: on a
        // shared machine one run of the same program varied by 20-30% within minutes.
        var seconds = [[Double]](repeating: [], count: programs.count)
        // User and system time (a program may use more than one core: DirectMe's final pass
        // scores with a helper thread).
        var cpu = [[Double]](repeating: [], count: programs.count)
        for _ in 0..<decodeRuns {
          for (index, program) in programs.enumerated() {
            let (wall, used) = try timed(program.arguments)
            seconds[index].append(wall)
            cpu[index].append(used)
          }
        }
        // decodeRuns >= 1 (validate), so every program has a median.
        let medians = seconds.map { LatencyMeasurement.percentile($0, 0.5)! }
        let cpuMedians = cpu.map { LatencyMeasurement.percentile($0, 0.5)! }
        let (sameGrammar, fourWordStock) = (2, 3)
        for (index, program) in programs.enumerated() {
          let spread = String(format: "%.2f-%.2f", seconds[index].min()!, seconds[index].max()!)
          let versus = index < sameGrammar
            ? String(format: "%.2fx the time", medians[index] / medians[sameGrammar]) : index == sameGrammar ? "1.00x" : "-"
          emit(
            row(
              program.name, String(format: "%.2f", medians[index]), spread, String(format: "%.0f", long.seconds / medians[index]), versus,
              String(format: "%.2f", cpuMedians[index])))
        }
        emit(
          String(
            format: "directme replay against the four-word stock: %.1fx the time, %.1fx the CPU time (medians of %d runs each); its streaming pass alone %.1fx, the final pass the other %.0f%%",
            medians[0] / medians[fourWordStock], cpuMedians[0] / cpuMedians[fourWordStock], decodeRuns, medians[1] / medians[fourWordStock],
            100 * max(0, medians[0] - medians[1]) / medians[0]))
        // Where the final pass's time goes: one more replay, each final pass writing its
        // searches' costs (`DIRECTME_SEARCH_TIMES=1`, `SearchCost`).
        let searched = try Tools.runReading(programs[0].arguments, environment: ["DIRECTME_SEARCH_TIMES": "1"]).stderr
        let passes = searched.split(separator: "\n").compactMap(SearchCost.parse)
        let totals = SearchCost.totals(passes)
        let allSeconds = totals.reduce(0) { $0 + $1.seconds }
        emit(
          String(
            format: "the final pass's searches, one more replay (DIRECTME_SEARCH_TIMES=1): %d passes, %.2f s in all (\"+scoring\": every senone of the audio scored for that search)",
            passes.count, allSeconds))
        emit(searchRow("search", "decodes", "frames", "seconds", "us a frame", "share"))
        for total in totals {
          emit(
            searchRow(
              total.search, "\(total.decodes)", "\(total.frames)", String(format: "%.3f", total.seconds),
              String(format: "%.0f", total.frames > 0 ? 1e6 * total.seconds / Double(total.frames) : 0),
              String(format: "%.0f%%", allSeconds > 0 ? 100 * total.seconds / allSeconds : 0)))
        }
        emit("")
      }

      // 3. Live.
      if noLive {
        emit("3. Live: skipped (--no-live)")
      } else if !PulseAudioServer.isAvailable {
        emit("3. Live: skipped: pulseaudio and pactl are not installed (scripts/setup.sh)")
      } else {
        try liveFigures(builder: builder, folder: outFolder, overNoise: overNoise, emit: emit)
      }
      let file = outFolder.appendingPathComponent("live.txt")
      try (report.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
      warn("bench: wrote \(file.path)")
    }
  }

  // MARK: Parts

  /// The recognizer options as given, for the `directme` processes the bench starts.
  private var recognizerArguments: [String] {
    var arguments = ["--model", recognizer.modelFolder, "--dict", recognizer.dict]
    if let grammar = recognizer.grammar { arguments += ["--grammar", grammar] }
    if let detector = recognizer.detectorFile { arguments += ["--detector", detector] }
    if let threshold = recognizer.threshold { arguments += ["--threshold", String(threshold)] }
    return arguments
  }

  /// The `directme` app built beside this program.
  static var executable: String { Resources.executable.deletingLastPathComponent().appendingPathComponent("directme").path }

  /// Sequences and single commands with pauses of 0.2-3 s, at least `longMinutes` long.
  private func longRecording(builder: CorpusBuilder, folder: URL) throws -> (path: String, seconds: Double) {
    let path = folder.appendingPathComponent("long-\(Int(longMinutes * 60))s.wav").path
    if FileManager.default.fileExists(atPath: path), let samples = try? Tools.samples(path) {
      return (path, Double(samples.count) / 16_000)
    }
    warn("bench: making the long recording")
    var random = Signal.Random(seed: 5)
    var samples: [Int16] = []
    var seed: UInt64 = 100
    while Double(samples.count) < longMinutes * 60 * 16_000 {
      for recording in try builder.timedSequences(count: 8, pause: 0.2...0.4, seed: seed) {
        samples += recording.samples + Signal.roomTone(Double.random(in: 0.5...2.5, using: &random), random: &random)
      }
      seed += 1
    }
    try Tools.write(samples, to: path)
    return (path, Double(samples.count) / 16_000)
  }

  /// The wall time `arguments` ran for, and the user and system time it used (every thread).
  private func timed(_ arguments: [String]) throws -> (wall: Double, cpu: Double) {
    let before = Self.childrenCPU()
    let start = Date()
    try Tools.run(arguments)
    return (Date().timeIntervalSince(start), Self.childrenCPU() - before)
  }

  /// User and system seconds of the child processes waited for so far (`getrusage`).
  private static func childrenCPU() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
    let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// `overNoise`: the recordings of commands over a room noise (part 1), from which
  /// `cpuSeconds` of commands in noise are played too (none: that figure is skipped).
  private func liveFigures(builder: CorpusBuilder, folder: URL, overNoise: [TimedRecording], emit: (String) -> Void) throws {
    let pulse = try PulseAudioServer()
    defer { pulse.stop() }
    let work = folder.appendingPathComponent("live")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    let timingPath = work.appendingPathComponent("timings.jsonl").path
    let stdoutPath = work.appendingPathComponent("stdout.txt").path
    let stderrPath = work.appendingPathComponent("stderr.txt").path
    _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
    _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)

    // The audio: silence, continuous speech, then single commands with long pauses.
    var random = Signal.Random(seed: 21)
    let silence = Signal.roomTone(cpuSeconds + 2, random: &random)
    var speech: [Int16] = []
    var seed: UInt64 = 300
    while Double(speech.count) < cpuSeconds * 16_000 {
      speech += try builder.timedSequences(count: 4, pause: 0.2...0.4, seed: seed).flatMap(\.samples)
      seed += 1
    }
    // Commands in noise: an equal stretch of each recording over a room noise, from 1 s before
    // its first command (the noise goes on around it and after it).
    var noisy: [Int16] = []
    if !overNoise.isEmpty {
      let each = Int(cpuSeconds * 16_000) / overNoise.count
      for recording in overNoise {
        let from = max(0, Int(((recording.words.first?.start ?? 1) - 1) * 16_000))
        noisy += recording.samples[min(from, recording.samples.count)..<min(from + each, recording.samples.count)]
      }
    }
    var singles: [Int16] = Signal.roomTone(1, random: &random)
    var words: [(direction: Direction, endSample: Int)] = []
    let singleRecordings = try builder.timedSequences(count: (commands + 1) / 2, pause: 1.2...1.6, seed: 400)
    for recording in singleRecordings {
      let base = silence.count + speech.count + singles.count
      for word in recording.words { words.append((word.direction, base + Int(word.end * 16_000))) }
      singles += recording.samples
    }

    var environment = ProcessInfo.processInfo.environment
    environment["PULSE_SERVER"] = pulse.server
    environment["SDL_VIDEODRIVER"] = "dummy"
    environment["SDL_AUDIODRIVER"] = "dummy"
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.executable)
    process.arguments = ["live", "--hands-free", "--device", pulse.source, "--timing-log", timingPath] + recognizerArguments
    process.environment = environment
    process.standardOutput = FileHandle(forWritingAtPath: stdoutPath)
    process.standardError = FileHandle(forWritingAtPath: stderrPath)
    // The virtual microphone must have audio flowing before DirectMe starts reading.
    let feeder = Feeder(pulse: pulse)
    feeder.start(Signal.roomTone(600, random: &random))
    defer { feeder.stop() }
    Thread.sleep(forTimeInterval: 0.5)
    // A `directme live` that stops early would leave the rest of this part playing minutes
    // of audio to nobody and measuring a dead process: say so, with what it said.
    func stillListening(_ stage: String) throws {
      guard !process.isRunning else { return }
      process.waitUntilExit()
      let said = ((try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
        .split(separator: "\n").last.map { ": " + $0.replacingOccurrences(of: "directme: error: ", with: "") } ?? ""
      throw Failure("directme live exited (status \(process.terminationStatus)) \(stage)\(said) (output in \(work.path))")
    }

    let launched = Date()
    try process.run()
    var startup: Double?
    while Date().timeIntervalSince(launched) < 10 && process.isRunning {
      if let text = try? String(contentsOfFile: stdoutPath, encoding: .utf8), text.contains("listening:") {
        startup = Date().timeIntervalSince(launched)
        break
      }
      Thread.sleep(forTimeInterval: 0.005)
    }
    guard let startup else {
      try stillListening("before it started listening")
      process.terminate()
      throw Failure("directme live did not start listening within 10 s (see \(stdoutPath))")
    }
    defer {
      if process.isRunning {
        process.terminate()
        process.waitUntilExit()
      }
    }
    Thread.sleep(forTimeInterval: 2)
    feeder.stop()
    try stillListening("after it started listening")

    let pid = process.processIdentifier
    let startRSS = ProcessFigures.residentMegabytes(pid)
    warn("bench: \(Int(cpuSeconds)) s of silence")
    let idle = try ProcessFigures.cpuShare(pid) { try pulse.play(silence) }
    try stillListening("while it listened to silence")
    warn("bench: \(Int(cpuSeconds)) s of continuous speech")
    let busy = try ProcessFigures.cpuShare(pid) { try pulse.play(speech) }
    try stillListening("while it listened to continuous speech")
    var inNoise: Double?
    if !noisy.isEmpty {
      warn("bench: \(Int(cpuSeconds)) s of commands over room noise")
      inNoise = try ProcessFigures.cpuShare(pid) { try pulse.play(noisy) }
      try stillListening("while it listened to commands over room noise")
      try pulse.play(Signal.roomTone(2, random: &random))
    }
    warn("bench: \(words.count) single commands")
    var written: [(index: Int, wall: Double)] = []
    let base = silence.count + speech.count
    try pulse.play(singles) { index, wall in written.append((base + index, wall)) }
    try pulse.play(Signal.roomTone(2, random: &random))
    try stillListening("while it was given single commands")
    let endRSS = ProcessFigures.residentMegabytes(pid)
    let peakRSS = ProcessFigures.peakResidentMegabytes(pid)
    let soak = soakMinutes > 0 ? try soak(pulse: pulse, pid: pid, builder: builder, timingPath: timingPath, random: &random) : nil
    try stillListening("during the soak")
    process.terminate()
    process.waitUntilExit()

    // Match each instruction to the command it answered, by direction and wall clock.
    let decoder = JSONDecoder()
    let timings = ((try? String(contentsOfFile: timingPath, encoding: .utf8)) ?? "")
      .split(separator: "\n").compactMap { try? decoder.decode(InstructionTiming.self, from: Data($0.utf8)) }
    let wordTimes = words.compactMap { word -> (Direction, Double)? in
      written.first(where: { $0.index >= word.endSample }).map { (word.direction, $0.wall) }
    }
    var stages: [String: [Double]] = [:]
    var matched = 0
    for timing in timings where timing.queued == false {
      guard let captured = timing.capturedWall, let rendered = timing.renderedWall,
        let spoken = wordTimes.first(where: {
          $0.0.rawValue == timing.direction && captured >= $0.1 - 0.2 && captured - $0.1 < 1.0
        })?.1
      else { continue }
      matched += 1
      stages["end to end", default: []].append(rendered - spoken)
      stages["capture (written to the FIFO -> read by DirectMe)", default: []].append(captured - spoken)
      stages["end of speech (after the decoder's word end, stream time)", default: []].append(timing.emittedStream - timing.wordEnd)
      stages["decode (final pass)", default: []].append(timing.decodeSeconds)
      stages["interpretation", default: []].append(timing.interpretSeconds)
      stages["render (emitted -> first frame with the move)", default: []].append(rendered - timing.emittedWall)
    }
    emit("3. Live through PulseAudio (module-pipe-source, 30 ms fragments), window on SDL's dummy driver")
    emit(row("figure", "value", "target"))
    emit(row("start to listening", String(format: "%.2f s", startup), "<= 0.3 s"))
    emit(row("CPU, listening to silence", String(format: "%.1f%% of a core", idle * 100), "<= 2%"))
    emit(row("CPU, continuous speech", String(format: "%.1f%% of a core", busy * 100), "<= 10%"))
    emit(
      row(
        "CPU, commands over room noise (tap, bike, kitchen, pink)",
        inNoise.map { String(format: "%.1f%% of a core", $0 * 100) } ?? "skipped (no training set, or --no-background)", "-"))
    emit(
      row(
        "resident memory", String(format: "%.0f MB after start, %.0f MB at end, peak %.0f MB", startRSS, endRSS, peakRSS),
        "<= 100 MB, flat"))
    if let soak, let first = soak.memory.first {
      // Warm-up: the first tenth of the cycles. Flat: the median of the last third of the
      // samples beside that of the first third after warm-up (one sample can catch an
      // utterance still being decoded, its senone scores in memory).
      let settled = Array(soak.memory.dropFirst(max(1, soak.memory.count / 10)))
      let third = max(1, settled.count / 3)
      let early = LatencyMeasurement.percentile(Array(settled.prefix(third)), 0.5) ?? first
      let late = LatencyMeasurement.percentile(Array(settled.suffix(third)), 0.5) ?? first
      let low = settled.min() ?? first
      let high = settled.max() ?? first
      let samples = soak.memory.enumerated().map { "\($0.offset + soakFirstCycle)\t\(String(format: "%.1f", $0.element))" }
      try ("cycle\tresident MB\n" + samples.joined(separator: "\n") + "\n")
        .write(to: work.appendingPathComponent("soak-memory.tsv"), atomically: true, encoding: .utf8)
      emit(
        row(
          String(format: "soak, %.0f min (%d cycles", soak.minutes, soak.memory.count)
            + (soakFirstCycle > 1 ? " from cycle \(soakFirstCycle))" : ")"),
          String(
            format: "memory after warm-up: median %.1f MB (first third) -> %.1f MB (last third), samples %.1f-%.1f MB; %d instructions for %d commands played",
            early, late, low, high, soak.instructions, soak.commands),
          "flat within 5 MB"))
    }
    emit("")
    emit("End-to-end latency over \(matched) of \(words.count) commands (those acted on while the ninja stood still)")
    emit(row("stage", "p50", "p95"))
    for name in [
      "capture (written to the FIFO -> read by DirectMe)", "end of speech (after the decoder's word end, stream time)",
      "decode (final pass)", "interpretation", "render (emitted -> first frame with the move)", "end to end",
    ] {
      let values = stages[name] ?? []
      emit(
        row(name, milliseconds(LatencyMeasurement.percentile(values, 0.5)), milliseconds(LatencyMeasurement.percentile(values, 0.95))))
    }
  }

  /// Plays cycles of four command sequences, a room noise and room tone into the virtual
  /// microphone for `soakMinutes`, sampling resident memory after each cycle.
  private func soak(
    pulse: PulseAudioServer, pid: Int32, builder: CorpusBuilder, timingPath: String, random: inout Signal.Random
  ) throws -> (memory: [Double], commands: Int, instructions: Int, minutes: Double) {
    func instructionsLogged() -> Int {
      ((try? String(contentsOfFile: timingPath, encoding: .utf8)) ?? "").split(separator: "\n").count
    }
    let before = instructionsLogged()
    var memory: [Double] = []
    var commandsPlayed = 0
    let start = Date()
    var cycle = soakFirstCycle - 1
    while Date().timeIntervalSince(start) < soakMinutes * 60 {
      let recordings = try builder.timedSequences(count: 4, pause: 0.2...0.4, seed: 1000 + UInt64(cycle % 50))
      commandsPlayed += recordings.reduce(0) { $0 + $1.words.count }
      let room = Signal.Room.allCases[cycle % Signal.Room.allCases.count].make(seconds: 3, seed: UInt64(cycle))
      let gain = Signal.gain(room, toLevel: -35)
      let cycleAudio = recordings.flatMap { $0.samples + Signal.roomTone(1, random: &random) }
        + room.map { Int16(clamping: Int(Double($0) * gain)) } + Signal.roomTone(3, random: &random)
      try pulse.play(cycleAudio)
      memory.append(ProcessFigures.residentMegabytes(pid))
      cycle += 1
      if cycle % 10 == 0 {
        warn("bench: soak \(Int(Date().timeIntervalSince(start) / 60)) min, \(String(format: "%.1f", memory.last ?? 0)) MB")
      }
    }
    try pulse.play(Signal.roomTone(2, random: &random))
    return (memory, commandsPlayed, instructionsLogged() - before, Date().timeIntervalSince(start) / 60)
  }

  private func milliseconds(_ value: Double?) -> String {
    value.map { String(format: "%.0f ms", $0 * 1000) } ?? "-"
  }

  private func row(_ cells: String...) -> String { row(widths: [52, 14, 14, 14, 20, 18, 8], cells) }

  /// The final pass's searches' row: search, decodes, frames, seconds, per frame, share.
  private func searchRow(_ cells: String...) -> String { row(widths: [28, 8, 8, 8, 11, 6], cells) }

  /// A latency table's row: rule, p50, p95, slowest, within 250 ms, acted on, exact, extra.
  private func latencyRow(_ cells: String...) -> String { row(widths: [54, 8, 8, 9, 10, 18, 17, 5], cells) }

  private func row(widths: [Int], _ cells: [String]) -> String {
    cells.enumerated().map { index, cell in
      cell.padding(toLength: max(cell.count, widths[min(index, widths.count - 1)]), withPad: " ", startingAt: 0)
    }.joined(separator: " ").trimmingCharacters(in: .whitespaces)
  }
}
