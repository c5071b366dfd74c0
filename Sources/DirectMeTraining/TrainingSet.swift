import DirectMeCore
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// The Speech Commands training set DirectMe's model is built from
/// (`../shared/data/speech-commands-train`: `labels.tsv`, and `manifest.tsv` with each clip's
/// word and speaker), split by speaker into three parts: the acoustic model is adapted on
/// one, the detector is tuned on another, and the third checks both.
public enum TrainingSet {
  public enum Part: String, CaseIterable, Sendable {
    case adaptation, tuning, checking
  }

  /// Share of the speakers the model is adapted on.
  public static let adaptationShare = 0.5
  /// Share of the other speakers held out of tuning (`directme tune --check-share`).
  public static let checkingShare = 0.4

  /// Which part a speaker is in. The split is a stable hash of the speaker id.
  public static func part(of speaker: String) -> Part {
    if hashShare("adapt:" + speaker) < adaptationShare { return .adaptation }
    return DetectorTuner.isChecking(speaker: speaker, share: checkingShare) ? .checking : .tuning
  }

  /// A stable number in 0..<1 for a text (FNV-1a).
  static func hashShare(_ text: String) -> Double {
    let hash = StableHash.of(text)
    return Double(hash % 10_000) / 10_000
  }

  /// Every clip with its directions, words and speaker. Clips without a speaker id (the
  /// wake-word phrases) count as speakers of their own.
  public static func read(_ folder: URL) throws -> [LabelledAudio] {
    let manifestFile = folder.appendingPathComponent("manifest.tsv")
    let labelsFile = folder.appendingPathComponent(LabelsFormat.fileName)
    let manifest: String
    let labelsText: String
    do {
      manifest = try String(contentsOf: manifestFile, encoding: .utf8)
      labelsText = try String(contentsOf: labelsFile, encoding: .utf8)
    } catch {
      throw ToolError("\(folder.path): not the training set (needs manifest.tsv and labels.tsv: \(reason(of: error)))")
    }
    let (labels, errors) = LabelsFormat.parse(labelsText)
    if let error = errors.first { throw ToolError("\(labelsFile.path): \(error)") }
    let expected = Dictionary(labels.map { ($0.path, $0.expected) }, uniquingKeysWith: { first, _ in first })
    var result: [LabelledAudio] = []
    for (index, line) in manifest.split(separator: "\n").enumerated() where index > 0 {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count >= 3 else { throw ToolError("\(manifestFile.path): line \(index + 1): expected path, word, speaker") }
      let path = fields[0]
      var speaker = fields[2]
      if speaker.hasSuffix("_unknown") { speaker = URL(fileURLWithPath: path).lastPathComponent }
      // "snowboy" is not in the dictionary; "snow boy" is how it is said.
      let words = fields[1].split(separator: "_").joined(separator: " ").replacing("snowboy", with: "snow boy")
      result.append(
        LabelledAudio(
          path: folder.appendingPathComponent(path).path, expected: expected[path] ?? [], transcript: words, speaker: speaker))
    }
    return result
  }

  /// The clips of one part.
  public static func read(_ folder: URL, part: Part) throws -> [LabelledAudio] {
    try read(folder).filter { self.part(of: $0.speaker) == part }
  }

  /// A labels file's text for clips, with their words and speakers.
  public static func labels(_ clips: [LabelledAudio]) -> String {
    clips.map { "\($0.path)\t\($0.expected.map(\.rawValue).joined(separator: " "))\t\($0.transcript ?? "")\t\($0.speaker)\n" }.joined()
  }
}
