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

  @Test(
    "--aard: each of the ten sounds cut to 3 s, at three pitches within a room's quiet, labelled nonspeech by aard, the same files every run",
    .enabled(if: TestSupport.which("sox") != nil && TestSupport.which("python3") != nil, "needs sox and python3"))
  func aard() throws {
    // Stand-ins for cube2-data's packages/sounds/aard: tones of 0.5 s, one of 4 s (cut to 3).
    let folder = try TestSupport.temporaryFolder("nonspeech-aard")
    defer { try? FileManager.default.removeItem(at: folder) }
    let sounds = folder.appendingPathComponent("aard")
    try FileManager.default.createDirectory(at: sounds, withIntermediateDirectories: true)
    let names = ["die1", "die2", "grunt1", "grunt2", "pain1", "pain2", "pain3", "pain4", "pain5", "pain6"]
    for (index, name) in names.enumerated() {
      let made = try TestSupport.run([
        "sox", "-n", "-r", "22050", "-c", "1", "-b", "16", sounds.appendingPathComponent(name + ".wav").path,
        "synth", name == "die1" ? "4" : "0.5", "sine", String(200 + 40 * index), "gain", "-6",
      ])
      try #require(made.status == 0, "\(made.stderr)")
    }
    var audio: [Data] = []
    var labels: [String] = []
    for run in ["a", "b"] {
      let out = folder.appendingPathComponent(run)
      let result = try TestSupport.run(["python3", Self.script, "--aard", sounds.path, "--out", out.path])
      try #require(result.status == 0, "\(result.stderr)")
      #expect(result.stdout.contains("30 recordings of 10 of Sauerbraten's aard sounds"), "\(result.stdout)")
      labels = try String(contentsOf: out.appendingPathComponent("labels.tsv"), encoding: .utf8).split(separator: "\n").map(String.init)
      audio.append(try Data(contentsOf: out.appendingPathComponent("aard-die1-300.wav")))
    }
    #expect(labels.count == 30)
    #expect(labels.allSatisfy { $0.hasSuffix("\t\tnonspeech\taard") })
    #expect(audio[0] == audio[1], "the same bytes each run")
    // The 4-s sound cut to 3 s, with 0.5 s of room on each side.
    let samples = try AudioFileSource.readAll(path: folder.appendingPathComponent("b/aard-die1+0.wav").path)
    #expect(abs(samples.count - 4 * 16_000) < 160, "\(samples.count) samples")
    // A folder without the sounds: one line naming it, nothing written.
    let out = folder.appendingPathComponent("none")
    let missing = try TestSupport.run(["python3", Self.script, "--aard", folder.path, "--out", out.path])
    #expect(missing.status != 0)
    #expect(missing.stderr.hasPrefix("\(folder.path): no die1.wav"), "\(missing.stderr)")
    #expect(!missing.stderr.dropLast().contains("\n"))
    #expect(!FileManager.default.fileExists(atPath: out.path))
  }
}
