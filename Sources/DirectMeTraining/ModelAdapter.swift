import DirectMeAudio
import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem
import Synchronization
import Dispatch

/// Adapts a PocketSphinx PTM acoustic model to labelled recordings with sphinxtrain's tools:
/// features with `sphinx_fe`, statistics with `bw` (in parallel parts), then `map_adapt` and
/// `mk_s2sendump` (MAP) or `mllr_solve` (MLLR). The result is a model folder that loads with
/// `--model`.
public struct ModelAdapter: Sendable {
  public var options: AdaptationOptions
  public var tools: ToolRunner

  public init(options: AdaptationOptions, tools: ToolRunner = ToolRunner()) {
    self.options = options
    self.tools = tools
  }

  /// Every problem with the inputs, one line each, found before any long work starts: missing
  /// tools, a missing base model, words not in the dictionary.
  public func check(_ items: [AdaptationItem]) throws {
    try tools.checkAll()
    for file in ["mdef", "means", "variances", "transition_matrices", "feat.params", "noisedict"] {
      guard let path = AcousticModelFiles.path(of: file, in: options.baseModel), FileManager.default.isReadableFile(atPath: path) else {
        throw ToolError("\(options.baseModel): not an acoustic model ('\(file)' is missing)")
      }
    }
    guard FileManager.default.isReadableFile(atPath: options.baseModel + "/sendump")
      || FileManager.default.isReadableFile(atPath: options.baseModel + "/mixture_weights")
    else {
      throw ToolError("\(options.baseModel): not an acoustic model (no 'sendump' or 'mixture_weights')")
    }
    let known = try Self.words(in: [options.dictionary] + (options.extraDictionary.map { [$0] } ?? []))
    var unknown: [String: String] = [:]
    for item in items {
      for word in item.words where !known.contains(word) && unknown[word] == nil { unknown[word] = item.audio }
    }
    if let (word, file) = unknown.sorted(by: { $0.key < $1.key }).first {
      let more = unknown.count > 1 ? " (and \(unknown.count - 1) more: \(unknown.keys.sorted().dropFirst().prefix(5).joined(separator: ", ")))" : ""
      throw ToolError("\(file): the transcript word '\(word)' is not in the dictionary \(options.dictionary)\(more); add it with --extra-dict or fix the transcript")
    }
  }

  /// The words of dictionary files (pronunciation variants folded: "read(2)" is "read").
  static func words(in files: [String]) throws -> Set<String> {
    var words: Set<String> = []
    for file in files {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw ToolError("\(file): cannot read the dictionary")
      }
      for line in data.split(separator: UInt8(ascii: "\n")) {
        guard let end = line.firstIndex(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { continue }
        var word = String(decoding: line[line.startIndex..<end], as: UTF8.self)
        if word.hasSuffix(")"), let open = word.lastIndex(of: "(") { word = String(word[..<open]) }
        words.insert(word)
      }
    }
    return words
  }

  /// Adapts the base model to `items` and writes the new model to `output` (which must not
  /// exist yet or be empty). `work` holds the intermediate files.
  @discardableResult
  public func adapt(
    _ items: [AdaptationItem], output: URL, work: URL, progress: @escaping @Sendable (AdaptationProgress) -> Void = { _ in }
  ) throws -> AdaptationSummary {
    try check(items)
    let fileManager = FileManager.default
    try fileManager.createDirectory(at: work, withIntermediateDirectories: true)
    let audioFolder = work.appendingPathComponent("wav")
    let featureFolder = work.appendingPathComponent("mfc")
    try fileManager.createDirectory(at: audioFolder, withIntermediateDirectories: true)
    try fileManager.createDirectory(at: featureFolder, withIntermediateDirectories: true)

    // The model definition in sphinxtrain's text form, and the phones to adapt alone, if asked.
    let base = options.baseModel
    let modelDefinition = AcousticModelFiles.path(of: "mdef", in: base) ?? base + "/mdef"
    let textModelDefinition = work.appendingPathComponent("mdef.txt").path
    try tools.run(
      "pocketsphinx_mdef_convert", ["-text", modelDefinition, textModelDefinition], log: work.appendingPathComponent("mdef_convert.log"))
    let selection = try options.onlyPhones.isEmpty
      ? nil
      : PhoneSelection(
        phones: options.onlyPhones, modelDefinition: String(contentsOfFile: textModelDefinition, encoding: .utf8), file: modelDefinition)
    if selection != nil, options.method == .mllr {
      throw ToolError("only some phones can be adapted by MAP, not MLLR (one transform moves every mean): leave out --method mllr")
    }

    // 1. Audio: every recording at 16 kHz mono, and its noisy copies.
    let noises = try options.noiseFolder.map { try Self.loadNoises($0) } ?? []
    var random = Signal.Random(seed: options.seed)
    // Rooms draw from their own stream, so the noisy copies stay as they were without them.
    var rooms = Signal.Random(seed: options.seed &+ 101)
    // So do the shifted voices.
    var voices = Signal.Random(seed: options.seed &+ 202)
    // And the overdriven copies.
    var overdrives = Signal.Random(seed: options.seed &+ 303)
    var utterances: [(id: String, words: [String])] = []
    var seconds = 0.0
    /// Writes one recording (or a copy of one) and adds it to what is adapted on.
    func add(_ samples: [Int16], as id: String, saying words: [String]) throws {
      try AudioFileWriter.write(samples: samples, to: audioFolder.appendingPathComponent(id + ".wav").path)
      utterances.append((id, words))
    }
    for (index, item) in items.enumerated() {
      let samples: [Int16]
      do {
        samples = try AudioFileSource.readAll(path: item.audio)
      } catch {
        throw ToolError("\(item.audio): cannot read the recording (\(error))")
      }
      guard !samples.isEmpty else { throw ToolError("\(item.audio): no audio in the recording") }
      seconds += Double(samples.count) / 16_000
      let id = String(printf: "u%06d", index)
      try add(samples, as: id, saying: item.words)
      if !noises.isEmpty {
        for copy in 0..<options.noisyCopies {
          let mixed = Signal.mixedWithOne(of: noises, samples, snr: options.snr, random: &random).samples
          try add(mixed, as: id + "n\(copy)", saying: item.words)
        }
      }
      if options.reverbEvery > 0 && index % options.reverbEvery == 0 {
        try add(Signal.reverberatedInSomeRoom(samples, random: &rooms).samples, as: id + "r", saying: item.words)
      }
      if options.voiceShiftEvery > 0 && index % options.voiceShiftEvery == 0 {
        try add(Self.shiftedVoice(samples, random: &voices), as: id + "v", saying: item.words)
      }
      if options.clipEvery > 0 && index % options.clipEvery == 0 {
        try add(Signal.overdrivenSomehow(samples, random: &overdrives), as: id + "c", saying: item.words)
      }
      progress(AdaptationProgress(stage: "reading recordings", done: index + 1, total: items.count))
    }
    guard seconds >= options.minimumSeconds else {
      throw ToolError(
        "too little audio to adapt: \(String(printf: "%.1f", seconds)) s in \(items.count) recordings (at least \(Int(options.minimumSeconds)) s needed)")
    }
    // Adapting chosen phones only, MAP it is: MLLR moves every mean at once.
    let method: AdaptationOptions.Method =
      options.method == .auto
      ? (seconds >= AdaptationOptions.minutesForMAP * 60 || !options.onlyPhones.isEmpty ? .map : .mllr) : options.method
    if method == .mllr, let weight = options.priorWeight {
      // Asked for MAP's prior weight, the user would otherwise get MLLR without a word.
      let why =
        options.method == .mllr
        ? "MLLR was asked for"
        : "\(String(printf: "%.1f", seconds / 60)) min of audio is adapted by MLLR (MAP from \(Int(AdaptationOptions.minutesForMAP)) min)"
      throw ToolError(
        "a prior weight (\(String(printf: "%g", weight)) frames) is for MAP, and \(why): leave the weight out, or ask for MAP (--method map)")
    }

    // 2. Features, control file and transcripts.
    let ids = utterances.map(\.id)
    try (ids.joined(separator: "\n") + "\n").write(to: work.appendingPathComponent("all.fileids"), atomically: true, encoding: .utf8)
    try utterances.map { "<s> \($0.words.joined(separator: " ")) </s> (\($0.id))\n" }.joined()
      .write(to: work.appendingPathComponent("all.transcription"), atomically: true, encoding: .utf8)
    try extractFeatures(ids, audio: audioFolder, features: featureFolder, work: work, progress: progress)

    // 3. The base model in the forms sphinxtrain reads.
    let mixtureWeights: String
    if fileManager.fileExists(atPath: base + "/mixture_weights") {
      mixtureWeights = base + "/mixture_weights"
    } else {
      mixtureWeights = work.appendingPathComponent("mixture_weights").path
      try MixtureWeights(sendump: base + "/sendump").mixtureWeightsFile().write(to: URL(fileURLWithPath: mixtureWeights))
    }

    // 4. Statistics, in parallel parts.
    let parts = max(1, min(options.jobs, ids.count))
    let accumulators = (1...parts).map { work.appendingPathComponent("bw-part\($0)") }
    for folder in accumulators { try fileManager.createDirectory(at: folder, withIntermediateDirectories: true) }
    let dictionaries = try combinedDictionary(work: work)
    let counter = Counter(total: utterances.count) { progress(AdaptationProgress(stage: "collecting statistics (bw)", done: $0, total: $1)) }
    let failure = Locked<Error?>(nil)
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      do {
        try tools.run(
          "bw",
          [
            "-hmmdir", base, "-moddeffn", textModelDefinition, "-ts2cbfn", ".ptm.", "-feat", "1s_c_d_dd",
            "-svspec", "0-12/13-25/26-38", "-cmn", "batch", "-agc", "none", "-dictfn", dictionaries,
            "-fdictfn", base + "/noisedict", "-ctlfn", work.appendingPathComponent("all.fileids").path,
            "-lsnfn", work.appendingPathComponent("all.transcription").path, "-cepdir", featureFolder.path,
            "-accumdir", accumulators[part].path, "-npart", String(parts), "-part", String(part + 1),
            "-mixwfn", mixtureWeights, "-meanfn", base + "/means", "-varfn", base + "/variances",
            "-tmatfn", base + "/transition_matrices",
          ],
          log: work.appendingPathComponent("bw-part\(part + 1).log"),
          onLine: { line in if line.hasPrefix("utt>") { counter.add(1) } })
      } catch {
        failure.update { if $0 == nil { $0 = error } }
      }
    }
    if let error = failure.value { throw error }
    let accumulated = accumulators.map(\.path).joined(separator: ",")

    // 5. The new model, written beside the output and moved into place when complete.
    let staging = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).partial")
    try? fileManager.removeItem(at: staging)
    try fileManager.createDirectory(at: staging, withIntermediateDirectories: true)
    for file in ["mdef", "feat.params", "noisedict", "transition_matrices"] {
      try fileManager.copyItem(atPath: AcousticModelFiles.path(of: file, in: base) ?? base + "/" + file, toPath: staging.appendingPathComponent(file).path)
    }
    switch method {
    case .map, .auto:
      progress(AdaptationProgress(stage: "MAP adaptation (map_adapt)", done: 0, total: 1))
      let newWeights = work.appendingPathComponent("map_mixture_weights").path
      try tools.run(
        "map_adapt",
        [
          "-moddeffn", textModelDefinition, "-ts2cbfn", ".ptm.", "-meanfn", base + "/means", "-varfn", base + "/variances",
          "-mixwfn", mixtureWeights, "-tmatfn", base + "/transition_matrices", "-accumdir", accumulated,
          "-mapmeanfn", staging.appendingPathComponent("means").path,
          "-mapvarfn", staging.appendingPathComponent("variances").path, "-mapmixwfn", newWeights,
          "-maptmatfn", work.appendingPathComponent("map_transition_matrices").path,
        ] + (options.priorWeight.map { ["-fixedtau", "yes", "-tau", String($0)] } ?? []),
        log: work.appendingPathComponent("map_adapt.log"))
      try tools.run(
        "mk_s2sendump",
        [
          "-pocketsphinx", "yes", "-moddeffn", textModelDefinition, "-mixwfn", newWeights,
          "-sendumpfn", staging.appendingPathComponent("sendump").path,
        ],
        log: work.appendingPathComponent("mk_s2sendump.log"))
      // Every other phone as the base model has it.
      try selection?.keepBase(base, outside: staging.path)
      progress(AdaptationProgress(stage: "MAP adaptation (map_adapt)", done: 1, total: 1))
    case .mllr:
      progress(AdaptationProgress(stage: "MLLR transform (mllr_solve)", done: 0, total: 1))
      for file in ["means", "variances"] {
        try fileManager.copyItem(atPath: AcousticModelFiles.path(of: file, in: base) ?? base + "/" + file, toPath: staging.appendingPathComponent(file).path)
      }
      if fileManager.fileExists(atPath: base + "/sendump") {
        try fileManager.copyItem(atPath: base + "/sendump", toPath: staging.appendingPathComponent("sendump").path)
      } else {
        try fileManager.copyItem(atPath: mixtureWeights, toPath: staging.appendingPathComponent("mixture_weights").path)
      }
      try tools.run(
        "mllr_solve",
        [
          "-meanfn", base + "/means", "-varfn", base + "/variances", "-accumdir", accumulated,
          "-outmllrfn", staging.appendingPathComponent("mllr_matrix").path,
        ],
        log: work.appendingPathComponent("mllr_solve.log"))
      progress(AdaptationProgress(stage: "MLLR transform (mllr_solve)", done: 1, total: 1))
    }
    let summary = AdaptationSummary(
      method: method.rawValue, recordings: items.count, noisyCopies: noises.isEmpty ? 0 : options.noisyCopies,
      reverberantCopies: Self.copies(of: items.count, every: options.reverbEvery),
      shiftedVoiceCopies: Self.copies(of: items.count, every: options.voiceShiftEvery),
      clippedCopies: Self.copies(of: items.count, every: options.clipEvery), seconds: seconds,
      priorWeight: options.priorWeight, baseModel: base, onlyPhones: selection?.phones,
      noise: options.noiseFolder,
      snr: noises.isEmpty ? nil : "\(Int(options.snr.lowerBound)):\(Int(options.snr.upperBound))")
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(summary).write(to: staging.appendingPathComponent("adaptation.json"))
    if fileManager.fileExists(atPath: output.path) { try fileManager.removeItem(at: output) }
    try fileManager.moveItem(at: staging, to: output)
    return summary
  }

  /// The main dictionary plus the extra one, in one file (bw takes one).
  private func combinedDictionary(work: URL) throws -> String {
    guard let extra = options.extraDictionary else { return options.dictionary }
    return try Self.combineDictionaries(options.dictionary, adding: extra, into: work.appendingPathComponent("combined.dict"))
  }

  /// Writes `main`'s entries and then `extra`'s entries whose word (as written, "off(2)" with its
  /// number) `main` lacks into `file`, for a program that reads one dictionary (bw,
  /// pocketsphinx_continuous); `extra`'s comment lines are left out. Returns the file's path.
  public static func combineDictionaries(_ main: String, adding extra: String, into file: URL) throws -> String {
    var text = try String(contentsOfFile: main, encoding: .utf8)
    if !text.hasSuffix("\n") { text += "\n" }
    let known = Set(text.split(separator: "\n").compactMap { $0.split(separator: " ", maxSplits: 1).first.map(String.init) })
    for line in try String(contentsOfFile: extra, encoding: .utf8).split(separator: "\n") {
      guard let word = line.split(separator: " ", maxSplits: 1).first, !word.hasPrefix("#"), !known.contains(String(word)) else { continue }
      text += line + "\n"
    }
    try text.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }

  private func extractFeatures(
    _ ids: [String], audio: URL, features: URL, work: URL, progress: @escaping @Sendable (AdaptationProgress) -> Void
  ) throws {
    let parts = max(1, min(options.jobs, ids.count))
    let counter = Counter(total: ids.count) { progress(AdaptationProgress(stage: "computing features (sphinx_fe)", done: $0, total: $1)) }
    let failure = Locked<Error?>(nil)
    let base = options.baseModel
    DispatchQueue.concurrentPerform(iterations: parts) { part in
      let mine = stride(from: part, to: ids.count, by: parts).map { ids[$0] }
      let list = work.appendingPathComponent("fe-part\(part + 1).fileids")
      do {
        try (mine.joined(separator: "\n") + "\n").write(to: list, atomically: true, encoding: .utf8)
        try tools.run(
          "sphinx_fe",
          [
            "-argfile", base + "/feat.params", "-samprate", "16000", "-c", list.path, "-di", audio.path,
            "-do", features.path, "-ei", "wav", "-eo", "mfc", "-mswav", "yes", "-verbose", "yes",
          ],
          log: work.appendingPathComponent("fe-part\(part + 1).log"),
          onLine: { line in if line.contains("Processing") || line.hasPrefix("INFO: sphinx_fe.c") && line.contains(".wav") { counter.add(1) } })
      } catch {
        failure.update { if $0 == nil { $0 = error } }
      }
    }
    if let error = failure.value { throw error }
    counter.finish()
  }

  /// How many of `count` recordings get a copy when every `every`-th does (the first among them;
  /// nil when none do).
  static func copies(of count: Int, every: Int) -> Int? {
    every > 0 ? (count + every - 1) / every : nil
  }

  /// How much faster or slower `shiftedVoice` plays a recording: every frequency (pitch and
  /// formants) and the tempo move together, as a shorter vocal tract (a child, a high voice)
  /// or a longer one shifts them.
  public static let voiceShifts = [0.88...0.94, 1.06...1.14]

  /// `samples` played faster and higher or slower and lower (a factor drawn from `voiceShifts`),
  /// at 16 kHz.
  public static func shiftedVoice(_ samples: [Int16], random: inout Signal.Random) -> [Int16] {
    let range = voiceShifts[Int.random(in: 0..<voiceShifts.count, using: &random)]
    let factor = Double.random(in: range, using: &random)
    return Resampler.resample(samples.map { Float($0) }, from: Int((16_000 * factor).rounded()), to: 16_000)
      .map { Int16(clamping: Int($0.rounded())) }
  }

  /// The noise recordings in a folder (audio files of any format), at 16 kHz.
  public static func loadNoises(_ folder: String) throws -> [[Int16]] {
    var isFolder = false
    guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder else {
      throw ToolError("\(folder): noise folder not found")
    }
    let files = AudioFileReader.expand([folder])
    guard !files.isEmpty else { throw ToolError("\(folder): no noise recordings (.wav, .flac, ...) in it") }
    return try files.map { path in
      do {
        let samples = try AudioFileSource.readAll(path: path)
        guard samples.count >= 16_000 else { throw ToolError("shorter than 1 s") }
        return samples
      } catch {
        throw ToolError("\(path): cannot use it as noise (\(error))")
      }
    }
  }
}

/// Counts finished units from several threads and reports each new count.
final class Counter: Sendable {
  private let done = Mutex(0)
  private let total: Int
  private let report: @Sendable (Int, Int) -> Void

  init(total: Int, report: @escaping @Sendable (Int, Int) -> Void) {
    self.total = total
    self.report = report
  }

  func add(_ count: Int) {
    done.withLock { done in
      done = min(total, done + count)
      report(done, total)
    }
  }

  func finish() {
    done.withLock { done in
      done = total
      report(total, total)
    }
  }
}
