import DirectMeBench
import Foundation

/// Helpers the test targets share: programs on PATH, temporary folders, and speech made at
/// test time with flite or espeak-ng (never committed audio).
public enum TestSupport {
  /// The full path of `program` on PATH, if it is installed.
  public static func which(_ program: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = "\(folder)/\(program)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// A new empty folder, removed by the caller.
  public static func temporaryFolder(_ label: String = "test") throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("directme-\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  /// The result of running a program.
  public struct Run: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
  }

  /// An empty settings folder for the programs the tests run, removed when the test process exits.
  static let isolatedConfig: String = {
    let path = isolatedConfigPath()
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: TestSupport.isolatedConfigPath()) }
    return path
  }()

  private static func isolatedConfigPath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("directme-tests-config-\(getpid())").path
  }

  /// A program started by `launch`, running while the test does something else.
  public final class Launched: @unchecked Sendable {
    public let process: Process
    let out: Reader
    let err: Reader

    init(process: Process, out: Reader, err: Reader) {
      self.process = process
      self.out = out
      self.err = err
    }

    /// Sends SIGTERM, as a service manager or `kill` does.
    public func terminate() { process.terminate() }

    /// Waits for the program to end (`signal`, SIGKILL unless said, after `timeout` seconds)
    /// and returns its output.
    public func finish(timeout: Double = 60, signal: Int32 = SIGKILL) -> Run {
      let deadline = Date(timeIntervalSinceNow: timeout)
      while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
      if process.isRunning { kill(process.processIdentifier, signal) }
      process.waitUntilExit()
      return Run(status: process.terminationStatus, stdout: out.finish(), stderr: err.finish())
    }
  }

  /// Starts `arguments[0]` with the rest and returns at once.
  public static func launch(_ arguments: [String], environment: [String: String] = [:]) throws -> Launched {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0].hasPrefix("/") ? arguments[0] : (which(arguments[0]) ?? arguments[0]))
    process.arguments = Array(arguments.dropFirst())
    var env = ProcessInfo.processInfo.environment
    // The user's own settings (a personal model) must not change what the tests see.
    env["XDG_CONFIG_HOME"] = isolatedConfig
    env.merge(environment) { _, new in new }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = FileHandle.nullDevice
    try process.run()
    return Launched(process: process, out: Reader(out.fileHandleForReading), err: Reader(err.fileHandleForReading))
  }

  /// Runs `arguments[0]` with the rest, waits (SIGTERM after `timeout` seconds), and returns
  /// its output. Its output is read while it runs, so a full pipe cannot block it.
  @discardableResult
  public static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 300) throws -> Run {
    try launch(arguments, environment: environment).finish(timeout: timeout, signal: SIGTERM)
  }

  /// Reads a pipe to its end on a thread of its own.
  final class Reader: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
      DispatchQueue.global().async { [self] in
        data = handle.readDataToEndOfFile()
        done.signal()
      }
    }

    func finish() -> String {
      done.wait()
      return String(decoding: data, as: UTF8.self)
    }
  }

  /// A voice to speak test sentences with.
  public struct Voice: Hashable, Sendable, CustomStringConvertible {
    public enum Engine: String, Sendable { case flite, espeak }
    public var engine: Engine
    public var name: String
    public var rate: Int?
    public init(_ engine: Engine, _ name: String, rate: Int? = nil) {
      self.engine = engine
      self.name = name
      self.rate = rate
    }
    public var description: String { "\(engine.rawValue):\(name)" }
    public var isAvailable: Bool {
      which(engine == .flite ? "flite" : "espeak-ng") != nil && which("sox") != nil
    }
  }

  /// Speaks `text` into a 16 kHz mono 16-bit WAV at `url`, with `pad` seconds of silence
  /// before and after. A "." in the text ends a sentence and is a pause of `pause` seconds,
  /// as people pause between commands (200-400 ms; the voices' own sentence pause is
  /// about 100 ms, shorter than DirectMe's pause between two commands).
  public static func speak(_ text: String, voice: Voice, to url: URL, pad: Double = 0.3, pause: Double = 0.3) throws {
    let sentences = text.split(separator: ".").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    guard sentences.count > 1 else { return try speakSentence(text, voice: voice, to: url, pad: pad) }
    let parts = try sentences.enumerated().map { index, sentence in
      let part = url.deletingPathExtension().appendingPathExtension("part\(index).wav")
      try speakSentence(sentence, voice: voice, to: part, pad: 0)
      return part
    }
    defer { parts.forEach { try? FileManager.default.removeItem(at: $0) } }
    let joined = url.deletingPathExtension().appendingPathExtension("joined.wav")
    defer { try? FileManager.default.removeItem(at: joined) }
    try concatenate(parts, gaps: Array(repeating: pause, count: parts.count - 1), to: joined)
    let padded = try run(["sox", "-R", joined.path, url.path, "pad", String(pad), String(pad)])
    guard padded.status == 0 else { throw SynthesisError(message: "sox failed: \(padded.stderr)") }
  }

  /// `source` as a narrowband link gives it (a telephone, a Bluetooth headset), as the
  /// accuracy bench's narrowband microphone (`Tools.throughNarrowbandLink`), written to `target`.
  public static func throughNarrowbandLink(_ source: URL, to target: URL) throws {
    try Tools.throughNarrowbandLink(source.path, to: target.path)
  }

  private static func speakSentence(_ text: String, voice: Voice, to url: URL, pad: Double) throws {
    let raw = url.deletingPathExtension().appendingPathExtension("raw.wav")
    defer { try? FileManager.default.removeItem(at: raw) }
    let made: Run
    switch voice.engine {
    case .flite:
      made = try run(["flite", "-voice", voice.name, "-t", text, "-o", raw.path])
    case .espeak:
      var arguments = ["espeak-ng", "-v", voice.name, "-w", raw.path]
      if let rate = voice.rate { arguments += ["-s", String(rate)] }
      made = try run(arguments + [text])
    }
    guard made.status == 0 else { throw SynthesisError(message: "\(voice) failed: \(made.stderr)") }
    let converted = try run([
      "sox", "-R", raw.path, "-r", "16000", "-c", "1", "-b", "16", url.path, "pad", String(pad), String(pad),
    ])
    guard converted.status == 0 else { throw SynthesisError(message: "sox failed: \(converted.stderr)") }
  }

  /// Joins WAV files with silences between them (seconds), into `url`.
  public static func concatenate(_ parts: [URL], gaps: [Double], to url: URL) throws {
    precondition(gaps.count == parts.count - 1, "one gap between each pair of parts")
    var arguments = ["sox", "-R"]
    let folder = url.deletingLastPathComponent()
    var silences: [URL] = []
    defer { silences.forEach { try? FileManager.default.removeItem(at: $0) } }
    for (index, part) in parts.enumerated() {
      arguments.append(part.path)
      if index < gaps.count {
        let silence = folder.appendingPathComponent("gap-\(UUID().uuidString).wav")
        try run(["sox", "-n", "-r", "16000", "-c", "1", "-b", "16", silence.path, "trim", "0", String(gaps[index])])
        silences.append(silence)
        arguments.append(silence.path)
      }
    }
    arguments.append(url.path)
    let joined = try run(arguments)
    guard joined.status == 0 else { throw SynthesisError(message: "sox failed: \(joined.stderr)") }
  }

  public struct SynthesisError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// The repository's root (holding Package.swift), found from this file.
  public static let repositoryRoot: URL = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
  }()

  /// The built `directme` executable next to the test bundle.
  public static var executable: URL? {
    let candidates = [
      Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("directme"),
      Bundle.main.bundleURL.appendingPathComponent("directme"),
      repositoryRoot.appendingPathComponent(".build/debug/directme"),
    ]
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// DirectMe's shipped model folder (adapted model and detector.json).
  public static var shippedModel: URL { repositoryRoot.appendingPathComponent("models/en-us-directme") }

  /// The shared training set, if present.
  public static var trainingSet: URL? {
    let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data/speech-commands-train")
    return FileManager.default.fileExists(atPath: url.appendingPathComponent("manifest.tsv").path) ? url : nil
  }

  /// The shared real-speech dev set, if present.
  public static var devSet: URL? {
    let url = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data/speech-commands-dev")
    return FileManager.default.fileExists(atPath: url.appendingPathComponent("labels.tsv").path) ? url : nil
  }
}

extension TestSupport {
  /// An RGB image read from a 24- or 32-bit uncompressed BMP (what SDL_SaveBMP writes).
  public struct Pixels: Sendable {
    public var width: Int
    public var height: Int
    public var rgb: [UInt8]
    public subscript(x: Int, y: Int) -> (UInt8, UInt8, UInt8) {
      let o = (y * width + x) * 3
      return (rgb[o], rgb[o + 1], rgb[o + 2])
    }
  }

  public static func bmpPixels(_ url: URL) throws -> Pixels {
    let bytes = [UInt8](try Data(contentsOf: url))
    func int32(_ o: Int) -> Int {
      Int(Int32(bitPattern: UInt32(bytes[o]) | UInt32(bytes[o + 1]) << 8 | UInt32(bytes[o + 2]) << 16 | UInt32(bytes[o + 3]) << 24))
    }
    guard bytes.count > 54, bytes[0] == 0x42, bytes[1] == 0x4D else { throw SynthesisError(message: "\(url.path): not a BMP") }
    let offset = int32(10)
    let width = int32(18)
    let signedHeight = int32(22)
    let height = abs(signedHeight)
    let bits = Int(bytes[28]) | Int(bytes[29]) << 8
    guard bits == 24 || bits == 32 else { throw SynthesisError(message: "\(url.path): \(bits)-bit BMP") }
    let bytesPerPixel = bits / 8
    let rowBytes = (width * bytesPerPixel + 3) & ~3
    // 32-bit BMPs from SDL carry channel masks; find where red, green and blue sit.
    var shifts = (r: 16, g: 8, b: 0)
    if bits == 32, int32(14) >= 52 {
      func shift(_ mask: Int) -> Int { mask == 0 ? 0 : mask.trailingZeroBitCount }
      shifts = (shift(int32(54)), shift(int32(58)), shift(int32(62)))
    }
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
      let row = signedHeight > 0 ? height - 1 - y : y
      for x in 0..<width {
        let o = offset + row * rowBytes + x * bytesPerPixel
        let value = bits == 32 ? int32(o) : (Int(bytes[o]) | Int(bytes[o + 1]) << 8 | Int(bytes[o + 2]) << 16)
        let i = (y * width + x) * 3
        rgb[i] = UInt8(truncatingIfNeeded: value >> shifts.r)
        rgb[i + 1] = UInt8(truncatingIfNeeded: value >> shifts.g)
        rgb[i + 2] = UInt8(truncatingIfNeeded: value >> shifts.b)
      }
    }
    return Pixels(width: width, height: height, rgb: rgb)
  }

  /// The centre of the ninja sprite in a screenshot: the middle of its bounding box of
  /// non-background colours, found from the sprite's own cloth colour (28, 30, 38).
  public static func spriteCentre(in image: Pixels) -> (x: Double, y: Double)? {
    var box: (Int, Int, Int, Int)?
    for y in 0..<image.height {
      for x in 0..<image.width where image[x, y] == (28, 30, 38) {
        box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x), max($0.3, y)) } ?? (x, y, x, y)
      }
    }
    guard let box else { return nil }
    // The cloth spans sprite pixels 4...27 across and 2...28 down (of 0...31, drawn 2x).
    let left = Double(box.0) - 4 * 2
    let top = Double(box.1) - 2 * 2
    return (left + 32, top + 32)
  }
}
