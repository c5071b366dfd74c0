#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// A JSON file beside an acoustic model (`voice.json`, `voices.json`, `warp.json`): read with
/// a problem named in one line with the file, written as pretty JSON with sorted keys.
public protocol ModelFolderFile: Codable {
  /// Its name in a model folder.
  static var fileName: String { get }
  /// What it holds, for problems ("voice warp": "not a voice warp (...)").
  static var kind: String { get }
  /// Why a decoded value cannot be used, nil when it can.
  var problem: String? { get }
}

extension ModelFolderFile {
  /// Reads the file at `path`.
  public static func load(_ path: String) throws -> Self {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw VoiceFileError(file: path, problem: "cannot read the \(kind)")
    }
    let value: Self
    do {
      value = try JSONDecoder().decode(Self.self, from: data)
    } catch {
      throw VoiceFileError(file: path, problem: "not a \(kind) (\(error))")
    }
    if let problem = value.problem { throw VoiceFileError(file: path, problem: "not a \(kind) (\(problem))") }
    return value
  }

  /// The file of a model folder, if it has one.
  public static func load(modelFolder: String) throws -> Self? {
    let path = modelFolder + "/" + fileName
    guard FileManager.default.fileExists(atPath: path) else { return nil }
    return try load(path)
  }

  /// Pretty JSON with sorted keys.
  public func json() throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(self) + Data("\n".utf8)
  }
}
