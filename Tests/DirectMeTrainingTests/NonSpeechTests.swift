import DirectMeAudio
import DirectMeTestSupport
import Foundation
import Testing

/// scripts/make-nonspeech.py: the recordings the model's non-speech phone is adapted on.
struct NonSpeechRecordingsTests {
  static let script = TestSupport.repositoryRoot.appendingPathComponent("scripts/make-nonspeech.py").path
  static let wad = "/usr/share/games/doom/freedoom2.wad"

  @Test(
    "Freedoom's 54 voices, three pitches each, at 16 kHz within 0.5 s of a room's quiet, labelled nonspeech, the same files every run",
    .enabled(if: FileManager.default.fileExists(atPath: wad), "needs Debian's freedoom (scripts/setup.sh --voices)"),
    .enabled(if: TestSupport.which("sox") != nil && TestSupport.which("python3") != nil, "needs sox and python3"))
  func recordings() throws {
    let folder = try TestSupport.temporaryFolder("nonspeech")
    defer { try? FileManager.default.removeItem(at: folder) }
    var labels: [String] = []
    var audio: [Data] = []
    for run in ["a", "b"] {
      let out = folder.appendingPathComponent(run)
      let result = try TestSupport.run(["python3", Self.script, "--wad", Self.wad, "--out", out.path])
      try #require(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("162 recordings of 54 Freedoom voices"), "\(result.stdout)")
      labels = try String(contentsOf: out.appendingPathComponent("labels.tsv"), encoding: .utf8)
        .split(separator: "\n").map(String.init)
      audio.append(try Data(contentsOf: out.appendingPathComponent("oof+300.wav")))
    }
    #expect(labels.count == 162)
    #expect(labels.allSatisfy { $0.hasSuffix("\t\tnonspeech\tfreedoom") })
    #expect(audio[0] == audio[1], "sox's dither and noise are seeded: the same bytes each run")
    // The player's "oof" (Freedoom's DSOOF) with its half seconds of room around it.
    let samples = try AudioFileSource.readAll(path: folder.appendingPathComponent("b/oof+0.wav").path)
    let peak = { (part: ArraySlice<Int16>) in part.map { abs(Int($0)) }.max() ?? 0 }
    #expect(samples.count > 16_000, "0.5 s before, the sound, 0.5 s after")
    #expect(peak(samples.prefix(7_000)) < 200 && peak(samples.suffix(7_000)) < 200, "a room's quiet around it")
    #expect(peak(samples.dropFirst(8_000).dropLast(8_000)) > 3_000, "the sound in the middle")
  }

  @Test(
    "a file that is not a WAD: one line naming it, a non-zero exit, nothing written",
    .enabled(if: TestSupport.which("python3") != nil, "needs python3"))
  func notAWAD() throws {
    let folder = try TestSupport.temporaryFolder("nonspeech-bad")
    defer { try? FileManager.default.removeItem(at: folder) }
    let bad = folder.appendingPathComponent("doom.wad")
    try "not a wad".write(to: bad, atomically: true, encoding: .utf8)
    let out = folder.appendingPathComponent("out")
    let result = try TestSupport.run(["python3", Self.script, "--wad", bad.path, "--out", out.path])
    #expect(result.status != 0)
    #expect(result.stderr == "\(bad.path): not a WAD file\n", "\(result.stderr)")
    #expect(!FileManager.default.fileExists(atPath: out.path))
    let missing = try TestSupport.run(["python3", Self.script, "--wad", folder.appendingPathComponent("none.wad").path, "--out", out.path])
    #expect(missing.status != 0 && missing.stderr.hasPrefix(folder.appendingPathComponent("none.wad").path + ": cannot read the WAD file"))
  }
}
