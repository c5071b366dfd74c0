import DirectMeRecognizer
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

/// Finds DirectMe's own files (grammars/, Assets/, models/) next to the executable, in the
/// folder named by DIRECTME_HOME, or in the current folder.
public enum Resources {
  public static let grammarName = "grammars/directme.gram"
  public static let modelName = "models/en-us-directme"

  /// The folder holding grammars/ and Assets/, if any.
  public static let home: URL? = {
    let fileManager = FileManager.default
    var candidates: [URL] = []
    if let env = ProcessInfo.processInfo.environment["DIRECTME_HOME"] {
      candidates.append(URL(fileURLWithPath: env))
    }
    var folder = executable.deletingLastPathComponent()
    for _ in 0..<6 {
      candidates.append(folder)
      folder = folder.deletingLastPathComponent()
    }
    candidates.append(URL(fileURLWithPath: fileManager.currentDirectoryPath))
    return candidates.first { fileManager.fileExists(atPath: $0.appendingPathComponent(grammarName).path) }
  }()

  /// The running program.
  public static var executable: URL { URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath() }

  /// What to say when `home` is not found (a program copied away from its folder).
  public static var notFoundMessage: String {
    "DirectMe's own files (\(grammarName), \(modelName)) are neither beside this program "
      + "(\(executable.deletingLastPathComponent().path) and the folders above it) nor in the current folder "
      + "(\(FileManager.default.currentDirectoryPath)): set DIRECTME_HOME to the folder holding them, or give --grammar and --model"
  }

  public static func path(_ relative: String) -> String {
    (home ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent(relative).path
  }

  public static var defaultGrammar: String { path(grammarName) }
  /// DirectMe's adapted acoustic model when it is there, else Debian's stock model.
  public static var defaultModel: String {
    let adapted = path(modelName)
    return FileManager.default.fileExists(atPath: adapted + "/means")
      ? adapted : RecognizerConfiguration.defaultModelFolder + "/en-us"
  }
  public static var defaultSprite: String { path("Assets/ninja.bmp") }
}
