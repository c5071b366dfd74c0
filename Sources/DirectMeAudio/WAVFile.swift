import Foundation

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

/// How the samples of a WAV file are stored.
public enum SampleEncoding: Hashable, Sendable, CustomStringConvertible {
  /// Integer PCM; 8-bit is unsigned, wider is signed little-endian.
  case integer(bits: Int)
  /// IEEE floating point, 32 or 64 bits.
  case float(bits: Int)

  public var bytesPerSample: Int {
    switch self {
    case .integer(let bits), .float(let bits): bits / 8
    }
  }

  public var description: String {
    switch self {
    case .integer(let bits): "\(bits)-bit PCM"
    case .float(let bits): "\(bits)-bit float"
    }
  }
}

/// The shape of the audio in a WAV file.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
  public var sampleRate: Int
  public var channels: Int
  public var encoding: SampleEncoding
  public init(sampleRate: Int, channels: Int, encoding: SampleEncoding) {
    self.sampleRate = sampleRate
    self.channels = channels
    self.encoding = encoding
  }
  public var bytesPerFrame: Int { channels * encoding.bytesPerSample }
  public var description: String {
    "\(sampleRate) Hz, \(channels == 1 ? "mono" : channels == 2 ? "stereo" : "\(channels) channels"), \(encoding)"
  }
}

/// Reads a WAV file a block at a time, so a file of any length takes little memory.
///
/// Reads PCM (8, 16, 24 and 32-bit) and IEEE float (32 and 64-bit), plain or
/// WAVE_FORMAT_EXTENSIBLE, any rate and channel count. Anything else is refused with the
/// reason.
public final class WAVReader {
  public let path: String
  public let format: AudioFormat
  /// Frames the header says the file holds.
  public let declaredFrames: Int?
  /// Set once reading reached the end of the file before the end the header declared.
  public private(set) var shortBy: Int = 0

  private let handle: FileHandle
  private var bytesLeft: Int?  // of the data chunk; nil: to the end of the file
  private var carry = Data()

  public init(path: String) throws {
    self.path = path
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw AudioFileError(file: path, problem: "no such file")
    }
    guard !isFolder.boolValue else { throw AudioFileError(file: path, problem: "is a folder, not a WAV file") }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw AudioFileError(file: path, problem: "cannot open the file (permission denied?)")
    }
    self.handle = handle
    do {
      let header = try Self.readHeader(handle, path: path)
      format = header.format
      bytesLeft = header.dataBytes
      declaredFrames = header.dataBytes.map { $0 / header.format.bytesPerFrame }
    } catch {
      try? handle.close()
      throw error
    }
  }

  deinit {
    try? handle.close()
  }

  /// The next block of up to `frames` frames, mixed to mono, as samples in -1...1; empty at
  /// the end of the audio.
  public func read(frames: Int) throws -> [Float] {
    let bytesPerFrame = format.bytesPerFrame
    var wanted = frames * bytesPerFrame - carry.count
    if let left = bytesLeft { wanted = min(wanted, left) }
    var data = carry
    carry = Data()
    if wanted > 0 {
      let chunk: Data
      do {
        chunk = try handle.read(upToCount: wanted) ?? Data()
      } catch {
        throw AudioFileError(file: path, problem: "read error: \(error.localizedDescription)")
      }
      if let left = bytesLeft {
        bytesLeft = left - chunk.count
        if chunk.count < wanted {
          // The header promised more than the file holds.
          shortBy = (bytesLeft ?? 0) / bytesPerFrame
          bytesLeft = 0
        }
      }
      data.append(chunk)
    }
    let whole = data.count / bytesPerFrame * bytesPerFrame
    if whole < data.count { carry = data.subdata(in: whole..<data.count) }
    return decode(data.prefix(whole))
  }

  /// Whether the header declared more audio than the file holds (known once read to the end).
  public var isTruncated: Bool { shortBy > 0 }

  private func decode(_ data: Data) -> [Float] {
    let channels = format.channels
    let bytes = format.encoding.bytesPerSample
    let frameCount = data.count / format.bytesPerFrame
    var output = [Float](repeating: 0, count: frameCount)
    let scale = 1 / Float(channels)
    data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
      output.withUnsafeMutableBufferPointer { out in
        var offset = 0
        for frame in 0..<frameCount {
          var sum: Float = 0
          for _ in 0..<channels {
            sum += Self.sample(raw, at: offset, encoding: format.encoding)
            offset += bytes
          }
          out[frame] = sum * scale
        }
      }
    }
    return output
  }

  @inline(__always)
  private static func sample(_ raw: UnsafeRawBufferPointer, at offset: Int, encoding: SampleEncoding) -> Float {
    switch encoding {
    case .integer(8):
      return (Float(raw[offset]) - 128) / 128
    case .integer(16):
      let value = Int16(bitPattern: UInt16(raw[offset]) | UInt16(raw[offset + 1]) << 8)
      return Float(value) / 32768
    case .integer(24):
      let unsigned = UInt32(raw[offset]) << 8 | UInt32(raw[offset + 1]) << 16 | UInt32(raw[offset + 2]) << 24
      return Float(Int32(bitPattern: unsigned) >> 8) / 8_388_608
    case .integer(32):
      let unsigned = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
      return Float(Double(Int32(bitPattern: unsigned)) / 2_147_483_648)
    case .float(32):
      let bits = raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self).littleEndian
      let value = Float(bitPattern: bits)
      return value.isFinite ? Swift.min(1, Swift.max(-1, value)) : 0  // clipped, as a DAC would
    case .float(64):
      let bits = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self).littleEndian
      let value = Double(bitPattern: bits)
      return value.isFinite ? Float(Swift.min(1, Swift.max(-1, value))) : 0
    default:
      return 0
    }
  }

  // MARK: Header

  private struct Header {
    var format: AudioFormat
    var dataBytes: Int?
  }

  private static func readHeader(_ handle: FileHandle, path: String) throws -> Header {
    func fail(_ problem: String) -> AudioFileError { AudioFileError(file: path, problem: problem) }
    func readExactly(_ count: Int) throws -> Data? {
      let data = try handle.read(upToCount: count) ?? Data()
      return data.count == count ? data : nil
    }

    guard let riff = try readExactly(12) else {
      let size = (try? handle.seekToEnd()) ?? 0
      throw fail(size == 0 ? "empty file" : "not a WAV file (too short for a RIFF header: \(size) bytes)")
    }
    let tag = String(decoding: riff.prefix(4), as: UTF8.self)
    let wave = String(decoding: riff.subdata(in: 8..<12), as: UTF8.self)
    if tag == "RIFX" { throw fail("big-endian WAV (RIFX) is not supported") }
    if tag == "RF64" { throw fail("RF64 WAV is not supported") }
    guard tag == "RIFF", wave == "WAVE" else { throw fail("not a WAV file (no RIFF/WAVE header)") }

    var format: AudioFormat?
    while true {
      guard let chunkHeader = try readExactly(8) else {
        throw fail(format == nil ? "truncated WAV header (no 'fmt ' chunk)" : "no 'data' chunk (truncated file?)")
      }
      let id = String(decoding: chunkHeader.prefix(4), as: UTF8.self)
      let size = Int(chunkHeader.uint32(at: 4))
      switch id {
      case "fmt ":
        guard size >= 16, size <= 1024, let body = try readExactly(size) else {
          throw fail("malformed 'fmt ' chunk (\(size) bytes)")
        }
        format = try parseFormat(body, fail: fail)
        if size % 2 == 1 { _ = try readExactly(1) }
      case "data":
        guard let format else { throw fail("'data' chunk before the 'fmt ' chunk") }
        // 0xFFFFFFFF: a streaming writer that never came back to fill in the size.
        return Header(format: format, dataBytes: size == 0xFFFF_FFFF ? nil : size)
      default:
        // LIST, fact, cue ... are skipped (chunks are padded to an even size).
        let skip = UInt64(size + size % 2)
        let here = try handle.offset()
        let end = try handle.seekToEnd()
        guard here + skip <= end else { throw fail("truncated '\(id.printable)' chunk (no 'data' chunk found)") }
        try handle.seek(toOffset: here + skip)
      }
    }
  }

  private static func parseFormat(_ body: Data, fail: (String) -> AudioFileError) throws -> AudioFormat {
    var code = Int(body.uint16(at: 0))
    let channels = Int(body.uint16(at: 2))
    let sampleRate = Int(body.uint32(at: 4))
    let blockAlign = Int(body.uint16(at: 12))
    let bits = Int(body.uint16(at: 14))
    if code == 0xFFFE {
      guard body.count >= 40 else { throw fail("malformed WAVE_FORMAT_EXTENSIBLE header") }
      code = Int(body.uint16(at: 24))  // the sub-format GUID starts with the format code
    }
    let names = [2: "Microsoft ADPCM", 6: "A-law", 7: "mu-law", 0x11: "IMA ADPCM", 0x31: "GSM 6.10", 0x55: "MP3"]
    let encoding: SampleEncoding
    switch (code, bits) {
    case (1, 8), (1, 16), (1, 24), (1, 32): encoding = .integer(bits: bits)
    case (3, 32), (3, 64): encoding = .float(bits: bits)
    case (1, _), (3, _):
      throw fail("unsupported sample size: \(bits)-bit \(code == 1 ? "PCM" : "float")")
    default:
      let name = names[code].map { "\($0) (format \(code))" } ?? "format code \(code)"
      throw fail("unsupported encoding \(name); convert to PCM first, e.g. sox in.wav -e signed -b 16 out.wav")
    }
    guard channels >= 1, channels <= 32 else { throw fail("bad channel count \(channels)") }
    guard sampleRate >= 4000, sampleRate <= 384_000 else { throw fail("unsupported sample rate \(sampleRate) Hz") }
    guard blockAlign == channels * encoding.bytesPerSample else {
      throw fail("inconsistent header: block size \(blockAlign) for \(channels) x \(bits)-bit")
    }
    return AudioFormat(sampleRate: sampleRate, channels: channels, encoding: encoding)
  }
}

extension Data {
  func uint16(at offset: Int) -> UInt16 {
    let start = startIndex + offset
    return UInt16(self[start]) | UInt16(self[start + 1]) << 8
  }
  func uint32(at offset: Int) -> UInt32 {
    let start = startIndex + offset
    return UInt32(self[start]) | UInt32(self[start + 1]) << 8 | UInt32(self[start + 2]) << 16
      | UInt32(self[start + 3]) << 24
  }
}

extension String {
  /// The string with control characters shown as '?', for error messages.
  var printable: String {
    String(unicodeScalars.map { $0.value < 32 || $0.value > 126 ? "?" : Character($0) })
  }
}
