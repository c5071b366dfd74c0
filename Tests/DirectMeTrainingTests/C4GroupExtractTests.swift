import DirectMeTestSupport
import Foundation
import Testing

/// scripts/c4group-extract.py: OpenClonk's sound library for the held-out checks.
struct C4GroupExtractTests {
  static let script = TestSupport.repositoryRoot.appendingPathComponent("scripts/c4group-extract.py").path

  /// Runs the script with `arguments` (archive, folder, pattern).
  static func extract(_ arguments: String...) throws -> TestSupport.Run {
    try TestSupport.run(["python3", script] + arguments)
  }

  /// Writes a group as OpenClonk does (Python: the format's inverse, written apart from the
  /// reader): "Sound.ocg" holding "Hurt1.wav" and a child group "Clonk.ocg" holding "Die1.ogg".
  static let writer = """
    import gzip, struct, sys
    def group(entries):
        header = bytearray(204)
        header[:24] = b"RedWolf Design GrpFolder"
        header[28:40] = struct.pack("<3i", 1, 2, len(entries))
        for i in range(0, len(header) - 2, 3):
            header[i], header[i + 2] = header[i + 2], header[i]
        table, body = b"", b""
        for name, data, child in entries:
            entry = bytearray(316)
            entry[:len(name)] = name.encode()
            entry[260:280] = struct.pack("<iiIII", 1, child, len(data), 0, len(body))
            table += bytes(entry)
            body += data
        return bytes(b ^ 0xED for b in header) + table + body
    inner = group([("Die1.ogg", b"die", 0)])
    packed = bytearray(gzip.compress(group([("Hurt1.wav", b"hurt!", 0), ("Clonk.ocg", inner, 1)])))
    packed[:2] = b"\\x1e\\x8c"
    open(sys.argv[1], "wb").write(packed)
    """

  @Test(
    "every file of a group, nested groups as folders; a pattern keeps only the paths it matches",
    .enabled(if: TestSupport.which("python3") != nil, "needs python3"))
  func extracts() throws {
    let folder = try TestSupport.temporaryFolder("c4group")
    defer { try? FileManager.default.removeItem(at: folder) }
    let archive = folder.appendingPathComponent("Sound.ocg")
    let made = try TestSupport.run(["python3", "-c", Self.writer, archive.path])
    try #require(made.status == 0, "\(made.stderr)")
    let all = folder.appendingPathComponent("all")
    let result = try Self.extract(archive.path, all.path)
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout == "\(archive.path): 2 files written under \(all.path)\n")
    #expect(try Data(contentsOf: all.appendingPathComponent("Hurt1.wav")) == Data("hurt!".utf8))
    #expect(try Data(contentsOf: all.appendingPathComponent("Clonk.ocg/Die1.ogg")) == Data("die".utf8))
    let some = folder.appendingPathComponent("some")
    let chosen = try Self.extract(archive.path, some.path, #"Clonk\.ocg/"#)
    #expect(chosen.status == 0)
    #expect(FileManager.default.fileExists(atPath: some.appendingPathComponent("Clonk.ocg/Die1.ogg").path))
    #expect(!FileManager.default.fileExists(atPath: some.appendingPathComponent("Hurt1.wav").path))
  }

  @Test(
    "a file that is not a group, or none: one line naming it, a non-zero exit, nothing written",
    .enabled(if: TestSupport.which("python3") != nil, "needs python3"))
  func notAGroup() throws {
    let folder = try TestSupport.temporaryFolder("c4group-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = folder.appendingPathComponent("Sound.ocg")
    try "not a group".write(to: bad, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out")
    let result = try Self.extract(bad.path, out.path)
    #expect(result.status != 0)
    #expect(result.stderr == "\(bad.path): not an OpenClonk group (C4Group) file\n", "\(result.stderr)")
    // gzip's magic changed as OpenClonk does, but what it holds is no group.
    let made = try TestSupport.run([
      "python3", "-c",
      "import gzip,sys; d=bytearray(gzip.compress(b'x'*300)); d[:2]=b'\\x1e\\x8c'; open(sys.argv[1],'wb').write(d)", bad.path,
    ])
    try #require(made.status == 0, "\(made.stderr)")
    let corrupt = try Self.extract(bad.path, out.path)
    #expect(corrupt.status != 0)
    #expect(corrupt.stderr == "\(bad.path): corrupt OpenClonk group (no group header at its start)\n", "\(corrupt.stderr)")
    let missing = folder.appendingPathComponent("none.ocg").path
    let none = try Self.extract(missing, out.path)
    #expect(none.status != 0 && none.stderr.hasPrefix(missing + ": cannot read the group"))
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }
}
