#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Where an acoustic model folder's files are. An adapted model leaves out what it shares
/// unchanged with the model it was adapted from (DirectMe's shipped model has no `mdef`: it
/// is Debian's, byte for byte); such a file is read from the base model that the folder's
/// `adaptation.json` names, and from its base in turn.
public enum AcousticModelFiles {
  /// How many bases are followed at most (a personal model, DirectMe's, Debian's).
  static let maximumDepth = 4

  /// The path of `file` of the model in `folder`, or nil when neither it nor a base has it.
  public static func path(of file: String, in folder: String) -> String? {
    var current = folder
    for _ in 0..<maximumDepth {
      let candidate = current + "/" + file
      if FileManager.default.fileExists(atPath: candidate) { return candidate }
      guard let base = baseModel(of: current) else { return nil }
      current = base
    }
    return nil
  }

  /// The base model named in `folder/adaptation.json` (relative to the folder when relative).
  public static func baseModel(of folder: String) -> String? {
    struct Adaptation: Decodable { var baseModel: String? }
    guard let data = FileManager.default.contents(atPath: folder + "/adaptation.json"),
      let base = (try? JSONDecoder().decode(Adaptation.self, from: data))?.baseModel, !base.isEmpty
    else { return nil }
    return base.hasPrefix("/") ? base : URL(fileURLWithPath: folder).appendingPathComponent(base).standardizedFileURL.path
  }
}
