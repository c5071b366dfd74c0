import CSndFile
#if canImport(Glibc)
  import FoundationEssentials
  import Glibc
#else
  import Foundation
#endif

import DirectMeSystem

/// A problem with an audio file, named by file.
public struct AudioFileError: Error, Hashable, Sendable, CustomStringConvertible {
  public var file: String
  public var problem: String
  public init(file: String, problem: String) {
    self.file = file
    self.problem = problem
  }
  public var description: String { "\(file): \(problem)" }
}

/// The shape of the audio in a file: its container and encoding as libsndfile names them
/// ("WAV (Microsoft)", "U-Law"), its rate and channels.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
  public var container: String
  public var encoding: String
  public var sampleRate: Int
  public var channels: Int
  public init(container: String, encoding: String, sampleRate: Int, channels: Int) {
    self.container = container
    self.encoding = encoding
    self.sampleRate = sampleRate
    self.channels = channels
  }
  public var description: String {
    "\(container), \(encoding), \(sampleRate) Hz, \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels")"
  }
}

/// Reads an audio file a block at a time through libsndfile, so a file of any length takes
/// little memory: WAV in every encoding libsndfile knows (PCM, float, A-law, mu-law, ADPCM,
/// GSM), FLAC, OGG/Vorbis, Opus, MP3, AIFF, AU and more, any rate and channel count.
/// Anything else is refused with the reason.
///
/// The corresponding C functions are `sf_open`, `sf_readf_float` and `sf_close`.
public final class AudioFileReader {
  /// The rates accepted: telephone audio up to studio audio.
  public static let sampleRates = 4_000...384_000

  public let path: String
  public let format: AudioFormat
  /// How much audio a WAV header declared and how much the file holds, in seconds, when the
  /// header promised more than the file holds; `nil` otherwise.
  public let truncation: (declared: Double, held: Double)?

  private let file: OpaquePointer
  private var block: [Float] = []

  public init(path: String) throws {
    self.path = path
    var isFolder = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw AudioFileError(file: path, problem: "no such file")
    }
    guard !isFolder else { throw AudioFileError(file: path, problem: "is a folder, not an audio file") }
    guard FileManager.default.isReadableFile(atPath: path) else {
      throw AudioFileError(file: path, problem: "cannot open the file (permission denied)")
    }
    let size = fileSize(atPath: path)
    guard size != 0 else { throw AudioFileError(file: path, problem: "empty file") }
    var info = SF_INFO()
    guard let file = sf_open(path, Int32(SFM_READ), &info) else {
      let reason = String(String(cString: sf_strerror(nil)).trimmed { " .\n".contains($0) })
      throw AudioFileError(file: path, problem: "not an audio file DirectMe can read (\(Self.oneLine(reason)))")
    }
    self.file = file
    let container = Self.formatName(file, Int32(info.format) & Int32(SF_FORMAT_TYPEMASK))
    let encoding = Self.formatName(file, Int32(info.format) & Int32(SF_FORMAT_SUBMASK))
    format = AudioFormat(
      container: container, encoding: encoding, sampleRate: Int(info.samplerate), channels: Int(info.channels))
    guard Self.sampleRates.contains(format.sampleRate) else {
      sf_close(file)
      throw AudioFileError(file: path, problem: "unsupported sample rate \(format.sampleRate) Hz (\(format))")
    }
    guard (1...64).contains(format.channels) else {
      sf_close(file)
      throw AudioFileError(file: path, problem: "unsupported channel count \(format.channels)")
    }
    truncation = Self.truncation(file, frames: Int(info.frames), rate: format.sampleRate)
  }

  deinit {
    sf_close(file)
  }

  /// The next block of up to `frames` frames, mixed to mono, as samples in -1...1; empty at
  /// the end of the audio.
  public func read(frames: Int) throws -> [Float] {
    let channels = format.channels
    if block.count < frames * channels { block = [Float](repeating: 0, count: frames * channels) }
    let got = block.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, sf_count_t(frames)) }
    if got <= 0 {
      let status = sf_error(file)
      if status != 0 {
        throw AudioFileError(file: path, problem: "read error: \(Self.oneLine(String(cString: sf_error_number(status))))")
      }
      return []
    }
    let count = Int(got)
    if channels == 1 { return Array(block[0..<count]) }
    var mono = [Float](repeating: 0, count: count)
    let scale = 1 / Float(channels)
    for frame in 0..<count {
      var sum: Float = 0
      for channel in 0..<channels { sum += block[frame * channels + channel] }
      mono[frame] = sum * scale
    }
    return mono
  }

  /// The file name extensions that folders are searched for.
  public static let extensions: Set<String> = ["wav", "flac", "ogg", "oga", "opus", "mp3", "aiff", "aif", "au"]

  /// The audio files named by `paths`: files as given, folders searched (recursively, in
  /// name order) for files with one of `extensions`.
  public static func expand(_ paths: [String]) -> [String] {
    var result: [String] = []
    let fileManager = FileManager.default
    for path in paths {
      var isFolder = false
      if fileManager.fileExists(atPath: path, isDirectory: &isFolder), isFolder {
        let found = ((try? fileManager.subpathsOfDirectory(atPath: path)) ?? [])
          .filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension.lowercased()) }
          .sorted()
          .map { path.hasSuffix("/") ? path + $0 : path + "/" + $0 }
        result.append(contentsOf: found)
      } else {
        result.append(path)
      }
    }
    return result
  }

  private static func formatName(_ file: OpaquePointer, _ code: Int32) -> String {
    var info = SF_FORMAT_INFO()
    info.format = code
    guard sf_command(file, Int32(SFC_GET_FORMAT_INFO), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
      let name = info.name
    else { return String(printf: "format 0x%x", code) }
    return String(cString: name)
  }

  /// libsndfile reads a WAV file whose header declares more audio than it holds as far as it
  /// goes and notes "data : DECLARED (should be HELD)" in its log, in bytes; the header's byte
  /// rate ("Bytes/sec") turns them into seconds, also when the file holds none.
  private static func truncation(_ file: OpaquePointer, frames: Int, rate: Int) -> (declared: Double, held: Double)? {
    var log = [CChar](repeating: 0, count: 4096)
    sf_command(file, Int32(SFC_GET_LOG_INFO), &log, Int32(log.count))
    let text = String(decoding: log.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let lines = text.split(separator: "\n")
    func numbers(_ line: Substring) -> [Double] {
      line.split(whereSeparator: { !$0.isNumber }).compactMap { Double($0) }
    }
    let byteRate = lines.first { $0.trimmed().hasPrefix("Bytes/sec") }.flatMap { numbers($0).first }
    let held = Double(frames) / Double(rate)
    for line in lines where line.hasPrefix("data") && line.contains("should be") {
      let bytes = numbers(line)
      guard bytes.count >= 2, bytes[0] > bytes[1] else { continue }
      if let byteRate, byteRate > 0 { return (held + (bytes[0] - bytes[1]) / byteRate, held) }
      guard bytes[1] > 0 else { continue }
      return (held * bytes[0] / bytes[1], held)
    }
    return nil
  }

  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: \.isNewline).joined(separator: " ")
  }
}

/// Writes audio files through libsndfile: 16-bit WAV by default, or any container and
/// encoding libsndfile writes (FLAC, OGG/Vorbis, MP3, A-law and mu-law WAV).
public enum AudioFileWriter {
  public enum Kind: String, CaseIterable, Sendable {
    case wav, flac, ogg, mp3, alaw, mulaw

    var code: Int32 {
      switch self {
      case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
      case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
      case .ogg: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
      case .mp3: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
      case .alaw: Int32(SF_FORMAT_WAV | SF_FORMAT_ALAW)
      case .mulaw: Int32(SF_FORMAT_WAV | SF_FORMAT_ULAW)
      }
    }
  }

  /// Writes mono `samples` to `path` atomically (a temporary file renamed into place) with
  /// the given permissions.
  public static func write(
    samples: [Int16], sampleRate: Int = 16_000, to path: String, kind: Kind = .wav, permissions: Int = 0o644
  ) throws {
    let temporary = path + ".part-\(getpid())"
    var info = SF_INFO()
    info.samplerate = Int32(sampleRate)
    info.channels = 1
    info.format = kind.code
    guard let file = sf_open(temporary, Int32(SFM_WRITE), &info) else {
      let reason = String(cString: sf_strerror(nil))
      throw AudioFileError(file: path, problem: "cannot write (\(reason))")
    }
    let written = samples.withUnsafeBufferPointer { sf_write_short(file, $0.baseAddress, sf_count_t($0.count)) }
    let status = sf_close(file)
    guard written == samples.count, status == 0 else {
      try? FileManager.default.removeItem(atPath: temporary)
      throw AudioFileError(file: path, problem: "cannot write (\(String(cString: sf_error_number(status))))")
    }
    do {
      try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary)
      guard rename(temporary, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    } catch {
      try? FileManager.default.removeItem(atPath: temporary)
      throw AudioFileError(file: path, problem: "cannot write (\(reason(of: error)))")
    }
  }
}
