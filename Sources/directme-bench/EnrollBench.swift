import ArgumentParser
import DirectMeApp
import DirectMeBench
import DirectMeCommandLine
import DirectMeCore
import DirectMeTraining
import Foundation

/// Enrolls one synthetic voice and scores it, and other voices, before and after.
struct EnrollBench: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "enroll",
    abstract: "Enroll one voice (directme enroll's prompts, spoken by a synthetic voice), personalize, and score that voice and others before and after.",
    discussion: """
      The enrollment takes vary in tempo and pitch (sox), as a person's takes do; the test \
      recordings use other variations, other carrier phrases and other non-command phrases. \
      Before: DirectMe's shipped model; after: the personal model. Other voices show what the \
      personal model does to people it was not made for: the other synthetic voices, and real \
      people (a sample of the training set's checking speakers, held out of DirectMe's own \
      adaptation and tuning) when --train names the set. Then real people are enrolled too \
      (--speakers): checking speakers with many clips, each personalized on some of their \
      clips and tested on the others, and the other real people scored with their model.
      """
  )

  @Option(help: ArgumentHelp("The voice to enroll, engine:name (flite, espeak-ng).", valueName: "voice"))
  var voice: String = "flite:kal16"

  @Option(parsing: .upToNextOption, help: ArgumentHelp("Other voices to score before and after.", valueName: "voice"))
  var others: [String] = ["flite:slt", "flite:rms", "flite:awb", "espeak-ng:en-us"]

  @Option(help: ArgumentHelp("Where to write the recordings (each test folder with its labels.tsv, which directme score reads), the model and enroll.txt.", valueName: "folder"))
  var out: String = "bench-out/enroll"

  @Option(help: ArgumentHelp("The training set: a sample of its checking speakers are the real people scored before and after (skipped with a note when absent).", valueName: "folder"))
  var train: String = Resources.path("../shared/data/speech-commands-train")

  @Option(help: ArgumentHelp("How many real people's clips to score (every n-th checking clip, about half commands).", valueName: "count"))
  var people: Int = 240

  @Option(help: ArgumentHelp("Also enroll this many real people: the training set's checking speakers with the most clips, each enrolled on 3 takes of each command and half their other words and tested on the rest (0: none).", valueName: "count"))
  var speakers: Int = 4

  @Option(help: ArgumentHelp("Shift the enrolled real people's clips, their enrollment and their tests, by this many cents with sox's pitch (formants and pitch together, as the accuracy bench's higher, lower and children's voices): what enrolling does for a voice far from the model's people. The other real people are scored as recorded.", valueName: "cents"))
  var speakerPitch: Int = 0

  @OptionGroup(title: "Recognizer")
  var recognizer: RecognizerOptions

  /// Tempo and pitch (cents) of the enrollment's takes, and of the test recordings.
  static let enrollVariations: [(Double, Int)] = [(1.0, 0), (0.9, -60), (1.1, 60)]
  static let testVariations: [(Double, Int)] = [(0.95, 30), (1.05, -30), (0.85, 0), (1.15, 0)]
  static let testCommands: [(String, [Direction])] = [
    ("move the ninja left", [.left]), ("go down", [.down]), ("please go right now", [.right]), ("up up", [.up, .up]),
    ("left. down. right.", [.left, .down, .right]), ("move up", [.up]),
  ]
  static let testOthers = ["hello", "what is your name", "stop the music", "go away", "no thanks", "turn it off", "a cup of tea", "downtown"]

  /// The `count` checking speakers with the most clips (at least 3 of each command), each
  /// split into what they enroll with (3 takes of each command, every other one of their
  /// other words) and what they are tested on (the rest).
  static func enrollableSpeakers(_ clips: [LabelledAudio], count: Int) -> [(speaker: String, enroll: [LabelledAudio], test: [LabelledAudio])] {
    let bySpeaker = Dictionary(grouping: clips, by: \.speaker)
    let candidates = bySpeaker.filter { _, clips in
      Direction.allCases.allSatisfy { direction in clips.filter { $0.expected == [direction] }.count >= 4 }
    }
    return candidates.sorted { ($0.value.count, $0.key) > ($1.value.count, $1.key) }.prefix(count).map { speaker, clips in
      var enroll: [LabelledAudio] = []
      var test: [LabelledAudio] = []
      for direction in Direction.allCases {
        let takes = clips.filter { $0.expected == [direction] }.sorted { $0.path < $1.path }
        enroll += takes.prefix(3)
        test += takes.dropFirst(3)
      }
      for (index, clip) in clips.filter(\.expected.isEmpty).sorted(by: { $0.path < $1.path }).enumerated() {
        if index % 2 == 0 { enroll.append(clip) } else { test.append(clip) }
      }
      return (speaker, enroll, test)
    }
  }

  func parse(_ label: String) throws -> CorpusBuilder.Voice {
    let parts = label.split(separator: ":", maxSplits: 1).map(String.init)
    guard parts.count == 2, ["flite", "espeak-ng"].contains(parts[0]) else {
      throw ValidationError("a voice is flite:NAME or espeak-ng:NAME (got \(label))")
    }
    return CorpusBuilder.Voice(engine: parts[0], name: parts[1])
  }

  func run() throws {
    try reportingErrors {
      let outURL = URL(fileURLWithPath: out)
      let cache = outURL.appendingPathComponent("cache")
      try FileManager.default.createDirectory(at: cache, withIntermediateDirectories: true)
      let builder = CorpusBuilder(cache: cache) { warn("bench: \($0)") }
      let enrolled = try parse(voice)
      let otherVoices = try others.map(parse)
      let dictionary = recognizer.dict
      let grammar = recognizer.grammar ?? Resources.defaultGrammar
      let base = recognizer.model ?? Resources.defaultModel

      /// `text` by `voice` at a tempo and pitch, written to `folder/name.wav`.
      func record(_ text: String, _ voice: CorpusBuilder.Voice, _ variation: (Double, Int), to folder: URL, name: String) throws -> String {
        let plain = folder.appendingPathComponent(name + ".plain.wav").path
        let path = folder.appendingPathComponent(name + ".wav").path
        try Tools.write(try builder.speak(text, voice: voice), to: plain)
        try Tools.run(["sox", "-R", "-D", plain, path, "tempo", String(variation.0), "pitch", String(variation.1)])
        try? FileManager.default.removeItem(atPath: plain)
        return path
      }

      // The enrollment, as `directme enroll` would have recorded it.
      let enrollFolder = outURL.appendingPathComponent("enrollment")
      try FileManager.default.createDirectory(at: enrollFolder, withIntermediateDirectories: true)
      var labels: [LabeledRecording] = []
      let plan = EnrollmentPlan(takes: Self.enrollVariations.count, carriers: true, others: 6)
      for prompt in plan.prompts {
        let take = Int(prompt.name.split(separator: "-").last ?? "1").map { ($0 - 1) % Self.enrollVariations.count } ?? 0
        let variation = prompt.name.hasPrefix("phrase") || prompt.name.hasPrefix("other") ? Self.enrollVariations[0] : Self.enrollVariations[take]
        _ = try record(prompt.text, enrolled, variation, to: enrollFolder, name: prompt.name)
        labels.append(
          LabeledRecording(
            path: prompt.name + ".wav", expected: prompt.expected, line: labels.count + 1,
            transcript: prompt.text.replacingOccurrences(of: ".", with: ""), speaker: "enrolled"))
      }
      let labelsPath = enrollFolder.appendingPathComponent(LabelsFormat.fileName).path
      try LabelsFormat.format(labels).write(toFile: labelsPath, atomically: true, encoding: .utf8)

      // Test recordings of every voice, each folder with a labels.tsv (`directme score` reads it:
      // the errors can be looked at one by one).
      func testSet(_ voice: CorpusBuilder.Voice, index: Int) throws -> [LabelledAudio] {
        let folder = outURL.appendingPathComponent("test-\(index)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var items: [LabelledAudio] = []
        var labels: [LabeledRecording] = []
        func add(_ text: String, expected: [Direction], variation: (Double, Int), name: String) throws {
          let path = try record(text, voice, variation, to: folder, name: name)
          items.append(LabelledAudio(path: path, expected: expected, transcript: nil, speaker: voice.label))
          labels.append(
            LabeledRecording(
              path: name + ".wav", expected: expected, line: labels.count + 1,
              transcript: text.replacingOccurrences(of: ".", with: ""), speaker: voice.label))
        }
        for direction in Direction.allCases {
          for (number, variation) in Self.testVariations.enumerated() {
            try add(direction.rawValue, expected: [direction], variation: variation, name: "\(direction.rawValue)-\(number)")
          }
        }
        for (number, (text, expected)) in Self.testCommands.enumerated() {
          try add(text, expected: expected, variation: Self.testVariations[number % Self.testVariations.count], name: "phrase-\(number)")
        }
        for (number, text) in Self.testOthers.enumerated() {
          try add(text, expected: [], variation: Self.testVariations[number % Self.testVariations.count], name: "other-\(number)")
        }
        try LabelsFormat.format(labels).write(to: folder.appendingPathComponent(LabelsFormat.fileName), atomically: true, encoding: .utf8)
        return items
      }
      warn("bench: making the test recordings")
      let voices = [enrolled] + otherVoices
      let tests = try voices.enumerated().map { try testSet($0.element, index: $0.offset) }

      // Real people: every n-th clip of the checking speakers, commands and other words apart.
      var rows = voices.enumerated().map { ($0.offset == 0 ? "* " : "  ") + $0.element.label }
      var testSets = tests
      var notes: [String] = []
      var realSpeakers: [(speaker: String, enroll: [LabelledAudio], test: [LabelledAudio])] = []
      if FileManager.default.fileExists(atPath: URL(fileURLWithPath: train).appendingPathComponent("manifest.tsv").path) {
        let all = try TrainingSet.read(URL(fileURLWithPath: train), part: .checking).sorted { $0.path < $1.path }
        realSpeakers = Self.enrollableSpeakers(all, count: speakers)
        let enrolledIDs = Set(realSpeakers.map(\.speaker))
        let checking = all.filter { !enrolledIDs.contains($0.speaker) }
        let commands = checking.filter { !$0.expected.isEmpty }
        let otherSpeech = checking.filter(\.expected.isEmpty)
        func sample(_ clips: [LabelledAudio], _ count: Int) -> [LabelledAudio] {
          guard count > 0, !clips.isEmpty else { return [] }
          let step = max(1, clips.count / count)
          return Array(stride(from: 0, to: clips.count, by: step).prefix(count).map { clips[$0] })
        }
        let people = sample(commands, self.people / 2) + sample(otherSpeech, self.people - self.people / 2)
        rows.append("  real people (\(Set(people.map(\.speaker)).count))")
        testSets.append(people)
      } else {
        notes.append("real people: skipped (no training set at \(train); --train names it)")
      }

      warn("bench: scoring with \(base)")
      let before = try testSets.map { try PersonalizeJob.score(model: base, dictionary: dictionary, grammar: grammar, recordings: $0) }
      let personal = outURL.appendingPathComponent("personal-model").path
      try PersonalizeJob(
        labels: labelsPath, base: base, dictionary: dictionary, grammar: grammar, out: personal, tune: false, save: false
      ).run()
      warn("bench: scoring with the personal model")
      let after = try testSets.map { try PersonalizeJob.score(model: personal, dictionary: dictionary, grammar: grammar, recordings: $0) }

      var report = ["DirectMe enrollment benchmark: \(voice) enrolled (\(plan.prompts.count) prompts), base \(base)", ""]
      func percent(_ part: Int, _ whole: Int) -> String { whole == 0 ? "-" : String(format: "%.1f%%", 100 * Double(part) / Double(whole)) }
      report.append("voice                     before: right / FA / errors      after: right / FA / errors     errors  accuracy")
      /// One row: right, false alarms and errors before and after, the change in errors and
      /// the change in accuracy (1 - errors / items) in points.
      func row(_ name: String, _ b: EnrollmentScore, _ a: EnrollmentScore) -> String {
        let change = b.errors == 0 ? "-" : String(format: "%+.0f%%", 100 * Double(a.errors - b.errors) / Double(b.errors))
        let points = b.total == 0 ? "-" : String(format: "%+.1f pt", 100 * Double(b.errors - a.errors) / Double(b.total))
        return name.padding(toLength: 26, withPad: " ", startingAt: 0)
          + "\(percent(b.right, b.commands)) / \(percent(b.falseAlarms, b.others)) / \(b.errors) of \(b.total)".padding(toLength: 33, withPad: " ", startingAt: 0)
          + "\(percent(a.right, a.commands)) / \(percent(a.falseAlarms, a.others)) / \(a.errors) of \(a.total)".padding(toLength: 31, withPad: " ", startingAt: 0)
          + change.padding(toLength: 8, withPad: " ", startingAt: 0) + points
      }
      for (index, name) in rows.enumerated() { report.append(row(name, before[index], after[index])) }
      if rows.count > 2 {
        report.append(row("  all others", before.dropFirst().reduce(EnrollmentScore(), +), after.dropFirst().reduce(EnrollmentScore(), +)))
      }
      report.append("")
      report.append("* enrolled. Target: at least a third fewer errors for the enrolled voice; others no more than 1 point worse.")

      // Real people enrolled, one at a time; the others are the real people's sample (which
      // holds none of them).
      if !realSpeakers.isEmpty, let peopleIndex = rows.indices.last, rows[peopleIndex].contains("real people") {
        report.append("")
        report.append("Real people enrolled (checking speakers: 3 takes of each command and half their other words; tested on their other clips)")
        report.append("voice                     before: right / FA / errors      after: right / FA / errors     errors  accuracy")
        var selfBefore = EnrollmentScore()
        var selfAfter = EnrollmentScore()
        var othersAfter = EnrollmentScore()
        if speakerPitch != 0 {
          report.append("(these speakers' clips, enrollment and tests, shifted \(speakerPitch) cents with sox's pitch; the others as recorded)")
        }
        for (speaker, clips, tests) in realSpeakers {
          let folder = outURL.appendingPathComponent("speaker-\(speaker)")
          try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
          /// The clips shifted by `speakerPitch`, written beside the speaker's model.
          func voiced(_ clips: [LabelledAudio]) throws -> [LabelledAudio] {
            guard speakerPitch != 0 else { return clips }
            return try clips.map { clip in
              var shifted = clip
              let parts = clip.path.split(separator: "/")
              shifted.path = folder.appendingPathComponent(parts.suffix(2).joined(separator: "__")).path
              if !FileManager.default.fileExists(atPath: shifted.path) {
                try Tools.run(["sox", "-R", "-D", clip.path, shifted.path, "pitch", String(speakerPitch)])
              }
              return shifted
            }
          }
          let enroll = try voiced(clips)
          let test = try voiced(tests)
          let labels = folder.appendingPathComponent(LabelsFormat.fileName)
          try TrainingSet.labels(enroll).write(to: labels, atomically: true, encoding: .utf8)
          let model = folder.appendingPathComponent("personal-model").path
          warn("bench: enrolling \(speaker) (\(enroll.count) clips)")
          try PersonalizeJob(labels: labels.path, base: base, dictionary: dictionary, grammar: grammar, out: model, tune: false, save: false).run()
          let b = try PersonalizeJob.score(model: base, dictionary: dictionary, grammar: grammar, recordings: test)
          let a = try PersonalizeJob.score(model: model, dictionary: dictionary, grammar: grammar, recordings: test)
          let others = try PersonalizeJob.score(model: model, dictionary: dictionary, grammar: grammar, recordings: testSets[peopleIndex])
          let warp = try VoiceProfile.load(modelFolder: model)?.warp.map { String(format: " (warp %.2f)", $0) } ?? ""
          report.append(row("* \(speaker)\(warp)", b, a))
          report.append(row("    real people, others", before[peopleIndex], others))
          selfBefore = selfBefore + b
          selfAfter = selfAfter + a
          othersAfter = othersAfter + others
        }
        let count = realSpeakers.count
        report.append(row("* all \(count) enrolled", selfBefore, selfAfter))
        report.append(
          row("  others, \(count) models", (0..<count).reduce(EnrollmentScore()) { sum, _ in sum + before[peopleIndex] }, othersAfter))
      }
      report += notes
      let text = report.joined(separator: "\n")
      print(text)
      try text.write(to: outURL.appendingPathComponent("enroll.txt"), atomically: true, encoding: .utf8)
    }
  }
}
