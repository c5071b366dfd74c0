import Foundation
import Testing

@testable import DirectMeCore

@Suite("Acoustic model files")
struct AcousticModelFilesTests {
  /// A folder with the given files (name: contents) under a fresh temporary folder.
  private func folder(_ name: String, in root: URL, files: [String: String]) throws -> String {
    let url = root.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    for (file, contents) in files { try contents.write(to: url.appendingPathComponent(file), atomically: true, encoding: .utf8) }
    return url.path
  }

  @Test("a file the adapted model leaves out is read from its base, and from the base's base")
  func followsBases() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("model-files-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let stock = try folder("stock", in: root, files: ["mdef": "definition", "means": "stock means"])
    let shipped = try folder("shipped", in: root, files: ["means": "adapted means", "adaptation.json": #"{"baseModel": "\#(stock)"}"#])
    let personal = try folder("personal", in: root, files: ["adaptation.json": #"{"baseModel": "../shipped"}"#])
    #expect(AcousticModelFiles.path(of: "means", in: shipped) == shipped + "/means")
    #expect(AcousticModelFiles.path(of: "mdef", in: shipped) == stock + "/mdef")
    #expect(AcousticModelFiles.path(of: "means", in: personal) == shipped + "/means")
    #expect(AcousticModelFiles.path(of: "mdef", in: personal) == stock + "/mdef")
    #expect(AcousticModelFiles.path(of: "sendump", in: personal) == nil)
  }

  @Test("no adaptation.json, an unreadable one or a loop: nil, not a crash")
  func noBase() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("model-files-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let plain = try folder("plain", in: root, files: ["means": "m"])
    let broken = try folder("broken", in: root, files: ["adaptation.json": "{not json"])
    let loop = try folder("loop", in: root, files: ["adaptation.json": #"{"baseModel": "."}"#])
    #expect(AcousticModelFiles.path(of: "mdef", in: plain) == nil)
    #expect(AcousticModelFiles.path(of: "mdef", in: broken) == nil)
    #expect(AcousticModelFiles.path(of: "mdef", in: loop) == nil)
  }
}
